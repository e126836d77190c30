package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// A long night on the embedded database: each guest's order list keeps
// its newest part in memory, at most a bound of finished orders, and the
// served orders beyond it go to the guest's document. What a guest sees
// does not change: every order, in order, served ones included, before
// and after a restart; the open-order limit still finds every unfinished
// order without a read of the finished ones.
func TestGuestOrderListsBoundedEmbedded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbedded(t, dir)
	const guests, perGuest = 3, 60
	// bound is the most a guest's list holds in memory when none of its
	// orders waits at the bar (store.guestKeep+store.guestSaveBatch-1).
	const bound = 11
	want := map[string][]string{}
	// ann's first order stays at the bar all night, so her list's front
	// cannot go to the document until it is served.
	stuck := "ann-00"
	for i := range perGuest {
		for g, name := range []string{"ann", "bob", "cat"}[:guests] {
			id := fmt.Sprintf("%s-%02d", name, i)
			if err := s.CreateOrder(ctx, newOrder(id, name, order.Queued, at(i*guests+g))); err != nil {
				t.Fatal(err)
			}
			want[name] = append(want[name], id)
			if id != stuck {
				serveOrder(t, s, id)
			}
		}
		if held, most := s.HeldGuestOrders(), guests*bound+(i+1); held > most {
			t.Fatalf("after %d orders each: %d orders held in memory, want at most %d", i+1, held, most)
		}
	}
	// bob and cat hold no more than the bound: the held count is ann's
	// whole night (held behind her open first order) and at most the
	// bound each for the others.
	if held := s.HeldGuestOrders(); held < perGuest || held > perGuest+2*bound {
		t.Fatalf("%d orders held in memory, want ann's %d and at most %d more", held, perGuest, 2*bound)
	}

	check := func(t *testing.T, s *store.Store, after string) {
		t.Helper()
		for name, ids := range want {
			got, err := s.GuestOrderIDs(ctx, name)
			if err != nil || !slices.Equal(got, ids) {
				t.Errorf("%s: %s's list %v, %v; want %v", after, name, got, err, ids)
			}
		}
		mine, err := s.OrdersByGuest(ctx, "bob", 50)
		newest := slices.Clone(want["bob"][perGuest-50:])
		slices.Reverse(newest)
		if got := orderIDs(mine); err != nil || !slices.Equal(got, newest) {
			t.Errorf("%s: bob's newest 50 %v, %v; want %v", after, got, err, newest)
		}
		for _, o := range mine {
			if o.Status != order.Served {
				t.Errorf("%s: bob's %s is %s, want served", after, o.ID, o.Status)
			}
		}
		if all, err := s.OrdersByGuest(ctx, "cat", 0); err != nil || len(all) != perGuest {
			t.Errorf("%s: cat's orders: %d, %v; want %d", after, len(all), err, perGuest)
		}
		// Pacing reads back across what memory holds: cat's orders of
		// her last 30 rounds (orders at minute 3i+2).
		recent, err := s.GuestOrdersSince(ctx, "cat", at(30*guests+2))
		if err != nil || len(recent) != 30 || recent[0].ID != "cat-30" || recent[29].ID != "cat-59" {
			t.Errorf("%s: cat's orders since round 30: %v, %v", after, orderIDs(recent), err)
		}
		// What a placement reads: the newest part, and that there is
		// more. Every unfinished order is in it.
		ids, older, err := s.GuestRecentOrderIDs(ctx, "bob")
		if err != nil || !older || len(ids) > bound || len(ids) == 0 || ids[len(ids)-1] != "bob-59" {
			t.Errorf("%s: bob's recent ids %v, older %v, %v; want at most %d ending bob-59, older", after, ids, older, err, bound)
		}
		ids, _, _ = s.GuestRecentOrderIDs(ctx, "ann")
		open, _, err := s.GuestUnfinishedOrders(ctx, "ann", ids, nil)
		if o, _ := s.OrderByID(ctx, stuck); o.Status.Final() {
			if err != nil || len(open) != 0 {
				t.Errorf("%s: ann's unfinished %v, %v; want none", after, orderIDs(open), err)
			}
		} else if err != nil || len(open) != 1 || open[0].ID != stuck {
			t.Errorf("%s: ann's unfinished %v, %v; want [%s]", after, orderIDs(open), err, stuck)
		}
	}
	check(t, s, "before the restart")
	s.Close(ctx)

	s = openEmbedded(t, dir)
	check(t, s, "after a restart")
	if held := s.HeldGuestOrders(); held > perGuest+2*bound {
		t.Errorf("after a restart: %d orders held in memory, want at most %d", held, perGuest+2*bound)
	}
	// ann's first order served at last: her list's front goes to the
	// document, and she holds no more than the others.
	writes := s.Writes()
	serveOrder(t, s, stuck)
	if held := s.HeldGuestOrders(); held > guests*bound {
		t.Errorf("ann's first order served: %d orders held in memory, want at most %d", held, guests*bound)
	}
	if w := s.Writes() - writes; w > 3+1 {
		t.Errorf("serving it took %d writes, want its own and one for the list", w)
	}
	if got, err := s.GuestOrderIDs(ctx, "ann"); err != nil || !slices.Equal(got, want["ann"]) {
		t.Errorf("ann's list after her first order was served: %v, %v", got, err)
	}

	// A data folder from before the lists were saved (or whose last
	// saves a crash lost): the first use saves what memory need not
	// hold, and the lists are whole.
	if err := s.DB().Collection("guestorders").Drop(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close(ctx)
	s = openEmbedded(t, dir)
	defer s.Close(ctx)
	check(t, s, "with no list documents")
	if held := s.HeldGuestOrders(); held > guests*bound {
		t.Errorf("with no list documents: %d orders held in memory, want at most %d", held, guests*bound)
	}
}

// The open-order limit's read of a guest with a long night: only the
// unfinished orders are returned, whether read one by one or, on a shared
// database with many in doubt, in one query.
func TestGuestUnfinishedOrdersLongList(t *testing.T) {
	onBothStores(t, testGuestUnfinishedOrdersLongList)
}

func testGuestUnfinishedOrdersLongList(t *testing.T, s *store.Store) {
	ctx := context.Background()
	var open []string
	for i := range 12 {
		id := fmt.Sprintf("ann-%02d", i)
		if err := s.CreateOrder(ctx, newOrder(id, "ann", order.Queued, at(i))); err != nil {
			t.Fatal(err)
		}
		if i%4 == 1 {
			open = append(open, id)
		} else {
			serveOrder(t, s, id)
		}
	}
	if err := s.CreateOrder(ctx, newOrder("bob-1", "bob", order.Queued, at(20))); err != nil {
		t.Fatal(err)
	}
	ids, err := s.GuestOrderIDs(ctx, "ann")
	if err != nil || len(ids) != 12 {
		t.Fatalf("ann's list %v, %v", ids, err)
	}
	// bob's open order among ann's ids is not hers.
	got, _, err := s.GuestUnfinishedOrders(ctx, "ann", append(ids, "bob-1"), nil)
	gotIDs := orderIDs(got)
	slices.Sort(gotIDs)
	if err != nil || !slices.Equal(gotIDs, open) {
		t.Errorf("ann's unfinished %v, %v; want %v", gotIDs, err, open)
	}
	// Those already known finished are not asked about.
	known := func(id string) bool { return !slices.Contains(open, id) && id != "bob-1" }
	got, done, err := s.GuestUnfinishedOrders(ctx, "ann", ids, known)
	if err != nil || len(got) != len(open) || len(done) != 0 {
		t.Errorf("ann's unfinished, the rest known: %v, done %v, %v", orderIDs(got), done, err)
	}
}

// On the embedded database the served and cancelled totals are counted
// in memory after one read of the archive (a count reads every archived
// order into memory); orders finishing while that read runs are counted
// once, not twice or never.
func TestFinishedCountsEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, t.TempDir())
	defer s.Close(ctx)
	const n = 40
	for i := range n {
		if err := s.CreateOrder(ctx, newOrder(fmt.Sprintf("o%02d", i), "ann", order.Ready, at(i))); err != nil {
			t.Fatal(err)
		}
	}
	// Two finished before anyone counts, one of them straight into the
	// archive.
	serveOrder(t, s, "o00")
	if err := s.CreateOrder(ctx, newOrder("cancelled", "bob", order.Cancelled, at(50))); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Go(func() { serveOrder(t, s, fmt.Sprintf("o%02d", i)) })
		if i%8 == 0 {
			wg.Go(func() {
				if _, err := s.FinishedOrderCounts(ctx); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	c, err := s.FinishedOrderCounts(ctx)
	if err != nil || c[order.Served] != n || c[order.Cancelled] != 1 {
		t.Fatalf("finished counts %v, %v; want %d served, 1 cancelled", c, err, n)
	}
	all, err := s.OrderCounts(ctx)
	if err != nil || all[order.Served] != n || all[order.Cancelled] != 1 || all[order.Ready] != 0 {
		t.Fatalf("all counts %v, %v", all, err)
	}
	// A stale serve (the version moved on) counts nothing.
	o := newOrder("late", "ann", order.Ready, at(60))
	o.Version = 3
	if err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	stale := *o
	stale.Status, stale.Version = order.Served, 3
	if err := s.ReplaceOrder(ctx, stale, 2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a stale serve: %v, want ErrConflict", err)
	}
	if c, _ := s.FinishedOrderCounts(ctx); c[order.Served] != n {
		t.Fatalf("after a stale serve: %v, want %d served", c, n)
	}
}
