package auth

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// countingSource is the real store, counting its reads; during, when set,
// runs in the middle of a read (after the cache took its generation).
type countingSource struct {
	st     *store.Store
	reads  atomic.Int64
	during func()
}

func (c *countingSource) SessionState(ctx context.Context, id string) (store.SessionState, error) {
	c.reads.Add(1)
	if c.during != nil {
		c.during()
	}
	return c.st.SessionState(ctx, id)
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestSessions(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	newGuest := func(role guest.Role) (guest.Guest, Identity) {
		g := guest.Guest{FirstName: "Sam", LastName: "Session", Role: role}
		if err := st.CreateGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
		return g, Identity{GuestID: g.ID, Name: g.Name(), Role: g.Role, IssuedAt: time.Now()}
	}
	setup := func() (*Sessions, *countingSource, *clock) {
		src := &countingSource{st: st}
		clk := &clock{t: time.Now()}
		return NewSessions(src, SessionsConfig{TTL: 10 * time.Second, Now: clk.now}), src, clk
	}

	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"one read, then the cache", func(t *testing.T) {
			s, src, _ := setup()
			_, id := newGuest(guest.RoleGuest)
			for range 5 {
				if _, err := s.Current(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			if n := src.reads.Load(); n != 1 {
				t.Errorf("%d reads for 5 requests, want 1", n)
			}
			if st := s.Stats(); st.Hits != 4 || st.Misses != 1 || st.Entries != 1 {
				t.Errorf("stats %+v", st)
			}
		}},
		{"a new role applies after Forget", func(t *testing.T) {
			s, _, _ := setup()
			g, id := newGuest(guest.RoleAdmin)
			s.Current(ctx, id)
			role := guest.RoleGuest
			if _, err := st.UpdateGuest(ctx, g.ID, guest.Patch{Role: &role}, g.ID); err != nil {
				t.Fatal(err)
			}
			s.Forget(g.ID)
			cur, err := s.Current(ctx, id)
			if err != nil || cur.Role != guest.RoleGuest {
				t.Errorf("after demotion: %+v %v, want role guest", cur, err)
			}
		}},
		{"an ended session is refused after Forget", func(t *testing.T) {
			s, _, _ := setup()
			g, id := newGuest(guest.RoleGuest)
			s.Current(ctx, id)
			if _, err := st.EndSessions(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			s.Forget(g.ID)
			if _, err := s.Current(ctx, id); !errors.Is(err, ErrSessionEnded) {
				t.Errorf("old version: %v, want ErrSessionEnded", err)
			}
			id.SessionVersion = 1
			if _, err := s.Current(ctx, id); err != nil {
				t.Errorf("new version: %v", err)
			}
		}},
		{"an unheard change lasts at most the TTL", func(t *testing.T) {
			s, _, clk := setup()
			g, id := newGuest(guest.RoleGuest)
			s.Current(ctx, id)
			if _, err := st.EndSessions(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			clk.advance(9 * time.Second)
			if _, err := s.Current(ctx, id); err != nil {
				t.Errorf("inside the TTL the cache still answers: %v", err)
			}
			clk.advance(time.Second)
			if _, err := s.Current(ctx, id); !errors.Is(err, ErrSessionEnded) {
				t.Errorf("at the TTL: %v, want ErrSessionEnded", err)
			}
		}},
		{"a deleted guest is refused", func(t *testing.T) {
			s, _, _ := setup()
			g, id := newGuest(guest.RoleAdmin)
			s.Current(ctx, id)
			if _, err := st.RemoveGuest(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			s.ForgetAll()
			if _, err := s.Current(ctx, id); !errors.Is(err, ErrSessionEnded) {
				t.Errorf("deleted: %v, want ErrSessionEnded", err)
			}
		}},
		{"a token newer than the cache reads again", func(t *testing.T) {
			s, src, _ := setup()
			g, id := newGuest(guest.RoleGuest)
			s.Current(ctx, id)
			if _, err := st.EndSessions(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			// Signed in again on another instance; this one has not heard.
			id.SessionVersion = 1
			if _, err := s.Current(ctx, id); err != nil {
				t.Errorf("newer token: %v", err)
			}
			if n := src.reads.Load(); n != 2 {
				t.Errorf("%d reads, want 2", n)
			}
		}},
		{"a read racing with Forget is not kept", func(t *testing.T) {
			s, src, _ := setup()
			g, id := newGuest(guest.RoleGuest)
			src.during = func() { s.Forget(g.ID) }
			s.Current(ctx, id)
			src.during = nil
			s.Current(ctx, id)
			if n := src.reads.Load(); n != 2 {
				t.Errorf("%d reads, want 2: the raced read was cached", n)
			}
		}},
		{"a burst of misses costs one read", func(t *testing.T) {
			s, src, _ := setup()
			_, id := newGuest(guest.RoleGuest)
			release := make(chan struct{})
			src.during = func() { <-release }
			var wg sync.WaitGroup
			for range 20 {
				wg.Go(func() {
					if _, err := s.Current(ctx, id); err != nil {
						t.Error(err)
					}
				})
			}
			// Let the burst pile up behind the first read, then release it.
			for s.Stats().Misses < 20 {
				runtime.Gosched()
			}
			close(release)
			wg.Wait()
			if n := src.reads.Load(); n != 1 {
				t.Errorf("%d reads for a burst of 20, want 1", n)
			}
		}},
		{"a token older than its guest is refused", func(t *testing.T) {
			s, _, _ := setup()
			_, id := newGuest(guest.RoleGuest)
			id.IssuedAt = time.Now().Add(-time.Hour)
			if _, err := s.Current(ctx, id); !errors.Is(err, ErrSessionEnded) {
				t.Errorf("token from before the guest: %v, want ErrSessionEnded", err)
			}
		}},
		{"the cache stays bounded", func(t *testing.T) {
			src := &countingSource{st: st}
			s := NewSessions(src, SessionsConfig{MaxEntries: 2})
			for range 3 {
				_, id := newGuest(guest.RoleGuest)
				s.Current(ctx, id)
			}
			if n := s.Stats().Entries; n > 2 {
				t.Errorf("%d entries, max 2", n)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

// BenchmarkSessionsHit is the cost a signed-in request pays when its
// holder is in the cache: the common case, no database read.
func BenchmarkSessionsHit(b *testing.B) {
	ctx := context.Background()
	st := storetest.New(b)
	g := guest.Guest{FirstName: "Bea", LastName: "Bench", Role: guest.RoleGuest}
	if err := st.CreateGuest(ctx, &g); err != nil {
		b.Fatal(err)
	}
	src := &countingSource{st: st}
	s := NewSessions(src, SessionsConfig{TTL: time.Hour})
	id := Identity{GuestID: g.ID, Role: g.Role, IssuedAt: time.Now()}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Current(ctx, id); err != nil {
				b.Error(err)
			}
		}
	})
	if n := src.reads.Load(); n != 1 {
		b.Errorf("%d reads, want 1", n)
	}
}
