package store

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/api/order"
)

func openEmbeddedStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), Config{DataDir: dir}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// On the embedded database a finished order's open copy is removed in the
// background. Held back here, every reader already sees the order
// finished: looked up, in the queue, counted, listed, for the open-order
// limit; a move from the old version is refused. A crash before the
// removal (the store closed with the writer held) leaves both copies,
// which ReconcileOrders resolves after the restart; let go, the writer
// removes them all in one write.
func TestOpenCopiesRemovedLater(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openEmbeddedStore(t, dir)
	hold := make(chan struct{})
	s.embedded.removals.hold = hold

	create := func(s *Store, id string, st order.Status, v int) {
		t.Helper()
		if err := s.CreateOrder(ctx, &order.Order{ID: id, GuestID: "ann", Status: st, Version: v, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	finish := func(s *Store, id string, st order.Status, from int) error {
		o, err := s.OrderByID(ctx, id)
		if err != nil {
			return err
		}
		o.Status, o.Version = st, from+1
		return s.ReplaceOrder(ctx, o, from)
	}
	create(s, "a", order.Ready, 3)
	create(s, "b", order.Queued, 1)
	create(s, "c", order.Preparing, 2)
	before := s.Writes()
	if err := finish(s, "a", order.Served, 3); err != nil {
		t.Fatal(err)
	}
	if err := finish(s, "b", order.Cancelled, 1); err != nil {
		t.Fatal(err)
	}
	if w := s.Writes() - before; w != 2 {
		t.Errorf("two orders finished with %d writes, want 2 (the archived copies)", w)
	}

	for _, id := range []string{"a", "b"} {
		if o, err := s.OrderByID(ctx, id); err != nil || !o.Status.Final() {
			t.Errorf("%s: %s, %v; want it finished", id, o.Status, err)
		}
	}
	if q, err := s.BarQueue(ctx); err != nil || len(q) != 1 || q[0].ID != "c" {
		t.Errorf("bar queue %v, %v; want c alone", q, err)
	}
	if q, err := s.OpenQueue(ctx); err != nil || len(q) != 1 || q[0].ID != "c" {
		t.Errorf("open queue %v, %v; want c alone", q, err)
	}
	if n, err := s.CountOpenOrders(ctx, "ann"); err != nil || n != 1 {
		t.Errorf("ann's open orders %d, %v; want 1", n, err)
	}
	if c, err := s.OpenOrderCounts(ctx); err != nil || c[order.Ready] != 0 || c[order.Queued] != 0 || c[order.Preparing] != 1 {
		t.Errorf("open counts %v, %v", c, err)
	}
	if c, err := s.OrderCounts(ctx); err != nil || c[order.Served] != 1 || c[order.Cancelled] != 1 || c[order.Ready] != 0 || c[order.Queued] != 0 {
		t.Errorf("counts %v, %v", c, err)
	}
	if list, total, err := s.ListOrders(ctx, OrderFilter{Limit: 10}); err != nil || total != 3 || len(list) != 3 {
		t.Errorf("admin list: %d of %d, %v; want 3 of 3", len(list), total, err)
	}
	open, done, err := s.GuestUnfinishedOrders(ctx, "ann", []string{"a", "b", "c"}, nil)
	if err != nil || len(open) != 1 || !slices.Equal(done, []string{"a", "b"}) {
		t.Errorf("ann's unfinished %d, done %v, %v; want 1, [a b]", len(open), done, err)
	}
	// Moves from the old version: the open copy is there, the order is not.
	o, _ := s.findOrder(ctx, collArchive, "a")
	o.Status, o.Version = order.Preparing, 4
	if err := s.ReplaceOrder(ctx, o, 3); !errors.Is(err, ErrConflict) {
		t.Errorf("a move of a served order from its old version: %v", err)
	}
	o.Status = order.Cancelled
	if err := s.ReplaceOrder(ctx, o, 3); !errors.Is(err, ErrConflict) {
		t.Errorf("a second finish: %v", err)
	}
	// A stale finish of an open order is refused before it writes.
	before = s.Writes()
	if err := finish(s, "c", order.Served, 1); !errors.Is(err, ErrConflict) {
		t.Errorf("a finish from a stale version: %v", err)
	}
	if w := s.Writes() - before; w != 0 {
		t.Errorf("the refused finish wrote %d times", w)
	}

	// The crash: closed with both removals unwritten.
	s.Close(ctx)
	close(hold)
	s = openEmbeddedStore(t, dir)
	defer s.Close(ctx)
	// The first read after the restart finds the two left-over copies,
	// leaves them out and has them removed.
	if q, err := s.BarQueue(ctx); err != nil || len(q) != 1 || q[0].ID != "c" {
		t.Errorf("after the crash the open orders are %v, %v; want c alone", q, err)
	}
	if c, err := s.OrderCounts(ctx); err != nil || c[order.Served] != 1 || c[order.Cancelled] != 1 || c[order.Preparing] != 1 || c[order.Ready]+c[order.Queued] != 0 {
		t.Errorf("after the crash, counts %v, %v", c, err)
	}
	waitRemoved(t, s)
	if n, err := s.coll(collOrders).CountDocuments(ctx, map[string]any{}); err != nil || n != 1 {
		t.Errorf("after the restart %d open copies, %v; want 1 (c)", n, err)
	}
	if fixed, err := s.ReconcileOrders(ctx); err != nil || fixed != 0 {
		t.Errorf("reconcile fixed %d, %v; want none left", fixed, err)
	}

	// Let go, the writer removes what was finished meanwhile.
	create(s, "d", order.Ready, 3)
	create(s, "e", order.Ready, 3)
	hold = make(chan struct{})
	s.embedded.removals.hold = hold
	for _, id := range []string{"c", "d", "e"} {
		o, _ := s.OrderByID(ctx, id)
		if err := finish(s, id, order.Served, o.Version); err != nil {
			t.Fatal(err)
		}
	}
	before = s.Writes()
	hold <- struct{}{}
	waitRemoved(t, s)
	close(hold)
	if w := s.Writes() - before; w != 1 {
		t.Errorf("three removals took %d writes, want 1", w)
	}
	n, err := s.coll(collOrders).CountDocuments(ctx, map[string]any{})
	if err != nil || n != 0 {
		t.Errorf("%d open copies left, %v; want none", n, err)
	}
}

// waitRemoved waits for the background writer to remove every pending
// open copy.
func waitRemoved(t *testing.T, s *Store) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for s.embedded.removals.ids() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("removals still pending: %v", s.embedded.removals.ids())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
