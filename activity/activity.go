// Package activity records when guests sign in and use the API, without
// making any request wait for the database (docs/DESIGN.md, flow 4).
//
// Calls only note the latest time per guest in a bounded buffer; a loop
// writes the buffer every second, or sooner once it holds a batch, in bulk
// writes (the store splits them for the embedded database). A busy guest
// takes one slot however many requests they make. A write that fails
// leaves its records for the next flush. When the buffer is full new
// guests are dropped and counted: the times are best effort, the requests
// are not.
package activity

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// Writer stores a batch; store.Store is one. It returns how many guests
// signed in for the first time.
type Writer interface {
	RecordActivity(ctx context.Context, batch []store.Activity) (int, error)
}

// Publisher announces a flush that changed the host's figures.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
}

// Config tunes a Recorder; zero fields take the defaults noted.
type Config struct {
	// FlushEvery is the longest a time waits to be written (default 1s).
	FlushEvery time.Duration
	// BatchSize triggers a flush before FlushEvery (default 500 guests).
	BatchSize int
	// MaxPending bounds the buffer, in guests (default 10,000).
	MaxPending int
	// WriteTimeout bounds one bulk write (default 10s).
	WriteTimeout time.Duration
	// Publish, when set, gets guest.activity on the admin topic after a
	// flush in which someone signed in for the first time.
	Publish Publisher
}

// Recorder buffers activity and writes it in batches. Its methods are
// safe for concurrent use; Run does the writing.
type Recorder struct {
	cfg Config
	w   Writer
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]*store.Activity
	kick    chan struct{}

	dropped  prometheus.Counter
	written  prometheus.Counter
	failures prometheus.Counter
	batches  prometheus.Histogram
}

// New makes a recorder writing to w. Its metrics are registered on reg
// when reg is not nil.
func New(w Writer, cfg Config, logger *slog.Logger, reg prometheus.Registerer) *Recorder {
	if cfg.FlushEvery <= 0 {
		cfg.FlushEvery = time.Second
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 500
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 10000
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if logger == nil {
		logger = slog.Default()
	}
	r := &Recorder{
		cfg: cfg, w: w, log: logger,
		pending: map[string]*store.Activity{},
		kick:    make(chan struct{}, 1),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_activity_dropped_total", Help: "Guest activity not recorded because the buffer was full.",
		}),
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_activity_written_total", Help: "Guest activity records written.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_activity_write_errors_total", Help: "Writes of guest activity that failed (their records wait for the next flush).",
		}),
		batches: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "barhub_activity_batch_guests", Help: "Guests per write of activity (at most 100).",
			Buckets: prometheus.ExponentialBuckets(1, 4, 8),
		}),
	}
	if reg != nil {
		reg.MustRegister(r.dropped, r.written, r.failures, r.batches)
	}
	return r
}

// LoggedIn notes a sign-in (which is also a use).
func (r *Recorder) LoggedIn(guestID string, at time.Time) { r.note(guestID, at, true) }

// Accessed notes a use of the API.
func (r *Recorder) Accessed(guestID string, at time.Time) { r.note(guestID, at, false) }

func (r *Recorder) note(guestID string, at time.Time, login bool) {
	if guestID == "" {
		return
	}
	at = at.UTC().Truncate(time.Millisecond)
	r.mu.Lock()
	a := r.pending[guestID]
	if a == nil {
		if len(r.pending) >= r.cfg.MaxPending {
			r.mu.Unlock()
			r.dropped.Inc()
			return
		}
		a = &store.Activity{GuestID: guestID}
		r.pending[guestID] = a
	}
	later(&a.LastAccess, at)
	if login {
		later(&a.LastLogin, at)
	}
	full := len(r.pending) >= r.cfg.BatchSize
	r.mu.Unlock()
	if full {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
}

func later(t **time.Time, at time.Time) {
	if *t == nil || at.After(**t) {
		v := at
		*t = &v
	}
}

// Run writes the buffer until ctx ends, then writes what is left.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(r.cfg.FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			r.Flush(context.WithoutCancel(ctx))
			return
		case <-t.C:
		case <-r.kick:
		}
		r.Flush(ctx)
	}
}

// Flush writes what is buffered now. A failed write is logged and
// counted, and its records go back into the buffer for the next flush:
// they cannot pile up (the buffer keeps one slot per guest, and a guest
// seen again meanwhile keeps the later times), and a crowd's sign-ins are
// not lost to one slow second of the database.
func (r *Recorder) Flush(ctx context.Context) {
	r.mu.Lock()
	if len(r.pending) == 0 {
		r.mu.Unlock()
		return
	}
	batch := make([]store.Activity, 0, len(r.pending))
	for _, a := range r.pending {
		batch = append(batch, *a)
	}
	clear(r.pending)
	r.mu.Unlock()

	// In parts, each with its own time: a slow database still takes a
	// crowd's activity part by part, where one write of it all could run
	// out of time again and again.
	first := 0
	for i := 0; i < len(batch); i += writePart {
		part := batch[i:min(i+writePart, len(batch))]
		wctx, cancel := context.WithTimeout(ctx, r.cfg.WriteTimeout)
		n, err := r.w.RecordActivity(wctx, part)
		cancel()
		r.batches.Observe(float64(len(part)))
		if err != nil {
			r.failures.Inc()
			r.log.WarnContext(ctx, "record guest activity; kept for the next flush", "guests", len(batch)-i, "err", err)
			r.putBack(batch[i:])
			break
		}
		r.written.Add(float64(len(part)))
		first += n
	}
	if first > 0 && r.cfg.Publish != nil {
		if err := r.cfg.Publish.Publish(ctx, live.TopicAdmin, live.EventGuestActivity, map[string]int{"firstLogins": first, "guests": len(batch)}); err != nil {
			r.log.WarnContext(ctx, "publish guest.activity", "err", err)
		}
	}
}

// writePart is the most guests one write of a flush takes.
const writePart = 100

// putBack returns a batch that could not be written to the buffer, as far
// as it has room; what does not fit is dropped and counted.
func (r *Recorder) putBack(batch []store.Activity) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range batch {
		a := r.pending[b.GuestID]
		if a == nil {
			if len(r.pending) >= r.cfg.MaxPending {
				r.dropped.Inc()
				continue
			}
			a = &store.Activity{GuestID: b.GuestID}
			r.pending[b.GuestID] = a
		}
		if b.LastAccess != nil {
			later(&a.LastAccess, *b.LastAccess)
		}
		if b.LastLogin != nil {
			later(&a.LastLogin, *b.LastLogin)
		}
	}
}

// Pending is how many guests wait to be written.
func (r *Recorder) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.pending)
}
