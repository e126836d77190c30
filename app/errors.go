// Package app holds barhub's use cases: placing, moving and cancelling
// orders, the menu, answering an invitation, the door, announcements and
// invitations. Each takes plain arguments and returns the domain's errors
// (Error), so the HTTP handlers, a worker or a command can call it alike;
// package api maps the errors to status codes.
package app

import (
	"errors"
	"time"
)

// Kind is what went wrong, in terms any caller can act on.
type Kind int

const (
	// Invalid: the input is wrong; sending it again will not help.
	Invalid Kind = iota + 1
	// Unauthenticated: the caller is not (or no longer) signed in.
	Unauthenticated
	// Forbidden: the caller may not do this.
	Forbidden
	// NotFound: what the call names does not exist.
	NotFound
	// Conflict: the state changed under the caller (a version, a taken
	// name); reading it again and retrying may work.
	Conflict
	// Gone: what the call names existed and was removed.
	Gone
	// Unprocessable: well-formed, but the rules of the night refuse it (an
	// allergen not confirmed, a drink for someone not coming).
	Unprocessable
	// LimitReached: a limit on how much (open orders, devices) is reached.
	LimitReached
	// TooMany: too often; RetryAfter says when to try again.
	TooMany
	// Unavailable: a part barhub needs is down for a moment.
	Unavailable
)

// Error is a use case's refusal: a kind, a stable code clients branch on,
// and an English message; other languages come from the catalogue by Key
// (else "error."+Code) filled from Vars.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Details are structured hints (the members to choose from, the
	// allergens to confirm).
	Details any
	Key     string
	Vars    map[string]any
	// RetryAfter says when a TooMany or Unavailable call may succeed.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is makes errors.Is(err, ErrConflict) hold for every conflict, and
// errors.Is(err, ErrAllergenConfirmation) for that one code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.Code != "" {
		return t.Code == e.Code
	}
	return t.Kind == e.Kind
}

// NewError returns an Error of kind with code and an English message.
func NewError(kind Kind, code, msg string) *Error {
	return &Error{Kind: kind, Code: code, Message: msg}
}

// Sentinels to test against with errors.Is; a use case returns its own
// *Error with a specific code and message.
var (
	ErrInvalid              = &Error{Kind: Invalid}
	ErrNotFound             = &Error{Kind: NotFound}
	ErrConflict             = &Error{Kind: Conflict}
	ErrGone                 = &Error{Kind: Gone}
	ErrForbidden            = &Error{Kind: Forbidden}
	ErrUnprocessable        = &Error{Kind: Unprocessable}
	ErrLimitReached         = &Error{Kind: LimitReached}
	ErrTooMany              = &Error{Kind: TooMany}
	ErrAllergenConfirmation = &Error{Code: "allergen_confirmation_required"}
)

// KindOf returns err's Kind, or 0 when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
