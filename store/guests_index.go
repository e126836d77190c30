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
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/guest"
)

// The host's guest list (pages, filters, name search, the door's search)
// is answered from an index of every guest this instance holds in memory,
// on FerretDB: there a filter or a sort that is not by _id decodes every
// guest (0.6 s a page at 10,000). MongoDB has real indexes and is asked
// directly.
//
// The index is kept exact, across instances, by a change log in the
// database: every guest write this package makes appends the guests' ids
// to guestchanges, as entry n of the second it is written in:
// "<unix second>/<n>", inserted like an order ticket (a taken n is refused
// atomically and the writer takes the next), so a second's entries have
// no holes. Before answering, the index reads by _id — the one look-up
// FerretDB indexes; a range on _id reads the whole collection — each
// second since its last read, from the first entry it has not read to the
// first missing one, and re-reads those guests by _id. So a write on any
// instance is in the next answer of every instance; no entry can be lost
// on the way the way a message can. It is corrected by a full read every
// guestIndexRefresh, in the background, which also takes in what the log
// does not carry: sign-in and visit times, which this instance applies to
// its own index as it records them and another instance sees at its next
// full read (they are best effort by design), and writes that bypassed
// this package.
const collGuestChanges = "guestchanges"

type guestChange struct {
	ID       string    `bson:"_id"` // guestLogKey
	GuestIDs []string  `bson:"guestIds"`
	At       time.Time `bson:"at"`
}

const (
	// guestIndexRefresh spaces the full reads that correct the index.
	guestIndexRefresh = time.Minute
	// guestLogMargin is how many seconds back each read of the log
	// reaches behind the last: an entry is named by the second its writer
	// began, and may commit a little later (clocks, waits for the
	// database's writer). What was read already is skipped.
	guestLogMargin = 5 * time.Second
	// guestLogKeep is how long entries stay in the log: FerretDB reads
	// the whole (small) log for a range, so it is kept short. An index
	// that has not read it for longer reads every guest again instead.
	guestLogKeep = 2 * time.Minute
)

func guestLogKey(sec int64, n int) string { return fmt.Sprintf("%012d/%06d", sec, n) }

type sortedGuests struct {
	gen  uint64
	list []*guest.Guest
}

type guestIndex struct {
	// syncMu lets one reader of the log, or one swap of a full read, run
	// at a time.
	syncMu sync.Mutex
	mu     sync.RWMutex
	guests map[string]*guest.Guest // entries are replaced, never changed
	// gen counts the changes to guests; sorted holds the guests in each
	// order the list was asked for, as of a gen, so a page sorts nothing
	// while the guests do not change.
	gen    uint64
	sorted map[string]sortedGuests
	// next is, per second of the log still read, the first entry not
	// read yet.
	next   map[int64]int
	loaded bool
	// readAt is when the last read of the log began: every entry older
	// than readAt-guestLogMargin had committed by then.
	readAt time.Time
	// loadedAt is when the last full read began.
	loadedAt  time.Time
	reloading atomic.Bool
	sweptAt   time.Time

	// hintMu guards hint: per second, the entry this instance writes next.
	hintMu sync.Mutex
	hint   map[int64]int
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
	sec := now.Unix()
	ix := &s.guestIdx
	ix.hintMu.Lock()
	n := ix.hint[sec]
	ix.hintMu.Unlock()
	for {
		doc := guestChange{ID: guestLogKey(sec, n), GuestIDs: ids, At: now.Truncate(time.Millisecond)}
		err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collGuestChanges).InsertOne(ctx, doc); return err })
		if err == nil {
			break
		}
		if !mongo.IsDuplicateKeyError(err) {
			s.log.WarnContext(ctx, "guest change log not written; the next full read of the guest index repairs it", "err", err)
			return
		}
		n++ // taken (and so committed) by another writer
	}
	ix.hintMu.Lock()
	if ix.hint == nil || len(ix.hint) > 64 {
		ix.hint = map[int64]int{}
	}
	ix.hint[sec] = max(ix.hint[sec], n+1)
	ix.hintMu.Unlock()
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
		ix.gen++
	}
}

// syncGuestIndex brings the index up to every write logged before it
// was called: a full read the first time (or after a long pause), the
// log's new entries after. Callers that arrive while a read of the log is
// under way wait for it, then share the next one.
func (s *Store) syncGuestIndex(ctx context.Context) error {
	arrived := time.Now().UTC()
	ix := &s.guestIdx
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.loaded && ix.readAt.After(arrived) {
		return nil // a read that began after this call took everything in
	}
	if !ix.loaded || time.Since(ix.readAt) > guestLogKeep-guestLogMargin {
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
	readAt := time.Now().UTC()
	ids := map[string]bool{}
	next, err := s.readGuestLog(ctx, ix.readAt.Add(-guestLogMargin).Unix(), readAt.Unix(), ix.next, func(e guestChange) {
		for _, id := range e.GuestIDs {
			ids[id] = true
		}
	})
	if err != nil {
		return err
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
		ix.gen++
	}
	ix.mu.Unlock()
	ix.next, ix.readAt = next, readAt
	return nil
}

// readGuestLog reads the log's entries of the seconds from..to, each from
// the first entry not read yet (after) to the first missing one, and
// returns where each second's reading stopped.
func (s *Store) readGuestLog(ctx context.Context, from, to int64, after map[int64]int, each func(guestChange)) (map[int64]int, error) {
	next := map[int64]int{}
	for sec := from; sec <= to; sec++ {
		n := after[sec]
		for {
			var e guestChange
			err := s.coll(collGuestChanges).FindOne(ctx, bson.D{{Key: "_id", Value: guestLogKey(sec, n)}}).Decode(&e)
			if errors.Is(err, mongo.ErrNoDocuments) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("read the guest change log: %w", err)
			}
			each(e)
			n++
		}
		next[sec] = n
	}
	return next, nil
}

// loadGuestIndex reads every guest. The log is then read again from the
// entries it did not hold yet when the full read began, so a write that
// the read missed is taken in.
// In the background (correction), the read runs without holding up the
// answers, and only the swap waits for the log's reader.
func (s *Store) loadGuestIndex(ctx context.Context, background bool) error {
	ix := &s.guestIdx
	started := time.Now().UTC()
	// The entries the log holds already were written after their guests:
	// the full read has those guests, so the log is read again from after
	// them only. (Without this, the first read after an import of 10,000
	// read each of them again by _id, 4 s more.)
	seen, err := s.readGuestLog(ctx, started.Add(-guestLogMargin).Unix(), started.Unix(), nil, func(guestChange) {})
	if err != nil {
		return fmt.Errorf("load the guest index: %w", err)
	}
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
	ix.gen++
	ix.readAt, ix.next = started, seen
	ix.mu.Unlock()
	if started.Sub(ix.sweptAt) > guestLogKeep/2 {
		ix.sweptAt = started
		if err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collGuestChanges).DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: guestLogKey(started.Add(-guestLogKeep).Unix(), 0)}}}})
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
	key := fmt.Sprintf("%s/%v", q.Sort, q.Desc)
	ix.mu.Lock()
	sorted, ok := ix.sorted[key]
	if !ok || sorted.gen != ix.gen {
		list := make([]*guest.Guest, 0, len(ix.guests))
		for _, g := range ix.guests {
			list = append(list, g)
		}
		slices.SortFunc(list, q.compare)
		sorted = sortedGuests{gen: ix.gen, list: list}
		if ix.sorted == nil {
			ix.sorted = map[string]sortedGuests{}
		}
		ix.sorted[key] = sorted
	}
	ix.mu.Unlock()
	// A sorted list is never changed once made (a new one replaces it).
	from := max(0, q.Offset)
	var page []guest.Guest
	total := 0
	for _, g := range sorted.list {
		if !match(g) {
			continue
		}
		if total >= from && len(page) < limit {
			page = append(page, *g)
		}
		total++
	}
	if page == nil {
		page = []guest.Guest{}
	}
	return page, int64(total), nil
}

// matcher is filter() as a function on a guest.
func (q GuestQuery) matcher() func(g *guest.Guest) bool {
	countedOnly := q.Status != "" || q.HasDietary || q.NeverLoggedIn
	text := strings.TrimSpace(q.Q)
	var like func(string) bool
	var search guest.NameSearch
	var key, code string
	if text != "" {
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(text)).MatchString
		like = re
		if ascii(text) {
			// The same match without the regexp machinery when both are
			// ASCII, the common case.
			like = func(s string) bool {
				if ascii(s) {
					return containsFoldASCII(s, text)
				}
				return re(s)
			}
		}
		search = guest.NewNameSearch(text)
		key = search.Key()
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
		return like(g.FirstName) || like(g.LastName) ||
			(key != "" && strings.Contains(g.LastNameKey, key)) || search.Matches(g.FirstName) || (code != "" && g.Code == code)
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

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// containsFoldASCII reports whether the ASCII s contains the ASCII sub,
// letters compared without case.
func containsFoldASCII(s, sub string) bool {
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lower(s[i+j]) == lower(sub[j]) {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
