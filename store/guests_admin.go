package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// InsertGuest stores a new guest the way the host's desk does: with the
// code it brings (an import keeps codes already printed) or a fresh one,
// and with the summary counts moved. A taken id or code is ErrConflict.
func (s *Store) InsertGuest(ctx context.Context, g *guest.Guest) error {
	defer s.guestWrites.begin()()
	now := time.Now().UTC().Truncate(time.Millisecond)
	prepareNewGuest(g, now)
	if g.Code == "" {
		code, err := s.reserveCode(ctx, g.ID)
		if err != nil {
			return fmt.Errorf("create guest: %w", err)
		}
		g.Code = code
	} else {
		err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collCodes).InsertOne(ctx, codeDoc{Code: g.Code, GuestID: g.ID, At: now})
			return err
		})
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("code %s is already in use: %w", g.Code, ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("reserve code: %w", err)
		}
		if err := s.indexCodes(ctx, g.Code); err != nil {
			s.freeCode(ctx, g.Code)
			return fmt.Errorf("reserve code: %w", err)
		}
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collGuests).InsertOne(ctx, g); return err }); err != nil {
		s.freeCode(ctx, g.Code)
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("guest id %s is already in use: %w", g.ID, ErrConflict)
		}
		return fmt.Errorf("create guest: %w", err)
	}
	s.guestsChanged(ctx, g.ID)
	if err := s.adjustStats(ctx, guest.CountOf(*g)); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return nil
}

// prepareNewGuest fills in what a new guest's document holds besides the
// host's fields: its id (unless given), the defaults, the derived keys and
// needs, and the times.
func prepareNewGuest(g *guest.Guest, now time.Time) {
	if g.ID == "" {
		g.ID = NewID()
	}
	if g.Role == "" {
		g.Role = guest.RoleGuest
	}
	if g.Status == "" {
		g.Status = guest.StatusPending
	}
	if g.ExpectedGuests < 1 {
		g.ExpectedGuests = 1
	}
	g.LastNameKey = guest.NameKey(g.LastName)
	g.Dietary = guest.NormalizeDietary(g.Dietary)
	g.Companions = guest.NormalizeCompanions(g.Companions)
	g.RefreshNeeds()
	g.Tastes = guest.NormalizeTastes(g.Tastes)
	g.CreatedAt, g.UpdatedAt = now, now
}

// UpdateGuest applies the host's patch to guest id, by the guest (admin)
// whose id is by, and returns the guest as stored. It writes only the
// fields a patch can change, so sign-in times written meanwhile survive.
func (s *Store) UpdateGuest(ctx context.Context, id string, p guest.Patch, by string) (guest.Guest, error) {
	defer s.guestWrites.begin()()
	before, err := s.GuestByID(ctx, id)
	if err != nil {
		return before, err
	}
	after, err := p.Apply(before, by, time.Now().UTC().Truncate(time.Millisecond))
	if err != nil {
		return before, err
	}
	set := bson.D{
		{Key: "firstName", Value: after.FirstName}, {Key: "lastName", Value: after.LastName},
		{Key: "lastNameKey", Value: after.LastNameKey}, {Key: "role", Value: after.Role},
		{Key: "attending", Value: after.Attending},
		{Key: "status", Value: after.Status}, {Key: "expectedGuests", Value: after.ExpectedGuests},
		{Key: "extraGuests", Value: after.ExtraGuests}, {Key: "dietary", Value: after.Dietary},
		{Key: "tastes", Value: after.Tastes}, {Key: "updatedAt", Value: after.UpdatedAt},
	}
	unset := bson.D{}
	opt := func(key string, present bool, v any) {
		if present {
			set = append(set, bson.E{Key: key, Value: v})
		} else {
			unset = append(unset, bson.E{Key: key, Value: ""})
		}
	}
	// Absent rather than empty: the sparse groupId index leaves such
	// guests out, and "alone" is simply "no groupId".
	opt("groupId", after.GroupID != "", after.GroupID)
	opt("email", after.Email != "", after.Email)
	opt("rsvpDate", after.RSVPDate != nil, after.RSVPDate)
	opt("rsvpBy", after.RSVPBy != "", after.RSVPBy)
	opt("companions", len(after.Companions) > 0, after.Companions)
	opt("ageGroup", after.AgeGroup != "", after.AgeGroup)
	opt("needs", len(after.Needs) > 0, after.Needs)
	update := bson.D{{Key: "$set", Value: set}}
	if len(unset) > 0 {
		update = append(update, bson.E{Key: "$unset", Value: unset})
	}
	var res *mongo.UpdateResult
	err = s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, update)
		return err
	})
	if err != nil {
		return before, fmt.Errorf("update guest %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return before, fmt.Errorf("update guest %s: %w", id, ErrNotFound)
	}
	s.guestsChanged(ctx, id)
	if err := s.adjustStats(ctx, guest.Change([]guest.Guest{before}, []guest.Guest{after})); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return after, nil
}

// RemoveGuest deletes a guest and their code, moving the summary counts,
// and returns the guest as it was.
func (s *Store) RemoveGuest(ctx context.Context, id string) (guest.Guest, error) {
	defer s.guestWrites.begin()()
	g, err := s.GuestByID(ctx, id)
	if err != nil {
		return g, err
	}
	if err := s.DeleteGuest(ctx, id); err != nil {
		return g, err
	}
	if err := s.adjustStats(ctx, guest.Change([]guest.Guest{g}, nil)); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
	return g, nil
}

// GuestQuery selects and orders the host's guest list.
type GuestQuery struct {
	Status        guest.Status
	NeverLoggedIn bool
	HasDietary    bool
	GroupID       string
	// Q matches first or last name (any case, accents ignored) or an
	// exact code.
	Q string
	// NamesOnly leaves the exact code out of Q's matches (the door's
	// search must not be a way to try codes).
	NamesOnly bool
	// Sort is lastName (the default), firstName, status, rsvpDate or
	// createdAt; Desc reverses it.
	Sort   string
	Desc   bool
	Limit  int
	Offset int
}

// SortFields are the orders the guest list offers.
var SortFields = []string{"lastName", "firstName", "status", "rsvpDate", "createdAt"}

// MaxPageSize bounds one page of the guest list.
const MaxPageSize = 500

func (q GuestQuery) filter() bson.D {
	f := bson.D{}
	// status first: the status and (status, needs) indexes lead with it.
	if q.Status != "" {
		f = append(f, bson.E{Key: "status", Value: q.Status})
	}
	if q.HasDietary {
		f = append(f, bson.E{Key: "needs", Value: bson.D{{Key: "$exists", Value: true}}})
	}
	if q.GroupID != "" {
		f = append(f, bson.E{Key: "groupId", Value: q.GroupID})
	}
	if q.NeverLoggedIn {
		f = append(f, bson.E{Key: "lastLogin", Value: bson.D{{Key: "$exists", Value: false}}})
	}
	// A filter that matches one of the host's figures lists the guests
	// that figure counts: staff not attending are in none of them.
	if q.Status != "" || q.HasDietary || q.NeverLoggedIn {
		f = counted(f)
	}
	if text := strings.TrimSpace(q.Q); text != "" {
		like := bson.D{{Key: "$regex", Value: regexp.QuoteMeta(text)}, {Key: "$options", Value: "i"}}
		or := bson.A{
			bson.D{{Key: "firstName", Value: like}},
			bson.D{{Key: "lastName", Value: like}},
		}
		// Accents do not count in either name: the last name through
		// its folded copy, the first name, which has none, through a
		// pattern that takes every accented form of each letter.
		if search := guest.NewNameSearch(text); search.Key() != "" {
			or = append(or,
				bson.D{{Key: "lastNameKey", Value: bson.D{{Key: "$regex", Value: regexp.QuoteMeta(search.Key())}}}},
				bson.D{{Key: "firstName", Value: bson.D{{Key: "$regex", Value: search.Pattern()}, {Key: "$options", Value: "i"}}}})
		}
		if code := guest.NormalizeCode(text); guest.ValidCode(code) && !q.NamesOnly {
			or = append(or, bson.D{{Key: "code", Value: code}})
		}
		f = append(f, bson.E{Key: "$or", Value: or})
	}
	return f
}

func (q GuestQuery) sort() bson.D {
	dir := 1
	if q.Desc {
		dir = -1
	}
	// _id last keeps pages stable when the sort key ties.
	switch q.Sort {
	case "firstName":
		return bson.D{{Key: "firstName", Value: dir}, {Key: "lastNameKey", Value: dir}, {Key: "_id", Value: dir}}
	case "status":
		return bson.D{{Key: "status", Value: dir}, {Key: "lastNameKey", Value: 1}, {Key: "_id", Value: 1}}
	case "rsvpDate":
		return bson.D{{Key: "rsvpDate", Value: dir}, {Key: "_id", Value: dir}}
	case "createdAt":
		return bson.D{{Key: "createdAt", Value: dir}, {Key: "_id", Value: dir}}
	default:
		return bson.D{{Key: "lastNameKey", Value: dir}, {Key: "firstName", Value: dir}, {Key: "_id", Value: dir}}
	}
}

// ListGuests returns one page of the guests q selects and how many it
// selects in all.
func (s *Store) ListGuests(ctx context.Context, q GuestQuery) ([]guest.Guest, int64, error) {
	limit := q.Limit
	if limit <= 0 || limit > MaxPageSize {
		limit = 50
	}
	if s.guestIndexOn() {
		return s.listIndexed(ctx, q, limit)
	}
	return s.listQueried(ctx, q, limit)
}

// listQueried answers ListGuests with a query (MongoDB's indexes serve it).
func (s *Store) listQueried(ctx context.Context, q GuestQuery, limit int) ([]guest.Guest, int64, error) {
	filter := q.filter()
	total, err := s.countFor(ctx, q, filter)
	if err != nil {
		return nil, 0, err
	}
	opts := options.Find().SetSort(q.sort()).SetSkip(int64(max(0, q.Offset))).SetLimit(int64(limit))
	cur, err := s.coll(collGuests).Find(ctx, filter, opts)
	if err != nil {
		return nil, 0, fmt.Errorf("list guests: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, 0, fmt.Errorf("list guests: %w", err)
	}
	return out, total, nil
}

// countFor counts the guests q selects. With no filter but the status
// the kept figures already know: one read instead of one more scan of
// every guest on the embedded database, which halves the time of a page.
func (s *Store) countFor(ctx context.Context, q GuestQuery, filter bson.D) (int64, error) {
	if q.Q == "" && q.GroupID == "" && !q.HasDietary && !q.NeverLoggedIn {
		st, err := s.Stats(ctx)
		if err != nil {
			return 0, err
		}
		switch q.Status {
		case "":
			return int64(st.Invited + st.Staff), nil
		case guest.StatusComing:
			return int64(st.Coming), nil
		case guest.StatusDeclined:
			return int64(st.Declined), nil
		case guest.StatusPending:
			return int64(st.Pending), nil
		}
	}
	n, err := s.coll(collGuests).CountDocuments(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("count guests: %w", err)
	}
	return n, nil
}

// AllGuests returns every guest by last name, for the CSV export and the
// printed invitations.
func (s *Store) AllGuests(ctx context.Context) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{}, options.Find().SetSort(GuestQuery{}.sort()))
	if err != nil {
		return nil, fmt.Errorf("load guests: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load guests: %w", err)
	}
	return out, nil
}

// DietaryGuests returns the guests with one of statuses with a dietary
// need on their answer (their own or a companion's, or words for the host
// to review): the query the (status, needs) index serves.
func (s *Store) DietaryGuests(ctx context.Context, statuses ...guest.Status) ([]guest.Guest, error) {
	filter := bson.D{
		{Key: "status", Value: bson.D{{Key: "$in", Value: statuses}}},
		{Key: "needs", Value: bson.D{{Key: "$exists", Value: true}}},
	}
	cur, err := s.coll(collGuests).Find(ctx, filter, options.Find().SetSort(GuestQuery{}.sort()))
	if err != nil {
		return nil, fmt.Errorf("load dietary needs: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load dietary needs: %w", err)
	}
	return out, nil
}

// GroupedGuests returns every guest in a group, by group.
func (s *Store) GroupedGuests(ctx context.Context) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "groupId", Value: bson.D{{Key: "$exists", Value: true}}}},
		options.Find().SetSort(bson.D{{Key: "groupId", Value: 1}, {Key: "firstName", Value: 1}}).
			SetProjection(bson.D{{Key: "code", Value: 0}, {Key: "dietary", Value: 0}, {Key: "tastes", Value: 0}}))
	if err != nil {
		return nil, fmt.Errorf("load groups: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load groups: %w", err)
	}
	return out, nil
}

// Answers returns every guest who has answered, with only what a timeline
// of answers needs.
func (s *Store) Answers(ctx context.Context) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "rsvpDate", Value: bson.D{{Key: "$exists", Value: true}}}},
		options.Find().SetProjection(bson.D{
			{Key: "status", Value: 1}, {Key: "rsvpDate", Value: 1}, {Key: "expectedGuests", Value: 1}, {Key: "extraGuests", Value: 1},
		}))
	if err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	return out, nil
}

// GuestWithCode finds a guest by the code on their document (the unique
// code index); GuestByCode, for sign-in, goes through the codes
// collection instead.
func (s *Store) GuestWithCode(ctx context.Context, code string) (guest.Guest, error) {
	var g guest.Guest
	err := s.coll(collGuests).FindOne(ctx, bson.D{{Key: "code", Value: code}}).Decode(&g)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return g, fmt.Errorf("guest with code: %w", ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("guest with code: %w", err)
	}
	return g, nil
}

// NameIndex maps each guest's folded "first last" name to their id, so an
// import can tell a new guest from one already invited.
func (s *Store) NameIndex(ctx context.Context) (map[string]string, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{},
		options.Find().SetProjection(bson.D{{Key: "firstName", Value: 1}, {Key: "lastNameKey", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("load names: %w", err)
	}
	var rows []struct {
		ID          string `bson:"_id"`
		FirstName   string `bson:"firstName"`
		LastNameKey string `bson:"lastNameKey"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return nil, fmt.Errorf("load names: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[guest.NameKey(r.FirstName)+" "+r.LastNameKey] = r.ID
	}
	return out, nil
}
