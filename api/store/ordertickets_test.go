package store_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/barhub/barhub/api/store"
	"github.com/barhub/barhub/api/store/storetest"
)

// Two instances on one database hand out a night's ticket numbers
// together: 1 to 40, each once, with no gaps; a restarted instance goes
// on from the highest; another night starts again at 1.
func TestNextTicketAcrossInstances(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b, err := store.Open(ctx, store.Config{URI: storetest.URI(t), Database: a.DB().Name()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })

	const night = "2026-12-01"
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := s.NextTicket(ctx, night)
			if err != nil {
				t.Errorf("next ticket: %v", err)
				return
			}
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(got)
	for i, n := range got {
		if n != i+1 {
			t.Fatalf("numbers %v, want 1 to 40 each once", got)
		}
	}

	// A fresh instance (a restart) knows nothing in memory.
	c, err := store.Open(ctx, store.Config{URI: storetest.URI(t), Database: a.DB().Name()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
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
