package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// GroupOf returns the members of g's group, g included (just g when g has
// no group), ordered by first name. It is the query the groupId index
// serves.
func (s *Store) GroupOf(ctx context.Context, g guest.Guest) ([]guest.Guest, error) {
	if g.GroupID == "" {
		return []guest.Guest{g}, nil
	}
	members, err := s.GroupMembers(ctx, g.GroupID)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if m.ID == g.ID {
			return members, nil
		}
	}
	// Moved out of the group a moment ago: answer for what we know.
	return append([]guest.Guest{g}, members...), nil
}

// GroupMembers returns every guest with groupID, by first name.
func (s *Store) GroupMembers(ctx context.Context, groupID string) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "groupId", Value: groupID}},
		options.Find().SetSort(bson.D{{Key: "firstName", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(200))
	if err != nil {
		return nil, fmt.Errorf("load group %s: %w", groupID, err)
	}
	var out []guest.Guest
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load group %s: %w", groupID, err)
	}
	return out, nil
}

// ApplyRSVP carries out an RSVP decision by me, a member of group (as
// GroupOf returned it), and returns the group as it is afterwards. When the
// whole group answers alike it is one UpdateMany on the group; otherwise
// one UpdateMany per status, plus one UpdateOne per member whose
// headcount differs from the invitation. The summary counts move with it.
func (s *Store) ApplyRSVP(ctx context.Context, me guest.Guest, group []guest.Guest, d guest.Decision, at time.Time) ([]guest.Guest, error) {
	defer s.guestWrites.begin()()
	changed := []string{me.ID}
	for _, g := range group {
		if g.ID != me.ID {
			changed = append(changed, g.ID)
		}
	}
	// Every member, whatever part of the answer was written.
	defer s.guestsChanged(ctx, changed...)
	at = at.UTC().Truncate(time.Millisecond)
	set := func(st guest.Status) bson.D {
		return bson.D{{Key: "$set", Value: bson.D{
			{Key: "status", Value: st}, {Key: "extraGuests", Value: 0},
			{Key: "rsvpDate", Value: at}, {Key: "rsvpBy", Value: me.ID}, {Key: "updatedAt", Value: at},
		}}}
	}
	guests := s.coll(collGuests)
	if d.Status != "" {
		if d.WholeGroup {
			filter := bson.D{{Key: "_id", Value: me.ID}}
			if me.GroupID != "" {
				filter = bson.D{{Key: "groupId", Value: me.GroupID}}
			}
			if err := s.retry(ctx, onBusy, func() error { _, err := guests.UpdateMany(ctx, filter, set(d.Status)); return err }); err != nil {
				return nil, fmt.Errorf("rsvp of %s: %w", me.ID, err)
			}
		} else {
			for _, part := range []struct {
				ids []string
				st  guest.Status
			}{{d.Coming, guest.StatusComing}, {d.Declined, guest.StatusDeclined}} {
				if len(part.ids) == 0 {
					continue
				}
				if err := s.retry(ctx, onBusy, func() error {
					_, err := guests.UpdateMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: part.ids}}}}, set(part.st))
					return err
				}); err != nil {
					return nil, fmt.Errorf("rsvp of %s: %w", me.ID, err)
				}
			}
		}
	}
	after := d.Apply(group, me.ID, at)
	// Each document whose answers change gets its needs summary anew
	// (guest.Guest.Needs): absent when nobody on it needs anything.
	needsOf := func(id string) []string {
		for _, g := range after {
			if g.ID == id {
				return g.Needs
			}
		}
		return nil
	}
	mine := bson.D{}
	if d.Dietary != nil {
		mine = append(mine, bson.E{Key: "dietary", Value: *d.Dietary})
	}
	if d.Companions != nil {
		mine = append(mine, bson.E{Key: "companions", Value: *d.Companions})
	}
	if d.Tastes != nil {
		mine = append(mine, bson.E{Key: "tastes", Value: *d.Tastes})
	}
	for id, n := range d.Extra {
		if n == 0 {
			continue
		}
		upd := bson.D{{Key: "extraGuests", Value: n}}
		if id == me.ID && len(mine) > 0 {
			// One update for the headcount and the answers.
			mine = append(mine, upd...)
			continue
		}
		if err := s.retry(ctx, onBusy, func() error {
			_, err := guests.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: upd}})
			return err
		}); err != nil {
			return nil, fmt.Errorf("rsvp of %s: headcount of %s: %w", me.ID, id, err)
		}
	}
	saveNeeds := func(id string, set bson.D) error {
		update := setWithNeeds(append(set, bson.E{Key: "updatedAt", Value: at}), needsOf(id))
		return s.retry(ctx, onBusy, func() error {
			_, err := guests.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, update)
			return err
		})
	}
	if len(mine) > 0 {
		if err := saveNeeds(me.ID, mine); err != nil {
			return nil, fmt.Errorf("save answers of %s: %w", me.ID, err)
		}
	}
	// The needs given for other members of the group, one update each.
	for id, m := range d.Members {
		set := bson.D{}
		if m.Dietary != nil {
			set = append(set, bson.E{Key: "dietary", Value: *m.Dietary})
		}
		if m.Companions != nil {
			set = append(set, bson.E{Key: "companions", Value: *m.Companions})
		}
		update := setWithNeeds(append(set, bson.E{Key: "updatedAt", Value: at}), needsOf(id))
		if m.AgeGroup != nil {
			update = withAgeGroup(update, *m.AgeGroup)
		}
		if err := s.retry(ctx, onBusy, func() error {
			_, err := guests.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, update)
			return err
		}); err != nil {
			return nil, fmt.Errorf("save needs of %s for %s: %w", me.ID, id, err)
		}
	}
	if err := s.adjustStats(ctx, guest.Change(group, after)); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return after, nil
}

// withAgeGroup adds a member's age group to an update setWithNeeds made:
// set for a child, absent for an adult.
func withAgeGroup(update bson.D, ageGroup string) bson.D {
	op, field := "$set", bson.E{Key: "ageGroup", Value: ageGroup}
	if ageGroup == "" {
		op, field.Value = "$unset", ""
	}
	for i, e := range update {
		if e.Key == op {
			update[i].Value = append(e.Value.(bson.D), field)
			return update
		}
	}
	return append(update, bson.E{Key: op, Value: bson.D{field}})
}
