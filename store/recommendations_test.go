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

func TestRecommendationRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	r := store.Recommendation{GuestID: "g1", Request: store.RecommendationRequest{Likes: []string{"sour"}, Mood: "celebrating", AlcoholFree: true}}
	if err := s.CreateRecommendation(ctx, &r); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecommendationByID(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.RecommendationQueued || got.GuestID != "g1" || got.Request.Mood != "celebrating" ||
		!got.Request.AlcoholFree || len(got.Request.Likes) != 1 || got.Drinks == nil || len(got.Drinks) != 0 {
		t.Fatalf("queued: %+v", got)
	}

	done, err := s.CompleteRecommendation(ctx, r.ID, store.RecommendationDone, store.RecommendationResult{
		Source: store.SourceBedrock, Model: "amazon.nova-pro-v1:0", PromptVersion: "recommend.v1",
		Drinks: []store.RecommendedDrink{{ID: "d1", Name: "Sour", Reason: "You like sour."}, {ID: "d2", Name: "Spritz", Reason: "Bubbles."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != store.RecommendationDone || done.Source != "bedrock" || len(done.Drinks) != 2 || done.Drinks[1].Name != "Spritz" || done.PromptVersion != "recommend.v1" {
		t.Fatalf("done: %+v", done)
	}
	if _, err := s.CompleteRecommendation(ctx, "missing", store.RecommendationDone, store.RecommendationResult{}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("complete missing: %v", err)
	}
	if _, err := s.RecommendationByID(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("load missing: %v", err)
	}
}

func TestReserveRecommendationLimitsBursts(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	window := 10 * time.Minute
	at := time.Date(2026, 12, 1, 20, 3, 0, 0, time.UTC) // 7 minutes before the window ends
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _, err := s.ReserveRecommendation(ctx, "g1", 5, window, at)
			if err != nil {
				t.Error(err)
			}
			if got {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 5 {
		t.Fatalf("%d of 12 parallel requests allowed, want 5", ok.Load())
	}
	got, retry, err := s.ReserveRecommendation(ctx, "g1", 5, window, at)
	if err != nil || got || retry != 7*time.Minute {
		t.Fatalf("sixth request: ok %v retryAfter %v err %v; want refused, 7m", got, retry, err)
	}
	// Another guest has their own allowance; the next window starts afresh.
	if got, _, err := s.ReserveRecommendation(ctx, "g2", 5, window, at); err != nil || !got {
		t.Fatalf("other guest: %v %v", got, err)
	}
	if got, _, err := s.ReserveRecommendation(ctx, "g1", 5, window, at.Add(7*time.Minute)); err != nil || !got {
		t.Fatalf("next window: %v %v", got, err)
	}
}
