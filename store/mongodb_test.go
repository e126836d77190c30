package store_test

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/store"
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
