package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/event"
)

// collEvents is the registry of events (docs/EVENTS.md). It lives in the
// control database, which today is the database the store is opened on:
// that database is also the first event's, so an installation that has
// run one party all along becomes an installation of one event without
// moving a document.
const collEvents = "events"

// eventDoc is one row of the registry. An event's name, time, place and
// time zone are not here: they are its settings, read from its own
// database, so the list can never disagree with the settings page.
type eventDoc struct {
	ID string `bson:"_id"`
	// Database holds the event's data, in today's schema.
	Database  string    `bson:"database"`
	Archived  bool      `bson:"archived,omitempty"`
	CreatedAt time.Time `bson:"createdAt"`
}

// eventIndexes: one event per database. Two instances starting together
// on a database that has no registry row yet both try to register it; the
// unique index lets exactly one insert win, on MongoDB and on the
// embedded database alike (docs/DESIGN.md, "Store rules").
func eventIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "database", Value: 1}}, Options: options.Index().SetName("database_unique").SetUnique(true)},
	}
}

// EnsureFirstEvent registers the store's own database as an event, unless
// it is registered already, and returns its registry row. Open calls it,
// so a database written before there were events becomes the first event
// at start: one insert, nothing moved or rewritten. It is idempotent, and
// of instances starting together one registers the event and the others
// read its row.
func (s *Store) EnsureFirstEvent(ctx context.Context) (event.Event, error) {
	name := s.db.Name()
	doc, err := s.eventByDatabase(ctx, name)
	if err == nil {
		return s.eventOf(ctx, doc)
	}
	if !errors.Is(err, ErrNotFound) {
		return event.Event{}, err
	}
	doc = eventDoc{ID: NewID(), Database: name, CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collEvents).InsertOne(ctx, doc)
		return err
	})
	if mongo.IsDuplicateKeyError(err) {
		// Another instance registered it first: its row is the one.
		if doc, err = s.eventByDatabase(ctx, name); err != nil {
			return event.Event{}, err
		}
	} else if err != nil {
		return event.Event{}, fmt.Errorf("register event of database %s: %w", name, err)
	}
	return s.eventOf(ctx, doc)
}

func (s *Store) eventByDatabase(ctx context.Context, database string) (eventDoc, error) {
	var doc eventDoc
	err := s.coll(collEvents).FindOne(ctx, bson.D{{Key: "database", Value: database}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return doc, fmt.Errorf("load event of database %s: %w", database, ErrNotFound)
	}
	if err != nil {
		return doc, fmt.Errorf("load event of database %s: %w", database, err)
	}
	return doc, nil
}

// Events lists the installation's events in the host's order
// (event.Sort), each with its name, time, place and time zone read from
// its own settings and its status as of now.
func (s *Store) Events(ctx context.Context) ([]event.Event, error) {
	cur, err := s.coll(collEvents).Find(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	var docs []eventDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	events := make([]event.Event, 0, len(docs))
	for _, doc := range docs {
		e, err := s.eventOf(ctx, doc)
		if err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	event.Sort(events)
	return events, nil
}

// eventOf fills a registry row in from the settings of its database.
func (s *Store) eventOf(ctx context.Context, doc eventDoc) (event.Event, error) {
	db := s.db
	if doc.Database != db.Name() {
		db = s.client.Database(doc.Database)
	}
	st, err := settingsIn(ctx, db)
	if err != nil {
		return event.Event{}, fmt.Errorf("event %s: %w", doc.ID, err)
	}
	return event.Event{
		ID:        doc.ID,
		Name:      st.EventName,
		StartsAt:  st.EventDate,
		Timezone:  st.Timezone,
		Location:  st.Location,
		Database:  doc.Database,
		Status:    event.StatusAt(st.EventDate, doc.Archived, time.Now()),
		CreatedAt: doc.CreatedAt,
	}, nil
}
