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

	"github.com/barhub/barhub/audit"
)

// The audit log: one document per recorded action, its _id the action's
// time followed by random hex (audit.NewID). Ordering by _id is ordering
// by time, so the newest-first list and the sweeper need nothing but the
// _id, and a time range is an _id range.

const collAudit = "audit"

// auditIndexes back the admin's filters by action (family) and by actor,
// both read newest first.
func auditIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "action", Value: 1}, {Key: "_id", Value: -1}}, Options: options.Index().SetName("action_id")},
		{Keys: bson.D{{Key: "actorId", Value: 1}, {Key: "_id", Value: -1}}, Options: options.Index().SetName("actorId_id")},
	}
}

// InsertAudit stores e. A zero At is now; an empty ID is made from At.
func (s *Store) InsertAudit(ctx context.Context, e *audit.Entry) error {
	return s.InsertAudits(ctx, []*audit.Entry{e})
}

// InsertAudits stores entries in one write, as InsertAudit does each.
func (s *Store) InsertAudits(ctx context.Context, entries []*audit.Entry) error {
	docs := make([]any, len(entries))
	for i, e := range entries {
		if e.Action == "" {
			return errors.New("insert audit entry: empty action")
		}
		if e.At.IsZero() {
			e.At = time.Now()
		}
		// The database keeps milliseconds; the id's time must be the same.
		e.At = e.At.UTC().Truncate(time.Millisecond)
		if e.ID == "" {
			e.ID = audit.NewID(e.At)
		}
		docs[i] = e
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collAudit).InsertMany(ctx, docs); return err }); err != nil {
		return fmt.Errorf("insert %d audit entries (%s…): %w", len(entries), entries[0].Action, err)
	}
	return nil
}

// AuditFilter selects audit entries; zero fields match everything.
type AuditFilter struct {
	// Action is an exact action ("guest.create") or a family of actions
	// ("guest" matches guest.create, guest.update, …).
	Action string
	// Families narrows to entries in any of these families of actions
	// (an area of the desk: the door is "door", the bar "stock",
	// "drink_stock" and "board").
	Families []string
	ActorID  string
	// Since (inclusive) and Until (exclusive) bound the entries' times.
	Since, Until time.Time
	// Limit is the page size (50 when 0, at most MaxPageSize); Page
	// counts from 1.
	Limit, Page int
}

func (f AuditFilter) bson() bson.D {
	filter := bson.D{}
	var actions bson.A
	if f.Action != "" {
		// "^guest(\.|$)": the action itself or any action under it. It
		// is anchored, so an index on action bounds it on MongoDB.
		actions = append(actions, bson.D{{Key: "action", Value: bson.D{{Key: "$regex", Value: "^" + regexp.QuoteMeta(f.Action) + `(\.|$)`}}}})
	}
	if len(f.Families) > 0 {
		quoted := make([]string, len(f.Families))
		for i, fam := range f.Families {
			quoted[i] = regexp.QuoteMeta(fam)
		}
		actions = append(actions, bson.D{{Key: "action", Value: bson.D{{Key: "$regex", Value: "^(" + strings.Join(quoted, "|") + `)(\.|$)`}}}})
	}
	switch len(actions) {
	case 1:
		filter = append(filter, actions[0].(bson.D)...)
	case 2:
		filter = append(filter, bson.E{Key: "$and", Value: actions})
	}
	if f.ActorID != "" {
		filter = append(filter, bson.E{Key: "actorId", Value: f.ActorID})
	}
	id := bson.D{}
	if !f.Since.IsZero() {
		id = append(id, bson.E{Key: "$gte", Value: audit.Bound(f.Since)})
	}
	if !f.Until.IsZero() {
		id = append(id, bson.E{Key: "$lt", Value: audit.Bound(f.Until)})
	}
	if len(id) > 0 {
		filter = append(filter, bson.E{Key: "_id", Value: id})
	}
	return filter
}

// ListAudit returns one page of the entries f selects, newest first, and
// how many it selects in all.
func (s *Store) ListAudit(ctx context.Context, f AuditFilter) ([]audit.Entry, int64, error) {
	limit := f.Limit
	if limit <= 0 || limit > MaxPageSize {
		limit = 50
	}
	page := max(f.Page, 1)
	filter := f.bson()
	total, err := s.coll(collAudit).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("count audit entries: %w", err)
	}
	opts := options.Find().
		SetSort(bson.D{{Key: "_id", Value: -1}}).
		SetSkip(int64(page-1) * int64(limit)).
		SetLimit(int64(limit))
	cur, err := s.coll(collAudit).Find(ctx, filter, opts)
	if err != nil {
		return nil, 0, fmt.Errorf("list audit entries: %w", err)
	}
	out := []audit.Entry{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, 0, fmt.Errorf("list audit entries: %w", err)
	}
	return out, total, nil
}

// SweepAudit deletes the entries from before cutoff and says how many.
func (s *Store) SweepAudit(ctx context.Context, cutoff time.Time) (int64, error) {
	var res *mongo.DeleteResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collAudit).DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: audit.Bound(cutoff)}}}})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sweep audit entries: %w", err)
	}
	return res.DeletedCount, nil
}
