package ai

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

	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/store"
)

// Config tunes a Worker. Zero fields take the defaults noted.
type Config struct {
	// ID names this worker in the jobs it runs (default host-pid-random).
	ID string
	// Concurrency is how many jobs run at once (default 4).
	Concurrency int
	// PollInterval is how often the queue is read when idle (default 1s);
	// Wake reads it at once.
	PollInterval time.Duration
	// Lease is how long a started job belongs to this worker (default 2m).
	// A job still running when it passes is taken over by another worker,
	// so each attempt is cut off at the lease.
	Lease time.Duration
	// BackoffBase is the delay before the second attempt (default 2s); it
	// doubles with each attempt up to BackoffMax (default 5m), with jitter.
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// KeepDone is how long finished jobs stay for the admin view before
	// the worker sweeps them (default 7 days).
	KeepDone time.Duration
	// RecommendBudget is how long a guest waits at most for a
	// recommendation, from the request (default 8s). The model gets at
	// most two calls within it, each cut off at ModelCallTimeout
	// (default 3s), and none that would have less than MinModelCall
	// (default 1s); then the local recommender answers.
	RecommendBudget  time.Duration
	ModelCallTimeout time.Duration
	MinModelCall     time.Duration
	// RetryPause is the pause before the model's second call (default
	// 250ms, at most a quarter of the time left).
	RetryPause time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
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
	if c.RecommendBudget <= 0 {
		c.RecommendBudget = 8 * time.Second
	}
	if c.ModelCallTimeout <= 0 {
		c.ModelCallTimeout = 3 * time.Second
	}
	if c.MinModelCall <= 0 {
		c.MinModelCall = min(time.Second, c.ModelCallTimeout)
	}
	if c.RetryPause <= 0 {
		c.RetryPause = 250 * time.Millisecond
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Deps are the worker's parts.
type Deps struct {
	Store     *store.Store
	Menu      Menu
	Guests    Guests
	Prompts   PromptSink
	Publisher Publisher
	// Model answers with Bedrock; nil uses the local implementations.
	Model  Model
	Logger *slog.Logger
	// Registerer receives the worker's metrics; nil keeps none.
	Registerer prometheus.Registerer
	// Texts are the server's catalogues, for the house recommender's
	// reasons in the guest's language; nil loads them.
	Texts *locale.Catalog
	// Handlers run the job kinds other packages queue (the invitation
	// and reminder e-mails), by kind, on the same durable queue.
	Handlers map[string]JobHandler
}

// JobHandler runs one kind of job for another package. An error whose
// Permanent method says true is not retried.
type JobHandler interface {
	Handle(ctx context.Context, j store.Job) (result map[string]string, err error)
	// Failed is told of each failed attempt: final when the job was
	// dead-lettered (the admins are alerted), else it is retried later.
	Failed(ctx context.Context, j store.Job, err error, final bool)
}

// Worker runs queued jobs. Any number of workers, in any number of
// processes, may share one database: each attempt of each job runs once.
type Worker struct {
	cfg     Config
	d       Deps
	log     *slog.Logger
	wake    chan struct{}
	slots   chan struct{}
	running sync.WaitGroup
	// mu guards ctx: the context of Run while it runs, nil otherwise, so
	// Submit never adds to running once Run has started waiting on it.
	mu      sync.Mutex
	ctx     context.Context
	metrics workerMetrics
}

// NewWorker returns a worker; start it with Run.
func NewWorker(d Deps, cfg Config) *Worker {
	cfg = cfg.withDefaults()
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Texts == nil {
		// Fails only on a broken embedded catalogue, which the locale
		// package's tests catch; the reasons then load their own.
		d.Texts, _ = locale.New()
	}
	w := &Worker{
		cfg:     cfg,
		d:       d,
		log:     d.Logger.With("worker", cfg.ID),
		wake:    make(chan struct{}, 1),
		slots:   make(chan struct{}, cfg.Concurrency),
		metrics: newWorkerMetrics(d.Registerer),
	}
	return w
}

// ID names this worker in the jobs it runs.
func (w *Worker) ID() string { return w.cfg.ID }

func (w *Worker) now() time.Time { return w.cfg.Now() }

// Source says who answers: "bedrock" with a model, "local" without.
func (w *Worker) Source() string {
	if w.d.Model != nil {
		return SourceBedrock
	}
	return SourceLocal
}

// Wake makes an idle worker read the queue now, for jobs enqueued in this
// process. Other processes' jobs are found by polling.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run works until ctx is cancelled, then waits for the jobs it started:
// each is bounded by the lease, and leaving one half done would only make
// another worker repeat it.
func (w *Worker) Run(ctx context.Context) error {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.ctx = nil
		w.mu.Unlock()
		w.running.Wait()
	}()
	w.log.Info("job worker started", "source", w.Source(), "concurrency", w.cfg.Concurrency)
	idle := time.NewTimer(0)
	defer idle.Stop()
	lastSweep := time.Time{}
	for {
		if time.Since(lastSweep) > 10*time.Minute {
			lastSweep = time.Now()
			if n, err := w.d.Store.SweepJobs(ctx, time.Now().Add(-w.cfg.KeepDone)); err != nil {
				w.log.Warn("sweep finished jobs", "err", err)
			} else if n > 0 {
				w.log.Info("swept finished jobs", "n", n)
			}
		}
		started, more, err := w.poll(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			w.log.Warn("read the job queue", "err", err)
		}
		if started > 0 && more {
			continue
		}
		idle.Reset(w.cfg.PollInterval)
		select {
		case <-ctx.Done():
			return nil
		case <-w.wake:
		case <-idle.C:
		}
	}
}

// Submit starts a job this process has just queued, at once if a slot is
// free, instead of waiting for the next read of the queue. Otherwise the
// job waits its turn like any other. Either way another instance may get
// it first; the claims decide.
func (w *Worker) Submit(j store.Job) {
	w.mu.Lock()
	ctx := w.ctx
	if ctx == nil {
		w.mu.Unlock()
		return
	}
	select {
	case w.slots <- struct{}{}:
	default:
		w.mu.Unlock()
		w.Wake()
		return
	}
	w.running.Add(1)
	w.mu.Unlock()
	go func() {
		defer w.running.Done()
		defer func() { <-w.slots }()
		run, err := w.start(ctx, j)
		if err != nil || run.ID == "" {
			if err != nil && !errors.Is(err, store.ErrConflict) {
				w.log.Warn("start job", "job", j.ID, "err", err)
			}
			return
		}
		w.process(ctx, run)
	}()
}

// poll reads a batch of due jobs and starts as many as it can get. It
// returns how many it started, and whether there may be more due now (the
// batch was full). When every slot is busy it waits for one, but acts only
// on candidates read within candidateTTL: older ones go back for a fresh
// read. (Acting on a stale one is safe, the claims see to that, but
// wasteful.)
func (w *Worker) poll(ctx context.Context) (started int, more bool, err error) {
	limit := 2 * w.cfg.Concurrency
	jobs, err := w.d.Store.DueJobs(ctx, time.Now().UTC(), limit)
	if err != nil {
		return 0, false, err
	}
	more = len(jobs) == limit
	readAt := time.Now()
	// Workers polling together see the same oldest jobs; shuffling
	// spreads them over different ones instead of all racing for the
	// first.
	mrand.Shuffle(len(jobs), func(i, j int) { jobs[i], jobs[j] = jobs[j], jobs[i] })
	for i, j := range jobs {
		select {
		case w.slots <- struct{}{}:
		case <-ctx.Done():
			return started, more, nil
		}
		if time.Since(readAt) > candidateTTL {
			<-w.slots
			return started, more || i < len(jobs), nil
		}
		run, err := w.start(ctx, j)
		if err != nil || run.ID == "" {
			<-w.slots
			if err != nil && !errors.Is(err, store.ErrConflict) {
				w.log.Warn("start job", "job", j.ID, "err", err)
			}
			continue
		}
		started++
		w.running.Add(1)
		go func() {
			defer w.running.Done()
			defer func() { <-w.slots }()
			w.process(ctx, run)
		}()
	}
	return started, more, nil
}

// start takes j's next attempt; a zero job and no error means the job was
// abandoned on its last attempt and dead-lettered instead.
func (w *Worker) start(ctx context.Context, j store.Job) (store.Job, error) {
	if j.Status == store.JobRunning && j.Attempts >= j.MaxAttempts {
		dead, err := w.d.Store.AbandonJob(ctx, j)
		if err != nil {
			return store.Job{}, err
		}
		w.metrics.jobs.WithLabelValues(j.Kind, "dead").Inc()
		switch j.Kind {
		case store.JobRecommendation:
			w.recommendationFallback(ctx, dead, errors.New(dead.LastError))
		case store.JobImagePrompt:
			w.imagePromptFallback(ctx, dead)
		}
		if h, ok := w.d.Handlers[j.Kind]; ok {
			h.Failed(ctx, dead, errors.New(dead.LastError), true)
		}
		w.deadLettered(ctx, dead, errors.New(dead.LastError))
		return store.Job{}, nil
	}
	return w.d.Store.StartJob(ctx, j, w.cfg.ID, w.cfg.Lease)
}

// candidateTTL is how long a read of the queue is worth acting on.
const candidateTTL = time.Second

// outcome is what a handler reports besides its error.
type outcome struct {
	result map[string]string
	usage  Usage
}

func (w *Worker) handle(ctx context.Context, j store.Job) (outcome, error) {
	switch j.Kind {
	case store.JobImagePrompt:
		return w.imagePrompt(ctx, j)
	case store.JobRecommendation:
		return w.recommendation(ctx, j)
	default:
		if h, ok := w.d.Handlers[j.Kind]; ok {
			res, err := h.Handle(ctx, j)
			return outcome{result: res}, err
		}
		return outcome{}, permanentError{fmt.Errorf("no worker handles %q jobs", j.Kind)}
	}
}

// process runs one started attempt and records how it went.
func (w *Worker) process(ctx context.Context, j store.Job) {
	// Shutting down does not cut an attempt short; the lease does, with a
	// tenth of it left to record the outcome before another worker may
	// take the job over.
	runCtx, cancelRun := context.WithTimeout(context.WithoutCancel(ctx), w.cfg.Lease-w.cfg.Lease/10)
	defer cancelRun()
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.cfg.Lease)
	defer cancel()
	start := time.Now()
	out, err := w.handle(runCtx, j)
	w.metrics.duration.WithLabelValues(j.Kind).Observe(time.Since(start).Seconds())
	w.metrics.tokens.WithLabelValues(j.Kind, "input").Add(float64(out.usage.InputTokens))
	w.metrics.tokens.WithLabelValues(j.Kind, "output").Add(float64(out.usage.OutputTokens))
	usage := store.TokenUsage{InputTokens: out.usage.InputTokens, OutputTokens: out.usage.OutputTokens, TotalTokens: out.usage.TotalTokens}

	if err == nil {
		if _, err := w.d.Store.FinishJob(hctx, j, out.result, usage); err != nil {
			w.log.Warn("record finished job", "job", j.ID, "kind", j.Kind, "err", err)
			return
		}
		w.metrics.jobs.WithLabelValues(j.Kind, "done").Inc()
		w.log.Debug("job done", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "ms", time.Since(start).Milliseconds())
		return
	}

	msg := errorText(err)
	if !permanent(err) && j.Attempts < j.MaxAttempts {
		delay := backoff(w.cfg.BackoffBase, w.cfg.BackoffMax, j.Attempts)
		if _, rerr := w.d.Store.RetryJobLater(hctx, j, msg, time.Now().Add(delay), usage); rerr != nil {
			w.log.Warn("record failed attempt", "job", j.ID, "err", rerr)
			return
		}
		w.metrics.jobs.WithLabelValues(j.Kind, "retry").Inc()
		if h, ok := w.d.Handlers[j.Kind]; ok {
			h.Failed(hctx, j, err, false)
		}
		w.log.Warn("job attempt failed; retrying", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "of", j.MaxAttempts, "in", delay.Round(time.Millisecond), "err", err)
		return
	}

	switch j.Kind {
	case store.JobRecommendation:
		// The guest is waiting with their phone in hand: answer with the
		// local recommender rather than not at all.
		w.recommendationFallback(hctx, j, err)
	case store.JobImagePrompt:
		w.imagePromptFallback(hctx, j)
	}
	dead, derr := w.d.Store.DeadLetterJob(hctx, j, msg, usage)
	if derr != nil {
		w.log.Warn("record dead job", "job", j.ID, "err", derr)
		return
	}
	w.metrics.jobs.WithLabelValues(j.Kind, "dead").Inc()
	if h, ok := w.d.Handlers[j.Kind]; ok {
		h.Failed(hctx, dead, err, true)
	}
	w.deadLettered(hctx, dead, err)
}

// deadLettered tells the admins, live.
func (w *Worker) deadLettered(ctx context.Context, j store.Job, cause error) {
	w.log.Error("job dead-lettered", "job", j.ID, "kind", j.Kind, "subject", j.Subject, "attempts", j.Attempts, "err", cause)
	w.publish(ctx, live.TopicAdmin, live.EventAlert, map[string]any{
		"level":     "error",
		"code":      "job_dead",
		"message":   fmt.Sprintf("The %s job for %s failed after %d attempts and was set aside: %s", j.Kind, j.Subject, j.Attempts, j.LastError),
		"jobId":     j.ID,
		"kind":      j.Kind,
		"subject":   j.Subject,
		"attempts":  j.Attempts,
		"lastError": j.LastError,
	})
}

func (w *Worker) publish(ctx context.Context, topic, event string, data any) {
	if w.d.Publisher == nil {
		return
	}
	// A result is stored before it is announced; a lost announcement is
	// seen on the next page load, so it does not fail the job.
	if err := w.d.Publisher.Publish(ctx, topic, event, data); err != nil {
		w.log.Warn("publish", "topic", topic, "event", event, "err", err)
	}
}

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

type workerMetrics struct {
	jobs     *prometheus.CounterVec
	tokens   *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newWorkerMetrics(reg prometheus.Registerer) workerMetrics {
	m := workerMetrics{
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
