package guest

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"
)

func ptr[T any](v T) *T { return &v }

// Households used by the table below.
var (
	alone  = []Guest{{ID: "solo", FirstName: "Sam", LastName: "Solo", ExpectedGuests: 1}}
	couple = []Guest{
		{ID: "ada", FirstName: "Ada", LastName: "Byron", ExpectedGuests: 1, GroupID: "byron"},
		{ID: "bob", FirstName: "Bob", LastName: "Byron", ExpectedGuests: 1, GroupID: "byron"},
	}
	// A family of four: two parents with logins; two children counted in
	// the first parent's expectedGuests.
	family = []Guest{
		{ID: "mia", FirstName: "Mia", LastName: "Berg", ExpectedGuests: 3, GroupID: "berg"},
		{ID: "leo", FirstName: "Leo", LastName: "Berg", ExpectedGuests: 1, GroupID: "berg"},
	}
	friends = []Guest{
		{ID: "kim", FirstName: "Kim", LastName: "A", ExpectedGuests: 1, GroupID: "f"},
		{ID: "jo", FirstName: "Jo", LastName: "B", ExpectedGuests: 1, GroupID: "f"},
		{ID: "al", FirstName: "Al", LastName: "C", ExpectedGuests: 1, GroupID: "f"},
	}
	// A single parent with two children and no other login.
	parent = []Guest{{ID: "pia", FirstName: "Pia", LastName: "Lund", ExpectedGuests: 3}}
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name    string
		group   []Guest
		me      string
		answer  Answer
		want    Decision
		wantErr string // RuleError code
	}{
		{name: "alone, coming", group: alone, me: "solo",
			answer: Answer{Status: StatusComing, NumGuests: ptr(1)},
			want:   Decision{Status: StatusComing, WholeGroup: true, Coming: []string{"solo"}}},
		{name: "alone, numGuests left out means everyone", group: alone, me: "solo",
			answer: Answer{Status: StatusComing},
			want:   Decision{Status: StatusComing, WholeGroup: true, Coming: []string{"solo"}}},
		{name: "couple, both coming", group: couple, me: "bob",
			answer: Answer{Status: StatusComing, NumGuests: ptr(2)},
			want:   Decision{Status: StatusComing, WholeGroup: true, Coming: []string{"ada", "bob"}}},
		{name: "couple, one fewer without names", group: couple, me: "bob",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(1)},
			wantErr: CodeWhoIsNotComing},
		{name: "couple, one fewer naming who stays home", group: couple, me: "bob",
			answer: Answer{Status: StatusComing, NumGuests: ptr(1), NotComing: []string{"ada"}},
			want:   Decision{Status: StatusComing, Coming: []string{"bob"}, Declined: []string{"ada"}}},
		{name: "couple, the one answering stays home", group: couple, me: "bob",
			answer: Answer{Status: StatusComing, NumGuests: ptr(1), NotComing: []string{"bob"}},
			want:   Decision{Status: StatusComing, Coming: []string{"ada"}, Declined: []string{"bob"}}},
		{name: "couple, naming a stranger", group: couple, me: "bob",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(1), NotComing: []string{"solo"}},
			wantErr: CodeNotInGroup},
		{name: "couple, everyone named", group: couple, me: "bob",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(1), NotComing: []string{"ada", "bob"}},
			wantErr: CodeNobodyIsComing},
		{name: "family of four, all coming", group: family, me: "leo",
			answer: Answer{Status: StatusComing, NumGuests: ptr(4)},
			want:   Decision{Status: StatusComing, WholeGroup: true, Coming: []string{"mia", "leo"}}},
		{name: "family of four, three without names", group: family, me: "leo",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(3)},
			wantErr: CodeWhoIsNotComing},
		{name: "family of four, Leo stays home", group: family, me: "mia",
			answer: Answer{Status: StatusComing, NumGuests: ptr(3), NotComing: []string{"leo"}},
			want:   Decision{Status: StatusComing, Coming: []string{"mia"}, Declined: []string{"leo"}}},
		{name: "family of four, Leo and a child stay home", group: family, me: "leo",
			answer: Answer{Status: StatusComing, NumGuests: ptr(2), NotComing: []string{"leo"}},
			want:   Decision{Status: StatusComing, Coming: []string{"mia"}, Declined: []string{"leo"}, Extra: map[string]int{"mia": -1}}},
		{name: "three friends, numbers that cannot add up", group: friends, me: "kim",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(1), NotComing: []string{"jo"}},
			wantErr: CodeNumbersMismatch},
		{name: "single parent, one child stays home", group: parent, me: "pia",
			answer: Answer{Status: StatusComing, NumGuests: ptr(2)},
			want:   Decision{Status: StatusComing, Coming: []string{"pia"}, Extra: map[string]int{"pia": -1}}},
		{name: "more than expected, unconfirmed", group: couple, me: "ada",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(3)},
			wantErr: CodeConfirmMore},
		{name: "more than expected, confirmed", group: couple, me: "ada",
			answer: Answer{Status: StatusComing, NumGuests: ptr(3), Confirm: true},
			want:   Decision{Status: StatusComing, WholeGroup: true, Coming: []string{"ada", "bob"}, Extra: map[string]int{"ada": 1}}},
		{name: "more than the rest, the one answering not coming", group: couple, me: "ada",
			answer: Answer{Status: StatusComing, NumGuests: ptr(2), NotComing: []string{"ada"}, Confirm: true},
			want:   Decision{Status: StatusComing, Coming: []string{"bob"}, Declined: []string{"ada"}, Extra: map[string]int{"bob": 1}}},
		{name: "zero coming", group: couple, me: "ada",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(0)},
			wantErr: CodeInvalidAnswer},
		{name: "absurdly many", group: alone, me: "solo",
			answer:  Answer{Status: StatusComing, NumGuests: ptr(MaxPartySize + 1), Confirm: true},
			wantErr: CodeInvalidAnswer},
		{name: "declined for self in a couple", group: couple, me: "bob",
			answer: Answer{Status: StatusDeclined},
			want:   Decision{Status: StatusDeclined, Declined: []string{"bob"}}},
		{name: "declined for the whole family", group: family, me: "leo",
			answer: Answer{Status: StatusDeclined, Scope: ScopeGroup},
			want:   Decision{Status: StatusDeclined, WholeGroup: true, Declined: []string{"mia", "leo"}}},
		{name: "declined alone", group: alone, me: "solo",
			answer: Answer{Status: StatusDeclined},
			want:   Decision{Status: StatusDeclined, WholeGroup: true, Declined: []string{"solo"}}},
		{name: "unknown scope", group: couple, me: "bob",
			answer:  Answer{Status: StatusDeclined, Scope: "everyone"},
			wantErr: CodeInvalidAnswer},
		{name: "pending is not an answer", group: alone, me: "solo",
			answer:  Answer{Status: StatusPending},
			wantErr: CodeInvalidAnswer},
		{name: "nothing at all", group: alone, me: "solo",
			answer:  Answer{},
			wantErr: CodeNothingToChange},
		{name: "dietary only", group: couple, me: "bob",
			answer: Answer{Dietary: &Dietary{Text: "  no nuts please "}},
			want:   Decision{Dietary: &Dietary{Text: "no nuts please", Tags: []string{"nuts"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(tt.group, func(g Guest) bool { return g.ID == tt.me })
			got, err := Decide(tt.answer, tt.group[i], tt.group)
			if tt.wantErr != "" {
				var re *RuleError
				if !errors.As(err, &re) || re.Code != tt.wantErr {
					t.Fatalf("error = %v, want rule %s", err, tt.wantErr)
				}
				if re.Message == "" {
					t.Error("rule error without a message")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != tt.want.Status || got.WholeGroup != tt.want.WholeGroup ||
				!slices.Equal(got.Coming, tt.want.Coming) || !slices.Equal(got.Declined, tt.want.Declined) ||
				!maps.Equal(nonZero(got.Extra), nonZero(tt.want.Extra)) {
				t.Errorf("decision = %+v\nwant       %+v", got, tt.want)
			}
			if (got.Dietary == nil) != (tt.want.Dietary == nil) ||
				got.Dietary != nil && (got.Dietary.Text != tt.want.Dietary.Text || !slices.Equal(got.Dietary.Tags, tt.want.Dietary.Tags)) {
				t.Errorf("dietary = %+v, want %+v", got.Dietary, tt.want.Dietary)
			}
		})
	}
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

func TestWhoIsNotComingListsTheMembers(t *testing.T) {
	_, err := Decide(Answer{Status: StatusComing, NumGuests: ptr(3)}, family[1], family)
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error = %v", err)
	}
	if len(re.Members) != 2 || re.Members[0].ID != "mia" || re.Members[1].ID != "leo" {
		t.Errorf("members = %+v", re.Members)
	}
	if re.ExpectedTotal != 4 || re.NumGuests != 3 {
		t.Errorf("expected %d, numGuests %d; want 4 and 3", re.ExpectedTotal, re.NumGuests)
	}
	want := "3 of the 4 people invited with you are coming: who is not coming? Mia Berg (+2) or Leo Berg"
	if re.Message != want {
		t.Errorf("message = %q\nwant      %q", re.Message, want)
	}
}

func TestApplyMatchesTheCounts(t *testing.T) {
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	d, err := Decide(Answer{Status: StatusComing, NumGuests: ptr(2), NotComing: []string{"leo"}}, family[1], family)
	if err != nil {
		t.Fatal(err)
	}
	after := d.Apply(family, "leo", at)
	if after[0].Status != StatusComing || after[0].Heads() != 2 || after[0].RSVPBy != "leo" || !after[0].RSVPDate.Equal(at) {
		t.Errorf("mia after = %+v", after[0])
	}
	if after[1].Status != StatusDeclined || after[1].Heads() != 0 {
		t.Errorf("leo after = %+v", after[1])
	}
	got := Change(family, after)
	want := Counts{Pending: -2, Coming: 1, ComingHeads: 2, Declined: 1}
	if got != want {
		t.Errorf("change = %+v, want %+v", got, want)
	}
	if family[0].Status != "" {
		t.Error("Apply changed its input")
	}
}

func TestHeads(t *testing.T) {
	tests := []struct {
		g    Guest
		want int
	}{
		{Guest{Status: StatusPending, ExpectedGuests: 2}, 0},
		{Guest{Status: StatusDeclined, ExpectedGuests: 2}, 0},
		{Guest{Status: StatusComing, ExpectedGuests: 2}, 2},
		{Guest{Status: StatusComing, ExpectedGuests: 2, ExtraGuests: 1}, 3},
		{Guest{Status: StatusComing, ExpectedGuests: 3, ExtraGuests: -2}, 1},
		{Guest{Status: StatusComing, ExpectedGuests: 1, ExtraGuests: -4}, 1},
		{Guest{Status: StatusComing}, 1},
	}
	for _, tt := range tests {
		if got := tt.g.Heads(); got != tt.want {
			t.Errorf("%+v: heads %d, want %d", tt.g, got, tt.want)
		}
	}
}
