package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/guest"
)

// The host's figures are kept in one summary document, moved by every
// guest change this package makes (guest.Change), so reading them is one
// _id look-up on any backend. Counting from the guests instead takes one
// full scan per figure on embedded FerretDB, about a second for 10,000
// guests; RecountStats does that, at start and from time to time, to
// repair the summary after writes that bypassed it (a crash between a
// guest write and its summary update, guests created by other code).
//
// Concurrent updates of the summary are serialised with a claim on its
// version (see claims.go): the embedded database has no atomic $inc.

const (
	collStats   = "stats"
	statsGuests = "guests"
)

type statsDoc struct {
	ID          string       `bson:"_id"`
	Version     int64        `bson:"version"`
	Counts      guest.Counts `bson:"counts"`
	UpdatedAt   time.Time    `bson:"updatedAt"`
	RecountedAt time.Time    `bson:"recountedAt"`
}

// GuestStats are the counts with when they were last changed and last
// recounted from the guests.
type GuestStats struct {
	guest.Counts
	Version     int64     `json:"version"`
	UpdatedAt   time.Time `json:"updatedAt"`
	RecountedAt time.Time `json:"recountedAt"`
}

func (d statsDoc) stats() GuestStats {
	return GuestStats{Counts: d.Counts, Version: d.Version, UpdatedAt: d.UpdatedAt, RecountedAt: d.RecountedAt}
}

// Stats returns the host's figures: one read of the summary. Before the
// first recount has stored one (a first start), this process's callers
// share one recount; while guests change too fast for it to finish, the
// answer is a fresh count that is not kept. Stats never fails because the
// guests are busy.
func (s *Store) Stats(ctx context.Context) (GuestStats, error) {
	if st, ok, err := s.keptStats(ctx); ok || err != nil {
		return st, err
	}
	s.firstRecount.Lock()
	defer s.firstRecount.Unlock()
	if st, ok, err := s.keptStats(ctx); ok || err != nil {
		return st, err // another caller's recount finished meanwhile
	}
	st, err := s.RecountStats(ctx)
	if !errors.Is(err, ErrConflict) {
		return st, err
	}
	c, err := s.CountGuestStats(ctx)
	if err != nil {
		return GuestStats{}, err
	}
	return GuestStats{Counts: c, UpdatedAt: time.Now().UTC()}, nil
}

// keptStats reads the summary; ok is false when there is none yet, or
// only the placeholder of a first recount under way.
func (s *Store) keptStats(ctx context.Context) (st GuestStats, ok bool, err error) {
	var doc statsDoc
	err = s.coll(collStats).FindOne(ctx, bson.D{{Key: "_id", Value: statsGuests}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return GuestStats{}, false, nil
	}
	if err != nil {
		return GuestStats{}, false, fmt.Errorf("read stats: %w", err)
	}
	return doc.stats(), !doc.RecountedAt.IsZero(), nil
}

// adjustStats moves the summary by delta. A missing summary is left
// missing: the guest write came before any recount began, so the first
// recount's count sees it.
func (s *Store) adjustStats(ctx context.Context, delta guest.Counts) error {
	if delta.Zero() {
		return nil
	}
	for attempt := range statsAttempts {
		if attempt > 0 {
			// A recount holds the version while it writes: wait for it
			// rather than spin through every attempt before it is done.
			if err := sleepJittered(ctx, backoff(time.Millisecond, 50*time.Millisecond, attempt)); err != nil {
				return fmt.Errorf("adjust stats: %w", err)
			}
		}
		var doc statsDoc
		err := s.coll(collStats).FindOne(ctx, bson.D{{Key: "_id", Value: statsGuests}}).Decode(&doc)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("adjust stats: %w", err)
		}
		ok, err := s.writeStats(ctx, doc.Version, doc.Counts.Add(delta), doc.RecountedAt)
		if err != nil {
			return fmt.Errorf("adjust stats: %w", err)
		}
		if ok {
			return nil
		}
		// Another writer moved the version first; read again.
	}
	return fmt.Errorf("adjust stats: %w", ErrConflict)
}

// statsAttempts bounds adjustStats: about three seconds of waiting in all,
// far longer than any recount holds the summary's version.
const statsAttempts = 70

// writeStats replaces the counts of version v by c, if v is still
// current and nobody else claimed it; false means "lost the race".
func (s *Store) writeStats(ctx context.Context, v int64, c guest.Counts, recountedAt time.Time) (bool, error) {
	key := fmt.Sprintf("stats/%s/v%d", statsGuests, v)
	if err := s.Claim(ctx, key, time.Minute); err != nil {
		if errors.Is(err, ErrConflict) {
			return false, nil
		}
		return false, err
	}
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collStats).UpdateOne(ctx,
			bson.D{{Key: "_id", Value: statsGuests}, {Key: "version", Value: v}},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "counts", Value: c}, {Key: "version", Value: v + 1},
				{Key: "updatedAt", Value: time.Now().UTC()}, {Key: "recountedAt", Value: recountedAt},
			}}})
		return err
	})
	if err != nil {
		// Version v did not move: free it, or every other writer would
		// wait out the claim's minute.
		if rerr := s.Release(context.WithoutCancel(ctx), key); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return false, err
	}
	return res.MatchedCount == 1, nil
}

// guestWriteGate tracks this process's guest writes. A guest write and
// the summary update that follows it are two steps; a recount whose count
// falls between them would count that guest, and the update landing after
// the recount would count it again. So a recount only stores a count
// during which no guest write of this process started or was under way.
// (Another instance's writes can still slip between; the next recount
// repairs that.)
type guestWriteGate struct {
	inflight atomic.Int64
	started  atomic.Int64
}

// begin marks a guest write under way; call the result when it is done,
// summary update included.
func (g *guestWriteGate) begin() (done func()) {
	// inflight before started: a recount that reads started before this
	// write then reads inflight and sees it.
	g.inflight.Add(1)
	g.started.Add(1)
	return func() { g.inflight.Add(-1) }
}

// mark returns the writes begun so far, and whether none is under way.
func (g *guestWriteGate) mark() (int64, bool) {
	started := g.started.Load()
	return started, g.inflight.Load() == 0
}

// recountAttempts bounds RecountStats when the guests keep changing.
const recountAttempts = 8

// RecountStats counts every figure from the guests and stores the
// result as the summary. A guest write during the count makes it start
// again (recountAttempts times at most), so a recount never hides a
// change nor counts one twice.
func (s *Store) RecountStats(ctx context.Context) (GuestStats, error) {
	for attempt := range recountAttempts {
		if attempt > 0 {
			if err := sleepJittered(ctx, backoff(10*time.Millisecond, 200*time.Millisecond, attempt)); err != nil {
				return GuestStats{}, fmt.Errorf("recount stats: %w", err)
			}
		}
		before, quiet := s.guestWrites.mark()
		if !quiet {
			continue
		}
		var doc statsDoc
		err := s.coll(collStats).FindOne(ctx, bson.D{{Key: "_id", Value: statsGuests}}).Decode(&doc)
		missing := errors.Is(err, mongo.ErrNoDocuments)
		if err != nil && !missing {
			return GuestStats{}, fmt.Errorf("recount stats: %w", err)
		}
		if missing {
			// A placeholder first, then the count: a guest written while
			// we count moves the placeholder's version, so the write
			// below fails and we count again. Inserting the count itself
			// would lose such a guest until the next recount.
			doc = statsDoc{ID: statsGuests, Version: 1, UpdatedAt: time.Now().UTC()}
			err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collStats).InsertOne(ctx, doc); return err })
			if err != nil && !mongo.IsDuplicateKeyError(err) {
				return GuestStats{}, fmt.Errorf("recount stats: %w", err)
			}
			if err != nil {
				continue // someone else's placeholder: read it
			}
		}
		c, err := s.CountGuestStats(ctx)
		if err != nil {
			return GuestStats{}, err
		}
		if after, quiet := s.guestWrites.mark(); !quiet || after != before {
			continue
		}
		now := time.Now().UTC()
		ok, err := s.writeStats(ctx, doc.Version, c, now)
		if err != nil {
			return GuestStats{}, fmt.Errorf("recount stats: %w", err)
		}
		if ok {
			return GuestStats{Counts: c, Version: doc.Version + 1, UpdatedAt: now, RecountedAt: now}, nil
		}
	}
	return GuestStats{}, fmt.Errorf("recount stats: the guests kept changing: %w", ErrConflict)
}

// CountGuestStats computes the figures from the guests themselves. The
// embedded database returns zeros for every accumulator of a $group but
// the first, so each $group has exactly one.
func (s *Store) CountGuestStats(ctx context.Context) (guest.Counts, error) {
	var c guest.Counts
	byStatus := func(sum any) (map[guest.Status]int, error) {
		cur, err := s.coll(collGuests).Aggregate(ctx, mongo.Pipeline{
			{{Key: "$match", Value: countedGuests()}},
			{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$status"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: sum}}}}}},
		})
		if err != nil {
			return nil, err
		}
		var rows []struct {
			Status guest.Status `bson:"_id"`
			N      int          `bson:"n"`
		}
		if err := cur.All(ctx, &rows); err != nil {
			return nil, err
		}
		out := map[guest.Status]int{}
		for _, r := range rows {
			out[r.Status] += r.N
		}
		return out, nil
	}
	people, err := byStatus(1)
	if err != nil {
		return c, fmt.Errorf("count guests by status: %w", err)
	}
	expected, err := byStatus("$expectedGuests")
	if err != nil {
		return c, fmt.Errorf("sum expected guests: %w", err)
	}
	for st, n := range people {
		c.Invited += n
		switch st {
		case guest.StatusComing:
			c.Coming += n
		case guest.StatusDeclined:
			c.Declined += n
		default:
			c.Pending += n
		}
	}
	for _, n := range expected {
		c.Expected += n
	}
	extra, err := s.sum(ctx, counted(bson.D{{Key: "status", Value: guest.StatusComing}, {Key: "extraGuests", Value: bson.D{{Key: "$exists", Value: true}}}}), "$extraGuests")
	if err != nil {
		return c, fmt.Errorf("sum extra guests: %w", err)
	}
	c.ComingHeads = expected[guest.StatusComing] + extra

	counts := []struct {
		into   *int
		filter bson.D
	}{
		{&c.NeverLoggedIn, counted(bson.D{{Key: "lastLogin", Value: bson.D{{Key: "$exists", Value: false}}}})},
		{&c.Staff, bson.D{{Key: "role", Value: bson.D{{Key: "$ne", Value: guest.RoleGuest}}}, {Key: "attending", Value: bson.D{{Key: "$ne", Value: true}}}}},
		{&c.WithAllergies, counted(bson.D{{Key: "status", Value: guest.StatusComing}, {Key: "needs", Value: bson.D{{Key: "$exists", Value: true}}}})},
		{&c.WalkIns, counted(bson.D{{Key: "source", Value: guest.SourceWalkIn}})},
	}
	for _, q := range counts {
		n, err := s.coll(collGuests).CountDocuments(ctx, q.filter)
		if err != nil {
			return c, fmt.Errorf("count guests: %w", err)
		}
		*q.into = int(n)
	}
	if c.CheckedIn, c.CheckedInHeads, err = s.CheckInCounts(ctx); err != nil {
		return c, err
	}
	return c, nil
}

// sum adds up field over the guests matching filter.
func (s *Store) sum(ctx context.Context, filter bson.D, field string) (int, error) {
	cur, err := s.coll(collGuests).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: filter}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: bson.D{{Key: "$sum", Value: field}}}}}},
	})
	if err != nil {
		return 0, err
	}
	var rows []struct {
		N int `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].N, nil
}

// countedGuests matches the guests the figures count (guest.Counted): the
// guest role, and staff marked as also attending.
func countedGuests() bson.D {
	return bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "role", Value: guest.RoleGuest}},
		bson.D{{Key: "attending", Value: true}},
	}}}
}

// counted narrows filter to the counted guests; filter may have an $or
// of its own.
func counted(filter bson.D) bson.D {
	return append(filter, bson.E{Key: "$and", Value: bson.A{countedGuests()}})
}
