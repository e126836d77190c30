package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

var t0 = time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func newOrder(id, guestID string, status order.Status, created time.Time) *order.Order {
	return &order.Order{
		ID: id, GuestID: guestID, GuestName: "G " + guestID, Status: status, Version: 1,
		Items:     []order.Item{{DrinkID: "negroni", Name: "Negroni", Qty: 2, StandardDrinks: 1.9}},
		History:   []order.Transition{{To: order.Queued, At: created, ActorID: guestID}},
		CreatedAt: created, UpdatedAt: created,
	}
}

// TestOrderQueries runs on a shared database's store, where each guest's
// order list is a document, and on the embedded database's, where it is
// kept in memory.
func TestOrderQueries(t *testing.T) { onBothStores(t, testOrderQueries) }

// onBothStores runs test on a shared database's store and on the
// embedded database's, which keeps the guests' order lists in memory and
// compares an order's version under a lock of its own.
func onBothStores(t *testing.T, test func(t *testing.T, s *store.Store)) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) *store.Store
	}{
		{"shared", func(t *testing.T) *store.Store { return storetest.New(t) }},
		{"embedded", func(t *testing.T) *store.Store {
			s := openEmbedded(t, t.TempDir())
			t.Cleanup(func() { s.Close(context.Background()) })
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { test(t, tc.open(t)) })
	}
}

func testOrderQueries(t *testing.T, s *store.Store) {
	ctx := context.Background()
	orders := []*order.Order{
		newOrder("o1", "ann", order.Served, at(0)),
		newOrder("o2", "ann", order.Queued, at(5)),
		newOrder("o3", "bob", order.Preparing, at(2)),
		newOrder("o4", "ann", order.Preparing, at(7)),
		newOrder("o5", "bob", order.Ready, at(3)),
		newOrder("o6", "cat", order.Cancelled, at(4)),
		newOrder("o7", "cat", order.Queued, at(8)),
	}
	started, ready := at(1), at(3)
	orders[0].StartedAt, orders[0].ReadyAt = &started, &ready
	started5, ready5 := at(3), at(4)
	orders[4].StartedAt, orders[4].ReadyAt = &started5, &ready5
	orders[2].StartedAt = &started5
	for _, o := range orders {
		if err := s.CreateOrder(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateOrder(ctx, newOrder("o2", "x", order.Queued, at(0))); !errors.Is(err, store.ErrConflict) {
		t.Errorf("duplicate order id: %v", err)
	}
	// The refused order's id stays on x's list (it is written first), but
	// that order is ann's, so x has none.
	if xs, err := s.OrdersByGuest(ctx, "x", 10); err != nil || len(xs) != 0 {
		t.Errorf("x's orders %v, %v; want none", orderIDs(xs), err)
	}

	mine, err := s.OrdersByGuest(ctx, "ann", 10)
	if err != nil || len(mine) != 3 || mine[0].ID != "o4" || mine[2].ID != "o1" {
		t.Errorf("ann's orders %v, %v; want o4, o2, o1", orderIDs(mine), err)
	}
	if got, _ := s.OrdersByGuest(ctx, "ann", 2); len(got) != 2 {
		t.Errorf("limit 2 gave %d", len(got))
	}
	if n, _ := s.CountOpenOrders(ctx, "ann"); n != 2 {
		t.Errorf("ann open = %d, want 2 (queued + preparing)", n)
	}
	if n, _ := s.CountOpenOrders(ctx, "bob"); n != 1 {
		t.Errorf("bob open = %d, want 1 (ready does not count)", n)
	}
	recent, _ := s.GuestOrdersSince(ctx, "ann", at(5))
	if got := orderIDs(recent); len(got) != 2 || got[0] != "o2" || got[1] != "o4" {
		t.Errorf("ann since 20:05 = %v", got)
	}

	queue, err := s.BarQueue(ctx)
	if got := orderIDs(queue); err != nil || len(got) != 5 || got[0] != "o3" || got[1] != "o5" || got[4] != "o7" {
		t.Errorf("bar queue %v, %v; want o3 o5 o2 o4 o7", got, err)
	}
	open, _ := s.OpenQueue(ctx)
	if len(open) != 4 {
		t.Errorf("open queue has %d, want 4", len(open))
	}
	p, ok := order.PlaceIn(open, "o7", time.Minute, at(8))
	// o3 and o4 preparing (2 at once), o2 queued ahead: one round, then o7.
	if !ok || p.Position != 4 || p.Wait != time.Minute {
		t.Errorf("o7 place %+v", p)
	}

	for _, o := range []*order.Order{orders[0], orders[4]} {
		if err := s.RecordPrepTime(ctx, o.ID, *o.StartedAt, *o.ReadyAt); err != nil {
			t.Fatal(err)
		}
	}
	prep, _ := s.RecentPrepTimes(ctx, 20)
	if len(prep) != 2 || prep[0] != time.Minute || prep[1] != 2*time.Minute {
		t.Errorf("prep times %v, want [1m 2m] (newest first)", prep)
	}
	if n, err := s.SweepPrepTimes(ctx, at(3).Add(time.Second)); err != nil || n != 1 {
		t.Errorf("swept %d samples, %v; want 1", n, err)
	}
	if open, _ := s.OpenOrderCounts(ctx); open[order.Served] != 0 || open[order.Queued] != 2 || open[order.Ready] != 1 {
		t.Errorf("open counts %v", open)
	}
	if done, _ := s.FinishedOrderCounts(ctx); done[order.Served] != 1 || done[order.Cancelled] != 1 || done[order.Queued] != 0 {
		t.Errorf("finished counts %v", done)
	}
	counts, err := s.OrderCounts(ctx)
	want := map[order.Status]int{order.Queued: 2, order.Preparing: 2, order.Ready: 1, order.Served: 1, order.Cancelled: 1}
	if err != nil || len(counts) != 5 {
		t.Fatalf("counts %v, %v", counts, err)
	}
	for st, n := range want {
		if counts[st] != n {
			t.Errorf("count %s = %d, want %d", st, counts[st], n)
		}
	}

	list, total, err := s.ListOrders(ctx, store.OrderFilter{Status: order.Queued, Limit: 1})
	if err != nil || total != 2 || len(list) != 1 || list[0].ID != "o7" {
		t.Errorf("queued page 1: %v total %d, %v", orderIDs(list), total, err)
	}
	list, total, _ = s.ListOrders(ctx, store.OrderFilter{GuestID: "bob", Limit: 10, Offset: 1})
	if total != 2 || len(list) != 1 || list[0].ID != "o3" {
		t.Errorf("bob page 2: %v total %d", orderIDs(list), total)
	}
}

func orderIDs(orders []order.Order) []string {
	out := make([]string, len(orders))
	for i, o := range orders {
		out[i] = o.ID
	}
	return out
}

// TestOrderTransitionRace is two bartenders (sixteen, in fact) pressing
// "start" on the same order at once: exactly one claim wins, and the
// order moves exactly once.
func TestOrderTransitionRace(t *testing.T) { onBothStores(t, testOrderTransitionRace) }

func testOrderTransitionRace(t *testing.T, s *store.Store) {
	ctx := context.Background()
	o := newOrder("race", "ann", order.Queued, at(0))
	if err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cur, err := s.OrderByID(ctx, "race")
			if err != nil {
				t.Error(err)
				return
			}
			to, err := order.Next(cur.Status, order.Start)
			if err != nil {
				conflicts.Add(1) // already started: illegal from preparing
				return
			}
			if err := s.Claim(ctx, store.OrderClaimKey(cur.ID, cur.Version), time.Minute); err != nil {
				if !errors.Is(err, store.ErrConflict) {
					t.Error(err)
				}
				conflicts.Add(1)
				return
			}
			from := cur.Version
			cur.Status, cur.Version = to, cur.Version+1
			cur.History = append(cur.History, order.Transition{From: order.Queued, To: to, ActorID: string(rune('a' + i))})
			if err := s.ReplaceOrder(ctx, cur, from); err != nil {
				t.Errorf("winner's update: %v", err)
				return
			}
			wins.Add(1)
		}()
	}
	wg.Wait()
	got, _ := s.OrderByID(ctx, "race")
	if wins.Load() != 1 || conflicts.Load() != 15 || got.Version != 2 || len(got.History) != 2 || got.Status != order.Preparing {
		t.Errorf("wins %d conflicts %d; order v%d %s with %d history entries", wins.Load(), conflicts.Load(), got.Version, got.Status, len(got.History))
	}
	// A stale version is refused by the filter too.
	if err := s.ReplaceOrder(ctx, got, 1); !errors.Is(err, store.ErrConflict) {
		t.Errorf("stale replace: %v", err)
	}
	if store.OrderClaimKey("x", 3) != "order/x/v3" {
		t.Error(store.OrderClaimKey("x", 3))
	}
}

func TestIdempotencyRecords(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	id := store.IdempotencyID("ann", "key-1")
	rec := store.IdempotencyRecord{ID: id, GuestID: "ann", BodyHash: "h1", OrderID: "o1", CreatedAt: at(0), ExpiresAt: at(60)}

	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.ReserveIdempotencyKey(ctx, rec)
			if err == nil {
				wins.Add(1)
			} else if !errors.Is(err, store.ErrConflict) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d reservations of one key, want 1", wins.Load())
	}
	got, err := s.IdempotencyRecordByID(ctx, id)
	if err != nil || got.BodyHash != "h1" || got.OrderID != "o1" || got.ID != "ann/key-1" {
		t.Fatalf("record %+v, %v", got, err)
	}
	// Another holder's order id does not release it.
	s.ReleaseIdempotencyKey(ctx, id, "other")
	if _, err := s.IdempotencyRecordByID(ctx, id); err != nil {
		t.Fatalf("released by the wrong order: %v", err)
	}
	s.ReleaseIdempotencyKey(ctx, id, "o1")
	if _, err := s.IdempotencyRecordByID(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after release: %v", err)
	}
	s.ReserveIdempotencyKey(ctx, rec)
	rec2 := rec
	rec2.ID, rec2.ExpiresAt = store.IdempotencyID("bob", "key-1"), at(120)
	s.ReserveIdempotencyKey(ctx, rec2)
	if n, err := s.SweepIdempotency(ctx, at(90)); err != nil || n != 1 {
		t.Errorf("swept %d, %v; want 1", n, err)
	}
}

func TestAppKeyAndSigningKey(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	k1, err := s.AppKey(ctx)
	if err != nil || len(k1.Key) != 32 || !k1.Enabled {
		t.Fatalf("first app key %+v, %v", k1, err)
	}
	k2, _ := s.AppKey(ctx)
	if k2.Key != k1.Key {
		t.Error("app key changed between reads")
	}
	off, err := s.SetAppKey(ctx, false, false, "Host")
	if err != nil || off.Enabled || off.Key != k1.Key || off.UpdatedBy != "Host" {
		t.Errorf("disabled %+v, %v", off, err)
	}
	on, _ := s.SetAppKey(ctx, true, true, "Host")
	if !on.Enabled || on.Key == k1.Key || len(on.Key) != 32 {
		t.Errorf("rotated %+v", on)
	}
	sk1, err := s.ImageSigningKey(ctx)
	if err != nil || len(sk1) != 32 {
		t.Fatalf("signing key %d bytes, %v", len(sk1), err)
	}
	sk2, _ := s.ImageSigningKey(ctx)
	if string(sk1) != string(sk2) {
		t.Error("signing key changed between reads")
	}
}

func TestFinishedOrdersMoveToTheArchive(t *testing.T) {
	onBothStores(t, testFinishedOrdersMoveToTheArchive)
}

func testFinishedOrdersMoveToTheArchive(t *testing.T, s *store.Store) {
	ctx := context.Background()
	a := newOrder("a", "ann", order.Queued, at(0))
	if err := s.CreateOrder(ctx, a); err != nil {
		t.Fatal(err)
	}
	steps := []order.Status{order.Preparing, order.Ready, order.Served}
	cur := *a
	for _, st := range steps {
		next := cur
		next.Status, next.Version = st, cur.Version+1
		if err := s.ReplaceOrder(ctx, next, cur.Version); err != nil {
			t.Fatalf("to %s: %v", st, err)
		}
		cur = next
	}
	got, err := s.OrderByID(ctx, "a")
	if err != nil || got.Status != order.Served || got.Version != 4 {
		t.Fatalf("served order %+v, %v", got, err)
	}
	if q, _ := s.BarQueue(ctx); len(q) != 0 {
		t.Errorf("bar queue still holds %d", len(q))
	}
	if mine, _ := s.OrdersByGuest(ctx, "ann", 10); len(mine) != 1 || mine[0].Status != order.Served {
		t.Errorf("ann's orders %+v", mine)
	}
	// A stale move of an archived order is a conflict, and leaves the
	// archived copy alone.
	stale := cur
	stale.Status, stale.Version = order.Cancelled, 3
	if err := s.ReplaceOrder(ctx, stale, 2); !errors.Is(err, store.ErrConflict) {
		t.Errorf("stale cancel: %v", err)
	}
	if got, _ := s.OrderByID(ctx, "a"); got.Status != order.Served {
		t.Errorf("after the stale cancel: %s", got.Status)
	}

	// A crash between archiving and removing leaves an open copy behind:
	// readers prefer the archive, and the reconciler removes it.
	b := newOrder("b", "bob", order.Ready, at(1))
	b.Version = 3
	s.CreateOrder(ctx, b)
	served := *b
	served.Status, served.Version = order.Served, 4
	s.DB().Collection("orderarchive").InsertOne(ctx, served)
	if mine, _ := s.OrdersByGuest(ctx, "bob", 10); len(mine) != 1 || mine[0].Status != order.Served {
		t.Errorf("bob's orders with a left-over copy %+v", mine)
	}
	fixed, err := s.ReconcileOrders(ctx)
	if err != nil || fixed != 1 {
		t.Fatalf("reconcile fixed %d, %v; want 1", fixed, err)
	}
	if q, _ := s.BarQueue(ctx); len(q) != 0 {
		t.Errorf("bar queue after reconcile holds %d", len(q))
	}
	if fixed, _ := s.ReconcileOrders(ctx); fixed != 0 {
		t.Errorf("second reconcile fixed %d", fixed)
	}
}

func TestPrepSamplesStayFew(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	// A thousand drinks, one every second, each taking 60 s + i ms.
	for i := range 1000 {
		ready := at(0).Add(time.Duration(i) * time.Second)
		if err := s.RecordPrepTime(ctx, store.NewID(), ready.Add(-time.Minute-time.Duration(i)*time.Millisecond), ready); err != nil {
			t.Fatal(err)
		}
	}
	n, _ := s.DB().Collection("prepsamples").CountDocuments(ctx, map[string]any{})
	got, err := s.RecentPrepTimes(ctx, 20)
	if err != nil || n != 256 || len(got) != 20 || got[0] != time.Minute+999*time.Millisecond || got[19] != time.Minute+980*time.Millisecond {
		t.Errorf("%d samples kept (want 256); newest %v … %v (want 1m0.999s … 1m0.98s)", n, got[0], got[len(got)-1])
	}
}

// The preparation ring keeps one sample a second, so drinks readied in
// the same second cost one write: the first is kept, the next second's
// is written again.
func TestPrepTimesOneWriteASecond(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	ready := at(0).Add(500 * time.Millisecond)
	before := s.Writes()
	for i := range 10 {
		r := ready.Add(time.Duration(i) * 10 * time.Millisecond)
		if err := s.RecordPrepTime(ctx, store.NewID(), r.Add(-time.Minute-time.Duration(i)*time.Second), r); err != nil {
			t.Fatal(err)
		}
	}
	if w := s.Writes() - before; w != 1 {
		t.Errorf("10 samples in one second made %d writes, want 1", w)
	}
	next := ready.Add(time.Second)
	if err := s.RecordPrepTime(ctx, store.NewID(), next.Add(-2*time.Minute), next); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecentPrepTimes(ctx, 20)
	if err != nil || len(got) != 2 || got[0] != 2*time.Minute || got[1] != time.Minute {
		t.Errorf("samples %v, %v; want [2m 1m]: the next second's, then the first of the busy second", got, err)
	}
}
