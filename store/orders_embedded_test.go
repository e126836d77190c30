package store_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// On the embedded database a guest's order list is kept in memory, so a
// placement is one write (the order). The list stays exact: a refused
// insert lists nothing that a reader counts, a served order stays listed,
// and a restart rebuilds every list from the orders and the archive, a
// left-over open copy of an archived order (a crash between the two
// writes of serving it) listed once.
func TestGuestOrderListsEmbedded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbedded(t, dir)

	// Twenty placements of one guest at once, created out of order: the
	// list is in order of creation, each once.
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			o := newOrder(fmt.Sprintf("ann-%02d", i), "ann", order.Queued, at(20-i))
			if err := s.CreateOrder(ctx, o); err != nil {
				t.Errorf("create %s: %v", o.ID, err)
			}
		})
	}
	wg.Wait()
	before := s.Writes()
	if err := s.CreateOrder(ctx, newOrder("bob-1", "bob", order.Queued, at(30))); err != nil {
		t.Fatal(err)
	}
	if w := s.Writes() - before; w != 1 {
		t.Errorf("a placement made %d database writes, want 1 (the order)", w)
	}
	// The same id again (a retry whose lock ran out) is refused and lists
	// nothing new; another guest's refused insert lists an id that
	// belongs to ann, which no reader shows as that guest's.
	if err := s.CreateOrder(ctx, newOrder("bob-1", "bob", order.Queued, at(31))); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same order again: %v, want ErrConflict", err)
	}
	if err := s.CreateOrder(ctx, newOrder("ann-00", "cat", order.Queued, at(32))); !errors.Is(err, store.ErrConflict) {
		t.Errorf("another guest's order id: %v, want ErrConflict", err)
	}
	// Serve bob's order: it moves to the archive and stays listed.
	serveOrder(t, s, "bob-1")
	// A crash between archiving and removing: ann-05 in both.
	left := newOrder("ann-05", "ann", order.Served, at(15))
	left.Version = 2
	if _, err := s.DB().Collection("orderarchive").InsertOne(ctx, left); err != nil {
		t.Fatal(err)
	}

	var annWant []string
	for i := range 20 {
		annWant = append(annWant, fmt.Sprintf("ann-%02d", 19-i)) // at(1) … at(20)
	}
	check := func(t *testing.T, s *store.Store, after string) {
		t.Helper()
		ids, err := s.GuestOrderIDs(ctx, "ann")
		if err != nil || !slices.Equal(ids, annWant) {
			t.Errorf("%s: ann's list %v, %v; want %v", after, ids, err, annWant)
		}
		if ids, err := s.GuestOrderIDs(ctx, "bob"); err != nil || !slices.Equal(ids, []string{"bob-1"}) {
			t.Errorf("%s: bob's list %v, %v; want [bob-1]", after, ids, err)
		}
		mine, err := s.OrdersByGuest(ctx, "ann", 3)
		if got := orderIDs(mine); err != nil || !slices.Equal(got, []string{"ann-00", "ann-01", "ann-02"}) {
			t.Errorf("%s: ann's newest three %v, %v", after, got, err)
		}
		if cat, err := s.OrdersByGuest(ctx, "cat", 0); err != nil || len(cat) != 0 {
			t.Errorf("%s: cat's orders %v, %v; want none", after, orderIDs(cat), err)
		}
		recent, err := s.GuestOrdersSince(ctx, "ann", at(18))
		if got := orderIDs(recent); err != nil || !slices.Equal(got, []string{"ann-02", "ann-01", "ann-00"}) {
			t.Errorf("%s: ann's orders since 20:18 %v, %v", after, got, err)
		}
		// The open-order limit counts from the list: ann-05 is archived
		// (its open copy left over), the other nineteen still open.
		ids, _ = s.GuestOrderIDs(ctx, "ann")
		open, done, err := s.GuestUnfinishedOrders(ctx, "ann", ids, nil)
		if err != nil || len(open) != 20 || len(done) != 0 {
			// GuestUnfinishedOrders reads the open copy first; the left-over
			// one counts until ReconcileOrders removes it, as before.
			t.Errorf("%s: ann's unfinished %d, done %v, %v", after, len(open), done, err)
		}
		bobs, done, err := s.GuestUnfinishedOrders(ctx, "bob", []string{"bob-1"}, nil)
		if err != nil || len(bobs) != 0 || !slices.Equal(done, []string{"bob-1"}) {
			t.Errorf("%s: bob's unfinished %v, done %v, %v", after, orderIDs(bobs), done, err)
		}
		if err := s.CreateOrder(ctx, newOrder("ann-03", "ann", order.Queued, at(40))); !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s: a retry of a stored order: %v, want ErrConflict", after, err)
		}
	}
	check(t, s, "before the restart")
	s.Close(ctx)

	s = openEmbedded(t, dir)
	defer s.Close(ctx)
	check(t, s, "after a restart")
	// After the reconciler, ann-05 counts as done.
	if _, err := s.ReconcileOrders(ctx); err != nil {
		t.Fatal(err)
	}
	open, done, err := s.GuestUnfinishedOrders(ctx, "ann", annWant, nil)
	if err != nil || len(open) != 19 || !slices.Equal(done, []string{"ann-05"}) {
		t.Errorf("after reconcile: ann's unfinished %d, done %v, %v; want 19, [ann-05]", len(open), done, err)
	}
	// New placements after the restart go on the rebuilt list.
	if err := s.CreateOrder(ctx, newOrder("ann-new", "ann", order.Queued, at(50))); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.GuestOrderIDs(ctx, "ann"); len(ids) != 21 || ids[20] != "ann-new" {
		t.Errorf("after a new placement: ann's list %v", ids)
	}
}

// On the embedded database a placement's look-up of its key's old
// idempotency record is skipped once the collection is seen empty; a
// record reserved after that, or found at start, is still read.
func TestIdempotencyRecordsEmbedded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbedded(t, dir)
	id := store.IdempotencyID("ann", "key-1")
	if _, err := s.IdempotencyRecordByID(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no records: %v, want ErrNotFound", err)
	}
	if _, err := s.IdempotencyRecordByID(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no records, again: %v, want ErrNotFound", err)
	}
	rec := store.IdempotencyRecord{ID: id, GuestID: "ann", BodyHash: "h1", OrderID: "o1", CreatedAt: at(0), ExpiresAt: at(60)}
	if err := s.ReserveIdempotencyKey(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if got, err := s.IdempotencyRecordByID(ctx, id); err != nil || got.OrderID != "o1" {
		t.Errorf("a record reserved after the empty look-up: %+v, %v", got, err)
	}
	s.Close(ctx)

	s = openEmbedded(t, dir)
	defer s.Close(ctx)
	if got, err := s.IdempotencyRecordByID(ctx, id); err != nil || got.OrderID != "o1" {
		t.Errorf("a record found at start: %+v, %v", got, err)
	}
	if _, err := s.IdempotencyRecordByID(ctx, store.IdempotencyID("bob", "key-1")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another key: %v, want ErrNotFound", err)
	}
}

// Thirty orders served at once on the embedded database: their removals
// from the open orders share writes, and each serve returns only once its
// order is archived and gone from the open orders. A stale serve (a

// Placements that wait for the embedded database's one writer share one
// insert: thirty at once take fewer writes than orders, every order is
// stored and listed once, and a duplicate among them (a key's second
// placement) is refused alone.
func TestPlaceAtOnceEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, t.TempDir())
	defer s.Close(ctx)
	if err := s.CreateOrder(ctx, newOrder("dup", "ann", order.Queued, at(0))); err != nil {
		t.Fatal(err)
	}
	const n = 30
	before := s.Writes()
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	for i := range n + 1 {
		wg.Go(func() {
			id := fmt.Sprintf("o%02d", i)
			if i == n {
				id = "dup"
			}
			errs[i] = s.CreateOrder(ctx, newOrder(id, fmt.Sprintf("g%d", i%4), order.Queued, at(i+1)))
		})
	}
	wg.Wait()
	for i, err := range errs[:n] {
		if err != nil {
			t.Errorf("order o%02d: %v", i, err)
		}
	}
	if !errors.Is(errs[n], store.ErrConflict) {
		t.Errorf("the duplicate: %v, want ErrConflict", errs[n])
	}
	if w := s.Writes() - before; w > n {
		t.Errorf("%d placements took %d writes, want at most %d", n+1, w, n)
	} else {
		t.Logf("%d placements took %d writes", n+1, w)
	}
	q, err := s.BarQueue(ctx)
	if err != nil || len(q) != n+1 {
		t.Fatalf("open orders: %d, %v; want %d", len(q), err, n+1)
	}
	for g := range 4 {
		mine, err := s.OrdersByGuest(ctx, fmt.Sprintf("g%d", g), 0)
		if err != nil || len(mine) != (n-g+3)/4 {
			t.Errorf("g%d's orders: %v, %v", g, orderIDs(mine), err)
		}
	}
	if o, err := s.OrderByID(ctx, "dup"); err != nil || o.GuestID != "ann" {
		t.Errorf("the first order of the duplicated id: %+v, %v; want ann's", o, err)
	}
}

// version already moved on) is refused and leaves the order as it was.
func TestServeAtOnceEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, t.TempDir())
	defer s.Close(ctx)
	const n = 30
	for i := range n {
		o := newOrder(fmt.Sprintf("o%02d", i), "ann", order.Ready, at(i))
		o.Version = 3
		if err := s.CreateOrder(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	before := s.Writes()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			o, err := s.OrderByID(ctx, fmt.Sprintf("o%02d", i))
			if err != nil {
				t.Error(err)
				return
			}
			o.Status, o.Version = order.Served, 4
			if err := s.ReplaceOrder(ctx, o, 3); err != nil {
				t.Errorf("serve %s: %v", o.ID, err)
				return
			}
			// Its serve returned: gone from the open orders already.
			if open, done, err := s.GuestUnfinishedOrders(ctx, "ann", []string{o.ID}, nil); err != nil || len(open) != 0 || len(done) != 1 {
				t.Errorf("%s after its serve: still open %v, done %v, %v", o.ID, orderIDs(open), done, err)
			}
			if got, err := s.OrderByID(ctx, o.ID); err != nil || got.Status != order.Served {
				t.Errorf("%s after its serve: %s, %v", o.ID, got.Status, err)
			}
		})
	}
	wg.Wait()
	if w := s.Writes() - before; w > 2*n {
		t.Errorf("%d serves took %d writes, want at most %d", n, w, 2*n)
	} else {
		t.Logf("%d serves took %d writes", n, w)
	}
	if q, err := s.BarQueue(ctx); err != nil || len(q) != 0 {
		t.Errorf("open orders after serving all: %v, %v", orderIDs(q), err)
	}
	if c, err := s.FinishedOrderCounts(ctx); err != nil || c[order.Served] != n {
		t.Errorf("finished counts %v, %v; want %d served", c, err, n)
	}

	o := newOrder("late", "ann", order.Ready, at(40))
	o.Version = 3
	if err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	stale := *o
	stale.Status, stale.Version = order.Served, 3
	if err := s.ReplaceOrder(ctx, stale, 2); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a stale serve: %v, want ErrConflict", err)
	}
	if got, err := s.OrderByID(ctx, "late"); err != nil || got.Status != order.Ready {
		t.Errorf("after a stale serve: %s, %v; want ready", got.Status, err)
	}
	if c, _ := s.FinishedOrderCounts(ctx); c[order.Served] != n {
		t.Errorf("a stale serve left an archived copy: %v", c)
	}
}

// On the embedded database the version is compared under the order's own
// lock: sixteen moves of one version at once, without any claim, move the
// order exactly once, whether to a next status or to the archive.
func TestReplaceOrderComparesVersionEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, t.TempDir())
	defer s.Close(ctx)
	for _, to := range []order.Status{order.Preparing, order.Cancelled} {
		id := "o-" + string(to)
		if err := s.CreateOrder(ctx, newOrder(id, "ann", order.Queued, at(0))); err != nil {
			t.Fatal(err)
		}
		var wins sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range 16 {
			wins.Go(func() {
				o, err := s.OrderByID(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				o.Status, o.Version = to, 2
				o.History = append(o.History, order.Transition{From: order.Queued, To: to, ActorID: fmt.Sprint(i)})
				err = s.ReplaceOrder(ctx, o, 1)
				switch {
				case err == nil:
					mu.Lock()
					won++
					mu.Unlock()
				case !errors.Is(err, store.ErrConflict):
					t.Errorf("move %d: %v", i, err)
				}
			})
		}
		wins.Wait()
		got, err := s.OrderByID(ctx, id)
		if won != 1 || err != nil || got.Status != to || got.Version != 2 || len(got.History) != 2 {
			t.Errorf("to %s: %d moves won; order %s v%d with %d history entries, %v", to, won, got.Status, got.Version, len(got.History), err)
		}
	}
}

// A data folder served by one process keeps its order lists in memory; when
// "barhub db" then serves it to several instances, SaveGuestOrderLists puts
// them on the shared documents, so the instances' "my orders" and open-order
// limit see the orders placed before, and their own placements go on after.
func TestSaveGuestOrderListsForSharing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbedded(t, dir)
	for i, o := range []*order.Order{
		newOrder("ann-2", "ann", order.Queued, at(2)),
		newOrder("ann-1", "ann", order.Queued, at(1)),
		newOrder("bob-1", "bob", order.Queued, at(3)),
	} {
		if err := s.CreateOrder(ctx, o); err != nil {
			t.Fatalf("order %d: %v", i, err)
		}
	}
	serveOrder(t, s, "bob-1")
	s.Close(ctx)

	emb, err := embedded.Start(ctx, embedded.Config{DataDir: dir}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	shared := func() *store.Store {
		st, err := store.Open(ctx, store.Config{URI: emb.URI()}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close(ctx) })
		return st
	}
	a, b := shared(), shared()
	if ids, _ := a.GuestOrderIDs(ctx, "ann"); len(ids) != 0 {
		t.Fatalf("before saving, a shared instance found ann's list %v: the test shows nothing", ids)
	}
	for range 2 { // saving twice changes nothing
		if n, err := a.SaveGuestOrderLists(ctx); err != nil || n != 2 {
			t.Fatalf("save: %d guests, %v; want 2", n, err)
		}
	}
	if ids, err := b.GuestOrderIDs(ctx, "ann"); err != nil || !slices.Equal(ids, []string{"ann-1", "ann-2"}) {
		t.Errorf("ann's list on another instance: %v, %v; want [ann-1 ann-2]", ids, err)
	}
	if mine, err := b.OrdersByGuest(ctx, "bob", 0); err != nil || !slices.Equal(orderIDs(mine), []string{"bob-1"}) || mine[0].Status != order.Served {
		t.Errorf("bob's orders on another instance: %v, %v; want bob-1, served", orderIDs(mine), err)
	}
	if err := b.CreateOrder(ctx, newOrder("ann-3", "ann", order.Queued, at(4))); err != nil {
		t.Fatal(err)
	}
	ids, err := a.GuestOrderIDs(ctx, "ann")
	if err != nil || !slices.Equal(ids, []string{"ann-1", "ann-2", "ann-3"}) {
		t.Errorf("after a shared placement: %v, %v", ids, err)
	}
	if open, _, err := a.GuestUnfinishedOrders(ctx, "ann", ids, nil); err != nil || len(open) != 3 {
		t.Errorf("ann's unfinished orders: %d, %v; want 3", len(open), err)
	}
}

// serveOrder moves open order id from its version to served, which
// archives it.
func serveOrder(t *testing.T, s *store.Store, id string) {
	t.Helper()
	ctx := context.Background()
	o, err := s.OrderByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	from := o.Version
	o.Status, o.Version = order.Served, from+1
	if err := s.ReplaceOrder(ctx, o, from); err != nil {
		t.Fatalf("serve %s: %v", id, err)
	}
}
