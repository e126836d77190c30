package store_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/api/store"
	"github.com/barhub/barhub/api/store/storetest"
)

// indexes lists a collection's indexes by name with their TTL, -1 for none.
func indexes(t *testing.T, s *store.Store, coll string) map[string]int64 {
	t.Helper()
	cur, err := s.DB().Collection(coll).Indexes().List(context.Background())
	if err != nil {
		t.Fatalf("list indexes of %s: %v", coll, err)
	}
	var specs []bson.M
	if err := cur.All(context.Background(), &specs); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, sp := range specs {
		ttl := int64(-1)
		switch v := sp["expireAfterSeconds"].(type) {
		case int32:
			ttl = int64(v)
		case int64:
			ttl = v
		case float64:
			ttl = int64(v)
		}
		out[sp["name"].(string)] = ttl
	}
	return out
}

// The TTL indexes and the extra indexes are MongoDB's alone; on the
// embedded database the sweepers keep doing the expiry.
var mongoOnly = []struct {
	coll, index string
	ttl         int64
}{
	{"claims", "expiresAt", 0},
	{"idempotency", "expiresAt", 0},
	{"audit", "at_ttl", 90 * 24 * 3600},
	{"guests", "lastNameKey_firstName_id", -1},
}

func TestEmbeddedKeepsItsWorkArounds(t *testing.T) {
	if os.Getenv("MONGODB_URI") != "" {
		t.Skip("MONGODB_URI is set: TestMongoDBFeatures checks that server")
	}
	s := storetest.New(t)
	if s.OnMongoDB() {
		t.Fatal("the embedded database was taken for MongoDB")
	}
	for _, m := range mongoOnly {
		if ttl, ok := indexes(t, s, m.coll)[m.index]; ok && (m.ttl < 0 || ttl >= 0) {
			t.Errorf("embedded %s has MongoDB's index %s (TTL %d)", m.coll, m.index, ttl)
		}
	}
	// Expiry is the sweeper's: an expired claim stays until it runs.
	ctx := context.Background()
	if err := s.Claim(ctx, "expired", -time.Minute); err != nil {
		t.Fatal(err)
	}
	if n, err := s.SweepClaims(ctx, time.Now().UTC()); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v, want 1", n, err)
	}
}

// TestMongoDBFeatures runs against a real MongoDB (make test-mongo
// MONGODB_URI=…): the TTL indexes are in place with their times, and the
// hot queries other than by _id are answered from an index, never a
// collection scan.
func TestMongoDBFeatures(t *testing.T) {
	if os.Getenv("MONGODB_URI") == "" {
		t.Skip("needs a real MongoDB: run make test-mongo MONGODB_URI=mongodb://host:27017/?replicaSet=rs0 (the embedded database has no TTL or secondary indexes to check)")
	}
	s := storetest.New(t)
	if !s.OnMongoDB() {
		t.Skip("MONGODB_URI is FerretDB (barhub db), not MongoDB: nothing MongoDB-only to check")
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

// indexNames collects every indexName in an explain plan.
func indexNames(v any) []string {
	var out []string
	switch x := v.(type) {
	case bson.M:
		if n, ok := x["indexName"].(string); ok {
			out = append(out, n)
		}
		for k, c := range x {
			if k != "rejectedPlans" {
				out = append(out, indexNames(c)...)
			}
		}
	case bson.D:
		for _, e := range x {
			if e.Key == "indexName" {
				if n, ok := e.Value.(string); ok {
					out = append(out, n)
				}
			} else if e.Key != "rejectedPlans" {
				out = append(out, indexNames(e.Value)...)
			}
		}
	case bson.A:
		for _, c := range x {
			out = append(out, indexNames(c)...)
		}
	}
	return out
}
