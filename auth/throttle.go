package auth

import (
	"sync"
	"time"
)

// Throttle counts failures per key (a client IP, a code) in a fixed
// window and refuses further attempts once the limit is reached, so codes
// cannot be guessed by brute force. It is per instance: behind a load
// balancer the effective limit is the limit times the instances, still
// far below what guessing an 8-character code needs.
type Throttle struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	entries map[string]*throttleEntry
}

type throttleEntry struct {
	failures int
	start    time.Time
}

// NewThrottle allows limit failures per key per window.
func NewThrottle(limit int, window time.Duration) *Throttle {
	if limit <= 0 {
		limit = 10
	}
	if window <= 0 {
		window = 15 * time.Minute
	}
	return &Throttle{limit: limit, window: window, now: time.Now, entries: map[string]*throttleEntry{}}
}

// Blocked reports whether key has used up its failures, and for how long.
func (t *Throttle) Blocked(key string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.entries[key]
	if !ok {
		return false, 0
	}
	now := t.now()
	if now.Sub(e.start) >= t.window {
		delete(t.entries, key)
		return false, 0
	}
	if e.failures >= t.limit {
		return true, e.start.Add(t.window).Sub(now)
	}
	return false, 0
}

// Fail records a failure for key.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	e, ok := t.entries[key]
	if !ok || now.Sub(e.start) >= t.window {
		// Bound memory under a flood of distinct keys: drop expired entries.
		if len(t.entries) > 100_000 {
			for k, old := range t.entries {
				if now.Sub(old.start) >= t.window {
					delete(t.entries, k)
				}
			}
		}
		t.entries[key] = &throttleEntry{failures: 1, start: now}
		return
	}
	e.failures++
}

// Reset forgets key's failures, after a success.
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	delete(t.entries, key)
	t.mu.Unlock()
}
