package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/barhub/barhub/store"
)

// SessionSource reads a guest's current session state; a deleted guest is
// store.ErrNotFound.
type SessionSource interface {
	SessionState(ctx context.Context, id string) (store.SessionState, error)
}

// loadTimeout bounds one read of a holder's state.
const loadTimeout = 5 * time.Second

// ErrSessionEnded means the token's holder was deleted, or their session
// version moved on (a new code, "sign out everywhere") since it was signed.
var ErrSessionEnded = errors.New("session ended")

// SessionsConfig tunes the cache. Zero fields take the defaults noted.
type SessionsConfig struct {
	// TTL is how long an entry is trusted without a word from the broker:
	// the longest a change made on another instance can go unseen here if
	// its invalidation is lost (default 10s).
	TTL time.Duration
	// MaxEntries bounds the cache; when full it starts again empty
	// (default 20000, far more guests than a party has).
	MaxEntries int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Sessions checks signed-in requests against their holder's current state
// (role, name, session version, existence) through a small per-instance
// cache, so a token stops working when its holder's access ends without a
// database read per request. The instance making a change calls Forget at
// once; every other instance hears of it through the hub and calls Forget
// too; TTL bounds the wait when that word is lost.
type Sessions struct {
	src SessionSource
	cfg SessionsConfig

	mu sync.Mutex
	// gen moves on every Forget, so a read that raced with one is used
	// for its own request but not cached.
	gen     uint64
	entries map[string]sessionEntry
	// loading has the reads under way, so a burst of requests from one
	// holder whose entry is missing costs one read, not one each.
	loading map[string]*sessionLoad

	hits, misses uint64
}

type sessionLoad struct {
	done  chan struct{}
	entry sessionEntry
	err   error
}

type sessionEntry struct {
	state  store.SessionState
	gone   bool
	loaded time.Time
}

// NewSessions returns an empty cache reading from src.
func NewSessions(src SessionSource, cfg SessionsConfig) *Sessions {
	if cfg.TTL <= 0 {
		cfg.TTL = 10 * time.Second
	}
	if cfg.MaxEntries <= 0 {
		cfg.MaxEntries = 20000
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Sessions{src: src, cfg: cfg, entries: make(map[string]sessionEntry), loading: make(map[string]*sessionLoad)}
}

// TTL is how long an entry is trusted without a word from the broker.
func (s *Sessions) TTL() time.Duration { return s.cfg.TTL }

// Current checks id, from a verified token or ticket, against its holder's
// current state and returns the identity the request acts as: the current
// role and name. A deleted holder, or a session version that moved on, is
// ErrSessionEnded.
func (s *Sessions) Current(ctx context.Context, id Identity) (Identity, error) {
	e, ok := s.cached(id.GuestID)
	if ok && !e.gone && e.state.Version < id.SessionVersion {
		// The token is newer than what we hold (signed in elsewhere after a
		// change this instance has not heard of yet): read again.
		ok = false
	}
	if !ok {
		var err error
		if e, err = s.load(ctx, id.GuestID); err != nil {
			return Identity{}, err
		}
	}
	switch {
	case e.gone:
		return Identity{}, fmt.Errorf("%w: guest %s no longer exists", ErrSessionEnded, id.GuestID)
	case id.SessionVersion != e.state.Version:
		return Identity{}, fmt.Errorf("%w: session version %d, current %d", ErrSessionEnded, id.SessionVersion, e.state.Version)
	case !id.IssuedAt.IsZero() && id.IssuedAt.Unix() < e.state.CreatedAt.Unix():
		// Signed for an earlier guest with the same id (deleted, then
		// imported again).
		return Identity{}, fmt.Errorf("%w: token older than guest %s", ErrSessionEnded, id.GuestID)
	}
	id.Role, id.Name = e.state.Role, e.state.Name
	return id, nil
}

func (s *Sessions) cached(id string) (sessionEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[id]
	if ok && s.cfg.Now().Sub(e.loaded) >= s.cfg.TTL {
		delete(s.entries, id)
		ok = false
	}
	if ok {
		s.hits++
	} else {
		s.misses++
	}
	return e, ok
}

// load reads id's state, joining a read of it already under way when
// that read started after the last Forget.
func (s *Sessions) load(ctx context.Context, id string) (sessionEntry, error) {
	s.mu.Lock()
	if l, ok := s.loading[id]; ok {
		s.mu.Unlock()
		select {
		case <-l.done:
			return l.entry, l.err
		case <-ctx.Done():
			return sessionEntry{}, fmt.Errorf("check session: %w", ctx.Err())
		}
	}
	l := &sessionLoad{done: make(chan struct{})}
	s.loading[id] = l
	gen := s.gen
	s.mu.Unlock()

	loaded := s.cfg.Now()
	// Others may be waiting on this read: one caller hanging up must not
	// fail theirs.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
	st, err := s.src.SessionState(rctx, id)
	cancel()
	l.entry = sessionEntry{state: st, loaded: loaded}
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.entry.gone = true
	case err != nil:
		l.err = fmt.Errorf("check session: %w", err)
	}

	s.mu.Lock()
	if s.loading[id] == l {
		delete(s.loading, id)
	}
	if l.err == nil && s.gen == gen {
		if len(s.entries) >= s.cfg.MaxEntries {
			clear(s.entries)
		}
		s.entries[id] = l.entry
	}
	s.mu.Unlock()
	close(l.done)
	return l.entry, l.err
}

// Forget drops what is known of guest id: its next request reads the
// store. Call it once the change is stored.
func (s *Sessions) Forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	delete(s.entries, id)
	// A read under way may have seen the state before the change: later
	// requests must not join it.
	delete(s.loading, id)
}

// ForgetAll drops the whole cache, for when invalidations may have been
// missed (the broker's delivery was interrupted).
func (s *Sessions) ForgetAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	clear(s.entries)
	clear(s.loading)
}

// SessionStats counts the cache's look-ups.
type SessionStats struct {
	Hits, Misses uint64
	Entries      int
}

// Stats reports the look-ups so far, for tests and metrics.
func (s *Sessions) Stats() SessionStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SessionStats{Hits: s.hits, Misses: s.misses, Entries: len(s.entries)}
}
