package ratelimit

import (
	"context"
	"testing"
	"time"
)

// countersWithTurns is what both kinds of counters give the sign-in
// throttle's pacing.
type countersWithTurns interface {
	Turn(ctx context.Context, key string, every, maxWait time.Duration, at time.Time) (time.Duration, bool, error)
	GiveBack(ctx context.Context, key string, every time.Duration, at time.Time) error
}

// TestTurnsGivenBack: a turn given back is handed out again, so only the
// turns kept hold a queue up; a key whose turns have passed is left alone
// (no turn in the past, no key without an expiry in Redis).
func TestTurnsGivenBack(t *testing.T) {
	const every, maxWait = time.Second, 3 * time.Second
	type step struct {
		advance time.Duration
		// giveBack gives a turn back instead of taking one.
		giveBack bool
		wantWait time.Duration
		wantOK   bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"a turn given back is the next one handed out", []step{
			{wantWait: 0, wantOK: true},
			{wantWait: time.Second, wantOK: true},
			{giveBack: true},
			{wantWait: time.Second, wantOK: true},
			{wantWait: 2 * time.Second, wantOK: true},
		}},
		{"giving back makes room within maxWait", []step{
			{wantOK: true}, {wantWait: time.Second, wantOK: true},
			{wantWait: 2 * time.Second, wantOK: true}, {wantWait: 3 * time.Second, wantOK: true},
			{wantWait: 4 * time.Second, wantOK: false},
			{giveBack: true},
			{wantWait: 3 * time.Second, wantOK: true},
		}},
		{"turns that have passed are not given back", []step{
			{wantOK: true},
			{advance: 5 * time.Second, giveBack: true},
			{wantWait: 0, wantOK: true},
			{wantWait: time.Second, wantOK: true},
		}},
	}
	backends := map[string]func(t *testing.T) countersWithTurns{
		"memory": func(*testing.T) countersWithTurns { return NewMemoryCounters() },
		"redis":  func(t *testing.T) countersWithTurns { return NewRedisCounters(testRedis(t), prefix()) },
	}
	for backend, counters := range backends {
		for _, tt := range tests {
			t.Run(backend+"/"+tt.name, func(t *testing.T) {
				c := counters(t)
				ctx := context.Background()
				at := time.Date(2026, 6, 19, 18, 0, 0, 0, time.UTC)
				for i, s := range tt.steps {
					at = at.Add(s.advance)
					if s.giveBack {
						if err := c.GiveBack(ctx, "k", every, at); err != nil {
							t.Fatalf("step %d: give back: %v", i, err)
						}
						continue
					}
					wait, ok, err := c.Turn(ctx, "k", every, maxWait, at)
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if wait != s.wantWait || ok != s.wantOK {
						t.Fatalf("step %d: turn in %v, ok %v; want %v, %v", i, wait, ok, s.wantWait, s.wantOK)
					}
				}
			})
		}
	}
}
