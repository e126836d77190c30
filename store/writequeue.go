package store

import (
	"context"
	"sync"
)

// writeQueue hands this process's turns at the embedded database's one
// writer out first come, first served, except that urgent writes (the
// bar's order moves: a guest is waiting for "ready") go before the
// others. So that an evening of moves cannot hold back an RSVP for ever,
// every urgentRun-th turn in a row goes to the oldest other writer.
type writeQueue struct {
	mu     sync.Mutex
	busy   bool
	run    int // urgent turns given in a row while others waited
	urgent []chan struct{}
	normal []chan struct{}
}

const urgentRun = 8

func (q *writeQueue) acquire(urgent bool) {
	q.mu.Lock()
	if !q.busy {
		q.busy = true
		q.mu.Unlock()
		return
	}
	turn := make(chan struct{})
	if urgent {
		q.urgent = append(q.urgent, turn)
	} else {
		q.normal = append(q.normal, turn)
	}
	q.mu.Unlock()
	<-turn // the releaser handed the turn over: busy stays true
}

func (q *writeQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	next := func(list *[]chan struct{}) {
		close((*list)[0])
		*list = (*list)[1:]
	}
	switch {
	case len(q.urgent) > 0 && (len(q.normal) == 0 || q.run < urgentRun):
		q.run++
		next(&q.urgent)
	case len(q.normal) > 0:
		q.run = 0
		next(&q.normal)
	default:
		q.run = 0
		q.busy = false
	}
}

type urgentKey struct{}

// Urgent marks ctx's writes as ones a person is waiting on, to go before
// the others on the embedded database (see writeQueue).
func Urgent(ctx context.Context) context.Context {
	return context.WithValue(ctx, urgentKey{}, true)
}

func isUrgent(ctx context.Context) bool {
	u, _ := ctx.Value(urgentKey{}).(bool)
	return u
}
