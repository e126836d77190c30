package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/menu"
)

// NewEvent is what the host asks of a new event made from another
// (CreateEvent): the event to start from, the new name and start (nil:
// no date yet), and which of the other's parts to bring along.
type NewEvent struct {
	// From is the id of the registered event to copy from.
	From     string
	Name     string
	StartsAt *time.Time
	// Guests brings the whole guest list, answers reset; without it only
	// the admins come along, so the host can sign in to the new event.
	Guests bool
	// Menu brings the sections and drinks, everything in stock.
	Menu bool
	// Settings brings every other setting (place, time zone, dress code,
	// information, registration, the public menu's switch); without it
	// they are a new party's defaults.
	Settings bool
}

// CreateEvent registers a new event and fills its database from the
// event ne.From, as docs/EVENTS.md ("Making an event from another") says:
// the guests keep their ids, codes and standing details and lose their
// answers, the menu comes back in stock, and nothing of the night itself
// (orders, archive, jobs, audit, deliveries, registrations…) comes along.
// s is the control store, whose database holds the registry.
//
// The registry row is written before the copy, so a crash half way
// leaves an event the host sees and can delete, never a database nobody
// knows of; a copy that fails is undone (database and row).
func (s *Store) CreateEvent(ctx context.Context, ne NewEvent) (event.Event, error) {
	name, err := cleanEventName(ne.Name)
	if err != nil {
		return event.Event{}, fmt.Errorf("create event: %w", err)
	}
	from, err := s.eventByID(ctx, ne.From)
	if err != nil {
		return event.Event{}, fmt.Errorf("create event from %s: %w", ne.From, err)
	}
	id := NewID()
	// Born indexed: the copy indexes every code it gives a guest.
	doc := eventDoc{ID: id, Database: s.db.Name() + eventDatabaseInfix + id, CreatedAt: time.Now().UTC().Truncate(time.Millisecond), CodesIndexed: true}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collEvents).InsertOne(ctx, doc); return err }); err != nil {
		return event.Event{}, fmt.Errorf("register event %s: %w", id, err)
	}
	if err := s.copyEvent(ctx, from, doc, ne, name); err != nil {
		// The half-made event goes; should that fail too, its row stays
		// for the host to delete.
		if derr := s.dropEvent(context.WithoutCancel(ctx), doc); derr != nil {
			s.log.WarnContext(ctx, "remove a half-made event", "event", id, "err", derr)
		}
		return event.Event{}, fmt.Errorf("create event from %s: %w", ne.From, err)
	}
	return s.eventOf(ctx, doc)
}

// cleanEventName checks a new event's name by the settings' own rule.
func cleanEventName(name string) (string, error) {
	st, err := guest.ParseSettings(guest.SettingsInput{EventName: name})
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return st.EventName, nil
}

// copyEvent fills the database of to from the database of from.
func (s *Store) copyEvent(ctx context.Context, from, to eventDoc, ne NewEvent, name string) error {
	src := s.client.Database(from.Database)
	dst, err := s.OpenEvent(ctx, to.Database)
	if err != nil {
		return err
	}
	defer dst.Close(context.WithoutCancel(ctx))

	st := guest.DefaultSettings()
	if ne.Settings {
		if st, err = settingsIn(ctx, src); err != nil {
			return err
		}
	}
	st.EventName, st.EventDate, st.RSVPDeadline = name, ne.StartsAt, nil
	if _, err := dst.SaveSettings(ctx, st); err != nil {
		return err
	}
	if err := dst.copyGuests(ctx, src, ne.Guests); err != nil {
		return err
	}
	if ne.Menu {
		if err := dst.copyMenu(ctx, src); err != nil {
			return err
		}
	}
	// The host's figures, counted now rather than at the first look.
	if _, err := dst.RecountStats(ctx); err != nil {
		return err
	}
	return nil
}

// copyGuests copies into s the guests of src (only its admins unless
// all), with their codes, their answers reset (resetAnswers).
func (s *Store) copyGuests(ctx context.Context, src *mongo.Database, all bool) error {
	filter := bson.D{}
	if !all {
		filter = bson.D{{Key: "role", Value: guest.RoleAdmin}}
	}
	cur, err := src.Collection(collGuests).Find(ctx, filter)
	if err != nil {
		return fmt.Errorf("read guests: %w", err)
	}
	var gs []guest.Guest
	if err := cur.All(ctx, &gs); err != nil {
		return fmt.Errorf("read guests: %w", err)
	}
	if len(gs) == 0 {
		return nil
	}
	// Every code each guest ever had, replaced ones too: a replaced code
	// stays reserved so that it is never given to someone else. The codes
	// are read whole, as a filter on guestId reads them whole anyway on
	// the embedded database.
	cur, err = src.Collection(collCodes).Find(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("read codes: %w", err)
	}
	var codes []codeDoc
	if err := cur.All(ctx, &codes); err != nil {
		return fmt.Errorf("read codes: %w", err)
	}
	ids := make(map[string]bool, len(gs))
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i := range gs {
		ids[gs[i].ID] = true
		resetAnswers(&gs[i], now)
	}
	codes = slices.DeleteFunc(codes, func(c codeDoc) bool { return !ids[c.GuestID] })
	// A guest whose code has no reservation (written by other code than
	// this package's) gets one, or the code would sign nobody in.
	reserved := make(map[string]bool, len(codes))
	for _, c := range codes {
		reserved[c.Code] = true
	}
	for _, g := range gs {
		if g.Code != "" && !reserved[g.Code] {
			codes = append(codes, codeDoc{Code: g.Code, GuestID: g.ID, At: now})
		}
	}

	defer s.guestWrites.begin()()
	if err := insertCopies(ctx, s, collCodes, codes); err != nil {
		return err
	}
	current := make([]string, len(gs))
	for i, g := range gs {
		current[i] = g.Code
	}
	if err := s.indexCodes(ctx, current...); err != nil {
		return err
	}
	for part := range slices.Chunk(gs, guestInsertChunk) {
		if err := insertCopies(ctx, s, collGuests, part); err != nil {
			return err
		}
		partIDs := make([]string, len(part))
		for i, g := range part {
			partIDs[i] = g.ID
		}
		// Any index already reading this database learns of them.
		s.guestsChanged(ctx, partIDs...)
	}
	return nil
}

// resetAnswers keeps what a guest is (name, contact, language, role,
// group, headcount and +1s, age group, needs and tastes) and clears what
// they answered or did for one event: the RSVP, the check-in, the
// invitation sent, sign-ins and sessions, and how they came onto that
// event's list (a walk-in, a registration).
func resetAnswers(g *guest.Guest, now time.Time) {
	g.Status = guest.StatusPending
	g.ExtraGuests = 0
	g.RSVPBy = ""
	g.RSVPDate = nil
	g.LastLogin, g.LastAccess = nil, nil
	g.CheckedInAt, g.CheckedInBy, g.CheckedInByID = nil, "", ""
	g.ArrivedHeads, g.CheckInRound = 0, 0
	g.Invite = nil
	g.Source, g.WalkIn = "", nil
	g.SessionVersion = 0
	if g.ExpectedGuests < 1 {
		g.ExpectedGuests = 1
	}
	// Companions past the standing headcount came with the answer (its
	// +1s): they go with it, or the guest could not edit their +1s again
	// (guest.checkCompanions).
	if len(g.Companions) > g.ExpectedGuests-1 {
		g.Companions = g.Companions[:g.ExpectedGuests-1]
	}
	g.RefreshNeeds()
	g.CreatedAt, g.UpdatedAt = now, now
}

// copyMenu copies into s the sections and drinks of src with their ids,
// every drink in stock, and the photos they show; then moves the menu's
// version so every cache reads it.
func (s *Store) copyMenu(ctx context.Context, src *mongo.Database) error {
	cur, err := src.Collection(collSections).Find(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("read sections: %w", err)
	}
	var sections []bson.Raw
	if err := cur.All(ctx, &sections); err != nil {
		return fmt.Errorf("read sections: %w", err)
	}
	cur, err = src.Collection(collDrinks).Find(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("read drinks: %w", err)
	}
	var drinks []menu.Drink
	if err := cur.All(ctx, &drinks); err != nil {
		return fmt.Errorf("read drinks: %w", err)
	}
	var photos []string
	for i := range drinks {
		d := &drinks[i]
		d.OutOfStock, d.MissingIngredients = false, []string{}
		d.RefreshAvailable()
		if name, ok := strings.CutPrefix(d.ImageURL, "/images/"); ok && images.ValidName(name) {
			photos = append(photos, name)
		}
	}
	if err := insertCopies(ctx, s, collSections, sections); err != nil {
		return err
	}
	if err := insertCopies(ctx, s, collDrinks, drinks); err != nil {
		return err
	}
	// Photos one at a time: each may be megabytes.
	slices.Sort(photos)
	for _, name := range slices.Compact(photos) {
		var img bson.Raw
		err := src.Collection(collImages).FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&img)
		if errors.Is(err, mongo.ErrNoDocuments) {
			continue // a photo already gone shows as gone in both events
		}
		if err != nil {
			return fmt.Errorf("read image %s: %w", name, err)
		}
		if err := insertCopies(ctx, s, collImages, []bson.Raw{img}); err != nil {
			return err
		}
	}
	if len(sections) > 0 || len(drinks) > 0 {
		if _, err := s.BumpMenuVersion(ctx); err != nil {
			return err
		}
	}
	return nil
}

// insertCopies inserts docs into coll of s's (new) database, in commands
// of guestInsertChunk documents, so no command is bigger than an
// import's. A duplicate can only be one of this copy's own documents,
// inserted by a try the database refused half way (insertEach), and is
// taken as inserted.
func insertCopies[T any](ctx context.Context, s *Store, coll string, docs []T) error {
	for part := range slices.Chunk(docs, guestInsertChunk) {
		batch := make([]any, len(part))
		for i := range part {
			batch[i] = part[i]
		}
		werrs, _, err := s.insertEach(ctx, coll, batch)
		if err != nil {
			return fmt.Errorf("copy %s: %w", coll, err)
		}
		for _, werr := range werrs {
			if werr != nil && !mongo.IsDuplicateKeyError(werr) {
				return fmt.Errorf("copy %s: %w", coll, werr)
			}
		}
	}
	return nil
}
