package order

import (
	"fmt"
	"testing"
	"time"
)

func ord(id, guest string, st Status, version int, created time.Time) Order {
	return Order{ID: id, GuestID: guest, Status: st, Version: version, CreatedAt: created}
}

// TestViewVersionsAndFinish: late and repeated events do not move an
// order back, and a finished order stays finished whatever arrives after.
func TestViewVersionsAndFinish(t *testing.T) {
	v := NewView()
	t0 := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	if !v.Apply(ord("a", "g1", Queued, 1, t0)) {
		t.Fatal("a new order did not change the view")
	}
	v.Apply(ord("b", "g2", Queued, 1, t0.Add(time.Second)))
	v.Apply(ord("a", "g1", Preparing, 2, t0))
	if v.Apply(ord("a", "g1", Queued, 1, t0)) {
		t.Error("an older version of a changed the view")
	}
	if st, ver, ok := v.Status("a"); !ok || st != Preparing || ver != 2 {
		t.Errorf("a is %s v%d (%v), want preparing v2", st, ver, ok)
	}
	c := v.Counts()
	if c[Queued] != 1 || c[Preparing] != 1 || c[Ready] != 0 {
		t.Errorf("counts %v", c)
	}
	v.Apply(ord("a", "g1", Ready, 3, t0))
	if q := v.Queue(); len(q) != 1 || q[0].ID != "b" {
		t.Errorf("queue with a ready: %+v, want only b", q)
	}
	v.Apply(ord("a", "g1", Served, 4, t0))
	if !v.Finished("a") || v.Finished("b") {
		t.Errorf("finished: a %v b %v", v.Finished("a"), v.Finished("b"))
	}
	// The ready event arriving late, and a snapshot read before the serve,
	// both leave it finished.
	v.Apply(ord("a", "g1", Ready, 3, t0))
	v.Correct([]Order{ord("a", "g1", Ready, 3, t0), ord("b", "g2", Queued, 1, t0.Add(time.Second))}, time.Now())
	if _, _, ok := v.Status("a"); ok {
		t.Error("a is back in the view after it was served")
	}
	if c := v.Counts(); c[Ready] != 0 || c[Queued] != 1 {
		t.Errorf("counts after the late events %v", c)
	}
}

// TestViewCorrect: a correction adds what the view never heard, removes
// what finished unheard, and keeps what it learnt while the read ran.
func TestViewCorrect(t *testing.T) {
	v := NewView()
	t0 := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	v.Apply(ord("gone", "g1", Queued, 1, t0))  // finished elsewhere, event lost
	v.Apply(ord("moved", "g1", Queued, 1, t0)) // started elsewhere, event lost
	v.Apply(ord("newer", "g2", Queued, 1, t0)) // moved on here while the read ran
	started := time.Now()
	v.Apply(ord("fresh", "g3", Queued, 1, t0)) // placed while the read ran
	v.Apply(ord("newer", "g2", Preparing, 2, t0))
	read := []Order{
		ord("moved", "g1", Preparing, 2, t0),
		ord("newer", "g2", Queued, 1, t0),
		ord("unheard", "g4", Queued, 1, t0.Add(time.Minute)), // placed elsewhere, event lost
	}
	changed, removed := v.Correct(read, started)
	if changed != 2 || removed != 1 {
		t.Errorf("correction changed %d, removed %d; want 2 and 1", changed, removed)
	}
	want := map[string]Status{"moved": Preparing, "newer": Preparing, "fresh": Queued, "unheard": Queued}
	for id, st := range want {
		if got, _, ok := v.Status(id); !ok || got != st {
			t.Errorf("%s: %s (%v), want %s", id, got, ok, st)
		}
	}
	if _, _, ok := v.Status("gone"); ok {
		t.Error("an order missing from the read and known before it is still in the view")
	}
	if len(v.Queue()) != 4 {
		t.Errorf("queue holds %d, want 4", len(v.Queue()))
	}
}

// TestViewBounded: a night's finished orders are remembered up to a
// bound, the most recent ones, however many are served; the unfinished
// ones are all there.
func TestViewBounded(t *testing.T) {
	v := NewView()
	t0 := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	const n = 5 * maxDone
	for i := range n {
		id := fmt.Sprintf("o%06d", i)
		v.Apply(ord(id, "g", Queued, 1, t0))
		if i%100 != 0 { // every hundredth stays at the bar
			v.Apply(ord(id, "g", Served, 4, t0))
		}
		if open, done := held(v); done > maxDone || open != i/100+1 {
			t.Fatalf("after %d orders: %d open, %d finished held; want %d open, at most %d finished", i+1, open, done, i/100+1, maxDone)
		}
	}
	if _, done := held(v); done < maxDone/2 {
		t.Errorf("%d finished orders held, want at least %d", done, maxDone/2)
	}
	// The newest finished are remembered, and a late event for one of them
	// does not bring it back.
	last := fmt.Sprintf("o%06d", n-1)
	if !v.Finished(last) {
		t.Errorf("%s, the last served, is not known finished", last)
	}
	v.Apply(ord(last, "g", Ready, 3, t0))
	if _, _, ok := v.Status(last); ok {
		t.Errorf("a late event brought %s back", last)
	}
	if c := v.Counts(); c[Queued] != n/100 {
		t.Errorf("%d queued, want %d", c[Queued], n/100)
	}
}

// held counts what the view holds: the unfinished orders and the
// finished ones it remembers.
func held(v *View) (open, finished int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.open), len(v.done) + len(v.doneOld)
}
