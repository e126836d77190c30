package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/jobs"
)

// lockedBuffer is a log destination the test reads while tasks write.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestMaintenanceRunsTasksUntilItsContextEnds(t *testing.T) {
	logs := &lockedBuffer{}
	m := jobs.NewMaintenance(slog.New(slog.NewTextHandler(logs, nil)))
	var fast, failing, late, running atomic.Int64
	m.Every("fast", 5*time.Millisecond, func(ctx context.Context) error {
		fast.Add(1)
		return nil
	})
	m.Every("sweep the floor", time.Hour, func(ctx context.Context) error {
		failing.Add(1)
		return errors.New("no broom")
	})
	// A task still running when the context ends sees it end, and Run
	// waits for it.
	m.Every("slow", time.Hour, func(ctx context.Context) error {
		running.Add(1)
		defer running.Add(-1)
		<-ctx.Done()
		return ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		m.Run(ctx)
	}()
	// One added while it runs starts at once.
	m.Every("late", time.Hour, func(ctx context.Context) error {
		late.Add(1)
		return nil
	})

	deadline := time.Now().Add(10 * time.Second)
	for fast.Load() < 3 || late.Load() < 1 || failing.Load() < 1 || running.Load() < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s: fast ran %d times, late %d, failing %d, slow running %d", fast.Load(), late.Load(), failing.Load(), running.Load())
		}
		time.Sleep(time.Millisecond)
	}
	if failing.Load() != 1 || late.Load() != 1 {
		t.Errorf("hourly tasks ran %d and %d times at start, want once each", failing.Load(), late.Load())
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run still running 10s after its context ended")
	}
	if running.Load() != 0 {
		t.Error("Run returned before the slow task did")
	}
	n := fast.Load()
	time.Sleep(30 * time.Millisecond)
	if fast.Load() != n {
		t.Errorf("a task ran after Run returned")
	}
	got := logs.String()
	if !strings.Contains(got, `msg="sweep the floor" err="no broom"`) {
		t.Errorf("the failed run is not logged under its task's name:\n%s", got)
	}
	if strings.Contains(got, "slow") {
		t.Errorf("a run ended by shutting down is logged as failed:\n%s", got)
	}
}

func TestMaintenanceWithoutTasks(t *testing.T) {
	m := jobs.NewMaintenance(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	m.Run(ctx)
}
