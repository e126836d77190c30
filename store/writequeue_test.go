package store

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Waiting writers get the turn urgent ones first, each kind in order of
// arrival, and after urgentRun urgent turns in a row the oldest other
// writer goes, so moves at the bar cannot hold an RSVP back for ever.
func TestWriteQueueOrder(t *testing.T) {
	var q writeQueue
	q.acquire(false) // the writer holding the turn while the others line up

	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	lineUp := func(name string, urgent bool) {
		before := q.waiting()
		wg.Go(func() {
			q.acquire(urgent)
			mu.Lock()
			got = append(got, name)
			mu.Unlock()
			q.release()
		})
		for q.waiting() == before { // in line: the arrival order is known
			time.Sleep(time.Millisecond)
		}
	}
	lineUp("rsvp1", false)
	for i := 1; i <= 5; i++ {
		lineUp(fmt.Sprintf("move%d", i), true)
	}
	lineUp("rsvp2", false)
	for i := 6; i <= urgentRun+2; i++ {
		lineUp(fmt.Sprintf("move%d", i), true)
	}
	q.release()
	wg.Wait()

	want := []string{"move1", "move2", "move3", "move4", "move5", "move6", "move7", "move8", "rsvp1", "move9", "move10", "rsvp2"}
	if !slices.Equal(got, want) {
		t.Errorf("turns %v\nwant  %v", got, want)
	}
	if q.busy {
		t.Error("the queue is still busy with nobody writing")
	}
}

func (q *writeQueue) waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.urgent) + len(q.normal)
}
