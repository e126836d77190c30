package guest

import (
	"errors"
	"testing"
)

func TestGroupVersion(t *testing.T) {
	ada := Guest{ID: "a", FirstName: "Ada", LastName: "Family", ExpectedGuests: 1}
	bob := Guest{ID: "b", FirstName: "Bob", LastName: "Family", ExpectedGuests: 1}
	base := GroupVersion([]Guest{ada, bob})
	coming := ada
	coming.Status = StatusComing
	more := coming
	more.ExtraGuests = 1
	kids := ada
	kids.ExpectedGuests = 3
	dietary := ada
	dietary.Dietary = Dietary{Text: "no nuts"}
	tests := []struct {
		name  string
		group []Guest
		same  bool
	}{
		{"same members, other order", []Guest{bob, ada}, true},
		{"a dietary answer", []Guest{dietary, bob}, true},
		{"an answer", []Guest{coming, bob}, false},
		{"more people", []Guest{more, bob}, false},
		{"people on the invitation", []Guest{kids, bob}, false},
		{"someone left", []Guest{ada}, false},
		{"someone joined", []Guest{ada, bob, {ID: "c"}}, false},
	}
	for _, tt := range tests {
		if got := GroupVersion(tt.group) == base; got != tt.same {
			t.Errorf("%s: same version = %v, want %v", tt.name, got, tt.same)
		}
	}
}

func TestDecideRefusesAStaleGroupVersion(t *testing.T) {
	ada := Guest{ID: "a", FirstName: "Ada", LastName: "Family", ExpectedGuests: 1}
	bob := Guest{ID: "b", FirstName: "Bob", LastName: "Family", ExpectedGuests: 1, Status: StatusDeclined}
	group := []Guest{ada, bob}
	seen := GroupVersion([]Guest{ada, {ID: "b", FirstName: "Bob", LastName: "Family", ExpectedGuests: 1}})
	tests := []struct {
		name string
		a    Answer
		code string
	}{
		{"stale version with a status", Answer{Status: StatusComing, GroupVersion: seen}, CodeGroupChanged},
		{"current version", Answer{Status: StatusComing, GroupVersion: GroupVersion(group)}, ""},
		{"no version: the answer is decided on the group as it is", Answer{Status: StatusComing}, ""},
		{"stale version, dietary only", Answer{Dietary: &Dietary{Text: "vegan"}, GroupVersion: seen}, ""},
	}
	for _, tt := range tests {
		_, err := Decide(tt.a, ada, group)
		var re *RuleError
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.code != "" && (!errors.As(err, &re) || re.Code != tt.code):
			t.Errorf("%s: err %v, want %s", tt.name, err, tt.code)
		case tt.code == CodeGroupChanged && re.Message != `your group's answers changed a moment ago (Ada Family has not answered, Bob Family is not coming); check them and answer again`:
			t.Errorf("%s: message %q", tt.name, re.Message)
		}
	}
}
