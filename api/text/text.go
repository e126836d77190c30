// Package text checks free text people type (names, order notes,
// announcements) before barhub keeps it and shows it to others: on the
// bar's tablet, the door's screen, every guest's phone.
package text

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Line reports why s cannot be a one-line text (a name, an order's note):
// nil when it can. Empty text is the caller's rule, not this one's.
func Line(s string) error { return check(s, false) }

// Lines is Line for text that may hold line breaks and tabs (an
// announcement).
func Lines(s string) error { return check(s, true) }

// check refuses what would let a text pass for something else on someone
// else's screen: control characters (NUL, escapes, line breaks in a name),
// the bidirectional overrides and isolates that reorder what follows them
// (U+202A–U+202E, U+2066–U+2069: "\u202eBOB" shows as "BOB" reversed, and
// can make a ticket's note read as another's), and text of nothing but
// invisible characters (zero-width spaces), which looks empty but is not.
func check(s string, multiline bool) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("is not valid UTF-8 text")
	}
	visible := false
	for _, r := range s {
		switch {
		case multiline && (r == '\n' || r == '\t' || r == '\r'):
		case unicode.Is(unicode.Cc, r):
			return fmt.Errorf("contains a control character (U+%04X); type plain text", r)
		case r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069:
			return fmt.Errorf("contains a text-direction override (U+%04X), which would change how the text after it reads", r)
		case unicode.IsGraphic(r) && !unicode.IsSpace(r):
			visible = true
		}
	}
	if s != "" && !visible {
		return fmt.Errorf("has no visible characters")
	}
	return nil
}
