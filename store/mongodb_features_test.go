//go:build mongodb

package store_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/store/storetest"
)

// TestMongoDBFeatures runs against a real MongoDB (make test-mongo
// MONGODB_URI=…): the TTL indexes are in place with their times, and the
// hot queries other than by _id are answered from an index, never a
// collection scan.
func TestMongoDBFeatures(t *testing.T) {
	if os.Getenv("MONGODB_URI") == "" {
		t.Fatal("needs a real MongoDB: run make test-mongo MONGODB_URI=mongodb://host:27017/?replicaSet=rs0")
	}
	s := storetest.New(t)
	if !s.OnMongoDB() {
		t.Fatal("MONGODB_URI is FerretDB (barhub db), not MongoDB: make test-mongo needs a real MongoDB")
	}
	for _, m := range mongoOnly {
		ttl, ok := indexes(t, s, m.coll)[m.index]
		if !ok || ttl != m.ttl {
			t.Errorf("%s.%s: present %v, TTL %d; want TTL %d", m.coll, m.index, ok, ttl, m.ttl)
		}
	}
	for _, q := range []struct {
		name, coll, index string
		filter, sort      bson.D
	}{
		{"guests by status (stats, lists)", "guests", "status", bson.D{{Key: "status", Value: "coming"}}, nil},
		{"guest list, default order", "guests", "lastNameKey_firstName_id", bson.D{}, bson.D{{Key: "lastNameKey", Value: 1}, {Key: "firstName", Value: 1}, {Key: "_id", Value: 1}}},
		{"a group's members", "guests", "groupId_sparse", bson.D{{Key: "groupId", Value: "g"}}, nil},
		{"a guest's orders, newest first", "orders", "guest_created", bson.D{{Key: "guestId", Value: "g"}}, bson.D{{Key: "createdAt", Value: -1}}},
		{"the bar's queue", "orders", "status_created", bson.D{{Key: "status", Value: "queued"}}, bson.D{{Key: "createdAt", Value: 1}}},
		{"the next job to run", "jobs", "status_nextAttemptAt", bson.D{{Key: "status", Value: "queued"}, {Key: "nextAttemptAt", Value: bson.D{{Key: "$lte", Value: time.Now()}}}}, nil},
		{"a guest's recommendations", "recommendations", "guestId_createdAt", bson.D{{Key: "guestId", Value: "g"}}, bson.D{{Key: "createdAt", Value: -1}}},
		{"audit by action", "audit", "action_id", bson.D{{Key: "action", Value: "guest.update"}}, bson.D{{Key: "_id", Value: -1}}},
		{"expired claims (sweeper)", "claims", "expiresAt", bson.D{{Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: time.Now()}}}}, nil},
	} {
		find := bson.D{{Key: "find", Value: q.coll}, {Key: "filter", Value: q.filter}}
		if q.sort != nil {
			find = append(find, bson.E{Key: "sort", Value: q.sort})
		}
		var plan bson.M
		err := s.DB().RunCommand(context.Background(), bson.D{{Key: "explain", Value: find}, {Key: "verbosity", Value: "queryPlanner"}}).Decode(&plan)
		if err != nil {
			t.Fatalf("%s: explain: %v", q.name, err)
		}
		if used := indexNames(plan["queryPlanner"]); !slices.Contains(used, q.index) {
			t.Errorf("%s: plan uses %v, want index %s", q.name, used, q.index)
		}
	}
}
