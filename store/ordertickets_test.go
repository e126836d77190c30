package store_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// Two instances on one database hand out a night's ticket numbers
// together: 1 to 40, each once, with no gaps; a restarted instance goes
// on from the highest; another night starts again at 1.
func TestNextTicketAcrossInstances(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)

	const night = "2026-12-01"
	takeTickets(t, night, 40, func(i int) *store.Store {
		if i%2 == 1 {
			return b
		}
		return a
	})

	// A fresh instance (a restart) knows nothing in memory.
	c := storetest.Instance(t, a)
	if n, err := c.NextTicket(ctx, night); err != nil || n != 41 {
		t.Errorf("after a restart: %d, %v; want 41", n, err)
	}
	if n, err := a.NextTicket(ctx, night); err != nil || n != 42 {
		t.Errorf("the first instance, behind: %d, %v; want 42", n, err)
	}
	if n, err := b.NextTicket(ctx, "2026-12-02"); err != nil || n != 1 {
		t.Errorf("the next night: %d, %v; want 1", n, err)
	}
}

// takeTickets has n placements take a ticket number of night at once,
// placement i through on(i), and fails unless they got 1 to n, each
// once.
func takeTickets(t *testing.T, night string, n int, on func(i int) *store.Store) {
	t.Helper()
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			n, err := on(i).NextTicket(context.Background(), night)
			if err != nil {
				t.Errorf("next ticket: %v", err)
				return
			}
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, m := range got {
		if m != i+1 {
			t.Fatalf("numbers %v, want 1 to %d each once", got, n)
		}
	}
}
