package push

import (
	"slices"
	"strings"
	"testing"
)

// TestFairQueue: the order in which senders get deliveries. Guests take
// turns; a guest with share deliveries in flight gets no more until one
// ends, however many it has queued; a guest arriving behind a busy one is
// served by the next pop.
func TestFairQueue(t *testing.T) {
	// Each step pushes ("+g"), pops ("-" and expects guest g) or ends one
	// of a guest's deliveries ("!g").
	for _, tt := range []struct {
		name  string
		share int
		steps string
	}{
		{"one guest, in order", 2, "+a +a +a -a -a !a -a"},
		{"turns between guests", 1, "+a +a +b +b -a !a -b !b -a !a -b"},
		{"a busy guest waits, others pass", 2, "+m +m +m +m +m +m -m -m +a -a -- !m -m"},
		{"who waits while m is at its share goes first", 2, "+m +m +m +m -m -m +a !m -a -m"},
		{"share of three", 3, "+m +m +m +m +a -m -a -m -m -- !m -m"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := newFairQueue(tt.share, 100, 100)
			n := 0
			for _, step := range strings.Fields(tt.steps) {
				switch {
				case step == "--": // nothing may be handed out now
					if l := q.turnsNow(); len(l) != 0 {
						t.Fatalf("after %d steps: turns %v, want none", n, l)
					}
				case step[0] == '+':
					if !q.push(delivery{guestID: step[1:]}) {
						t.Fatalf("push %s refused", step)
					}
				case step[0] == '-':
					d, ok := q.pop()
					if !ok || d.guestID != step[1:] {
						t.Fatalf("after %d steps: popped %q, want %q", n, d.guestID, step[1:])
					}
				case step[0] == '!':
					q.done(step[1:])
				}
				n++
			}
		})
	}
}

// TestFairQueueBounds: a full queue or a full guest line refuses; the
// refusal of one guest leaves room for others.
func TestFairQueueBounds(t *testing.T) {
	q := newFairQueue(2, 5, 3)
	for range 3 {
		if !q.push(delivery{guestID: "m"}) {
			t.Fatal("refused within the guest's line")
		}
	}
	if q.push(delivery{guestID: "m"}) {
		t.Fatal("a fourth for one guest accepted, line is 3")
	}
	if !q.push(delivery{guestID: "a"}) || !q.push(delivery{guestID: "b"}) {
		t.Fatal("other guests refused while one guest's line is full")
	}
	if q.push(delivery{guestID: "c"}) {
		t.Fatal("a sixth accepted, queue is 5")
	}
	if q.len() != 5 {
		t.Fatalf("len %d, want 5", q.len())
	}
	var got []string
	for range 4 {
		d, _ := q.pop()
		got = append(got, d.guestID)
		if d.guestID != "m" {
			q.done(d.guestID)
		}
	}
	// m gets a turn, then again behind a and b; its third waits until one
	// of its two in flight ends.
	if want := []string{"m", "a", "b", "m"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if l := q.turnsNow(); len(l) != 0 {
		t.Fatalf("turns %v while m has two in flight", l)
	}
	q.done("m")
	if d, _ := q.pop(); d.guestID != "m" {
		t.Fatalf("popped %q after m's delivery ended, want m", d.guestID)
	}
	q.close()
	if _, ok := q.pop(); ok {
		t.Fatal("pop after close")
	}
}

// turnsNow lists the guests a pop would serve, for tests.
func (q *fairQueue) turnsNow() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.turns)
}
