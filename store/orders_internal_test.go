package store

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/barhub/barhub/order"

	"github.com/barhub/barhub/store/embedded"
)

// deleteOpen removes a batch of open orders in one write, by _id alone
// on the embedded database (the callers compared the versions under the
// orders' locks): one already gone counts as removed.
func TestDeleteOpenBatch(t *testing.T) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Config{DataDir: t.TempDir()}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, Config{URI: srv.URI(), SingleProcess: true, OnClose: srv.Close}, slog.New(slog.DiscardHandler))
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	defer s.Close(ctx)
	for _, id := range []string{"a", "b", "c"} {
		if err := s.CreateOrder(ctx, &order.Order{ID: id, GuestID: "ann", Status: order.Ready, Version: 3}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.Writes()
	removed, err := s.deleteOpen(ctx, []openRemoval{{"a", 3}, {"gone", 1}, {"c", 3}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, true}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	if w := s.Writes() - before; w != 1 {
		t.Errorf("a batch of three took %d writes, want 1", w)
	}
	q, err := s.BarQueue(ctx)
	if err != nil || len(q) != 1 || q[0].ID != "b" {
		t.Errorf("open orders after the batch: %v, %v; want b alone", q, err)
	}
}
