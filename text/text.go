// Package text is barhub's one rule for text people type: names (the
// guest's, a "+1"'s, a board's), dietary answers, order notes and reasons,
// the event's details, the menu, announcements. Such text is shown to
// others — on the bar's tablet, the door's screen, every guest's phone, a
// calendar file, an e-mail — so it must read there as it was typed, and
// nobody may make it read as something else.
//
// The rule (Rule.Clean):
//   - the text is valid UTF-8, normalised to NFC, so "Å" typed on a Mac
//     and "Å" typed on a phone are the same name, stock key and search;
//   - control characters are refused: NUL, escapes, DEL, the C1 controls,
//     and line breaks and tabs outside multi-line text;
//   - the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
//     U+2066–U+2069) are refused: "\u202eBOB" shows as "BOB" reversed, and
//     can make a ticket's note read as another's; so are the deprecated
//     format controls (U+206A–U+206F) and the interlinear annotations that
//     hide text (U+FFF9–U+FFFB);
//   - the bidirectional marks (U+200E, U+200F, U+061C), the zero-width
//     space, the word joiner and the byte-order mark are taken out: they
//     come with text pasted from contacts and chats, change nothing a
//     reader needs, and would let two names that look the same differ;
//   - spaces and invisible characters around the text are trimmed, and a
//     one-line text's runs of spaces become one space;
//   - text with nothing visible left (zero-width characters, Hangul
//     fillers, a blank Braille cell) is refused, and empty text too where a
//     value is required;
//   - the length is bounded, in characters, after all of the above.
//
// Any script, right-to-left ones included, combining accents, and emoji
// (joined with U+200D, with variation selectors, flags of tag characters)
// pass unchanged but for NFC.
package text

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Rule is how one field of typed text is cleaned and checked.
type Rule struct {
	// Max is the most characters (code points) the cleaned text may hold;
	// zero leaves the length to the caller.
	Max int
	// Lines lets the text hold line breaks and tabs (a message, the
	// event's information). Other texts are one line.
	Lines bool
	// Required refuses text that is empty once cleaned.
	Required bool
}

// ErrEmpty is wrapped by Clean's error for a required text left empty,
// ErrTooLong by its error for a text over Max: callers with their own
// words for these ("give the drink a name") test for them with errors.Is.
var (
	ErrEmpty   = errors.New("is empty")
	ErrTooLong = errors.New("is too long")
)

// tooLong says how long a text may be, and is ErrTooLong.
type tooLong struct{ max int }

func (e tooLong) Error() string        { return fmt.Sprintf("is longer than %d characters", e.max) }
func (e tooLong) Is(target error) bool { return target == ErrTooLong }

// Clean returns s as barhub keeps it, or why it cannot be kept. The
// error's text reads after the field's name: "firstName contains a
// control character (U+0000); type plain text".
func (r Rule) Clean(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", errors.New("is not valid UTF-8 text")
	}
	typed := s
	s = strings.TrimFunc(s, trimmed)
	var b strings.Builder
	b.Grow(len(s))
	for i, c := range s {
		switch {
		case c == '\r' || c == '\u2028' || c == '\u2029':
			if !r.Lines {
				return "", fmt.Errorf("contains a line break (U+%04X); keep it on one line", c)
			}
			// CR LF, a lone CR and the Unicode separators are one line break.
			if c != '\r' || !strings.HasPrefix(s[i+1:], "\n") {
				b.WriteByte('\n')
			}
		case c == '\n' || c == '\t':
			if !r.Lines {
				if c == '\n' {
					return "", fmt.Errorf("contains a line break (U+%04X); keep it on one line", c)
				}
				return "", fmt.Errorf("contains a control character (U+%04X); type plain text", c)
			}
			b.WriteRune(c)
		case unicode.Is(unicode.Cc, c):
			return "", fmt.Errorf("contains a control character (U+%04X); type plain text", c)
		case c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069:
			return "", fmt.Errorf("contains a text-direction override (U+%04X), which would change how the text after it reads", c)
		case c >= 0x206A && c <= 0x206F || c >= 0xFFF9 && c <= 0xFFFB:
			return "", fmt.Errorf("contains a formatting control (U+%04X), which would change how the text shows", c)
		case c >= 0xFDD0 && c <= 0xFDEF || c&0xFFFE == 0xFFFE:
			return "", fmt.Errorf("contains U+%04X, which is not a character", c)
		case dropped(c):
		case !r.Lines && unicode.Is(unicode.Zs, c):
			if !strings.HasSuffix(b.String(), " ") {
				b.WriteByte(' ')
			}
		default:
			b.WriteRune(c)
		}
	}
	// NFC comes after the characters taken out, which would otherwise
	// keep apart an "A" and the ring that makes it "Å".
	out := strings.TrimFunc(norm.NFC.String(b.String()), trimmed)
	if !strings.ContainsFunc(out, visible) {
		switch {
		case out != "" || strings.ContainsFunc(typed, notSpace):
			// Something was typed, and none of it shows.
			return "", errors.New("has no visible characters")
		case r.Required:
			return "", ErrEmpty
		}
		return "", nil
	}
	if r.Max > 0 && utf8.RuneCountInString(out) > r.Max {
		return "", tooLong{r.Max}
	}
	return out, nil
}

// Line reports why s, as it is, cannot be a one-line text (a name, an
// order's note): Clean's refusals, and text of nothing visible, spaces
// only included. Empty text is the caller's rule, not this one's.
func Line(s string) error { return check(s, Rule{}) }

// Lines is Line for text that may hold line breaks and tabs.
func Lines(s string) error { return check(s, Rule{Lines: true}) }

func check(s string, r Rule) error {
	out, err := r.Clean(s)
	if err == nil && out == "" && s != "" {
		err = errors.New("has no visible characters")
	}
	return err
}

// dropped are the characters Clean takes out wherever they are: marks
// that only nudge the direction of the text around them, zero-width
// spaces and joiners of words, the byte-order mark.
func dropped(c rune) bool {
	switch c {
	case '\u200B', '\u200E', '\u200F', '\u061C', '\u2060', '\uFEFF', '\u180E':
		return true
	}
	return false
}

// blank are characters that take no ink, or only a space's: with spaces,
// they are trimmed from the ends of a text and do not make it visible.
// The joiners (U+200C, U+200D) and the invisible operators stay inside a
// text, where scripts and emoji need them.
func blank(c rune) bool {
	switch {
	case dropped(c),
		c == '\u00AD',                // soft hyphen
		c == '\u034F',                // combining grapheme joiner
		c == '\u115F', c == '\u1160', // Hangul choseong and jungseong fillers
		c == '\u3164', c == '\uFFA0', // Hangul filler, halfwidth Hangul filler
		c == '\u17B4', c == '\u17B5', // Khmer inherent vowels
		c == '\u2800',                  // Braille pattern blank
		c >= '\u200B' && c <= '\u200F', // zero-width space, joiners, marks
		c >= '\u2060' && c <= '\u2064': // word joiner, invisible operators
		return true
	}
	return false
}

// trimmed are what Clean takes from the ends of a text: spaces, line
// breaks and blanks, but not NEL (U+0085), a C1 control it refuses.
func trimmed(c rune) bool { return unicode.IsSpace(c) && c != '\u0085' || blank(c) }

func notSpace(c rune) bool { return !unicode.IsSpace(c) }

// visible reports whether c shows on its own. Letters, digits, marks that
// take space, punctuation and symbols do, and so do characters newer than
// this Go's Unicode tables (the latest emoji) and private-use ones;
// spaces, controls, format characters, combining marks and the blanks
// do not.
func visible(c rune) bool {
	return !trimmed(c) && !unicode.In(c, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me)
}
