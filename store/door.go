package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/guest"
)

// Check-ins at the door are written on the guest's own document (one
// update by _id), so the guest list, the stats and the door all read the
// same truth. Two door tablets scanning one code at the same moment both
// read "not checked in"; only one may record it, and the embedded
// database has no atomic compare-and-set, so each check-in first claims
// the step "checkin/<guest>/<round>" (claims.go). The round grows with
// every undo, so a guest let in again after an undo claims a new step.

// checkInClaimTTL outlives the few milliseconds between a claim and its
// write by far; after that the guest document itself says "checked in".
const checkInClaimTTL = 24 * time.Hour

// checkInWait bounds how long a scan that lost the race waits to see the
// winner's write, so it can say who let the guest in. The losers look
// again after checkInPoll, doubling up to checkInPollMax with jitter: twenty
// scans polling every 20 ms kept the embedded database so busy that the
// winner's own write could not finish within the wait.
const (
	checkInWait    = 10 * time.Second
	checkInPoll    = 20 * time.Millisecond
	checkInPollMax = 250 * time.Millisecond
)

func checkInKey(id string, round int) string { return fmt.Sprintf("checkin/%s/%d", id, round) }

// CheckIn records that guest id arrived, unless someone already did. It
// returns the guest as stored afterwards and whether this call recorded
// the check-in: false means an earlier (or simultaneous) scan did, and
// the guest returned says when and by whom.
func (s *Store) CheckIn(ctx context.Context, id string, c guest.CheckIn) (guest.Guest, bool, error) {
	at := c.At.UTC().Truncate(time.Millisecond)
	deadline := time.Now().Add(checkInWait)
	poll := checkInPoll
	for {
		g, err := s.GuestByID(ctx, id)
		if err != nil {
			return g, false, err
		}
		if g.CheckedIn() {
			return g, false, nil
		}
		key := checkInKey(id, g.CheckInRound)
		err = s.Claim(ctx, key, checkInClaimTTL)
		if errors.Is(err, ErrConflict) {
			// Another scan holds this step: wait for its write (or its
			// release, or an undo), then look again.
			if time.Now().After(deadline) {
				return g, false, fmt.Errorf("check in %s: the other scan did not finish: %w", id, ErrBusy)
			}
			select {
			case <-ctx.Done():
				return g, false, ctx.Err()
			case <-time.After(poll/2 + rand.N(poll/2+1)):
			}
			poll = min(2*poll, checkInPollMax)
			continue
		}
		if err != nil {
			return g, false, fmt.Errorf("check in %s: %w", id, err)
		}
		after, err := s.writeCheckIn(ctx, g, c, at)
		if err != nil {
			if rerr := s.Release(context.WithoutCancel(ctx), key); rerr != nil {
				s.log.WarnContext(ctx, "release check-in claim", "guest", id, "err", rerr)
			}
			return g, false, err
		}
		return after, true, nil
	}
}

func (s *Store) writeCheckIn(ctx context.Context, before guest.Guest, c guest.CheckIn, at time.Time) (guest.Guest, error) {
	defer s.guestWrites.begin()() // moves the kept figures (guests_stats.go)
	defer s.guestsChanged(ctx, before.ID)
	heads := max(1, c.Heads)
	var matched int64
	err := s.retry(ctx, onBusy, func() error {
		res, err := s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: before.ID}},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "checkedInAt", Value: at}, {Key: "checkedInBy", Value: c.By},
				{Key: "checkedInById", Value: c.ByID}, {Key: "arrivedHeads", Value: heads},
			}}})
		if err != nil {
			return err
		}
		matched = res.MatchedCount
		return nil
	})
	if err != nil {
		return before, fmt.Errorf("check in %s: %w", before.ID, err)
	}
	if matched == 0 {
		return before, fmt.Errorf("check in %s: %w", before.ID, ErrNotFound)
	}
	after := before
	after.CheckedInAt, after.CheckedInBy, after.CheckedInByID, after.ArrivedHeads = &at, c.By, c.ByID, heads
	if err := s.adjustStats(ctx, guest.Change([]guest.Guest{before}, []guest.Guest{after})); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return after, nil
}

// AddWalkIn stores a guest the door adds on the night, once: g.ID is
// derived from the door's idempotency key (app.Door.WalkIn), so a walk-in
// sent again by a door that was offline finds the guest the first sending
// made, and returns it with created false. The guest's _id is the only
// thing both databases guarantee unique on insert (docs/DESIGN.md,
// "Store rules").
func (s *Store) AddWalkIn(ctx context.Context, g guest.Guest) (guest.Guest, bool, error) {
	if g.ID == "" {
		return g, false, errors.New("add walk-in: the guest needs an id")
	}
	err := s.InsertGuest(ctx, &g)
	if errors.Is(err, ErrConflict) {
		before, err := s.GuestByID(ctx, g.ID)
		if err != nil {
			return before, false, fmt.Errorf("add walk-in: %w", err)
		}
		return before, false, nil
	}
	if err != nil {
		return g, false, fmt.Errorf("add walk-in: %w", err)
	}
	return g, true, nil
}

// UndoCheckIn takes back guest id's check-in (a scan of the wrong card).
// It returns the guest afterwards and whether this call undid it: false
// when the guest was not checked in, or another undo won the race.
func (s *Store) UndoCheckIn(ctx context.Context, id string) (guest.Guest, bool, error) {
	defer s.guestWrites.begin()() // moves the kept figures (guests_stats.go)
	before, err := s.GuestByID(ctx, id)
	if err != nil || !before.CheckedIn() {
		return before, false, err
	}
	key := checkInKey(id, before.CheckInRound) + "/undo"
	if err := s.Claim(ctx, key, checkInClaimTTL); err != nil {
		if errors.Is(err, ErrConflict) {
			return before, false, nil
		}
		return before, false, fmt.Errorf("undo check-in of %s: %w", id, err)
	}
	round := before.CheckInRound + 1
	defer s.guestsChanged(ctx, id)
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{
			{Key: "$unset", Value: bson.D{{Key: "checkedInAt", Value: ""}, {Key: "checkedInBy", Value: ""}, {Key: "checkedInById", Value: ""}, {Key: "arrivedHeads", Value: ""}}},
			{Key: "$set", Value: bson.D{{Key: "checkInRound", Value: round}}},
		})
		return err
	})
	if err != nil {
		if rerr := s.Release(context.WithoutCancel(ctx), key); rerr != nil {
			s.log.WarnContext(ctx, "release undo claim", "guest", id, "err", rerr)
		}
		return before, false, fmt.Errorf("undo check-in of %s: %w", id, err)
	}
	after := before
	after.CheckedInAt, after.CheckedInBy, after.CheckedInByID, after.ArrivedHeads, after.CheckInRound = nil, "", "", 0, round
	if err := s.adjustStats(ctx, guest.Change([]guest.Guest{before}, []guest.Guest{after})); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return after, true, nil
}

// CheckInCounts counts the guests checked in and the people who came in
// with them, from the guests themselves, for RecountStats. It is one pass
// with one accumulator: guests grouped by arrivedHeads (set exactly while
// checked in), counted per group. On embedded FerretDB each pass scans
// every guest (about 2 s for 10,000 on a loaded 2-core box), which is why
// the door reads the kept summary instead (guests_stats.go).
func (s *Store) CheckInCounts(ctx context.Context) (guests, heads int, err error) {
	cur, err := s.coll(collGuests).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: countedGuests()}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$arrivedHeads"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
	})
	if err != nil {
		return 0, 0, fmt.Errorf("count check-ins: %w", err)
	}
	var rows []struct {
		Heads *int `bson:"_id"`
		N     int  `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return 0, 0, fmt.Errorf("count check-ins: %w", err)
	}
	for _, r := range rows {
		if r.Heads == nil || *r.Heads <= 0 {
			continue // not checked in
		}
		guests += r.N
		heads += r.N * *r.Heads
	}
	return guests, heads, nil
}
