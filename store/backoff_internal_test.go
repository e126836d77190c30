package store

import (
	"testing"
	"time"
)

// TestBackoffNeverOverflows (a panic found by the events' tests): the
// wait before the 44th try of a stats update was 1 ms shifted left 44
// times, negative, and rand.N panicked, killing the server from the
// activity recorder's goroutine. Every attempt's wait is now positive and
// within its limit, doubling until it gets there.
func TestBackoffNeverOverflows(t *testing.T) {
	for _, tt := range []struct{ base, limit time.Duration }{
		{time.Millisecond, 50 * time.Millisecond},
		{10 * time.Millisecond, 200 * time.Millisecond},
		{retryBase, retryCap},
	} {
		prev := time.Duration(0)
		for attempt := range 200 {
			d := backoff(tt.base, tt.limit, attempt)
			if d <= 0 || d > tt.limit || d < prev {
				t.Fatalf("backoff(%v, %v, %d) = %v after %v", tt.base, tt.limit, attempt, d, prev)
			}
			prev = d
		}
		if got := backoff(tt.base, tt.limit, 1); got != min(2*tt.base, tt.limit) {
			t.Errorf("backoff(%v, %v, 1) = %v, want %v", tt.base, tt.limit, got, min(2*tt.base, tt.limit))
		}
	}
}
