package app

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorIs(t *testing.T) {
	allergen := &Error{Kind: Unprocessable, Code: "allergen_confirmation_required", Message: "confirm"}
	wrapped := fmt.Errorf("place order: %w", allergen)
	tests := []struct {
		err    error
		target error
		want   bool
	}{
		{wrapped, ErrAllergenConfirmation, true},
		{wrapped, ErrUnprocessable, true},
		{wrapped, ErrConflict, false},
		{NewError(Conflict, "order_changed", "changed"), ErrConflict, true},
		{NewError(Conflict, "order_changed", "changed"), ErrAllergenConfirmation, false},
		{errors.New("plain"), ErrConflict, false},
	}
	for _, tt := range tests {
		if got := errors.Is(tt.err, tt.target); got != tt.want {
			t.Errorf("errors.Is(%v, %v) = %v, want %v", tt.err, tt.target, got, tt.want)
		}
	}
	if KindOf(wrapped) != Unprocessable || KindOf(errors.New("x")) != 0 {
		t.Errorf("KindOf: %v, %v", KindOf(wrapped), KindOf(errors.New("x")))
	}
}
