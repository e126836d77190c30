package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
	"github.com/barhub/barhub/store/storetest"
)

// openEmbedded starts a store on its own embedded database in dir, as
// barhub serve does without MONGODB_URI.
func openEmbedded(t *testing.T, dir string) *store.Store {
	t.Helper()
	return openSingle(t, embedded.Config{DataDir: dir}, store.Config{})
}

// claimAll has n writers claim the move of one order version at once
// and returns how many got it.
func claimAll(t *testing.T, stores []*store.Store, id string, version, n int) int {
	t.Helper()
	var won sync.WaitGroup
	wins := make(chan struct{}, n)
	for i := range n {
		s := stores[i%len(stores)]
		won.Go(func() {
			err := s.ClaimOrderMove(context.Background(), id, version, time.Minute)
			switch {
			case err == nil:
				wins <- struct{}{}
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("claim: %v", err)
			}
		})
	}
	won.Wait()
	return len(wins)
}

// On the embedded database the claims of order moves are kept in memory:
// exactly one of many writers gets a version, a released version can be
// claimed again, an expired one is taken over, and none of it writes to
// the database.
func TestClaimOrderMoveEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, t.TempDir())
	defer s.Close(ctx)

	before := s.Writes()
	for v := 1; v <= 3; v++ {
		if n := claimAll(t, []*store.Store{s}, "o1", v, 20); n != 1 {
			t.Errorf("version %d: %d of 20 writers got the claim, want 1", v, n)
		}
	}
	if n := claimAll(t, []*store.Store{s}, "o2", 1, 20); n != 1 {
		t.Errorf("another order: %d of 20 got the claim, want 1", n)
	}
	if err := s.ReleaseOrderMove(ctx, "o1", 2); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimOrderMove(ctx, "o1", 2, time.Minute); err != nil {
		t.Errorf("a released version: %v, want it claimed again", err)
	}
	if err := s.ClaimOrderMove(ctx, "o1", 3, time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a held version: %v, want ErrConflict", err)
	}
	if err := s.ClaimOrderMove(ctx, "o3", 1, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	if err := s.ClaimOrderMove(ctx, "o3", 1, time.Minute); err != nil {
		t.Errorf("an expired claim: %v, want it taken over", err)
	}
	if w := s.Writes() - before; w != 0 {
		t.Errorf("the claims made %d database writes, want none on the embedded database", w)
	}
}

// On a shared database (two instances, as with MONGODB_URI) the claim is
// in the database: the other instance sees it, so exactly one writer of
// either instance moves a version, and a release on one frees it for the
// other.
func TestClaimOrderMoveAcrossInstances(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)

	if n := claimAll(t, []*store.Store{a, b}, "o1", 1, 20); n != 1 {
		t.Errorf("%d of 20 writers on two instances got the claim, want 1", n)
	}
	if err := a.ClaimOrderMove(ctx, "o1", 2, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := b.ClaimOrderMove(ctx, "o1", 2, time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the other instance's claim: %v, want ErrConflict", err)
	}
	if err := a.ReleaseOrderMove(ctx, "o1", 2); err != nil {
		t.Fatal(err)
	}
	if err := b.ClaimOrderMove(ctx, "o1", 2, time.Minute); err != nil {
		t.Errorf("after the other instance released it: %v", err)
	}
}

// On the embedded database ticket numbers are counted in memory and
// claimed a block at a time: 40 placements at once get 1 to 40, each
// once, for a few writes; after a restart the numbers go on from the
// last one handed out, without the rest of the block as a gap (the
// issue's "#2, then #17 after a restart"); another night starts at 1.
func TestNextTicketEmbedded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbedded(t, dir)
	const night = "2026-12-01"
	before := s.Writes()
	takeTickets(t, night, 40, func(int) *store.Store { return s })
	if w := s.Writes() - before; w > 4 {
		t.Errorf("40 tickets took %d database writes, want a few (one per block)", w)
	}
	s.Close(ctx)

	s = openEmbedded(t, dir)
	defer s.Close(ctx)
	n, err := s.NextTicket(ctx, night)
	if err != nil || n != 41 {
		t.Errorf("after a restart: %d, %v; want 41, the number after the last one handed out", n, err)
	}
	if m, err := s.NextTicket(ctx, night); err != nil || m != n+1 {
		t.Errorf("the next: %d, %v; want %d", m, err, n+1)
	}
	if n, err := s.NextTicket(ctx, "2026-12-02"); err != nil || n != 1 {
		t.Errorf("the next night: %d, %v; want 1", n, err)
	}
}
