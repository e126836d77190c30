// Package safecsv writes the CSV files barhub exports so that a spreadsheet
// reads them as data and never runs any of them (docs/SECURITY.md,
// "Exports").
//
// A spreadsheet runs a cell as a formula when its text starts with =, +, -
// or @ (or a full-width or small form of one, which some normalise), also
// behind spaces or a quote, and distrusts a cell that starts with a tab, a
// carriage return or NUL. Which cells it sees depends on its list
// separator, not on the file: Excel in Swedish, German or Brazilian
// Portuguese splits a comma file at every semicolon, and an import dialog
// may split at tabs or a bar, quotes or not. So the rule is applied not
// only at the start of a text but at the start of every part of it that
// follows a comma, semicolon, tab, bar, carriage return or line break: such
// a part gets an apostrophe in front, which spreadsheets show as text.
// Restore takes exactly those apostrophes away again, so the guest import
// reads back what the export wrote.
package safecsv

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// mark is what Neutralize puts in front of a part that would start a
// formula: the apostrophe spreadsheets take for "this is text".
const mark = '\''

// Neutralize returns s with an apostrophe in front of every part that a
// spreadsheet could read as the start of a formula, whatever list
// separator it splits at: the whole text, and each part after a separator
// (see separator), when its first character other than spaces, quotes and
// apostrophes starts a formula (see starts). Everything else is left as it
// is, byte for byte; Restore(Neutralize(s)) == s for every s, valid UTF-8
// or not.
//
// Apostrophes already there are skipped when looking for the first
// character, and a part that starts with one gets another: that keeps the
// rule reversible, so a text that really starts with "'=" comes back
// with its apostrophe.
func Neutralize(s string) string {
	at := marks(s, false)
	if len(at) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(at))
	last := 0
	for _, i := range at {
		b.WriteString(s[last:i])
		b.WriteByte(mark)
		last = i
	}
	b.WriteString(s[last:])
	return b.String()
}

// Restore undoes Neutralize: it removes the apostrophe in front of every
// part that, without it, would start a formula. A file a host edited and
// saved keeps those apostrophes as text, so the import calls Restore on
// every cell it reads.
func Restore(s string) string {
	at := marks(s, true)
	if len(at) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, i := range at {
		b.WriteString(s[last:i])
		last = i + 1 // skip the apostrophe
	}
	b.WriteString(s[last:])
	return b.String()
}

// marks gives the byte offsets of the parts of s that start a formula:
// where Neutralize puts an apostrophe or, with present, where an
// apostrophe that Restore removes stands. It reads s once: the parts whose
// first visible character is still to come wait in pending until one
// arrives, so a long run of separators costs no more than its length.
func marks(s string, present bool) []int {
	var at, pending []int
	partStart := true
	for i, r := range s {
		if partStart && (!present || r == mark) {
			pending = append(pending, i)
		}
		// A CR LF is one line break, read as a space: the place between
		// the two is no part's start, so a ' never splits it, and a CSV
		// reader that turns it into LF (Go's does) reads the same marks.
		// A CR alone is what OWASP warns of.
		crlf := r == '\r' && i+1 < len(s) && s[i+1] == '\n'
		switch {
		case starts(r) && !crlf:
			at = append(at, pending...)
			pending = pending[:0]
		case !skipped(r):
			pending = pending[:0]
		}
		partStart = separator(r) && !crlf
	}
	return at
}

// separator reports whether r may end a cell in some spreadsheet's view of
// the file: the comma, the semicolon (the list separator of locales that
// write decimals with a comma), the tab, the bar (a common "other"
// delimiter in import dialogs, and one barhub's import splits lists at),
// and line breaks.
func separator(r rune) bool {
	switch r {
	case ',', ';', '\t', '|', '\r', '\n':
		return true
	}
	return false
}

// skipped reports whether r may stand before the start of a formula
// without stopping it: spaces (LibreOffice can trim them, and the tab and
// line breaks are separators too), the double quote (a cell opened by a
// stray quote is unquoted first), and the apostrophe (see Neutralize).
func skipped(r rune) bool {
	return r == '"' || r == mark || unicode.IsSpace(r)
}

// starts reports whether a cell whose text begins with r is one a
// spreadsheet may run or distrust: = + - @, any character that NFKC
// folds to one of them (the full-width ＝ ＋ － ＠, the small ﹦ ﹢ ﹣ ﹫, the
// super- and subscript ⁼ ⁺ ₌ ₊, …), and the tab, carriage return and NUL
// that OWASP and ASVS name.
func starts(r rune) bool {
	switch r {
	case '=', '+', '-', '@', '\t', '\r', 0:
		return true
	}
	if r < utf8.RuneSelf || r == utf8.RuneError {
		return false
	}
	f := norm.NFKC.String(string(r))
	return f != "" && strings.ContainsRune("=+-@", rune(f[0]))
}

// A Cell is one value of a row: text, quoted and neutralised, or a number
// or truth value, written bare so a spreadsheet reads it as one.
type Cell struct {
	text string
	bare bool // written as it is: a plain number, true or false
}

// Text is a cell of text. Empty text is an empty cell.
func Text(s string) Cell { return Cell{text: s} }

// Int is a cell holding n as a number.
func Int(n int) Cell { return Cell{text: strconv.Itoa(n), bare: true} }

// Float is a cell holding x as a plain decimal number (no exponent). NaN and
// the infinities are no number a spreadsheet reads; they are written as
// text.
func Float(x float64) Cell {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Text(strconv.FormatFloat(x, 'f', -1, 64))
	}
	return Cell{text: strconv.FormatFloat(x, 'f', -1, 64), bare: true}
}

// Bool is a cell holding true or false.
func Bool(b bool) Cell { return Cell{text: strconv.FormatBool(b), bare: true} }

// A Writer writes rows of cells as comma-separated lines ending in "\n",
// with every text cell quoted (RFC 4180) and neutralised.
type Writer struct {
	w *bufio.Writer
}

// NewWriter returns a Writer that writes to w. Call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Header writes the row of column names. They are barhub's own names, so
// they are written bare, as programs and people expect a header; a name
// that is not letters and digits is refused rather than written.
func (w *Writer) Header(names ...string) error {
	for i, n := range names {
		if !plainName(n) {
			return fmt.Errorf("csv header: column %d (%q) is not a plain name of letters and digits", i+1, n)
		}
	}
	_, err := w.w.WriteString(strings.Join(names, ",") + "\n")
	return err
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Write writes one row.
func (w *Writer) Write(cells ...Cell) error {
	for i, c := range cells {
		if i > 0 {
			w.w.WriteByte(',')
		}
		switch {
		// A number is a whole cell only where the commas around it are
		// separators. At the start of a line it also starts a cell for a
		// spreadsheet that splits at semicolons, and that cell runs on past
		// the comma: a leading minus there would start a formula.
		case c.bare && !(i == 0 && strings.HasPrefix(c.text, "-")):
			w.w.WriteString(c.text)
		case c.text == "" && len(cells) > 1:
			// An empty cell is nothing between two commas; a row of one
			// empty cell is written "" so it is no blank line.
		default:
			w.w.WriteByte('"')
			w.w.WriteString(strings.ReplaceAll(Neutralize(c.text), `"`, `""`))
			w.w.WriteByte('"')
		}
	}
	_, err := w.w.WriteString("\n")
	return err
}

// Flush writes what is buffered to the underlying writer and reports the
// first error of any write.
func (w *Writer) Flush() error { return w.w.Flush() }
