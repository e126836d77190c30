// Package jobs runs background work: the durable job queue, whose kinds
// (the AI bartender's, the invitation e-mails, the reminders) other
// packages register handlers for, and the periodic maintenance tasks
// (sweeps and repairs) of a running process.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/store"
)

// Job is one queued unit of work; the queue is kept by package store.
type Job = store.Job

// Queue is the job queue's persistence (package store's).
type Queue interface {
	DueJobs(ctx context.Context, at time.Time, limit int) ([]Job, error)
	StartJob(ctx context.Context, j Job, worker string, lease time.Duration) (Job, error)
	AbandonJob(ctx context.Context, j Job) (Job, error)
	FinishJob(ctx context.Context, j Job, result map[string]string, usage store.TokenUsage) (Job, error)
	RetryJobLater(ctx context.Context, j Job, lastError string, at time.Time, usage store.TokenUsage) (Job, error)
	DeadLetterJob(ctx context.Context, j Job, lastError string, usage store.TokenUsage) (Job, error)
	SweepJobs(ctx context.Context, cutoff time.Time) (int64, error)
}

// Result is what an attempt reports besides its error.
type Result struct {
	// Values are kept on a finished job, for the admin's view.
	Values map[string]string
	// Usage counts the model tokens the attempt used, failed or not.
	Usage store.TokenUsage
}

// Handler runs one kind of job. An error whose Permanent method says true
// is not retried.
type Handler interface {
	Handle(ctx context.Context, j Job) (Result, error)
}

// HandlerFunc is a Handler of a plain function.
type HandlerFunc func(ctx context.Context, j Job) (Result, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, j Job) (Result, error) { return f(ctx, j) }

// Failer is a Handler told of each failed attempt, once it is recorded:
// final when the job was dead-lettered (the admins are alerted), else it
// is retried later.
type Failer interface {
	Failed(ctx context.Context, j Job, err error, final bool)
}

// Fallback is a Handler that leaves a last answer in place when a job is
// given up, before the job is set aside, so whoever waits for it is not
// left with nothing (the AI kinds answer locally then).
type Fallback interface {
	Fallback(ctx context.Context, j Job, cause error)
}

// Config tunes a Runner. Zero fields take the defaults noted.
type Config struct {
	// ID names this runner in the jobs it runs (default host-pid-random).
	ID string
	// Concurrency is how many jobs run at once (default 4), besides the
	// jobs of the kinds in Lanes.
	Concurrency int
	// Lanes gives kinds slots of their own: kind → how many of its jobs
	// run at once, taken from no other kind. A guest's recommendation
	// must not wait behind image prompts or e-mails, nor behind other
	// guests' slow model calls.
	Lanes map[string]int
	// PollInterval is how often the queue is read when idle (default 1s);
	// Wake reads it at once.
	PollInterval time.Duration
	// Lease is how long a started job belongs to this runner (default 2m).
	// A job still running when it passes is taken over by another runner,
	// so each attempt is cut off at the lease.
	Lease time.Duration
	// BackoffBase is the delay before the second attempt (default 2s); it
	// doubles with each attempt up to BackoffMax (default 5m), with jitter.
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// KeepDone is how long finished jobs stay for the admin view before
	// the runner sweeps them (default 7 days).
	KeepDone time.Duration
}

func (c Config) withDefaults() Config {
	if c.ID == "" {
		host, _ := os.Hostname()
		var b [3]byte
		rand.Read(b[:])
		c.ID = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = 2 * time.Second
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 5 * time.Minute
	}
	if c.KeepDone <= 0 {
		c.KeepDone = 7 * 24 * time.Hour
	}
	return c
}

// Deps are a Runner's parts.
type Deps struct {
	Queue  Queue
	Logger *slog.Logger
	// Registerer receives the runner's metrics; nil keeps none.
	Registerer prometheus.Registerer
	// Alert tells the admins, live, of a job set aside; nil tells nobody.
	// A lost alert does not fail anything: the job stays dead for the
	// admin's view.
	Alert func(ctx context.Context, alert map[string]any) error
}

// Runner runs queued jobs. Any number of runners, in any number of
// processes, may share one queue: each attempt of each job runs once.
type Runner struct {
	cfg      Config
	d        Deps
	log      *slog.Logger
	handlers map[string]Handler
	wake     chan struct{}
	// slots holds a token per running job of a kind without a lane;
	// lanes, per kind with one. freed is told when a token is given back.
	slots   chan struct{}
	lanes   map[string]chan struct{}
	freed   chan struct{}
	running sync.WaitGroup
	// mu guards ctx: the context of Run while it runs, nil otherwise, so
	// Submit never adds to running once Run has started waiting on it;
	// and handlers.
	mu      sync.Mutex
	ctx     context.Context
	metrics runnerMetrics
}

// NewRunner returns a runner; register its kinds with Handle, then start
// it with Run.
func NewRunner(d Deps, cfg Config) *Runner {
	cfg = cfg.withDefaults()
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	lanes := map[string]chan struct{}{}
	for kind, n := range cfg.Lanes {
		if n > 0 {
			lanes[kind] = make(chan struct{}, n)
		}
	}
	return &Runner{
		cfg:      cfg,
		d:        d,
		log:      d.Logger.With("worker", cfg.ID),
		handlers: map[string]Handler{},
		wake:     make(chan struct{}, 1),
		slots:    make(chan struct{}, cfg.Concurrency),
		lanes:    lanes,
		freed:    make(chan struct{}, 1),
		metrics:  newRunnerMetrics(d.Registerer),
	}
}

// pool is the slots a job of kind runs in.
func (r *Runner) pool(kind string) chan struct{} {
	if p, ok := r.lanes[kind]; ok {
		return p
	}
	return r.slots
}

// tryTake takes a slot for a job of kind if one is free.
func (r *Runner) tryTake(kind string) bool {
	select {
	case r.pool(kind) <- struct{}{}:
		return true
	default:
		return false
	}
}

// give returns a slot taken for a job of kind, and tells a runner
// waiting for one.
func (r *Runner) give(kind string) {
	<-r.pool(kind)
	select {
	case r.freed <- struct{}{}:
	default:
	}
}

// capacity is how many jobs run at once, lanes included.
func (r *Runner) capacity() int {
	n := cap(r.slots)
	for _, p := range r.lanes {
		n += cap(p)
	}
	return n
}

// Handle registers h for the jobs of kind; a later registration of the
// same kind replaces it. Register every kind before Run: a job of a kind
// nobody handles is dead at once.
func (r *Runner) Handle(kind string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handlers[kind] = h
}

func (r *Runner) handler(kind string) (Handler, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.handlers[kind]
	return h, ok
}

// ID names this runner in the jobs it runs.
func (r *Runner) ID() string { return r.cfg.ID }

// Wake makes an idle runner read the queue now, for jobs enqueued in this
// process. Other processes' jobs are found by polling.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run works until ctx is cancelled, then waits for the jobs it started:
// each is bounded by the lease, and leaving one half done would only make
// another runner repeat it.
func (r *Runner) Run(ctx context.Context) error {
	r.mu.Lock()
	r.ctx = ctx
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.ctx = nil
		r.mu.Unlock()
		r.running.Wait()
	}()
	r.log.Info("job worker started", "concurrency", r.cfg.Concurrency, "lanes", r.cfg.Lanes)
	idle := time.NewTimer(0)
	defer idle.Stop()
	lastSweep := time.Time{}
	for {
		if time.Since(lastSweep) > 10*time.Minute {
			lastSweep = time.Now()
			if n, err := r.d.Queue.SweepJobs(ctx, time.Now().Add(-r.cfg.KeepDone)); err != nil {
				r.log.Warn("sweep finished jobs", "err", err)
			} else if n > 0 {
				r.log.Info("swept finished jobs", "n", n)
			}
		}
		started, more, blocked, err := r.poll(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			r.log.Warn("read the job queue", "err", err)
		}
		if started > 0 && more {
			continue
		}
		// Due jobs that found their slots busy are read again as soon as
		// one is given back, not a poll interval later.
		var freed <-chan struct{}
		if blocked {
			freed = r.freed
		}
		idle.Reset(r.cfg.PollInterval)
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
		case <-freed:
		case <-idle.C:
		}
	}
}

// Submit starts a job this process has just queued, at once if a slot is
// free, instead of waiting for the next read of the queue. Otherwise the
// job waits its turn like any other. Either way another instance may get
// it first; the claims decide.
func (r *Runner) Submit(j Job) {
	r.mu.Lock()
	ctx := r.ctx
	if ctx == nil {
		r.mu.Unlock()
		return
	}
	if !r.tryTake(j.Kind) {
		r.mu.Unlock()
		r.Wake()
		return
	}
	r.running.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.running.Done()
		defer r.give(j.Kind)
		run, err := r.start(ctx, j)
		if err != nil || run.ID == "" {
			if err != nil && !errors.Is(err, store.ErrConflict) {
				r.log.Warn("start job", "job", j.ID, "err", err)
			}
			return
		}
		r.process(ctx, run)
	}()
}

// poll reads a batch of due jobs and starts those it can get a slot for.
// It returns how many it started, whether there may be more due now (the
// batch was full), and whether some due job found its kind's slots busy:
// it is left for a fresh read once a slot is given back, since acting on
// a stale read is safe (the claims see to that) but wasteful.
func (r *Runner) poll(ctx context.Context) (started int, more, blocked bool, err error) {
	limit := 2 * r.capacity()
	jobs, err := r.d.Queue.DueJobs(ctx, time.Now().UTC(), limit)
	if err != nil {
		return 0, false, false, err
	}
	more = len(jobs) == limit
	// Runners polling together see the same oldest jobs; shuffling
	// spreads them over different ones instead of all racing for the
	// first.
	mrand.Shuffle(len(jobs), func(i, j int) { jobs[i], jobs[j] = jobs[j], jobs[i] })
	for _, j := range jobs {
		if ctx.Err() != nil {
			return started, more, blocked, nil
		}
		if !r.tryTake(j.Kind) {
			blocked = true
			continue
		}
		run, err := r.start(ctx, j)
		if err != nil || run.ID == "" {
			r.give(j.Kind)
			if err != nil && !errors.Is(err, store.ErrConflict) {
				r.log.Warn("start job", "job", j.ID, "err", err)
			}
			continue
		}
		started++
		r.running.Add(1)
		go func() {
			defer r.running.Done()
			defer r.give(j.Kind)
			r.process(ctx, run)
		}()
	}
	return started, more, blocked, nil
}

// start takes j's next attempt; a zero job and no error means the job was
// abandoned on its last attempt and dead-lettered instead.
func (r *Runner) start(ctx context.Context, j Job) (Job, error) {
	if j.Status == store.JobRunning && j.Attempts >= j.MaxAttempts {
		dead, err := r.d.Queue.AbandonJob(ctx, j)
		if err != nil {
			return Job{}, err
		}
		r.metrics.jobs.WithLabelValues(j.Kind, "dead").Inc()
		cause := errors.New(dead.LastError)
		h, _ := r.handler(j.Kind)
		if f, ok := h.(Fallback); ok {
			f.Fallback(ctx, dead, cause)
		}
		if f, ok := h.(Failer); ok {
			f.Failed(ctx, dead, cause, true)
		}
		r.deadLettered(ctx, dead, cause)
		return Job{}, nil
	}
	return r.d.Queue.StartJob(ctx, j, r.cfg.ID, r.cfg.Lease)
}

func (r *Runner) handle(ctx context.Context, j Job) (Result, error) {
	h, ok := r.handler(j.Kind)
	if !ok {
		return Result{}, permanentError{fmt.Errorf("no worker handles %q jobs", j.Kind)}
	}
	return h.Handle(ctx, j)
}

// process runs one started attempt and records how it went.
func (r *Runner) process(ctx context.Context, j Job) {
	// Shutting down does not cut an attempt short; the lease does, with a
	// tenth of it left to record the outcome before another runner may
	// take the job over.
	runCtx, cancelRun := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Lease-r.cfg.Lease/10)
	defer cancelRun()
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Lease)
	defer cancel()
	start := time.Now()
	out, err := r.handle(runCtx, j)
	r.metrics.duration.WithLabelValues(j.Kind).Observe(time.Since(start).Seconds())
	r.metrics.tokens.WithLabelValues(j.Kind, "input").Add(float64(out.Usage.InputTokens))
	r.metrics.tokens.WithLabelValues(j.Kind, "output").Add(float64(out.Usage.OutputTokens))

	if err == nil {
		if _, err := r.d.Queue.FinishJob(hctx, j, out.Values, out.Usage); err != nil {
			r.log.Warn("record finished job", "job", j.ID, "kind", j.Kind, "err", err)
			return
		}
		r.metrics.jobs.WithLabelValues(j.Kind, "done").Inc()
		r.log.Debug("job done", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "ms", time.Since(start).Milliseconds())
		return
	}

	h, _ := r.handler(j.Kind)
	msg := errorText(err)
	if !Permanent(err) && j.Attempts < j.MaxAttempts {
		delay := backoff(r.cfg.BackoffBase, r.cfg.BackoffMax, j.Attempts)
		if _, rerr := r.d.Queue.RetryJobLater(hctx, j, msg, time.Now().Add(delay), out.Usage); rerr != nil {
			r.log.Warn("record failed attempt", "job", j.ID, "err", rerr)
			return
		}
		r.metrics.jobs.WithLabelValues(j.Kind, "retry").Inc()
		if f, ok := h.(Failer); ok {
			f.Failed(hctx, j, err, false)
		}
		r.log.Warn("job attempt failed; retrying", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "of", j.MaxAttempts, "in", delay.Round(time.Millisecond), "err", err)
		return
	}

	if f, ok := h.(Fallback); ok {
		f.Fallback(hctx, j, err)
	}
	dead, derr := r.d.Queue.DeadLetterJob(hctx, j, msg, out.Usage)
	if derr != nil {
		r.log.Warn("record dead job", "job", j.ID, "err", derr)
		return
	}
	r.metrics.jobs.WithLabelValues(j.Kind, "dead").Inc()
	if f, ok := h.(Failer); ok {
		f.Failed(hctx, dead, err, true)
	}
	r.deadLettered(hctx, dead, err)
}

// deadLettered tells the admins, live.
func (r *Runner) deadLettered(ctx context.Context, j Job, cause error) {
	r.log.Error("job dead-lettered", "job", j.ID, "kind", j.Kind, "subject", j.Subject, "attempts", j.Attempts, "err", cause)
	if r.d.Alert == nil {
		return
	}
	err := r.d.Alert(ctx, map[string]any{
		"level":     "error",
		"code":      "job_dead",
		"message":   fmt.Sprintf("The %s job for %s failed after %d attempts and was set aside: %s", j.Kind, j.Subject, j.Attempts, j.LastError),
		"jobId":     j.ID,
		"kind":      j.Kind,
		"subject":   j.Subject,
		"attempts":  j.Attempts,
		"lastError": j.LastError,
	})
	if err != nil {
		r.log.Warn("alert the admins of a dead job", "job", j.ID, "err", err)
	}
}

// Permanent reports whether err says that trying again cannot help (a
// model the account may not use, a request the service refuses, a job of
// a kind nobody handles). Errors say so by implementing Permanent() bool.
func Permanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// permanentError marks an error no retry can fix.
type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() error   { return e.err }
func (e permanentError) Permanent() bool { return true }

// backoff is the wait after the attempt-th failure: base doubled per
// attempt, capped, then jittered to 50–100% so jobs that failed together
// (a throttled burst) do not come back together.
func backoff(base, limit time.Duration, attempt int) time.Duration {
	d := base
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	half := d / 2
	return half + time.Duration(mrand.Int64N(int64(half)+1))
}

// errorText keeps a job's last error readable and bounded.
func errorText(err error) string {
	s := err.Error()
	if len(s) > 1000 {
		s = s[:1000] + "…"
	}
	return s
}

type runnerMetrics struct {
	jobs     *prometheus.CounterVec
	tokens   *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newRunnerMetrics(reg prometheus.Registerer) runnerMetrics {
	m := runnerMetrics{
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "barhub_jobs_total", Help: "Job attempts by kind and outcome (done, retry, dead).",
		}, []string{"kind", "outcome"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "barhub_model_tokens_total", Help: "Model tokens used by job kind and direction (input, output).",
		}, []string{"kind", "direction"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "barhub_job_duration_seconds", Help: "Time to run one job attempt.",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"kind"}),
	}
	if reg != nil {
		reg.MustRegister(m.jobs, m.tokens, m.duration)
	}
	return m
}
