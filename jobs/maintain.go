package jobs

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Task is periodic work of a running process: a sweep of what expired,
// a recount, a repair.
type Task struct {
	// Name says what the task does; a failed run is logged under it.
	Name string
	// Interval spaces the runs: the first is at start, then one every
	// Interval; a run that overruns is followed by the next at once, never
	// by several to catch up.
	Interval time.Duration
	Run      func(ctx context.Context) error
}

// Maintenance runs its tasks, each on its own schedule, until the context
// of Run ends. Register tasks with Every before or while it runs.
type Maintenance struct {
	log *slog.Logger

	mu      sync.Mutex
	tasks   []Task
	ctx     context.Context // Run's, while it runs
	running sync.WaitGroup
}

// NewMaintenance returns an empty Maintenance; nil logger uses the
// default one.
func NewMaintenance(logger *slog.Logger) *Maintenance {
	if logger == nil {
		logger = slog.Default()
	}
	return &Maintenance{log: logger}
}

// Every registers fn to run every interval, under name.
func (m *Maintenance) Every(name string, interval time.Duration, fn func(ctx context.Context) error) {
	m.Add(Task{Name: name, Interval: interval, Run: fn})
}

// Add registers t. While Run runs, t starts at once.
func (m *Maintenance) Add(t Task) {
	if t.Interval <= 0 || t.Run == nil {
		panic("jobs: maintenance task " + t.Name + " needs an interval and a function")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tasks = append(m.tasks, t)
	if m.ctx != nil {
		m.start(m.ctx, t)
	}
}

// Run runs every task until ctx ends, then waits for the runs under way,
// which see ctx end too.
func (m *Maintenance) Run(ctx context.Context) {
	m.mu.Lock()
	m.ctx = ctx
	for _, t := range m.tasks {
		m.start(ctx, t)
	}
	m.mu.Unlock()
	<-ctx.Done()
	m.mu.Lock()
	m.ctx = nil
	m.mu.Unlock()
	m.running.Wait()
}

// start runs t in a goroutine of its own, so a slow task delays no other.
// m.mu is held.
func (m *Maintenance) start(ctx context.Context, t Task) {
	m.running.Add(1)
	go func() {
		defer m.running.Done()
		tick := time.NewTicker(t.Interval)
		defer tick.Stop()
		for {
			if err := t.Run(ctx); err != nil && ctx.Err() == nil {
				m.log.Warn(t.Name, "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
}
