package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Every change of an order is a compare-and-set: the writer claims
// "order/<id>/v<version>" and then replaces the order filtered on that
// version (ReplaceOrder). Only one writer may get the claim of a version.
//
// Where the claim is kept depends on who can write the orders:
//
//   - On a shared database (MongoDB through MONGODB_URI, or any server
//     reached by URI) other instances write the same orders, so the claim
//     is a document (Claim): the database refuses a second insert of its
//     _id whichever instance tries.
//   - On the embedded database every writer is in this process: the
//     FerretDB it starts listens for this process only, and the embedded
//     setup is single-instance (a second instance needs MONGODB_URI). A
//     claim in memory is then exactly as exclusive, and saves a committed
//     (fsynced) insert per move, three per order. It lives as long as the
//     process, which is all it must: a claim only guards the step from the
//     read of the order to its versioned write, and a restart ends every
//     step in flight. Store.Lock makes the same choice.
//
// Either way the claim is kept until its ttl passes rather than dropped
// after the write, so a late writer that read the old version is refused
// by the claim (and, behind it, by the version filter).

// moveClaims are the embedded database's claims of order versions.
type moveClaims struct {
	mu      sync.Mutex
	until   map[string]time.Time // key → expiry
	swept   time.Time
	sweepAt int // sweep when the map has grown past this
}

// take claims key until now+ttl unless a live claim holds it.
func (m *moveClaims) take(key string, now time.Time, ttl time.Duration) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.until == nil {
		m.until = map[string]time.Time{}
	}
	if exp, ok := m.until[key]; ok && now.Before(exp) {
		return false
	}
	m.until[key] = now.Add(ttl)
	// Old versions are never asked for again: drop the expired ones now
	// and then, so the map holds about one ttl's worth of moves.
	if len(m.until) > m.sweepAt && now.Sub(m.swept) > time.Second {
		for k, exp := range m.until {
			if !now.Before(exp) {
				delete(m.until, k)
			}
		}
		m.swept = now
		m.sweepAt = max(1024, 2*len(m.until))
	}
	return true
}

func (m *moveClaims) release(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.until, key)
}

// ClaimOrderMove makes the caller the only writer that may move order id
// on from version, until ttl passes; another claim of the same version
// gets ErrConflict. Pick a ttl far longer than the write it guards.
func (s *Store) ClaimOrderMove(ctx context.Context, id string, version int, ttl time.Duration) error {
	key := OrderClaimKey(id, version)
	if s.single == nil {
		return s.Claim(ctx, key, ttl)
	}
	if !s.moves.take(key, time.Now(), ttl) {
		return fmt.Errorf("claim %s: %w", key, ErrConflict)
	}
	return nil
}

// ReleaseOrderMove gives up the claim of a move that did not happen, so
// the version can be moved on by the next try.
func (s *Store) ReleaseOrderMove(ctx context.Context, id string, version int) error {
	key := OrderClaimKey(id, version)
	if s.single == nil {
		return s.Release(ctx, key)
	}
	s.moves.release(key)
	return nil
}
