package guest

import (
	"slices"
	"testing"
	"time"
)

func TestPeopleAndPersonFor(t *testing.T) {
	mia := Guest{ID: "mia", FirstName: "Mia", LastName: "Berg", Status: StatusComing, ExpectedGuests: 3,
		Companions: []Companion{{Name: "Olle", Dietary: NormalizeDietary(Dietary{Text: "pregnant"})}}}
	leo := Guest{ID: "leo", FirstName: "Leo", LastName: "Berg", Dietary: NormalizeDietary(Dietary{Text: "nötallergi"})}
	group := []Guest{mia, leo}
	tests := []struct {
		ref      string
		name     string
		tags     []string
		found    bool
		wantRefs string
	}{
		{"leo", "Leo Berg", []string{"nuts"}, true, "leo"},
		{"+1", "Olle", []string{"alcohol-free", "pregnant"}, true, "mia/1"},
		{"mia/1", "Olle", []string{"alcohol-free", "pregnant"}, true, "mia/1"},
		{"+2", "Mia's +2", nil, true, "mia/2"},
		{"+3", "", nil, false, ""},
		{"leo/1", "", nil, false, ""},
		{"zed", "", nil, false, ""},
		{"+x", "", nil, false, ""},
		{"mia/../x", "", nil, false, ""},
	}
	for _, tt := range tests {
		p, ok := PersonFor(tt.ref, "mia", group)
		if ok != tt.found || p.Name != tt.name || !slices.Equal(p.Dietary.Tags, tt.tags) || p.Ref != tt.wantRefs {
			t.Errorf("PersonFor(%q) = %+v, %v", tt.ref, p, ok)
		}
	}
	if got := mia.NeedsSummary(); !slices.Equal(got, []string{"alcohol-free", "pregnant"}) {
		t.Errorf("Mia's needs = %q", got)
	}
}

// The one answering gives needs for another member; an answer that
// repeats what the host reviewed keeps the review.
func TestDecideMemberNeeds(t *testing.T) {
	mia := Guest{ID: "mia", FirstName: "Mia", Status: StatusPending, ExpectedGuests: 2, GroupID: "g"}
	leo := Guest{ID: "leo", FirstName: "Leo", Status: StatusPending, GroupID: "g",
		Dietary: Dietary{Text: "kiwi", Tags: []string{"nuts"}, Reviewed: true}}
	group := []Guest{mia, leo}
	leoSame := Dietary{Text: "kiwi", Tags: []string{"nuts"}}
	d, err := Decide(Answer{Members: []MemberNeeds{{ID: "leo", Dietary: &leoSame}},
		Companions: &[]Companion{{Name: "Olle", Dietary: Dietary{Text: "vegan"}}}}, mia, group)
	if err != nil {
		t.Fatal(err)
	}
	after := d.Apply(group, "mia", time.Now())
	if !after[1].Dietary.Reviewed || !slices.Equal(after[0].Needs, []string{"vegan"}) || !slices.Equal(after[1].Needs, []string{"nuts"}) {
		t.Errorf("after = %+v", after)
	}
	leoNew := Dietary{Text: "mango"}
	d, _ = Decide(Answer{Members: []MemberNeeds{{ID: "leo", Dietary: &leoNew}}}, mia, group)
	after = d.Apply(group, "mia", time.Now())
	if after[1].Dietary.Reviewed || !slices.Equal(after[1].Needs, []string{NeedReview}) {
		t.Errorf("new words: %+v", after[1])
	}
	two := []Companion{{Name: "A"}, {Name: "B"}}
	if _, err := Decide(Answer{Companions: &two}, mia, group); err == nil {
		t.Error("two companions on an invitation for Mia and one more were accepted")
	}
	// Coming with one more (confirmed) makes room for a second.
	n := 4
	if _, err := Decide(Answer{Status: StatusComing, NumGuests: &n, Confirm: true, Companions: &two}, mia, group); err != nil {
		t.Errorf("two companions when bringing one more: %v", err)
	}
}

func TestDietaryByTagPerPerson(t *testing.T) {
	guests := []Guest{
		{ID: "mia", FirstName: "Mia", Status: StatusComing, ExpectedGuests: 3,
			Companions: []Companion{{Name: "Leo", Dietary: NormalizeDietary(Dietary{Text: "nut allergy"})}}},
		{ID: "bo", FirstName: "Bo", Status: StatusComing, ExpectedGuests: 2, Dietary: NormalizeDietary(Dietary{Text: "nuts, and no coriander"})},
	}
	// Bo's +1, whom nobody described, does not count as a second person
	// needing nuts.
	got := DietaryByTag(guests)
	if len(got) != 2 || got[0].Tag != NeedReview || got[0].People != 1 || got[1].Tag != "nuts" || got[1].Guests != 2 || got[1].People != 2 ||
		got[1].Entries[0].Name != "Leo" || got[1].Entries[0].Ref != "mia/1" {
		t.Errorf("DietaryByTag = %+v", got)
	}
}
