//go:build !mongodb

package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/barhub/barhub/store/storetest"
)

// make test runs this on the embedded database; make test-mongo builds
// with the mongodb tag and runs TestMongoDBFeatures instead.
func TestEmbeddedKeepsItsWorkArounds(t *testing.T) {
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
