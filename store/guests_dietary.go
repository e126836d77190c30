package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// ReviewDietary records the host's review of one person's dietary needs:
// the guest's own (companion 0) or their n-th companion's. The tags are
// taken as the host gives them (canonical ones only: guest.ReviewTags
// checks them) and nothing is left for the host's eyes. It returns the
// guest before and after.
func (s *Store) ReviewDietary(ctx context.Context, id string, companion int, tags []string, at time.Time) (before, after guest.Guest, err error) {
	defer s.guestWrites.begin()()
	defer s.guestsChanged(ctx, id)
	before, err = s.GuestByID(ctx, id)
	if err != nil {
		return before, before, err
	}
	after, err = guest.ReviewDietary(before, companion, tags, at.UTC().Truncate(time.Millisecond))
	if err != nil {
		return before, before, err
	}
	update := setWithNeeds(bson.D{{Key: "dietary", Value: after.Dietary}, {Key: "companions", Value: after.Companions}, {Key: "updatedAt", Value: after.UpdatedAt}}, after.Needs)
	// Compare-and-set on the answer the host saw: a guest who changed
	// their words meanwhile gets their new words reviewed, not overwritten.
	filter := bson.D{{Key: "_id", Value: id}, {Key: "updatedAt", Value: before.UpdatedAt}}
	var matched int64
	err = s.retry(ctx, onBusy, func() error {
		res, err := s.coll(collGuests).UpdateOne(ctx, filter, update)
		if err == nil {
			matched = res.MatchedCount
		}
		return err
	})
	if err != nil {
		return before, before, fmt.Errorf("review dietary needs of %s: %w", id, err)
	}
	if matched == 0 {
		return before, before, fmt.Errorf("review dietary needs of %s: the answer changed meanwhile; reload it: %w", id, ErrConflict)
	}
	if err := s.adjustStats(ctx, guest.Change([]guest.Guest{before}, []guest.Guest{after})); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return before, after, nil
}

// UpgradeDietary reads again the dietary answers stored before needs were
// per person: a legacy "other" tag becomes words for the host's eyes, the
// text is read in every language barhub knows, and the needs summary the
// (status, needs) index serves is filled in. (Text that named nothing was
// stored with the tag "other", so every old answer has a tag.) It returns
// how many guests it changed; running it again changes none.
func (s *Store) UpgradeDietary(ctx context.Context) (int, error) {
	filter := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "dietary.tags", Value: "other"}},
		bson.D{{Key: "needs", Value: bson.D{{Key: "$exists", Value: false}}}, {Key: "dietary.tags", Value: bson.D{{Key: "$exists", Value: true}}}},
	}}}
	cur, err := s.coll(collGuests).Find(ctx, filter, options.Find().SetProjection(bson.D{{Key: "dietary", Value: 1}, {Key: "companions", Value: 1}, {Key: "needs", Value: 1}}))
	if err != nil {
		return 0, fmt.Errorf("find dietary answers to upgrade: %w", err)
	}
	var old []guest.Guest
	if err := cur.All(ctx, &old); err != nil {
		return 0, fmt.Errorf("find dietary answers to upgrade: %w", err)
	}
	n := 0
	for _, g := range old {
		g.Dietary = guest.NormalizeDietary(g.Dietary)
		g.RefreshNeeds()
		update := setWithNeeds(bson.D{{Key: "dietary", Value: g.Dietary}}, g.Needs)
		if err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: g.ID}}, update)
			return err
		}); err != nil {
			return n, fmt.Errorf("upgrade dietary answer of %s: %w", g.ID, err)
		}
		s.guestsChanged(ctx, g.ID)
		n++
	}
	if n > 0 {
		if _, err := s.RecountStats(ctx); err != nil && !errors.Is(err, context.Canceled) {
			s.log.WarnContext(ctx, "recount after upgrading dietary answers", "err", err)
		}
	}
	return n, nil
}

// setWithNeeds is the update that $sets set and keeps the needs summary
// beside it: stored when there are needs, absent when there are none, so
// the (status, needs) index and "has needs" ($exists) leave such guests out.
func setWithNeeds(set bson.D, needs []string) bson.D {
	if len(needs) > 0 {
		return bson.D{{Key: "$set", Value: append(set, bson.E{Key: "needs", Value: needs})}}
	}
	return bson.D{{Key: "$set", Value: set}, {Key: "$unset", Value: bson.D{{Key: "needs", Value: ""}}}}
}
