package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/audit"
)

// What MongoDB does that embedded FerretDB v1 does not, used only on
// MongoDB. The embedded database keeps its work-arounds (sweepers for
// expiry, claims for compare-and-set, _id look-ups); on MongoDB they still
// run and find less to do. docs/DESIGN.md ("Indexes") lists which index
// each query uses.

// backendIsFerretDB reports whether the server is FerretDB, which answers
// buildInfo with its own version beside the MongoDB one it imitates. A
// barhub db reached through MONGODB_URI is FerretDB too.
func (s *Store) backendIsFerretDB(ctx context.Context) (bool, error) {
	var info bson.M
	if err := s.db.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return false, fmt.Errorf("buildInfo: %w", err)
	}
	_, ferret := info["ferretdbVersion"]
	return ferret, nil
}

// ttlIndexes are the expiries MongoDB carries out itself: a document goes
// within a minute of its time, with no sweeper's full read. Each names an
// index indexModels already makes (collMod turns it into a TTL index) or,
// with keys set, one only MongoDB gets.
var ttlIndexes = []struct {
	coll, name string
	keys       bson.D // nil: the index exists already
	after      time.Duration
}{
	{coll: collClaims, name: "expiresAt"},
	{coll: collIdempotency, name: "expiresAt"},
	// The audit log keeps 90 days (audit.Retention), counted from each entry's time.
	{coll: collAudit, name: "at_ttl", keys: bson.D{{Key: "at", Value: 1}}, after: audit.Retention},
}

// mongoIndexes are indexes only MongoDB gets: FerretDB v1 on SQLite uses
// no index but _id, so there they would cost every write and speed up no
// read.
func mongoIndexes() map[string][]mongo.IndexModel {
	return map[string][]mongo.IndexModel{
		// The host's guest list in its default order (GuestQuery.sort):
		// a page is read in index order instead of sorting every guest.
		collGuests: {{Keys: bson.D{{Key: "lastNameKey", Value: 1}, {Key: "firstName", Value: 1}, {Key: "_id", Value: 1}}, Options: options.Index().SetName("lastNameKey_firstName_id")}},
	}
}

// ensureMongoFeatures adds the TTL indexes and the MongoDB-only indexes.
// It is idempotent; on FerretDB it does nothing.
func (s *Store) ensureMongoFeatures(ctx context.Context) error {
	ferret, err := s.backendIsFerretDB(ctx)
	if err != nil || ferret {
		return err
	}
	s.onMongoDB = true
	for coll, models := range mongoIndexes() {
		if _, err := s.coll(coll).Indexes().CreateMany(ctx, models); err != nil {
			return fmt.Errorf("create MongoDB indexes on %s: %w", coll, err)
		}
	}
	for _, t := range ttlIndexes {
		secs := int32(t.after / time.Second)
		if t.keys != nil {
			m := mongo.IndexModel{Keys: t.keys, Options: options.Index().SetName(t.name).SetExpireAfterSeconds(secs)}
			if _, err := s.coll(t.coll).Indexes().CreateOne(ctx, m); err != nil {
				return fmt.Errorf("create TTL index %s on %s: %w", t.name, t.coll, err)
			}
			continue
		}
		// MongoDB 5.1 and later turn an existing single-field index into
		// a TTL index in place; running it again changes nothing.
		cmd := bson.D{{Key: "collMod", Value: t.coll}, {Key: "index", Value: bson.D{{Key: "name", Value: t.name}, {Key: "expireAfterSeconds", Value: secs}}}}
		if err := s.db.RunCommand(ctx, cmd).Err(); err != nil {
			return fmt.Errorf("make %s.%s a TTL index: %w", t.coll, t.name, err)
		}
	}
	return nil
}

// OnMongoDB reports whether the store found MongoDB (not FerretDB) and
// uses its TTL and extra indexes.
func (s *Store) OnMongoDB() bool { return s.onMongoDB }
