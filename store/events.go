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

// ErrControlEvent is returned for what cannot be done to the control
// event, the one whose database holds the registry: deleting it, or
// opening it a second time beside the store that serves it.
var ErrControlEvent = errors.New("the control event")

// ErrInvalidEvent is returned when a new event's details are wrong; the
// error also wraps a *guest.FieldError naming the field.
var ErrInvalidEvent = errors.New("invalid event")

// eventDatabaseInfix joins the control database's name and an event's id
// into the name of that event's database.
const eventDatabaseInfix = "_e_"

// eventDoc is one row of the registry. An event's name, time, place and
// time zone are not here: they are its settings, read from its own
// database, so the list can never disagree with the settings page.
type eventDoc struct {
	ID string `bson:"_id"`
	// Database holds the event's data, in today's schema.
	Database  string    `bson:"database"`
	Archived  bool      `bson:"archived,omitempty"`
	CreatedAt time.Time `bson:"createdAt"`
	// CodesIndexed: the event's codes are in the control database's
	// index of codes (codeindex.go), so sign-in may trust it.
	CodesIndexed bool `bson:"codesIndexed,omitempty"`
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
	docs, err := s.eventDocs(ctx)
	if err != nil {
		return nil, err
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

// eventDocs reads the whole registry.
func (s *Store) eventDocs(ctx context.Context) ([]eventDoc, error) {
	cur, err := s.coll(collEvents).Find(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	var docs []eventDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	return docs, nil
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

// OpenEvent returns a store on database, another database of the same
// server: it shares s's client (no connection pool of its own), gate,
// watchdog and logger, and has every per-database state of its own (the
// guest index, ticket numbers, write turns, locks, and, when s is its
// database's only writer, the in-memory state of single.go). It makes the
// indexes of that database but registers nothing: events are registered
// by CreateEvent. Close gives back its tickets and leaves the connection
// to s.
//
// database may not be s's own: two stores on one database would each
// keep its own copy of what a single writer holds in memory.
func (s *Store) OpenEvent(ctx context.Context, database string) (*Store, error) {
	if database == "" {
		return nil, errors.New("open event: no database named")
	}
	if database == s.db.Name() {
		return nil, fmt.Errorf("open event database %s: it is this store's own: %w", database, ErrControlEvent)
	}
	e := &Store{
		client:     s.client,
		db:         s.client.Database(database),
		gate:       s.gate,
		log:        s.log,
		onMongoDB:  s.onMongoDB,
		calls:      s.calls,
		instance:   s.instance,
		stuckAfter: s.stuckAfter,
		shared:     true,
		writes:     s.writes,
		codeIndex:  s.coll(collCodeIndex),
	}
	if s.single != nil {
		e.single = &single{}
	}
	if err := e.EnsureIndexes(ctx); err != nil {
		return nil, fmt.Errorf("open event database %s: %w", database, err)
	}
	if err := e.backfillCodeIndex(ctx, s); err != nil {
		return nil, fmt.Errorf("open event database %s: %w", database, err)
	}
	return e, nil
}

// Event returns the registry row id, filled in from its settings; an
// unknown id is ErrNotFound.
func (s *Store) Event(ctx context.Context, id string) (event.Event, error) {
	doc, err := s.eventByID(ctx, id)
	if err != nil {
		return event.Event{}, err
	}
	return s.eventOf(ctx, doc)
}

// ControlEvent returns the event of s's own database, registering it
// first if need be (EnsureFirstEvent).
func (s *Store) ControlEvent(ctx context.Context) (event.Event, error) {
	return s.EnsureFirstEvent(ctx)
}

func (s *Store) eventByID(ctx context.Context, id string) (eventDoc, error) {
	return findByID[eventDoc](ctx, s, collEvents, "event", id)
}

// SetEventArchived archives the event id, or brings it back; an unknown
// id is ErrNotFound. The control event, whose hosts host every event, is
// refused (ErrControlEvent), as DeleteEvent refuses it.
func (s *Store) SetEventArchived(ctx context.Context, id string, archived bool) error {
	doc, err := s.eventByID(ctx, id)
	if err != nil {
		return fmt.Errorf("archive event: %w", err)
	}
	if doc.Database == s.db.Name() {
		return fmt.Errorf("archive event %s: %w", id, ErrControlEvent)
	}
	var res *mongo.UpdateResult
	err = s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collEvents).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "archived", Value: archived}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("archive event %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("archive event %s: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteEvent drops the database of the event id, then its registry row.
// The control event, whose database holds the registry, is refused
// (ErrControlEvent); an unknown id is ErrNotFound. A failure between the
// two steps leaves the row, so the host sees the event and deletes it
// again.
func (s *Store) DeleteEvent(ctx context.Context, id string) error {
	doc, err := s.eventByID(ctx, id)
	if err != nil {
		return fmt.Errorf("delete event: %w", err)
	}
	if doc.Database == s.db.Name() {
		return fmt.Errorf("delete event %s: %w", id, ErrControlEvent)
	}
	if err := s.dropEvent(ctx, doc); err != nil {
		return fmt.Errorf("delete event %s: %w", id, err)
	}
	return nil
}

// dropEvent drops doc's database, then removes doc from the registry.
func (s *Store) dropEvent(ctx context.Context, doc eventDoc) error {
	if err := s.client.Database(doc.Database).Drop(ctx); err != nil {
		return fmt.Errorf("drop database %s: %w", doc.Database, err)
	}
	s.forgetEventCodes(ctx, doc.Database)
	s.codesIndexed.Delete(doc.Database)
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collEvents).DeleteOne(ctx, bson.D{{Key: "_id", Value: doc.ID}})
		return err
	})
	if err != nil {
		return fmt.Errorf("remove registry row: %w", err)
	}
	return nil
}
