package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
	"github.com/barhub/barhub/store/storetest"
)

// BenchmarkOrdersByGuest2500 lists one guest's orders (the phone's "my
// orders") at a party of 500 that has had 2,500 drinks: the archive is
// what grows over a night.
func BenchmarkOrdersByGuest2500(b *testing.B) {
	ctx := context.Background()
	s := storetest.New(b)
	for i := range 2500 {
		if err := s.CreateOrder(ctx, newOrder(fmt.Sprintf("o%05d", i), fmt.Sprintf("g%03d", i%500), order.Served, at(i))); err != nil {
			b.Fatal(err)
		}
	}
	storetest.IndexIDs(b)
	b.ResetTimer()
	for i := range b.N {
		got, err := s.OrdersByGuest(ctx, fmt.Sprintf("g%03d", i%500), 50)
		if err != nil || len(got) != 5 {
			b.Fatalf("%d orders, %v; want 5", len(got), err)
		}
	}
}

// BenchmarkMoveInALongQueue moves orders on (start, then back by a new
// version each time) with 300 open orders on the embedded database, as
// the bar does in a rush that has got ahead of it.
func BenchmarkMoveInALongQueue(b *testing.B) {
	ctx := context.Background()
	s := openSingle(b, embedded.Config{DataDir: b.TempDir()}, store.Config{})
	const n = 300
	for i := range n {
		if err := s.CreateOrder(ctx, newOrder(fmt.Sprintf("o%05d", i), fmt.Sprintf("g%03d", i), order.Queued, at(i))); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		for i := range 10 {
			o, err := s.OrderByID(ctx, fmt.Sprintf("o%05d", i*29))
			if err != nil {
				b.Fatal(err)
			}
			from := o.Version
			o.Version++
			if err := s.ReplaceOrder(ctx, o, from); err != nil {
				b.Fatal(err)
			}
		}
	}
}
