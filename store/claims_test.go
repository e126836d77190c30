package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestClaimHasOneWinner(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	for round := range 5 {
		key := "order/x/v" + string(rune('0'+round))
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.Claim(ctx, key, time.Minute)
				switch {
				case err == nil:
					wins.Add(1)
				case !errors.Is(err, store.ErrConflict):
					t.Errorf("claim: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("round %d: %d winners, want 1", round, wins.Load())
		}
	}
}

func TestClaimExpiredIsTakenOver(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	if err := s.Claim(ctx, "k", -time.Second); err != nil {
		t.Fatal(err)
	}
	if err := s.Claim(ctx, "k", time.Minute); err != nil {
		t.Fatalf("take over expired claim: %v", err)
	}
	if err := s.Claim(ctx, "k", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("live claim taken: %v", err)
	}
	if err := s.Release(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if err := s.Claim(ctx, "k", time.Minute); err != nil {
		t.Fatalf("claim after release: %v", err)
	}
}
