package order

import (
	"sync"
	"time"
)

// View is one instance's picture of the orders the bar still has
// (queued, preparing, ready), so that queue positions and the open-order
// counts cost no query: on the embedded database every query not by _id
// decodes every open order. It is kept by the orders this instance
// writes, by the order events of every instance, and by corrections from
// the store (Correct).
//
// Versions order what it hears: an order older than the one it holds is
// ignored, so events that arrive late or twice, and a snapshot read while
// orders moved, do no harm. An order it has seen finished stays finished:
// no order leaves served or cancelled, so that knowledge is never wrong.
// It remembers the last maxDone finished orders at most, so it holds no
// more on the night's last order than after the first few thousand.
type View struct {
	mu   sync.Mutex
	open map[string]viewEntry
	// done and doneOld are the finished orders, the newest in done; when
	// done is full, doneOld is forgotten and done takes its place.
	done, doneOld map[string]struct{}
}

type viewEntry struct {
	Entry
	guestID string
	version int
	// seen is when the entry was last applied, for Correct.
	seen time.Time
}

// maxDone bounds the memory of finished ids (about 60 bytes each), the
// older half forgotten at a time. Forgetting costs only a look-up the next
// time one is asked about (the open-order limit reads a guest's orders
// not known to be finished), and a late event about an order finished
// that long ago, which the next correction removes.
const maxDone = 20_000

// NewView returns an empty view.
func NewView() *View {
	return &View{open: map[string]viewEntry{}, done: map[string]struct{}{}, doneOld: map[string]struct{}{}}
}

// Apply takes in o as stored at some moment (after a write, from an
// event, from a read). It reports whether the view changed.
func (v *View) Apply(o Order) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.apply(o, time.Now())
}

func (v *View) apply(o Order, now time.Time) bool {
	if v.finished(o.ID) {
		return false
	}
	if o.Status.Final() {
		if len(v.done) >= maxDone/2 {
			v.doneOld, v.done = v.done, make(map[string]struct{}, maxDone/2)
		}
		v.done[o.ID] = struct{}{}
		_, had := v.open[o.ID]
		delete(v.open, o.ID)
		return had
	}
	cur, ok := v.open[o.ID]
	if ok && cur.version > o.Version {
		return false
	}
	changed := !ok || cur.version != o.Version
	v.open[o.ID] = viewEntry{
		Entry:   Entry{ID: o.ID, Status: o.Status, CreatedAt: o.CreatedAt, StartedAt: o.StartedAt},
		guestID: o.GuestID, version: o.Version, seen: now,
	}
	return changed
}

// Correct makes the view agree with a full read of the unfinished orders
// that started at started (taken before the read was sent). Orders read
// are applied by version; an order the view holds that the read did not
// return has finished (or was never stored) if the view learnt of it
// before the read began, and goes. One it learnt of since may be newer
// than the read, and stays. It returns how many orders were added or
// changed, and how many removed.
func (v *View) Correct(unfinished []Order, started time.Time) (changed, removed int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := time.Now()
	read := make(map[string]struct{}, len(unfinished))
	for _, o := range unfinished {
		read[o.ID] = struct{}{}
		if v.apply(o, now) {
			changed++
		}
	}
	for id, e := range v.open {
		if _, ok := read[id]; !ok && e.seen.Before(started) {
			delete(v.open, id)
			removed++
		}
	}
	return changed, removed
}

// Finished reports whether the view knows order id to be served or
// cancelled.
func (v *View) Finished(id string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.finished(id)
}

func (v *View) finished(id string) bool {
	_, ok := v.done[id]
	if !ok {
		_, ok = v.doneOld[id]
	}
	return ok
}

// Queue lists the open orders (queued and preparing), for PlaceIn.
func (v *View) Queue() []Entry {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]Entry, 0, len(v.open))
	for _, e := range v.open {
		if e.Status.Open() {
			out = append(out, e.Entry)
		}
	}
	return out
}

// Counts counts the unfinished orders by status (queued, preparing,
// ready; the finished statuses at zero).
func (v *View) Counts() map[Status]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := map[Status]int{Queued: 0, Preparing: 0, Ready: 0, Served: 0, Cancelled: 0}
	for _, e := range v.open {
		out[e.Status]++
	}
	return out
}

// Status returns the status and version the view holds for order id;
// ok is false when it holds none (unknown or finished).
func (v *View) Status(id string) (st Status, version int, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.open[id]
	return e.Status, e.version, ok
}
