package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/barhub/barhub/store"
)

// statsRecountEvery is how often the host's kept figures are checked
// against a full count of the guests (see store/guests_stats.go).
const statsRecountEvery = 10 * time.Minute

// recountGuestStats is the maintenance task that recounts the host's
// figures: at start, which picks up guests written by anything that
// bypassed the summary (another tool, a crash), and then every
// statsRecountEvery to repair any drift.
func recountGuestStats(st *store.Store, logger *slog.Logger) func(context.Context) error {
	return func(ctx context.Context) error {
		start := time.Now()
		s, err := st.RecountStats(ctx)
		if err != nil {
			return err
		}
		logger.Debug("recounted guest stats", "invited", s.Invited, "ms", time.Since(start).Milliseconds())
		return nil
	}
}
