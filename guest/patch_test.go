package guest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPatchRefusesSpoofingNames: a name shown on the bar's tablet and the
// door's screen must read as what it is.
func TestPatchRefusesSpoofingNames(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name  string
		p     Patch
		field string // "" when accepted
		want  string
	}{
		{"plain names", Patch{FirstName: str("Åsa"), LastName: str("Ñúñez")}, "", ""},
		{"NUL in a first name", Patch{FirstName: str("Ada\x00")}, "firstName", "control character"},
		{"override in a last name", Patch{LastName: str("\u202eecaL")}, "lastName", "text-direction override"},
		{"zero-width first name", Patch{FirstName: str("\u200b\u200c")}, "firstName", "no visible characters"},
		{"line break in a last name", Patch{LastName: str("Lind\nAdmin")}, "lastName", "line break"},
		{"escape in a first name", Patch{FirstName: str("\x1b[2JAda")}, "firstName", "control character (U+001B)"},
		{"isolate in a first name", Patch{FirstName: str("Ada\u2067")}, "firstName", "text-direction override"},
		{"Hangul filler as a first name", Patch{FirstName: str("\u3164")}, "firstName", "no visible characters"},
		{"last name too long in characters", Patch{LastName: str(strings.Repeat("Å", maxShortText+1))}, "lastName", "longer than 200 characters"},
		{"last name of punctuation", Patch{LastName: str("--")}, "lastName", "letter or digit"},
		{"override in an address", Patch{Email: str("\u202eada@example.com")}, "email", "e-mail address"},
		{"direction mark in an address", Patch{Email: str("ada\u200e@example.com")}, "email", "e-mail address"},
		{"NUL in dietary words", Patch{Dietary: &Dietary{Text: "nuts\x00"}}, "dietary.text", "control character"},
		{"override in a dietary tag", Patch{Dietary: &Dietary{Tags: []string{"nuts", "\u202evegan"}}}, "dietary.tags[1]", "text-direction override"},
		{"override in a +1's name", Patch{Companions: &[]Companion{{Name: "Bo"}, {Name: "\u202eBOB"}}}, "companions[1].name", "text-direction override"},
		{"escape in a +1's needs", Patch{Companions: &[]Companion{{Name: "Bo", Dietary: Dietary{Text: "\x1b]0;x"}}}}, "companions[0].dietary.text", "control character"},
		{"zero-width +1", Patch{Companions: &[]Companion{{Name: "\u200b\u200b"}}}, "companions[0].name", "no visible characters"},
		{"dietary words over lines", Patch{Dietary: &Dietary{Text: "nuts\nand shellfish"}}, "", ""},
		{"Portuguese and emoji", Patch{FirstName: str("João 🎉"), LastName: str("Conceição")}, "", ""},
	}
	for _, tt := range tests {
		_, err := tt.p.Apply(Guest{FirstName: "A", LastName: "B", LastNameKey: "b"}, "admin", time.Now())
		var fe *FieldError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want a %s error with %q", tt.name, err, tt.field, tt.want)
		}
	}
}

// TestPatchKeepsCleanedText: what is kept is the text as the rule cleans
// it: NFC, trimmed, direction marks and zero-width spaces taken out, so
// the same name typed on two devices is one name.
func TestPatchKeepsCleanedText(t *testing.T) {
	str := func(s string) *string { return &s }
	p := Patch{
		FirstName:  str("  A\u030asa\u200e "),
		LastName:   str("O\u0308berg\u200b"),
		Dietary:    &Dietary{Text: " nötallergi\r\nno shellfish ", Tags: []string{" ", "vegan"}},
		Companions: &[]Companion{{Name: " Bo\u00a0 Berg ", Dietary: Dietary{Text: "\ufeffgluten"}}},
	}
	g, err := p.Apply(Guest{}, "admin", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if g.FirstName != "Åsa" || g.LastName != "Öberg" || g.LastNameKey != NameKey("Öberg") {
		t.Errorf("names %+q %+q (%q)", g.FirstName, g.LastName, g.LastNameKey)
	}
	if g.Dietary.Text != "nötallergi\nno shellfish" || !slices.Contains(g.Dietary.Tags, "vegan") || !slices.Contains(g.Dietary.Tags, "nuts") {
		t.Errorf("dietary %+v", g.Dietary)
	}
	if len(g.Companions) != 1 || g.Companions[0].Name != "Bo Berg" || g.Companions[0].Dietary.Text != "gluten" {
		t.Errorf("companions %+v", g.Companions)
	}
}
