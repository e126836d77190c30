package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// Activity is the latest sign-in and API use seen for one guest; nil
// times are not written.
type Activity struct {
	GuestID    string
	LastLogin  *time.Time
	LastAccess *time.Time
}

// RecordActivity writes a batch of activity in unordered bulk writes of
// at most MaxUpdateStatements guests each.
// $max keeps a time from going backwards when two instances flush the
// same guest out of order. It returns how many guests signed in for the
// first time (the "never logged in" figure moves by that much).
func (s *Store) RecordActivity(ctx context.Context, batch []Activity) (firstLogins int, err error) {
	if len(batch) == 0 {
		return 0, nil
	}
	var loginIDs []string
	models := make([]mongo.WriteModel, 0, len(batch))
	for _, a := range batch {
		set := bson.D{}
		if a.LastLogin != nil {
			set = append(set, bson.E{Key: "lastLogin", Value: a.LastLogin.UTC()})
			loginIDs = append(loginIDs, a.GuestID)
		}
		if a.LastAccess != nil {
			set = append(set, bson.E{Key: "lastAccess", Value: a.LastAccess.UTC()})
		}
		if len(set) == 0 {
			continue
		}
		models = append(models, mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: a.GuestID}}).
			SetUpdate(bson.D{{Key: "$max", Value: set}}))
	}
	var first []guest.Guest
	if len(loginIDs) > 0 {
		// First sign-ins move "never logged in"; visits alone count nothing.
		defer s.guestWrites.begin()()
		// Which counted guests (staff are in no figure) had never signed
		// in before this batch. Two instances
		// flushing the first sign-in of one guest at the same moment
		// would both count it; the periodic recount evens that out.
		cur, err := s.coll(collGuests).Find(ctx,
			counted(bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: loginIDs}}}, {Key: "lastLogin", Value: bson.D{{Key: "$exists", Value: false}}}}),
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			return 0, fmt.Errorf("record activity: %w", err)
		}
		if err := cur.All(ctx, &first); err != nil {
			return 0, fmt.Errorf("record activity: %w", err)
		}
	}
	if len(models) == 0 {
		return 0, nil
	}
	if err := s.updateInParts(ctx, s.coll(collGuests), onBusy, models); err != nil {
		return 0, fmt.Errorf("record activity of %d guests: %w", len(models), err)
	}
	s.guestsActive(batch)
	if len(first) > 0 {
		if err := s.adjustStats(ctx, guest.Counts{NeverLoggedIn: -len(first)}); err != nil {
			s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
		}
	}
	return len(first), nil
}
