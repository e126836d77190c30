package text

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in string
		lines    bool   // Lines instead of Line
		want     string // part of the error; "" when accepted
	}{
		{"plain", "Ada Lovelace", false, ""},
		{"accents and scripts", "Åsa Ñúñez 李 Ольга", false, ""},
		{"emoji", "🍹 no ice", false, ""},
		{"empty is the caller's rule", "", false, ""},
		{"joiner inside an emoji", "👩\u200d🍳", false, ""},
		{"right-to-left script", "שלום", false, ""},
		{"NUL", "Ada\x00", false, "control character (U+0000)"},
		{"escape", "\x1b[31mred", false, "control character (U+001B)"},
		{"line break in a name", "Ada\nBob", false, "line break (U+000A)"},
		{"DEL", "Ada\x7f", false, "control character (U+007F)"},
		{"C1 control", "Ada\u0085", false, "control character (U+0085)"},
		{"right-to-left override", "\u202eBOB", false, "text-direction override (U+202E)"},
		{"left-to-right embedding", "\u202aX", false, "(U+202A)"},
		{"isolate", "a\u2066b\u2069", false, "(U+2066)"},
		{"pop isolate", "a\u2069", false, "(U+2069)"},
		{"zero-width only", "\u200b\u200b", false, "no visible characters"},
		{"byte-order mark only", "\ufeff", false, "no visible characters"},
		{"spaces and joiners only", " \u200d \u2060", false, "no visible characters"},
		{"invalid UTF-8", "Ada\xff", false, "not valid UTF-8"},
		{"announcement over lines", "Cake in the garden!\n\tNow.", true, ""},
		{"announcement with NUL", "Cake\x00", true, "U+0000"},
		{"announcement with an override", "Cake \u202e", true, "U+202E"},
		{"announcement of line breaks only", "\n\n", true, "no visible characters"},
	}
	for _, tt := range tests {
		check := Line
		if tt.lines {
			check = Lines
		}
		err := check(tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
	}
}

func TestClean(t *testing.T) {
	line := Rule{Max: 20}
	name := Rule{Max: 20, Required: true}
	lines := Rule{Max: 40, Lines: true}
	flag := "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F" // Scotland: tag characters
	tests := []struct {
		name, in string
		rule     Rule
		want     string // the cleaned text when accepted
		err      string // part of the error; "" when accepted
	}{
		{"Swedish", "  Åsa  Öberg ", name, "Åsa Öberg", ""},
		{"Portuguese", "Conceição Araújo", name, "Conceição Araújo", ""},
		{"decomposed becomes composed", "A\u030asa", name, "Åsa", ""},
		{"composed across a dropped character", "A\u200b\u030asa", name, "Åsa", ""},
		{"Cyrillic, Greek, CJK", "Ольга Σοφία 李", name, "Ольга Σοφία 李", ""},
		{"Hebrew", "שלום", name, "שלום", ""},
		{"Arabic", "مرحبا بكم", name, "مرحبا بكم", ""},
		{"Persian needs its non-joiner", "می\u200cخواهم", name, "می\u200cخواهم", ""},
		{"emoji joined", "👩\u200d🍳 chef", name, "👩\u200d🍳 chef", ""},
		{"emoji presentation", "❤\ufe0f", name, "❤\ufe0f", ""},
		{"flag of tags", flag, name, flag, ""},
		{"regional flag", "🇸🇪 🇧🇷", name, "🇸🇪 🇧🇷", ""},
		{"emoji newer than the tables", "\U0001FAE9", name, "\U0001FAE9", ""},
		{"right-to-left mark taken out", "שלום\u200f!", name, "שלום!", ""},
		{"left-to-right mark taken out", "\u200eBob\u200e", name, "Bob", ""},
		{"Arabic letter mark taken out", "a\u061cb", name, "ab", ""},
		{"zero-width space taken out", "Bob\u200bby", name, "Bobby", ""},
		{"byte-order mark taken out", "\ufeffAda", name, "Ada", ""},
		{"spaces of every kind collapse", "Ada\u00a0\u3000 Byron", name, "Ada Byron", ""},
		{"optional and empty", "", line, "", ""},
		{"optional and spaces", " \t\n ", line, "", ""},
		{"length in characters, not bytes", "ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ", name, "ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ", ""},
		{"length after NFC", strings.Repeat("A\u030a", 20), name, strings.Repeat("Å", 20), ""},
		{"lines kept", "Cake!\r\n\tNow\rhere\u2028there", lines, "Cake!\n\tNow\nhere\nthere", ""},
		{"spaces kept inside lines", "a\u00a0 b", lines, "a\u00a0 b", ""},

		{"required and empty", "", name, "", "is empty"},
		{"required and spaces", "   ", name, "", "is empty"},
		{"too long", strings.Repeat("x", 21), name, "", "longer than 20 characters"},
		{"NUL", "Ada\x00", name, "", "control character (U+0000)"},
		{"escape", "\x1b[31mAda", name, "", "control character (U+001B)"},
		{"DEL", "Ada\x7fB", name, "", "control character (U+007F)"},
		{"C1", "Ada\u009bB", name, "", "control character (U+009B)"},
		{"NEL at the end", "Ada\u0085", name, "", "control character (U+0085)"},
		{"line break in one line", "Ada\nBob", name, "", "line break (U+000A)"},
		{"carriage return in one line", "Ada\rBob", name, "", "line break (U+000D)"},
		{"line separator in one line", "Ada\u2028Bob", name, "", "line break (U+2028)"},
		{"tab in one line", "Ada\tBob", name, "", "control character (U+0009)"},
		{"NUL in lines", "a\x00\nb", lines, "", "control character (U+0000)"},
		{"right-to-left override", "\u202eBOB", name, "", "text-direction override (U+202E)"},
		{"left-to-right embedding", "x\u202ay", name, "", "(U+202A)"},
		{"isolate", "a\u2067b\u2069", name, "", "(U+2067)"},
		{"override in lines", "a\n\u202db", lines, "", "(U+202D)"},
		{"symmetric swapping", "a\u206ab", name, "", "formatting control (U+206A)"},
		{"interlinear annotation", "a\ufff9hidden\ufffbb", name, "", "formatting control (U+FFF9)"},
		{"noncharacter", "a\uffff", name, "", "not a character"},
		{"invalid UTF-8", "Ada\xff", name, "", "not valid UTF-8"},
		{"zero-width spaces only", "\u200b\u200b", line, "", "no visible characters"},
		{"word joiner only", "\u2060", line, "", "no visible characters"},
		{"byte-order mark only", "\ufeff", name, "", "no visible characters"},
		{"Hangul filler", "\u3164", name, "", "no visible characters"},
		{"Hangul choseong and jungseong fillers", "\u115f\u1160", name, "", "no visible characters"},
		{"halfwidth Hangul filler", " \uffa0 ", name, "", "no visible characters"},
		{"Braille blank", "\u2800\u2800", name, "", "no visible characters"},
		{"joiners and marks only", "\u200d\u200e\u200c", line, "", "no visible characters"},
		{"combining marks only", "\u0301\u0301", name, "", "no visible characters"},
		{"variation selector only", "\ufe0f", name, "", "no visible characters"},
		{"line breaks and joiners", "\n\u200d\n", lines, "", "no visible characters"},
	}
	for _, tt := range tests {
		got, err := tt.rule.Clean(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s: Clean(%+q) = %+q, %v; want %+q", tt.name, tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: Clean(%+q) = %+q, %v; want an error with %q", tt.name, tt.in, got, err, tt.err)
		}
	}
}

func TestCleanErrors(t *testing.T) {
	_, err := Rule{Required: true}.Clean(" ")
	if !errors.Is(err, ErrEmpty) || errors.Is(err, ErrTooLong) {
		t.Errorf("empty: %v", err)
	}
	_, err = Rule{Max: 2}.Clean("abc")
	if !errors.Is(err, ErrTooLong) || err.Error() != "is longer than 2 characters" {
		t.Errorf("too long: %v", err)
	}
}

// FuzzClean: whatever is typed, what Clean keeps is valid NFC UTF-8
// without controls (but line breaks and tabs in lines), overrides or the
// characters it takes out, trimmed, visible, within the bound, and comes
// back unchanged when cleaned again.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"Åsa Öberg", "A\u030a", "\u202eBOB", "\u200b", "a\r\nb", "👩\u200d🍳", " \u3164 ", "a\u200b\u030a", "\x00", "\xff", "שלום\u200f!", "a\u00a0\u00a0b"} {
		f.Add(s, false, uint8(20))
		f.Add(s, true, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, lines bool, max uint8) {
		r := Rule{Max: int(max), Lines: lines}
		out, err := r.Clean(s)
		if err != nil {
			if out != "" {
				t.Fatalf("refused %+q but returned %+q", s, out)
			}
			return
		}
		if !utf8.ValidString(out) || !norm.NFC.IsNormalString(out) {
			t.Fatalf("%+q: kept %+q, not NFC UTF-8", s, out)
		}
		if r.Max > 0 && utf8.RuneCountInString(out) > r.Max {
			t.Fatalf("%+q: kept %d characters, over %d", s, utf8.RuneCountInString(out), r.Max)
		}
		if out != strings.TrimFunc(out, trimmed) {
			t.Fatalf("%+q: kept %+q, not trimmed", s, out)
		}
		if out != "" && !strings.ContainsFunc(out, visible) {
			t.Fatalf("%+q: kept %+q, nothing visible", s, out)
		}
		if !lines && strings.Contains(out, "  ") {
			t.Fatalf("%+q: kept %+q, with a run of spaces", s, out)
		}
		for _, c := range out {
			allowed := lines && (c == '\n' || c == '\t')
			if !allowed && unicode.Is(unicode.Cc, c) || dropped(c) || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x206F || c == '\u2028' || c == '\u2029' {
				t.Fatalf("%+q: kept %+q, with U+%04X", s, out, c)
			}
		}
		if again, err := r.Clean(out); err != nil || again != out {
			t.Fatalf("%+q: kept %+q, which cleans again to %+q, %v", s, out, again, err)
		}
		if err := check(out, r); out != "" && err != nil {
			t.Fatalf("%+q: kept %+q, which the check refuses: %v", s, out, err)
		}
	})
}
