package jobs

import "testing"

func TestBackoffGrowsAndIsBounded(t *testing.T) {
	for attempt := 1; attempt <= 12; attempt++ {
		d := backoff(1000, 60000, attempt)
		full := int64(1000) << (attempt - 1)
		full = min(full, 60000)
		if int64(d) < full/2 || int64(d) > full {
			t.Fatalf("attempt %d: %d outside [%d, %d]", attempt, d, full/2, full)
		}
	}
}
