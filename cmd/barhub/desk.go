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

// keepGuestStats recounts the host's figures at start, which picks up
// guests written by anything that bypassed the summary (another tool, a crash),
// and then every statsRecountEvery to repair any drift.
func keepGuestStats(ctx context.Context, st *store.Store, logger *slog.Logger) {
	t := time.NewTicker(statsRecountEvery)
	defer t.Stop()
	for {
		start := time.Now()
		if s, err := st.RecountStats(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			logger.Warn("recount guest stats", "err", err)
		} else {
			logger.Debug("recounted guest stats", "invited", s.Invited, "ms", time.Since(start).Milliseconds())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
