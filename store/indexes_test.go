package store_test

import (
	"context"
	"testing"

	"github.com/barhub/barhub/store/storetest"
)

// Every instance creates the indexes at start, so doing it again must work.
func TestEnsureIndexesIsIdempotent(t *testing.T) {
	s := storetest.New(t)
	for range 3 {
		if err := s.EnsureIndexes(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
