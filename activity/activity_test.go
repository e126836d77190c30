package activity_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/activity"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func guests(t *testing.T, s *store.Store, n int) []guest.Guest {
	t.Helper()
	out := make([]guest.Guest, n)
	for i := range out {
		out[i] = guest.Guest{FirstName: "G", LastName: "L"}
		if err := s.InsertGuest(context.Background(), &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func metric(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			m := mf.GetMetric()[0]
			if c := m.GetCounter(); c != nil {
				return c.GetValue()
			}
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

func TestFlushWritesLatestTimesInOneBatch(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	gs := guests(t, s, 3)
	if _, err := s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	r := activity.New(s, activity.Config{}, slog.New(slog.DiscardHandler), reg)
	t0 := time.Date(2026, 6, 1, 18, 0, 0, 0, time.UTC)
	// A busy guest takes one slot.
	for i := range 1000 {
		r.Accessed(gs[0].ID, t0.Add(time.Duration(i)*time.Millisecond))
	}
	r.LoggedIn(gs[1].ID, t0)
	r.Accessed(gs[1].ID, t0.Add(time.Minute))
	r.Accessed(gs[1].ID, t0.Add(-time.Minute)) // out of order: ignored
	if got := r.Pending(); got != 2 {
		t.Fatalf("pending = %d, want 2", got)
	}
	r.Flush(ctx)
	if r.Pending() != 0 {
		t.Fatal("flush left records behind")
	}
	g0, _ := s.GuestByID(ctx, gs[0].ID)
	g1, _ := s.GuestByID(ctx, gs[1].ID)
	g2, _ := s.GuestByID(ctx, gs[2].ID)
	if g0.LastAccess == nil || !g0.LastAccess.Equal(t0.Add(999*time.Millisecond)) || g0.LastLogin != nil {
		t.Errorf("busy guest: access %v login %v", g0.LastAccess, g0.LastLogin)
	}
	if g1.LastLogin == nil || !g1.LastLogin.Equal(t0) || !g1.LastAccess.Equal(t0.Add(time.Minute)) {
		t.Errorf("signed-in guest: access %v login %v", g1.LastAccess, g1.LastLogin)
	}
	if g2.LastAccess != nil {
		t.Error("an idle guest got a time")
	}
	if got := metric(t, reg, "barhub_activity_batch_guests"); got != 1 {
		t.Errorf("%v bulk writes, want 1", got)
	}
	if got := metric(t, reg, "barhub_activity_written_total"); got != 2 {
		t.Errorf("%v written, want 2", got)
	}
	st, _ := s.Stats(ctx)
	if st.NeverLoggedIn != 2 {
		t.Errorf("never logged in = %d, want 2", st.NeverLoggedIn)
	}
}

func TestFullBufferDropsAndCounts(t *testing.T) {
	s := storetest.New(t)
	reg := prometheus.NewRegistry()
	r := activity.New(s, activity.Config{MaxPending: 2}, nil, reg)
	now := time.Now()
	r.Accessed("a", now)
	r.Accessed("b", now)
	r.Accessed("c", now) // dropped
	r.Accessed("a", now) // already buffered: kept
	if r.Pending() != 2 || metric(t, reg, "barhub_activity_dropped_total") != 1 {
		t.Errorf("pending %d, dropped %v; want 2 and 1", r.Pending(), metric(t, reg, "barhub_activity_dropped_total"))
	}
}

func TestBatchSizeFlushesEarly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := storetest.New(t)
	gs := guests(t, s, 3)
	r := activity.New(s, activity.Config{FlushEvery: time.Hour, BatchSize: 3}, nil, nil)
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	for _, g := range gs {
		r.Accessed(g.ID, time.Now())
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		g, _ := s.GuestByID(context.Background(), gs[2].ID)
		if g.LastAccess != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a full batch was not written before FlushEvery")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// What is left is written when Run stops.
	r.Accessed(gs[0].ID, time.Now().Add(time.Hour))
	cancel()
	<-done
	if g, _ := s.GuestByID(context.Background(), gs[0].ID); g.LastAccess == nil || time.Until(*g.LastAccess) < 30*time.Minute {
		t.Errorf("last access at stop was not written: %v", g.LastAccess)
	}
}

// A write that fails is logged and counted, and its records wait for the
// next flush, one slot per guest however often it fails; once the
// database answers again they are written, with the latest times.
func TestWriteErrorKeepsTheRecords(t *testing.T) {
	s := storetest.New(t)
	g := guests(t, s, 1)[0]
	down := &outage{Writer: s}
	down.failing.Store(true)
	var logs syncBuffer
	reg := prometheus.NewRegistry()
	r := activity.New(down, activity.Config{}, slog.New(slog.NewTextHandler(&logs, nil)), reg)
	first := time.Now().UTC().Truncate(time.Millisecond)
	r.LoggedIn(g.ID, first)
	r.Flush(context.Background())
	r.Accessed(g.ID, first.Add(time.Second))
	r.Flush(context.Background())
	if metric(t, reg, "barhub_activity_write_errors_total") != 2 || r.Pending() != 1 {
		t.Errorf("after two failures: errors %v, pending %d", metric(t, reg, "barhub_activity_write_errors_total"), r.Pending())
	}
	if !strings.Contains(logs.String(), "record guest activity") {
		t.Errorf("log = %q", logs.String())
	}
	down.failing.Store(false)
	r.Flush(context.Background())
	if r.Pending() != 0 {
		t.Errorf("pending after the database came back = %d", r.Pending())
	}
	got, err := s.GuestByID(context.Background(), g.ID)
	if err != nil || got.LastLogin == nil || !got.LastLogin.Equal(first) || got.LastAccess == nil || !got.LastAccess.Equal(first.Add(time.Second)) {
		t.Errorf("written: login %v access %v (%v)", got.LastLogin, got.LastAccess, err)
	}
}

// outage is the store, failing while failing is set, as a database that
// does not answer for a moment.
type outage struct {
	activity.Writer
	failing atomic.Bool
}

func (o *outage) RecordActivity(ctx context.Context, batch []store.Activity) (int, error) {
	if o.failing.Load() {
		return 0, errors.New("server selection error: context deadline exceeded")
	}
	return o.Writer.RecordActivity(ctx, batch)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A crowd's flush goes in writes of at most 100 guests, every one written.
func TestFlushOfACrowdInParts(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	gs := guests(t, s, 250)
	reg := prometheus.NewRegistry()
	r := activity.New(s, activity.Config{BatchSize: 1000}, slog.New(slog.DiscardHandler), reg)
	at := time.Now().UTC().Truncate(time.Millisecond)
	for _, g := range gs {
		r.LoggedIn(g.ID, at)
	}
	r.Flush(ctx)
	if got := metric(t, reg, "barhub_activity_batch_guests"); got != 3 {
		t.Errorf("%v writes, want 3", got)
	}
	if got := metric(t, reg, "barhub_activity_written_total"); got != 250 {
		t.Errorf("%v written, want 250", got)
	}
	for _, g := range gs {
		got, err := s.GuestByID(ctx, g.ID)
		if err != nil || got.LastLogin == nil || !got.LastLogin.Equal(at) {
			t.Fatalf("%s: login %v (%v)", g.ID, got.LastLogin, err)
		}
	}
}
