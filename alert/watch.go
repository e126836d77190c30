package alert

import (
	"context"
	"fmt"
	"time"
)

// Probes read the conditions Watch alerts on; a nil probe is not watched.
type Probes struct {
	// DeadJobs counts jobs that failed every attempt: AI, e-mail,
	// reminders and imports share the queue.
	DeadJobs func(ctx context.Context) (int64, error)
	// ServerErrors is the running count of 5xx answers of this instance.
	ServerErrors func() (float64, error)
	// Backplane pings Redis (nil on a single instance without it).
	Backplane func(ctx context.Context) error
	// Database says what is wrong with the database calls in flight
	// (stuck ones), or nil. It must answer without the database.
	Database func() error
}

// WatchConfig says how often to look and what counts as trouble.
type WatchConfig struct {
	// Interval between looks (default 30 s).
	Interval time.Duration
	// ErrorsPerInterval 5xx answers in one interval are "repeated
	// failures" (default 10).
	ErrorsPerInterval int
	// BackplaneFailures failed pings in a row are a lost backplane
	// (default 2, so one slow ping is not an alert).
	BackplaneFailures int
}

// Watcher looks at the probes every interval and notifies.
type Watcher struct {
	n   *Notifier
	p   Probes
	cfg WatchConfig

	lastDead      int64
	lastErrors    float64
	seenErrors    bool
	pingFailures  int
	backplaneDown bool
	databaseStuck bool
}

// NewWatcher returns a Watcher; Run or Check drive it.
func NewWatcher(n *Notifier, p Probes, cfg WatchConfig) *Watcher {
	if cfg.Interval <= 0 {
		cfg.Interval = 30 * time.Second
	}
	if cfg.ErrorsPerInterval <= 0 {
		cfg.ErrorsPerInterval = 10
	}
	if cfg.BackplaneFailures <= 0 {
		cfg.BackplaneFailures = 2
	}
	return &Watcher{n: n, p: p, cfg: cfg}
}

// Run checks every interval until ctx ends.
func (w *Watcher) Run(ctx context.Context) {
	t := time.NewTicker(w.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.Check(ctx)
		}
	}
}

// Check looks once. It is not safe to call concurrently.
func (w *Watcher) Check(ctx context.Context) {
	if w.p.DeadJobs != nil {
		if n, err := w.p.DeadJobs(ctx); err == nil && n > w.lastDead {
			// The count is in the key: a new dead job is news on every
			// instance, the same one is sent once between them.
			w.n.Notify(ctx, Alert{Key: fmt.Sprintf("dead-jobs-%d", n), Severity: Critical,
				// Not "AI jobs": an invitation e-mail is a job as well.
				Summary: fmt.Sprintf("%d %s failed every attempt", n, plural(n, "job", "jobs")),
				Detail:  "Open the admin page's job queue to see why and retry them."})
			w.lastDead = n
		} else if err == nil {
			w.lastDead = n
		}
	}
	if w.p.ServerErrors != nil {
		if total, err := w.p.ServerErrors(); err == nil {
			if w.seenErrors && total-w.lastErrors >= float64(w.cfg.ErrorsPerInterval) {
				w.n.Notify(ctx, Alert{Key: "errors/" + w.n.cfg.Instance, Severity: Critical,
					Summary: fmt.Sprintf("%.0f server errors (5xx) in %s", total-w.lastErrors, w.cfg.Interval),
					Detail:  "Repeated failures: see this instance's log (level error) and /readyz."})
			}
			w.lastErrors, w.seenErrors = total, true
		}
	}
	if w.p.Database != nil {
		switch err := w.p.Database(); {
		case err != nil && !w.databaseStuck:
			w.databaseStuck = true
			w.n.Notify(ctx, Alert{Key: "database/" + w.n.cfg.Instance, Severity: Critical,
				Summary: "The database stopped answering: requests on this instance are waiting",
				Detail:  err.Error() + ". See this instance's log (\"database call stuck\") and /readyz; restarting the instance frees it."})
		case err == nil && w.databaseStuck:
			w.databaseStuck = false
			w.n.Notify(ctx, Alert{Key: "database/" + w.n.cfg.Instance, Severity: Resolved,
				Summary: "The database answers again on this instance"})
		}
	}
	if w.p.Backplane != nil {
		pingCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := w.p.Backplane(pingCtx)
		cancel()
		switch {
		case err != nil:
			w.pingFailures++
			if w.pingFailures >= w.cfg.BackplaneFailures && !w.backplaneDown {
				w.backplaneDown = true
				w.n.Notify(ctx, Alert{Key: "backplane/" + w.n.cfg.Instance, Severity: Critical,
					Summary: "Redis backplane lost: live updates stop reaching phones on other instances",
					Detail:  fmt.Sprintf("%d failed pings in a row: %v", w.pingFailures, err)})
			}
		case w.backplaneDown:
			w.pingFailures, w.backplaneDown = 0, false
			w.n.Notify(ctx, Alert{Key: "backplane/" + w.n.cfg.Instance, Severity: Resolved,
				Summary: "Redis backplane is back: live updates reach every instance again"})
		default:
			w.pingFailures = 0
		}
	}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
