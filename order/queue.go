package order

import (
	"sort"
	"time"
)

// DefaultPrep is the preparation time assumed before any has been measured.
const DefaultPrep = 2 * time.Minute

// Preparation times outside these bounds are left out of the estimate: a
// drink readied by mistake and recalled, or one forgotten for an hour,
// says nothing about the next.
const (
	minPrepSample = 5 * time.Second
	maxPrepSample = 30 * time.Minute
)

// TypicalPrep is the median of recent preparation times (start → ready),
// or DefaultPrep when there are none.
func TypicalPrep(samples []time.Duration) time.Duration {
	kept := make([]time.Duration, 0, len(samples))
	for _, d := range samples {
		if d >= minPrepSample && d <= maxPrepSample {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return DefaultPrep
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i] < kept[j] })
	mid := len(kept) / 2
	if len(kept)%2 == 1 {
		return kept[mid]
	}
	return (kept[mid-1] + kept[mid]) / 2
}

// Place is an order's place in the queue.
type Place struct {
	// Position counts the open orders up to and including this one, oldest
	// first: 1 is being made or next.
	Position int `json:"position"`
	// Wait is the estimated time until the order is ready.
	Wait time.Duration `json:"-"`
}

// Entry is what the estimate needs of each open order.
type Entry struct {
	ID        string
	Status    Status
	CreatedAt time.Time
	StartedAt *time.Time
}

// PlaceIn works out where order id stands among the open orders and when
// it should be ready, given the typical preparation time. The bar is
// taken to work on as many orders at once as it is preparing now (at
// least one): with two in the making and three queued ahead, the fourth
// queued order waits for two rounds, then its own.
//
// The orders stand in order of creation (ids breaking ties), in any order
// in open: one pass counts the orders ahead, without sorting a copy of the
// queue for every order shown (a guest's list shows up to fifty, and a
// rush's queue is hundreds long).
func PlaceIn(open []Entry, id string, prep time.Duration, now time.Time) (Place, bool) {
	at := -1
	for i := range open {
		if open[i].ID == id {
			at = i
			break
		}
	}
	if at < 0 {
		return Place{}, false
	}
	e := open[at]
	if e.Status != Preparing && e.Status != Queued {
		return Place{}, false
	}
	parallel, ahead, queuedAhead := 0, 0, 0
	for i := range open {
		o := &open[i]
		if o.Status == Preparing {
			parallel++
		}
		if i == at || !o.before(e) {
			continue
		}
		ahead++
		if o.Status == Queued {
			queuedAhead++
		}
	}
	if parallel == 0 {
		parallel = 1
	}
	p := Place{Position: ahead + 1}
	if e.Status == Preparing {
		p.Wait = prep
		if e.StartedAt != nil {
			p.Wait = max(0, prep-now.Sub(*e.StartedAt))
		}
		return p, true
	}
	rounds := queuedAhead/parallel + 1
	p.Wait = time.Duration(rounds) * prep
	return p, true
}

// before orders entries by creation, ids breaking ties.
func (e *Entry) before(o Entry) bool {
	if !e.CreatedAt.Equal(o.CreatedAt) {
		return e.CreatedAt.Before(o.CreatedAt)
	}
	return e.ID < o.ID
}
