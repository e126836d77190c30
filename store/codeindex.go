package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// collCodeIndex is the index of sign-in codes across events, in the
// control database (docs/EVENTS.md, "Signing in"): for each code, the
// databases of the events other than the control one whose lists may
// hold it. Sign-in reads the control event's own codes and this one
// document, both _id look-ups, and asks only the events it names,
// however many events the installation keeps.
const collCodeIndex = "eventCodes"

// codeIndexDoc is one code's row of the index.
type codeIndexDoc struct {
	Code      string   `bson:"_id"`
	Databases []string `bson:"databases"`
}

// The index may name an event whose list no longer holds the code (the
// sign-in asks that event and finds nobody), never miss one that does:
// a code is indexed after it is reserved and before any guest holds it,
// and taken out of the index after its reservation is gone. A crash in
// between leaves a name too many, not one too few.

// indexCodes notes that s's list may hold codes. The control store keeps
// no index of its own codes: sign-in reads them directly.
func (s *Store) indexCodes(ctx context.Context, codes ...string) error {
	if s.codeIndex == nil || len(codes) == 0 {
		return nil
	}
	name := s.db.Name()
	models := make([]mongo.WriteModel, 0, len(codes))
	for _, code := range codes {
		if code == "" {
			continue
		}
		models = append(models, mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: code}}).
			SetUpdate(bson.D{{Key: "$addToSet", Value: bson.D{{Key: "databases", Value: name}}}}).
			SetUpsert(true))
	}
	// Two events indexing one code at once both upsert it: the loser of
	// the insert tries again and finds the winner's row.
	if err := s.updateInParts(ctx, s.codeIndex, onBusyOrDuplicate, models); err != nil {
		return fmt.Errorf("index codes of %s: %w", name, err)
	}
	return nil
}

// unindexCode takes s's event out of code's row once s no longer
// reserves it. A failure is only logged: the row then names s's event
// for a code it does not hold, which costs a sign-in one look-up.
func (s *Store) unindexCode(ctx context.Context, code string) {
	if s.codeIndex == nil || code == "" {
		return
	}
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.codeIndex.UpdateOne(ctx, bson.D{{Key: "_id", Value: code}},
			bson.D{{Key: "$pull", Value: bson.D{{Key: "databases", Value: s.db.Name()}}}})
		return err
	})
	if err != nil {
		s.log.WarnContext(ctx, "take a code out of the events' index", "err", err)
	}
}

// EventsWithCode returns those of databases, the databases of events
// besides the control event, whose lists may hold code. s is the control
// store. An event made before the index is returned until its codes are
// indexed (backfillCodeIndex): its own list is then the one to ask.
func (s *Store) EventsWithCode(ctx context.Context, code string, databases []string) ([]string, error) {
	var doc codeIndexDoc
	err := s.coll(collCodeIndex).FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&doc)
	if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return nil, fmt.Errorf("look up code in the events' index: %w", err)
	}
	indexed, err := s.indexedEvents(ctx, databases)
	if err != nil {
		return nil, err
	}
	var may []string
	for _, db := range databases {
		if !indexed[db] || slices.Contains(doc.Databases, db) {
			may = append(may, db)
		}
	}
	return may, nil
}

// indexedEvents reports which of databases have their codes indexed. An
// event once indexed stays so, so the registry is read only while one is
// not known to be: after an upgrade, until every event was opened.
func (s *Store) indexedEvents(ctx context.Context, databases []string) (map[string]bool, error) {
	known := make(map[string]bool, len(databases))
	all := true
	for _, db := range databases {
		_, known[db] = s.codesIndexed.Load(db)
		all = all && known[db]
	}
	if all {
		return known, nil
	}
	docs, err := s.eventDocs(ctx)
	if err != nil {
		return nil, err
	}
	for _, doc := range docs {
		if doc.CodesIndexed {
			s.codesIndexed.Store(doc.Database, true)
			known[doc.Database] = true
		}
	}
	return known, nil
}

// backfillCodeIndex indexes the codes of the guests of s's event, made
// before there was an index, then marks its registry row as indexed so
// sign-in trusts the index for it. Codes written meanwhile index
// themselves, so the two can run side by side, and on several instances.
func (s *Store) backfillCodeIndex(ctx context.Context, control *Store) error {
	doc, err := control.eventByDatabase(ctx, s.db.Name())
	if errors.Is(err, ErrNotFound) {
		return nil // not registered: nobody signs in to it
	}
	if err != nil {
		return err
	}
	if doc.CodesIndexed {
		control.codesIndexed.Store(doc.Database, true)
		return nil
	}
	cur, err := s.coll(collGuests).Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "code", Value: 1}}))
	if err != nil {
		return fmt.Errorf("read codes to index: %w", err)
	}
	var rows []struct {
		Code string `bson:"code"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return fmt.Errorf("read codes to index: %w", err)
	}
	codes := make([]string, len(rows))
	for i, r := range rows {
		codes[i] = r.Code
	}
	if err := s.indexCodes(ctx, codes...); err != nil {
		return err
	}
	err = control.retry(ctx, onBusy, func() error {
		_, err := control.coll(collEvents).UpdateOne(ctx, bson.D{{Key: "_id", Value: doc.ID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "codesIndexed", Value: true}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("mark event %s indexed: %w", doc.ID, err)
	}
	control.codesIndexed.Store(doc.Database, true)
	s.log.InfoContext(ctx, "codes indexed for sign-in", "event", doc.ID, "codes", len(codes))
	return nil
}

// forgetEventCodes takes a deleted event's database out of the index.
// The rows are found by a scan, once per deleted event; one left behind
// costs a sign-in nothing, as sign-in asks only events that exist.
func (s *Store) forgetEventCodes(ctx context.Context, database string) {
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collCodeIndex).UpdateMany(ctx, bson.D{{Key: "databases", Value: database}},
			bson.D{{Key: "$pull", Value: bson.D{{Key: "databases", Value: database}}}})
		return err
	})
	if err != nil {
		s.log.WarnContext(ctx, "take a deleted event out of the codes' index", "database", database, "err", err)
	}
}
