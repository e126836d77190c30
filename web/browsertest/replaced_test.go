package browsertest

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A step whose element a redraw replaced is run again on the new one; any other
// failure, and a replacement that never ends, still fail it.
func TestAgainIfReplaced(t *testing.T) {
	replaced := errors.New("could not fill: Could not find node with given id (-32000)")
	other := errors.New("wait for #x: context deadline exceeded")
	tests := []struct {
		name      string
		failures  []error // returned by the first calls, then nil
		wantCalls int
		wantErr   error
	}{
		{"at once", nil, 1, nil},
		{"replaced twice, then found", []error{replaced, replaced}, 3, nil},
		{"another error stops it", []error{other, replaced}, 1, other},
		{"replaced, then another error", []error{replaced, other}, 2, other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := againIfReplaced(context.Background(), func() error {
				calls++
				if calls <= len(tt.failures) {
					return tt.failures[calls-1]
				}
				return nil
			})
			if !errors.Is(err, tt.wantErr) || calls != tt.wantCalls {
				t.Errorf("err %v after %d calls, want %v after %d", err, calls, tt.wantErr, tt.wantCalls)
			}
		})
	}
	t.Run("replaced until the step's time is up", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if err := againIfReplaced(ctx, func() error { return replaced }); !errors.Is(err, replaced) {
			t.Errorf("err %v, want the last replacement", err)
		}
	})
}
