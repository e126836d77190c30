package text

import (
	"strings"
	"testing"
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
		{"line break in a name", "Ada\nBob", false, "control character (U+000A)"},
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
