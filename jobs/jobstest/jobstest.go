// Package jobstest runs the durable job runner in tests and waits for its
// jobs, for the packages whose work runs as jobs (ai, invite) and for
// jobs itself.
package jobstest

import (
	"context"
	"testing"
	"time"

	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/store"
)

// Run runs r until the test ends, then waits for it to stop.
func Run(t testing.TB, r *jobs.Runner) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// WaitJob polls until job id reaches status, for at most 30 s.
func WaitJob(t testing.TB, st *store.Store, id, status string) store.Job {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		j, err := st.JobByID(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status == status {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s after 30s, want %s (%+v)", id, j.Status, status, j)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
