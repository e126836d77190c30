package push

import "sync"

// fairQueue holds the deliveries waiting for a sender (a guest's device
// list to look up, or one device to send to), and hands them out so that no guest can hold the senders: guests take
// turns (round robin, each guest's own deliveries in order), and a guest
// with share deliveries in flight gets no more until one ends. A guest
// whose devices hang therefore holds at most share senders, and a guest
// arriving with work is served by the next sender that is free.
type fairQueue struct {
	share    int // deliveries in flight per guest
	max      int // deliveries waiting, in all
	maxGuest int // deliveries waiting, per guest

	mu     sync.Mutex
	cond   sync.Cond
	guests map[string]*guestLine
	// turns are the guests that have deliveries waiting and fewer than
	// share in flight, in the order they will be served.
	turns  []string
	size   int
	closed bool
}

type guestLine struct {
	waiting  []delivery
	inFlight int
	inTurns  bool
}

func newFairQueue(share, max, maxGuest int) *fairQueue {
	q := &fairQueue{share: share, max: max, maxGuest: maxGuest, guests: map[string]*guestLine{}}
	q.cond.L = &q.mu
	return q
}

// push queues d behind the guest's other deliveries. It reports false,
// queueing nothing, when the queue or the guest's line is full or the
// queue is closed.
func (q *fairQueue) push(d delivery) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.size >= q.max {
		return false
	}
	g := q.guests[d.guestID]
	if g == nil {
		g = &guestLine{}
		q.guests[d.guestID] = g
	}
	if len(g.waiting) >= q.maxGuest {
		return false
	}
	g.waiting = append(g.waiting, d)
	q.size++
	q.offerTurn(d.guestID, g)
	return true
}

// pop waits for the next delivery whose guest has a turn and marks it in
// flight; the caller must call done with its guest when it has been
// tried. It reports false once the queue is closed.
func (q *fairQueue) pop() (delivery, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.turns) == 0 && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return delivery{}, false
	}
	id := q.turns[0]
	q.turns[0] = ""
	q.turns = q.turns[1:]
	g := q.guests[id]
	g.inTurns = false
	d := g.waiting[0]
	g.waiting[0] = delivery{}
	g.waiting = g.waiting[1:]
	q.size--
	g.inFlight++
	q.offerTurn(id, g)
	return d, true
}

// done ends one of guestID's deliveries in flight.
func (q *fairQueue) done(guestID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	g := q.guests[guestID]
	if g == nil {
		return
	}
	g.inFlight--
	q.offerTurn(guestID, g)
	if g.inFlight == 0 && len(g.waiting) == 0 {
		delete(q.guests, guestID)
	}
}

// offerTurn puts the guest at the back of the turns when it has work and
// room for more in flight.
func (q *fairQueue) offerTurn(id string, g *guestLine) {
	if g.inTurns || len(g.waiting) == 0 || g.inFlight >= q.share {
		return
	}
	g.inTurns = true
	q.turns = append(q.turns, id)
	q.cond.Signal()
}

// close wakes every waiting pop; what is still queued is dropped.
func (q *fairQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// len is the number of deliveries waiting.
func (q *fairQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.size
}
