package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/api/guest"
)

// The host's guest list (pages, filters, name search, the door's search)
// is answered from an index of every guest this instance holds in memory,
// on FerretDB: there a filter or a sort that is not by _id decodes every
// guest (0.6 s a page at 10,000). MongoDB has real indexes and is asked
// directly.
//
// The index is kept exact, across instances, by a change log in the
// database: every guest write this package makes appends the guest's id
// to guestchanges, under an _id that sorts by time. Before answering, the
// index reads the log after the last entry it applied (a range on _id,
// the one index every backend uses) and re-reads those guests by _id. So
// a write on any instance is in the next answer of every instance; no
// message can be lost on the way. It is corrected by a full read every
// guestIndexRefresh, in the background, which also takes in what the log
// does not carry: sign-in and visit times, which this instance applies to
// its own index as it records them and another instance sees at its next
// full read (they are best effort by design), and writes that bypassed
// this package.
const collGuestChanges = "guestchanges"

type guestChange struct {
	// ID is the write's time in nanoseconds, 16 hex digits, then a random
	// part: the log sorts by time.
	ID      string    `bson:"_id"`
	GuestID string    `bson:"guestId"`
	At      time.Time `bson:"at"`
}

const (
	// guestIndexRefresh spaces the full reads that correct the index.
	guestIndexRefresh = time.Minute
	// guestLogMargin is how far back each read of the log reaches behind
	// the newest entry applied: entries from other instances may commit a
	// little out of order (clocks, waits for the database's writer). Those
	// already applied are remembered and skipped.
	guestLogMargin = 10 * time.Second
	// guestLogKeep is how long entries stay in the log.
	guestLogKeep = 10 * time.Minute
)

func guestLogKey(t time.Time) string { return fmt.Sprintf("%016x", t.UnixNano()) }

type guestIndex struct {
	// syncMu lets one reader of the log, or one swap of a full read, run
	// at a time.
	syncMu sync.Mutex
	mu     sync.RWMutex
	guests map[string]*guest.Guest // entries are replaced, never changed
	// since is the time of the newest log entry applied; applied holds
	// the ids of the entries applied within guestLogMargin of it.
	since   time.Time
	applied map[string]time.Time
	loaded  bool
	// loadedAt is when the last full read began.
	loadedAt  time.Time
	reloading atomic.Bool
	sweptAt   time.Time
}

// guestIndexOn reports whether the guest list is answered from the index.
func (s *Store) guestIndexOn() bool { return !s.onMongoDB }

// guestsChanged appends ids to the change log, after their write. A
// failure is logged: the next full read of every index repairs it.
func (s *Store) guestsChanged(ctx context.Context, ids ...string) {
	if !s.guestIndexOn() || len(ids) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	now := time.Now().UTC()
	docs := make([]any, len(ids))
	for i, id := range ids {
		docs[i] = guestChange{ID: guestLogKey(now) + "-" + NewID(), GuestID: id, At: now.Truncate(time.Millisecond)}
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collGuestChanges).InsertMany(ctx, docs); return err }); err != nil {
		s.log.WarnContext(ctx, "guest change log not written; the next full read of the guest index repairs it", "err", err)
	}
}

// guestsActive applies sign-in and visit times to this instance's index.
func (s *Store) guestsActive(batch []Activity) {
	ix := &s.guestIdx
	ix.mu.Lock()
	defer ix.mu.Unlock()
	later := func(old, t *time.Time) *time.Time {
		if t == nil || (old != nil && !t.After(*old)) {
			return old
		}
		u := t.UTC().Truncate(time.Millisecond)
		return &u
	}
	for _, a := range batch {
		old, ok := ix.guests[a.GuestID]
		if !ok {
			continue
		}
		g := *old
		g.LastLogin, g.LastAccess = later(g.LastLogin, a.LastLogin), later(g.LastAccess, a.LastAccess)
		ix.guests[a.GuestID] = &g
	}
}

// syncGuestIndex brings the index up to every write logged so far: a
// full read the first time, the log's new entries after.
func (s *Store) syncGuestIndex(ctx context.Context) error {
	ix := &s.guestIdx
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if !ix.loaded {
		if err := s.loadGuestIndex(ctx, false); err != nil {
			return err
		}
	} else if time.Since(ix.loadedAt) > guestIndexRefresh && ix.reloading.CompareAndSwap(false, true) {
		go func() {
			defer ix.reloading.Store(false)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := s.loadGuestIndex(ctx, true); err != nil {
				s.log.Warn("correct the guest index", "err", err)
			}
		}()
	}
	cur, err := s.coll(collGuestChanges).Find(ctx,
		bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: guestLogKey(ix.since.Add(-guestLogMargin))}}}},
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return fmt.Errorf("read the guest change log: %w", err)
	}
	var entries []guestChange
	if err := cur.All(ctx, &entries); err != nil {
		return fmt.Errorf("read the guest change log: %w", err)
	}
	ids := map[string]bool{}
	var fresh []guestChange
	for _, e := range entries {
		if _, ok := ix.applied[e.ID]; !ok {
			fresh = append(fresh, e)
			ids[e.GuestID] = true
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	read := make(map[string]*guest.Guest, len(ids))
	for id := range ids {
		g, err := s.GuestByID(ctx, id)
		switch {
		case err == nil:
			read[id] = &g
		case errors.Is(err, ErrNotFound):
			read[id] = nil
		default:
			return err
		}
	}
	ix.mu.Lock()
	for id, g := range read {
		if g == nil {
			delete(ix.guests, id)
		} else {
			ix.guests[id] = g
		}
	}
	ix.mu.Unlock()
	for _, e := range fresh {
		ix.applied[e.ID] = e.At
		if e.At.After(ix.since) {
			ix.since = e.At
		}
	}
	for id, at := range ix.applied {
		if at.Before(ix.since.Add(-2 * guestLogMargin)) {
			delete(ix.applied, id)
		}
	}
	return nil
}

// loadGuestIndex reads every guest. The log is then read again from just
// before the full read began, so a write that the read missed is taken in.
// In the background (correction), the read runs without holding up the
// answers, and only the swap waits for the log's reader.
func (s *Store) loadGuestIndex(ctx context.Context, background bool) error {
	ix := &s.guestIdx
	started := time.Now().UTC()
	cur, err := s.coll(collGuests).Find(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("load the guest index: %w", err)
	}
	var all []guest.Guest
	if err := cur.All(ctx, &all); err != nil {
		return fmt.Errorf("load the guest index: %w", err)
	}
	m := make(map[string]*guest.Guest, len(all))
	for i := range all {
		m[all[i].ID] = &all[i]
	}
	if background {
		ix.syncMu.Lock()
		defer ix.syncMu.Unlock()
	}
	ix.mu.Lock()
	ix.guests, ix.loaded, ix.loadedAt = m, true, started
	ix.since, ix.applied = started, map[string]time.Time{}
	ix.mu.Unlock()
	if started.Sub(ix.sweptAt) > guestLogKeep/2 {
		ix.sweptAt = started
		if err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collGuestChanges).DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: guestLogKey(started.Add(-guestLogKeep))}}}})
			return err
		}); err != nil {
			s.log.WarnContext(ctx, "sweep the guest change log", "err", err)
		}
	}
	return nil
}

// listIndexed answers ListGuests from the index.
func (s *Store) listIndexed(ctx context.Context, q GuestQuery, limit int) ([]guest.Guest, int64, error) {
	if err := s.syncGuestIndex(ctx); err != nil {
		return nil, 0, err
	}
	match := q.matcher()
	ix := &s.guestIdx
	ix.mu.RLock()
	hits := make([]*guest.Guest, 0, len(ix.guests))
	for _, g := range ix.guests {
		if match(g) {
			hits = append(hits, g)
		}
	}
	ix.mu.RUnlock()
	slices.SortFunc(hits, q.compare)
	from := min(max(0, q.Offset), len(hits))
	page := make([]guest.Guest, 0, min(limit, len(hits)-from))
	for _, g := range hits[from:min(from+limit, len(hits))] {
		page = append(page, *g)
	}
	return page, int64(len(hits)), nil
}

// matcher is filter() as a function on a guest.
func (q GuestQuery) matcher() func(g *guest.Guest) bool {
	countedOnly := q.Status != "" || q.HasDietary || q.NeverLoggedIn
	text := strings.TrimSpace(q.Q)
	var like *regexp.Regexp
	var key, code string
	if text != "" {
		like = regexp.MustCompile("(?i)" + regexp.QuoteMeta(text))
		key = guest.NameKey(text)
		if c := guest.NormalizeCode(text); guest.ValidCode(c) && !q.NamesOnly {
			code = c
		}
	}
	return func(g *guest.Guest) bool {
		switch {
		case q.Status != "" && g.Status != q.Status,
			q.HasDietary && len(g.Needs) == 0,
			q.GroupID != "" && g.GroupID != q.GroupID,
			q.NeverLoggedIn && g.LastLogin != nil,
			countedOnly && g.Role != guest.RoleGuest && !g.Attending:
			return false
		}
		if like == nil {
			return true
		}
		return like.MatchString(g.FirstName) || like.MatchString(g.LastName) ||
			(key != "" && strings.Contains(g.LastNameKey, key)) || (code != "" && g.Code == code)
	}
}

// compare is sort() as a comparison of two guests.
func (q GuestQuery) compare(a, b *guest.Guest) int {
	dir := 1
	if q.Desc {
		dir = -1
	}
	times := func(x, y *time.Time) int {
		switch {
		case x == nil && y == nil:
			return 0
		case x == nil:
			return -1 // missing sorts first, as on the database
		case y == nil:
			return 1
		}
		return x.Compare(*y)
	}
	switch q.Sort {
	case "firstName":
		return dir * cmp.Or(cmp.Compare(a.FirstName, b.FirstName), cmp.Compare(a.LastNameKey, b.LastNameKey), cmp.Compare(a.ID, b.ID))
	case "status":
		return cmp.Or(dir*cmp.Compare(a.Status, b.Status), cmp.Compare(a.LastNameKey, b.LastNameKey), cmp.Compare(a.ID, b.ID))
	case "rsvpDate":
		return dir * cmp.Or(times(a.RSVPDate, b.RSVPDate), cmp.Compare(a.ID, b.ID))
	case "createdAt":
		return dir * cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	default:
		return dir * cmp.Or(cmp.Compare(a.LastNameKey, b.LastNameKey), cmp.Compare(a.FirstName, b.FirstName), cmp.Compare(a.ID, b.ID))
	}
}
