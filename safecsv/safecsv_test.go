package safecsv

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/barhub/barhub/safecsv/safecsvtest"
)

// TestPayloadsCannotRun: written raw (Go's CSV writer, as barhub's exports
// were), each payload starts a formula in some view of the file, which
// shows the payload is real and the checker sees it. Written by Writer, in
// the first, a middle and the last column beside numbers, no view of the
// file has a cell that starts a formula, and a CSV reader with Restore
// gives back every text as it was.
func TestPayloadsCannotRun(t *testing.T) {
	if len(safecsvtest.Payloads()) < 13 {
		t.Fatalf("%d payloads; the table must keep at least the issue's 13", len(safecsvtest.Payloads()))
	}
	for _, p := range safecsvtest.Payloads() {
		t.Run(p.Name, func(t *testing.T) {
			var raw bytes.Buffer
			cw := csv.NewWriter(&raw)
			cw.Write([]string{"name", p.Text, "1"})
			cw.Flush()
			if len(safecsvtest.Formulas(raw.Bytes())) == 0 {
				t.Errorf("written raw, %q starts no formula in any view: not a payload, or the checker is blind", p.Text)
			}

			var buf bytes.Buffer
			w := NewWriter(&buf)
			if err := w.Header("first", "middle", "number", "last"); err != nil {
				t.Fatal(err)
			}
			w.Write(Text(p.Text), Text(p.Text), Int(-1), Text(p.Text))
			w.Write(Int(2), Text("plain"), Float(-0.5), Text(p.Text))
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			for _, f := range safecsvtest.Formulas(buf.Bytes()) {
				t.Errorf("formula in %s\nfile:\n%s", f, buf.Bytes())
			}

			cr := csv.NewReader(&buf)
			recs, err := cr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			// Go's reader reads a CR LF inside a cell as LF.
			want := strings.ReplaceAll(p.Text, "\r\n", "\n")
			if len(recs) != 3 {
				t.Fatalf("%d records", len(recs))
			}
			for _, i := range []int{0, 1, 3} {
				if got := Restore(recs[1][i]); got != want {
					t.Errorf("column %d reads back %q, want %q (written %q)", i, got, want, recs[1][i])
				}
			}
			if recs[1][2] != "-1" || recs[2][0] != "2" || recs[2][2] != "-0.5" {
				t.Errorf("numbers read back as %q, %q, %q", recs[1][2], recs[2][0], recs[2][2])
			}
		})
	}
}

// TestStartOnlyIsNotEnough is the finding: the rule barhub had,
// an apostrophe only before a text that starts with = + - @ tab or CR,
// leaves the dietary text of the issue a live formula for a spreadsheet
// that splits at semicolons, quotes or not.
func TestStartOnlyIsNotEnough(t *testing.T) {
	old := func(s string) string {
		if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
			return "'" + s
		}
		return s
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write([]string{"g1", "Ada", old(`nuts;=cmd|' /C calc'!A0;`), "ABCDEFGH"})
	cw.Flush()
	found := false
	for _, f := range safecsvtest.Formulas(buf.Bytes()) {
		found = found || f.Value == `=cmd|' /C calc'!A0` && strings.HasSuffix(f.View, `';'`)
	}
	if !found {
		t.Errorf("the old rule's file shows no =cmd cell when split at semicolons: %v", safecsvtest.Formulas(buf.Bytes()))
	}
}

func TestNeutralize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Ada Lovelace", "Ada Lovelace"},
		{"no nuts, no gluten; vegan", "no nuts, no gluten; vegan"},
		{"gluten-free", "gluten-free"}, // a minus inside a word starts nothing
		{"Rock 'n' roll", "Rock 'n' roll"},
		{"=1+1", "'=1+1"},
		{"nuts;=cmd|' /C calc'!A0;", "nuts;'=cmd|' /C calc'!A0;"},
		{"a,=1;=2|=3\t=4\n=5", "a,'=1;'=2|'=3\t'=4\n'=5"},
		{"a, -1", "a,' -1"},
		{`a;"=1"`, `a;'"=1"`},
		{"'=1", "''=1"},
		{"''=1", "'''=1"},
		{"'plain", "'plain"},
		{"\t=1", "'\t'=1"},
		{"\tindented", "'\tindented"},
		{"x\r\n=1", "x\r\n'=1"}, // no ' inside the CR LF
		{"\r\nx", "\r\nx"},
		{"x\ry", "x\ry"},
		{"x,\ry", "x,'\ry"},
		{"＝1", "'＝1"},
		{"＝", "'＝"},
		{"café;é", "café;é"},
		{"-", "'-"},
		{";", ";"},
		{"a;", "a;"},
	}
	for _, tt := range tests {
		if got := Neutralize(tt.in); got != tt.want {
			t.Errorf("Neutralize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Restore(tt.want); got != tt.in {
			t.Errorf("Restore(%q) = %q, want %q", tt.want, got, tt.in)
		}
	}
}

// TestRestoreReadsWhatPeopleWrite: a file a host made or edited keeps an
// apostrophe that stands before a formula sign, as spreadsheets do; any
// other apostrophe is text.
func TestRestoreReadsWhatPeopleWrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{"'=cmd()", "=cmd()"},
		{"'-5", "-5"},
		{"'plain", "'plain"},
		{"it's; 'quoted'", "it's; 'quoted'"},
		{"a;'+b", "a;+b"},
		{"a;x'+b", "a;x'+b"}, // not at a part's start
	}
	for _, tt := range tests {
		if got := Restore(tt.in); got != tt.want {
			t.Errorf("Restore(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Header("id", "name", "count", "share", "ok"); err != nil {
		t.Fatal(err)
	}
	w.Write(Text("g1"), Text(`Ada "the first", =1`), Int(-3), Float(0.25), Bool(true))
	w.Write(Text(""), Text(""), Int(0), Float(1373.8), Bool(false))
	w.Write(Int(-1), Float(math.NaN()), Float(math.Inf(1)), Float(math.Inf(-1)), Text("x"))
	w.Write(Text(""))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "id,name,count,share,ok\n" +
		`"g1","Ada ""the first"",' =1",-3,0.25,true` + "\n" +
		",,0,1373.8,false\n" +
		// A minus at the start of a line would start a cell of a
		// semicolon reader that runs past the comma: text there.
		`"'-1","NaN","'+Inf","'-Inf","x"` + "\n" +
		`""` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("wrote:\n%s\nwant:\n%s", got, want)
	}
	for _, bad := range [][]string{{"ok", "=1"}, {""}, {"two words"}, {"a,b"}} {
		if err := NewWriter(&buf).Header(bad...); err == nil {
			t.Errorf("Header(%q) accepted", bad)
		}
	}
}

// TestStartersAreNFKC: the characters that start a formula are the ASCII
// four and every character NFKC folds to one of them, as the checker's
// own list says; and the tab, a lone carriage return and NUL.
func TestStartersAreNFKC(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		want := strings.ContainsRune(safecsvtest.Starters, r) || r == '\t' || r == '\r' || r == 0
		if got := starts(r); got != want {
			t.Errorf("starts(%U %q) = %v, the checker says %v", r, r, got, want)
		}
		if want {
			n++
		}
	}
	if n != 4+15+3 {
		t.Errorf("%d characters start a formula, want 22", n)
	}
}

// FuzzNeutralize: for any text, Restore gives it back, the marks are
// apostrophes only, and a file with the text in several columns has no
// cell that starts a formula in any view.
func FuzzNeutralize(f *testing.F) {
	for _, p := range safecsvtest.Payloads() {
		f.Add(p.Text)
	}
	f.Add("'''=1")
	f.Add("vegan;'=1+1")
	f.Add("\r\n\r\n-")
	f.Add("a\r;\n=")
	f.Fuzz(func(t *testing.T, s string) {
		n := Neutralize(s)
		if got := Restore(n); got != s {
			t.Fatalf("Restore(Neutralize(%q)) = %q (neutralised %q)", s, got, n)
		}
		if strings.ReplaceAll(n, "'", "") != strings.ReplaceAll(s, "'", "") {
			t.Fatalf("Neutralize(%q) = %q changed more than apostrophes", s, n)
		}
		if utf8.ValidString(s) != utf8.ValidString(n) {
			t.Fatalf("Neutralize(%q) = %q changed the text's validity", s, n)
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.Write(Text(s), Int(-1), Text(s), Float(-2.5), Text(s))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if found := safecsvtest.Formulas(buf.Bytes()); len(found) > 0 {
			t.Fatalf("text %q: formula in %s\nfile: %q", s, found[0], buf.Bytes())
		}
	})
}
