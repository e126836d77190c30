package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// counter is a handler that records each drink it is asked about, and
// fails the first failures attempts of every job.
type counter struct {
	mu       sync.Mutex
	runs     map[string]int
	failures int
	calls    int
}

func newCounter() *counter { return &counter{runs: map[string]int{}} }

func (c *counter) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if j.Attempts <= c.failures {
		return jobs.Result{}, fmt.Errorf("attempt %d failed", j.Attempts)
	}
	id := j.Payload[store.PayloadDrinkID]
	c.runs[id]++
	return jobs.Result{Values: map[string]string{"drinkId": id}}, nil
}

func (c *counter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.runs)
}

func (c *counter) get(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs[id]
}

func (c *counter) callCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// rig is a runner's surroundings: a real database and a counting handler
// of the image prompt kind.
type rig struct {
	st      *store.Store
	handler *counter
	log     *slog.Logger
	mu      sync.Mutex
	alerts  []map[string]any
}

func newRig(t testing.TB) *rig {
	t.Helper()
	r := &rig{st: storetest.New(t), handler: newCounter(), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if os.Getenv("BARHUB_TEST_LOG") != "" {
		r.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return r
}

var fastJobs = jobs.Config{
	Concurrency:  4,
	PollInterval: 5 * time.Millisecond,
	Lease:        20 * time.Second,
	BackoffBase:  time.Millisecond,
	BackoffMax:   5 * time.Millisecond,
}

func (r *rig) runner(st *store.Store, cfg jobs.Config) *jobs.Runner {
	w := jobs.NewRunner(jobs.Deps{Queue: st, Logger: r.log, Alert: func(_ context.Context, a map[string]any) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.alerts = append(r.alerts, a)
		return nil
	}}, cfg)
	w.Handle(store.JobImagePrompt, r.handler)
	return w
}

// start runs a runner on st until the test ends.
func (r *rig) start(t testing.TB, st *store.Store, id string) *jobs.Runner {
	t.Helper()
	cfg := fastJobs
	cfg.ID = id
	w := r.runner(st, cfg)
	jobstest.Run(t, w)
	return w
}

func (r *rig) enqueue(t testing.TB, nj store.NewJob) store.Job {
	t.Helper()
	j, err := r.st.EnqueueJob(context.Background(), nj)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJobOfACrashedWorkerIsTakenOver(t *testing.T) {
	r := newRig(t)
	j := r.enqueue(t, store.ImagePromptJob("negroni"))
	// A runner took the job and died: its lease has run out.
	if _, err := r.st.StartJob(context.Background(), j, "crashed", -time.Second); err != nil {
		t.Fatal(err)
	}
	r.start(t, r.st, "w2")
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if done.Attempts != 2 || done.Worker != "w2" || !strings.Contains(done.LastError, "worker crashed stopped") || r.handler.callCount() != 1 {
		t.Errorf("job %+v after %d calls", done, r.handler.callCount())
	}
}

func TestTwoWorkersRunEachJobOnce(t *testing.T) {
	r := newRig(t)
	const n = 200
	var ids []string
	for i := range n {
		ids = append(ids, r.enqueue(t, store.ImagePromptJob(fmt.Sprintf("d%03d", i))).ID)
	}
	// A second instance: its own connection to the same database.
	other, err := store.Open(context.Background(), store.Config{URI: storetest.URI(t), Database: r.st.DB().Name()}, r.log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close(context.Background()) })
	r.start(t, r.st, "one")
	r.start(t, other, "two")

	// Watch the in-memory handler, not the database, so the test's own
	// polling does not compete with the runners.
	deadline := time.Now().Add(5 * time.Minute)
	for r.handler.count() < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	var done []store.Job
	for {
		var err error
		done, _, err = r.st.ListJobs(context.Background(), store.JobFilter{Status: store.JobDone})
		if err != nil {
			t.Fatal(err)
		}
		if len(done) == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(done) != n {
		t.Fatalf("%d of %d jobs done", len(done), n)
	}
	byWorker := map[string]int{}
	for _, j := range done {
		byWorker[j.Worker]++
		if j.Attempts != 1 {
			t.Errorf("job %s took %d attempts", j.ID, j.Attempts)
		}
	}
	if got := r.handler.callCount(); got != n {
		t.Fatalf("the handler was called %d times for %d jobs", got, n)
	}
	for i := range n {
		if got := r.handler.get(fmt.Sprintf("d%03d", i)); got != 1 {
			t.Fatalf("drink %d was handled %d times", i, got)
		}
	}
	t.Logf("jobs per worker: %v", byWorker)
}

func TestUnknownKindIsDeadAtOnce(t *testing.T) {
	r := newRig(t)
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.NewJob{Kind: store.JobImport})
	dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
	if dead.Attempts != 1 {
		t.Errorf("job %+v", dead)
	}
	if !strings.Contains(dead.LastError, `no worker handles "import" jobs`) {
		t.Errorf("last error %q", dead.LastError)
	}
}

func TestSubmitStartsAJobWithoutWaitingForAPoll(t *testing.T) {
	r := newRig(t)
	cfg := fastJobs
	cfg.PollInterval = time.Hour
	w := r.runner(r.st, cfg)

	// Before Run, Submit leaves the job to the queue.
	early := r.enqueue(t, store.ImagePromptJob("negroni"))
	w.Submit(early)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	// Run's first read of the queue finds the early job; after it the
	// runner sleeps for the hour-long poll interval.
	jobstest.WaitJob(t, r.st, early.ID, store.JobDone)

	j := r.enqueue(t, store.ImagePromptJob("mai-tai"))
	w.Submit(j)
	done2 := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if done2.Worker != w.ID() || r.handler.get("mai-tai") != 1 {
		t.Fatalf("submitted job %+v", done2)
	}
}

// fallbackCounter records the order of a failing job's hooks.
type fallbackCounter struct {
	mu    sync.Mutex
	steps []string
	st    *store.Store
}

func (f *fallbackCounter) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	return jobs.Result{Usage: store.TokenUsage{InputTokens: 3}}, errors.New("no answer")
}

func (f *fallbackCounter) Fallback(ctx context.Context, j jobs.Job, cause error) {
	cur, _ := f.st.JobByID(ctx, j.ID)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.steps = append(f.steps, "fallback while "+cur.Status)
}

func (f *fallbackCounter) Failed(ctx context.Context, j jobs.Job, err error, final bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.steps = append(f.steps, fmt.Sprintf("failed final=%v status=%s", final, j.Status))
}

// A job failing every attempt is retried with backoff, then given up:
// its fallback runs before it is set aside, the handler hears of every
// failure after it is recorded, and the admins are alerted.
func TestFailingJobIsRetriedThenDeadLettered(t *testing.T) {
	r := newRig(t)
	h := &fallbackCounter{st: r.st}
	cfg := fastJobs
	cfg.ID = "w1"
	w := r.runner(r.st, cfg)
	w.Handle("flaky", h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	j := r.enqueue(t, store.NewJob{Kind: "flaky", Subject: "test:1", MaxAttempts: 3})
	dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
	if dead.Attempts != 3 || dead.LastError != "no answer" || dead.Usage.InputTokens != 9 {
		t.Errorf("dead job %+v", dead)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.alerts)
		r.mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.mu.Lock()
	steps := strings.Join(h.steps, "; ")
	h.mu.Unlock()
	want := "failed final=false status=running; failed final=false status=running; fallback while running; failed final=true status=dead"
	if steps != want {
		t.Errorf("steps\n got %s\nwant %s", steps, want)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.alerts) != 1 || r.alerts[0]["code"] != "job_dead" || r.alerts[0]["jobId"] != j.ID {
		t.Errorf("alerts %+v", r.alerts)
	}
}

// Reproduction: a burst of guests' recommendations waited for runner
// slots held by slow jobs (other guests' model calls, image prompts),
// past the guest's budget. A kind with a lane of its own runs while every
// shared slot is held, through the queue's poll as well as Submit.
func TestLaneRunsWhileTheSharedSlotsAreHeld(t *testing.T) {
	for _, submit := range []bool{false, true} {
		t.Run(fmt.Sprintf("submit=%v", submit), func(t *testing.T) {
			r := newRig(t)
			cfg := fastJobs
			cfg.Concurrency = 1
			cfg.Lanes = map[string]int{store.JobRecommendation: 2}
			w := r.runner(r.st, cfg)
			hold := make(chan struct{})
			held := make(chan string, 4)
			w.Handle(store.JobImagePrompt, jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) (jobs.Result, error) {
				held <- j.ID
				<-hold
				return jobs.Result{}, nil
			}))
			w.Handle(store.JobRecommendation, jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) (jobs.Result, error) {
				return jobs.Result{Values: map[string]string{"ok": "1"}}, nil
			}))
			jobstest.Run(t, w)
			defer close(hold)

			first := r.enqueue(t, store.ImagePromptJob("negroni"))
			second := r.enqueue(t, store.ImagePromptJob("mai-tai"))
			waiting := second
			if <-held == second.ID { // the one shared slot is held
				waiting = first
			}
			reco := r.enqueue(t, store.RecommendationJob("rec1", "g1"))
			if submit {
				w.Submit(reco)
			}
			jobstest.WaitJob(t, r.st, reco.ID, store.JobDone)
			// The shared slot is still held, the other image prompt waits.
			if j, err := r.st.JobByID(context.Background(), waiting.ID); err != nil || j.Status != store.JobQueued {
				t.Errorf("the second image prompt is %q (%v), want it still queued", j.Status, err)
			}
		})
	}
}
