package ai

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Why the model's answer was not used, as the recommendation job's result
// names it for the host ("fallbackCause"; "fallback" adds the details).
// Each cause tells the guest one of three notes: the AI bartender was
// busy, it suggested something unsafe, or its answer could not be used.
const (
	CauseNothingFits   = "nothing_fits"         // nothing is safe and not disliked: no call
	CauseNoSlot        = "no_model_slot"        // every model slot stayed busy past SlotWait
	CauseNoTime        = "no_time_left"         // the request waited past its budget
	CauseThrottled     = "throttled"            // ThrottlingException, HTTP 429
	CauseTimedOut      = "timed_out"            // the call's deadline passed
	CauseModelError    = "model_error"          // any other failure of the call
	CauseFiltered      = "content_filtered"     // a content filter or guardrail withheld it
	CauseEmptyTool     = "empty_tool_input"     // the tool was called with no drinks
	CauseMalformedTool = "malformed_tool_input" // the tool's input is not the schema's
	CauseProse         = "prose"                // prose instead of a tool call
	CausePicksUnsafe   = "picks_unsafe"         // every pick dropped, one at least unsafe
	CausePicksDropped  = "picks_filtered"       // every pick dropped: off the menu or disliked

	noteBusy     = "busy"
	noteUnsafe   = "unsafe"
	noteUnusable = "unusable"
)

// The notes a guest may see with a local answer given in place of the
// model's (the pages show their own catalogue's text, reco.note.<id>).
const (
	busyNote     = "The AI bartender is busy right now, so these picks come from the house recommender."
	unsafeNote   = "The AI bartender suggested something that is not safe for you, so these picks come from the house recommender."
	unusableNote = "The AI bartender's answer could not be used, so these picks come from the house recommender."
)

var noteTexts = map[string]string{noteBusy: busyNote, noteUnsafe: unsafeNote, noteUnusable: unusableNote}

// What a model's answer may be instead of usable picks.
var (
	errEmptyToolInput     = errors.New("empty tool input")
	errMalformedToolInput = errors.New("malformed tool input")
	errProse              = errors.New("prose instead of a tool call")
	errNoSlot             = errors.New("every model slot stayed busy")
	errNoTime             = errors.New("no time left to ask the model")
	// errFiltered: the model's answer was withheld by its content filter
	// or a guardrail; asking again would only be filtered again.
	errFiltered = errors.New("the model's answer was filtered")
)

// picksError is a model answer whose every pick was dropped.
type picksError struct {
	named   int
	dropped map[string]int // why → how many (dropUnsafe, dropOffMenu, …)
}

// Why a pick is dropped, counted in a picksError.
const (
	dropUnsafe   = "unsafe"
	dropOffMenu  = "off the menu"
	dropDisliked = "disliked"
	dropRepeat   = "named twice"
)

func (e *picksError) Error() string {
	var parts []string
	for _, why := range []string{dropUnsafe, dropOffMenu, dropDisliked, dropRepeat} {
		if n := e.dropped[why]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+why)
		}
	}
	return fmt.Sprintf("every pick dropped (%d named: %s)", e.named, strings.Join(parts, ", "))
}

// throttled reports whether err is the service asking to slow down, as
// ai/bedrock's errors say by implementing Throttled() bool.
func throttled(err error) bool {
	var t interface{ Throttled() bool }
	return errors.As(err, &t) && t.Throttled()
}

// fallback is why the model's answer was not used: the cause for the
// host, and the note id for the guest.
type fallback struct {
	cause string
	note  string
	err   error
}

// text is the host's reading: the cause, then what happened.
func (f fallback) text() string {
	if f.err == nil {
		return f.cause
	}
	return f.cause + ": " + errorText(f.err)
}

// fallbackOf names the cause of err, the last failure of a model call;
// timedOut says the call's own deadline passed.
func fallbackOf(err error, timedOut bool) fallback {
	f := fallback{err: err, note: noteUnusable}
	var pe *picksError
	switch {
	case errors.Is(err, errNoSlot):
		f.cause, f.note = CauseNoSlot, noteBusy
	case errors.Is(err, errNoTime):
		f.cause, f.note = CauseNoTime, noteBusy
	case throttled(err):
		f.cause, f.note = CauseThrottled, noteBusy
	case timedOut || errors.Is(err, context.DeadlineExceeded):
		f.cause, f.note = CauseTimedOut, noteBusy
	case errors.Is(err, errFiltered):
		f.cause = CauseFiltered
	case errors.Is(err, errEmptyToolInput):
		f.cause = CauseEmptyTool
	case errors.Is(err, errMalformedToolInput):
		f.cause = CauseMalformedTool
	case errors.Is(err, errProse):
		f.cause = CauseProse
	case errors.As(err, &pe) && pe.dropped[dropUnsafe] > 0:
		f.cause, f.note = CausePicksUnsafe, noteUnsafe
	case errors.As(err, &pe):
		f.cause = CausePicksDropped
	default:
		f.cause, f.note = CauseModelError, noteBusy
	}
	return f
}

// retryable reports whether a second call may help after f: not when the
// service asked to slow down (a second call is one more it refuses while
// the guest waits), nor after a call that used its whole time (a slow
// model is slow again, and would hold a slot another guest needs), nor
// when the answer was filtered or no retry can fix the error.
func (f fallback) retryable() bool {
	switch f.cause {
	case CauseThrottled, CauseTimedOut, CauseFiltered, CauseNoSlot, CauseNoTime:
		return false
	}
	return !permanent(f.err)
}

// modelSlot takes one of the model slots, waiting at most SlotWait and
// never past what leaves a useful call before deadline. release gives it
// back.
func (w *Bartender) modelSlot(ctx context.Context, deadline time.Time) (release func(), err error) {
	left := deadline.Sub(w.now()) - w.cfg.MinModelCall
	if left < 0 {
		return nil, errNoTime
	}
	release = func() { <-w.slots.tokens }
	select {
	case w.slots.tokens <- struct{}{}:
		return release, nil
	default:
	}
	t := time.NewTimer(min(w.cfg.SlotWait, left))
	defer t.Stop()
	select {
	case w.slots.tokens <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, fmt.Errorf("%w (%d in flight)", errNoSlot, cap(w.slots.tokens))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
