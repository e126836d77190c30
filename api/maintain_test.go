package api

import (
	"context"
	"slices"
	"testing"
	"time"
)

// schedule records what the API registers.
type schedule map[string]time.Duration

func (s schedule) Every(name string, interval time.Duration, _ func(context.Context) error) {
	s[name] = interval
}

// The API's periodic work is registered with the process's maintenance
// loop, not started by requests.
func TestAPIRegistersItsMaintenance(t *testing.T) {
	got := schedule{}
	New(Deps{Maintenance: got, Bar: BarConfig{ImageDir: t.TempDir(), OrderViewRefresh: 100 * time.Millisecond}})
	want := schedule{
		"sweep idempotency keys":  10 * time.Minute,
		"reconcile orders":        10 * time.Minute,
		"sweep preparation times": 10 * time.Minute,
		"correct the order view":  100 * time.Millisecond,
		// An offered place not taken in time goes on (docs/REGISTRATION.md).
		"expire registration offers": 30 * time.Second,
		// So does a registration whose e-mailed link was not opened.
		"expire unconfirmed registrations": 30 * time.Second,
	}
	names := func(s schedule) []string {
		var n []string
		for k, v := range s {
			n = append(n, k+" every "+v.String())
		}
		slices.Sort(n)
		return n
	}
	if !slices.Equal(names(got), names(want)) {
		t.Errorf("registered %v, want %v", names(got), names(want))
	}
}
