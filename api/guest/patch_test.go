package guest

import (
	"errors"
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
		{"line break in a last name", Patch{LastName: str("Lind\nAdmin")}, "lastName", "control character"},
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
