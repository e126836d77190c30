package store

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

func TestRetry(t *testing.T) {
	busy := errors.New("(InternalError) [collection.go:191 sqlite.(*collection).UpdateAll] database is locked (5) (SQLITE_BUSY)")
	dup := mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 11000, Message: "E11000 duplicate key error"}}}
	other := errors.New("something else")
	tests := []struct {
		name   string
		policy retryPolicy
		errs   []error // returned by successive attempts; then nil
		calls  int
		fails  bool
	}{
		{"ok at once", onBusy, nil, 1, false},
		{"busy twice", onBusy, []error{busy, busy}, 3, false},
		{"other error is final", onBusy, []error{other}, 1, true},
		{"duplicate is final for a plain write", onBusy, []error{dup}, 1, true},
		{"duplicate is retried for an upsert", onBusyOrDuplicate, []error{dup, busy}, 3, false},
		{"gives up", onBusy, make12(busy), retryAttempts, true},
	}
	for _, tt := range tests {
		calls := 0
		err := (&Store{}).retry(context.Background(), tt.policy, func() error {
			calls++
			if calls <= len(tt.errs) {
				return tt.errs[calls-1]
			}
			return nil
		})
		if calls != tt.calls || (err != nil) != tt.fails {
			t.Errorf("%s: %d calls, err %v; want %d calls, failure %v", tt.name, calls, err, tt.calls, tt.fails)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	if err := (&Store{}).retry(ctx, onBusy, func() error { calls++; return busy }); err == nil || calls != 1 {
		t.Errorf("cancelled: %d calls, %v", calls, err)
	}
	if !Busy(busy) || Busy(other) || Busy(nil) {
		t.Error("Busy misjudges")
	}
}

func make12(err error) []error {
	out := make([]error, retryAttempts)
	for i := range out {
		out[i] = err
	}
	return out
}
