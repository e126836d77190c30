package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// party stores a small, known guest list and returns it by first name.
//
//	Ada, Bob: the Byron couple (group byron); Ada coming, allergic to nuts.
//	Mia (+2 children), Leo: the Berg family (group berg); pending.
//	Sam: alone, declined, has signed in.
//	Åsa Öberg: alone, pending, vegan.
func party(t *testing.T, s *store.Store) map[string]guest.Guest {
	t.Helper()
	ctx := context.Background()
	login := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	answered := time.Date(2026, 5, 2, 10, 0, 0, 0, time.UTC)
	list := []guest.Guest{
		{FirstName: "Ada", LastName: "Byron", GroupID: "byron", Status: guest.StatusComing, RSVPDate: &answered, Dietary: guest.Dietary{Text: "nut allergy"}},
		{FirstName: "Bob", LastName: "Byron", GroupID: "byron"},
		{FirstName: "Mia", LastName: "Berg", GroupID: "berg", ExpectedGuests: 3},
		{FirstName: "Leo", LastName: "Berg", GroupID: "berg"},
		{FirstName: "Sam", LastName: "Solo", Status: guest.StatusDeclined, RSVPDate: &answered, LastLogin: &login},
		{FirstName: "Åsa", LastName: "Öberg", Dietary: guest.Dietary{Tags: []string{"vegan"}}},
	}
	out := map[string]guest.Guest{}
	for _, g := range list {
		if err := s.InsertGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
		out[g.FirstName] = g
	}
	return out
}

func names(gs []guest.Guest) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.FirstName
	}
	return out
}

func TestListGuests(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	tests := []struct {
		name  string
		q     store.GuestQuery
		want  []string
		total int64
	}{
		{"all by last name", store.GuestQuery{}, []string{"Leo", "Mia", "Ada", "Bob", "Åsa", "Sam"}, 6},
		{"last name descending", store.GuestQuery{Desc: true}, []string{"Sam", "Åsa", "Bob", "Ada", "Mia", "Leo"}, 6},
		{"by first name", store.GuestQuery{Sort: "firstName"}, []string{"Ada", "Bob", "Leo", "Mia", "Sam", "Åsa"}, 6},
		{"page two", store.GuestQuery{Limit: 2, Offset: 2}, []string{"Ada", "Bob"}, 6},
		{"past the end", store.GuestQuery{Limit: 2, Offset: 10}, []string{}, 6},
		{"pending", store.GuestQuery{Status: guest.StatusPending}, []string{"Leo", "Mia", "Bob", "Åsa"}, 4},
		{"coming", store.GuestQuery{Status: guest.StatusComing}, []string{"Ada"}, 1},
		{"has dietary", store.GuestQuery{HasDietary: true}, []string{"Ada", "Åsa"}, 2},
		{"pending with dietary", store.GuestQuery{Status: guest.StatusPending, HasDietary: true}, []string{"Åsa"}, 1},
		{"never logged in", store.GuestQuery{NeverLoggedIn: true}, []string{"Leo", "Mia", "Ada", "Bob", "Åsa"}, 5},
		{"group", store.GuestQuery{GroupID: "berg"}, []string{"Leo", "Mia"}, 2},
		{"text, any case", store.GuestQuery{Q: "BYR"}, []string{"Ada", "Bob"}, 2},
		{"text without accents", store.GuestQuery{Q: "oberg"}, []string{"Åsa"}, 1},
		{"text is a regexp character", store.GuestQuery{Q: ".*"}, []string{}, 0},
		{"text is a code", store.GuestQuery{Q: p["Sam"].Code}, []string{"Sam"}, 1},
		{"status order", store.GuestQuery{Sort: "status", Limit: 2}, []string{"Ada", "Sam"}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := s.ListGuests(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(got), tt.want) || total != tt.total {
				t.Errorf("got %v (total %d), want %v (total %d)", names(got), total, tt.want, tt.total)
			}
		})
	}
}

func TestUpdateAndRemoveGuest(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	admin := "host-1"

	// Bob leaves the couple and says he is coming, with a friend.
	st, extra, none := guest.StatusComing, 1, ""
	bob, err := s.UpdateGuest(ctx, p["Bob"].ID, guest.Patch{Status: &st, ExtraGuests: &extra, GroupID: &none}, admin)
	if err != nil {
		t.Fatal(err)
	}
	if bob.GroupID != "" || bob.Heads() != 2 || bob.RSVPBy != admin || bob.RSVPDate == nil {
		t.Errorf("bob after edit = %+v", bob)
	}
	stored, err := s.GuestByID(ctx, bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.GroupID != "" || stored.Status != guest.StatusComing || stored.ExtraGuests != 1 || stored.Code != p["Bob"].Code {
		t.Errorf("bob stored = %+v", stored)
	}
	members, err := s.GroupMembers(ctx, "byron")
	if err != nil || !slices.Equal(names(members), []string{"Ada"}) {
		t.Errorf("byron group = %v, %v", names(members), err)
	}
	// He joins the Bergs: one update of his own document.
	berg := "berg"
	if _, err := s.UpdateGuest(ctx, bob.ID, guest.Patch{GroupID: &berg}, admin); err != nil {
		t.Fatal(err)
	}
	if members, _ := s.GroupMembers(ctx, "berg"); !slices.Equal(names(members), []string{"Bob", "Leo", "Mia"}) {
		t.Errorf("berg group = %v", names(members))
	}

	bad := 0
	var fe *guest.FieldError
	if _, err := s.UpdateGuest(ctx, bob.ID, guest.Patch{ExpectedGuests: &bad}, admin); !errors.As(err, &fe) || fe.Field != "expectedGuests" {
		t.Errorf("expectedGuests 0: %v", err)
	}
	if _, err := s.UpdateGuest(ctx, "nobody", guest.Patch{GroupID: &berg}, admin); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown guest: %v", err)
	}

	gone, err := s.RemoveGuest(ctx, p["Sam"].ID)
	if err != nil || gone.FirstName != "Sam" {
		t.Fatalf("remove: %v %+v", err, gone)
	}
	if _, err := s.GuestByCode(ctx, p["Sam"].Code); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("code of removed guest: %v", err)
	}
	assertStatsMatchRecount(t, s)
}

func TestInsertGuestKeepsAGivenCode(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	g := guest.Guest{ID: "fixed-id", FirstName: "Kim", LastName: "Kod", Code: "ABCDEFGH"}
	if err := s.InsertGuest(ctx, &g); err != nil {
		t.Fatal(err)
	}
	got, err := s.GuestByCode(ctx, "ABCDEFGH")
	if err != nil || got.ID != "fixed-id" {
		t.Fatalf("by code: %v %+v", err, got)
	}
	if got, err := s.GuestWithCode(ctx, "ABCDEFGH"); err != nil || got.ID != "fixed-id" {
		t.Fatalf("with code: %v %+v", err, got)
	}
	again := guest.Guest{FirstName: "Other", LastName: "Person", Code: "ABCDEFGH"}
	if err := s.InsertGuest(ctx, &again); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second guest with the code: %v", err)
	}
	sameID := guest.Guest{ID: "fixed-id", FirstName: "Other", LastName: "Person"}
	if err := s.InsertGuest(ctx, &sameID); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second guest with the id: %v", err)
	}
	// The refused guest's fresh code was given back.
	if n, _ := s.CountGuests(ctx, nil); n != 1 {
		t.Errorf("%d guests, want 1", n)
	}
	names, err := s.NameIndex(ctx)
	if err != nil || names["kim kod"] != "fixed-id" || len(names) != 1 {
		t.Errorf("name index = %v, %v", names, err)
	}
}

func TestDietaryGroupsAndAnswers(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	diet, err := s.DietaryGuests(ctx, guest.StatusComing, guest.StatusPending)
	if err != nil || !slices.Equal(names(diet), []string{"Ada", "Åsa"}) {
		t.Errorf("dietary = %v, %v", names(diet), err)
	}
	if diet, _ := s.DietaryGuests(ctx, guest.StatusComing); !slices.Equal(names(diet), []string{"Ada"}) || !slices.Equal(diet[0].Dietary.Tags, []string{"nuts"}) {
		t.Errorf("coming with dietary = %+v", diet)
	}
	grouped, err := s.GroupedGuests(ctx)
	if err != nil || !slices.Equal(names(grouped), []string{"Leo", "Mia", "Ada", "Bob"}) {
		t.Errorf("grouped = %v, %v", names(grouped), err)
	}
	if grouped[0].Code != "" {
		t.Error("groups carry codes")
	}
	answers, err := s.Answers(ctx)
	if err != nil || len(answers) != 2 {
		t.Errorf("answers = %+v, %v", answers, err)
	}
	all, err := s.AllGuests(ctx)
	if err != nil || len(all) != 6 || all[0].FirstName != "Leo" {
		t.Errorf("all = %v, %v", names(all), err)
	}
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	got, err := s.Settings(ctx)
	if err != nil || got.EventName != guest.DefaultSettings().EventName {
		t.Fatalf("defaults = %+v, %v", got, err)
	}
	in, err := guest.ParseSettings(guest.SettingsInput{EventName: "Crayfish party", EventDate: "2026-08-14T19:00", RSVPDeadline: "2026-08-01T00:00", Timezone: "Europe/Stockholm", DressCode: "Bibs"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveSettings(ctx, in); err != nil {
		t.Fatal(err)
	}
	got, err = s.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.EventName != "Crayfish party" || got.DressCode != "Bibs" || !got.EventDate.Equal(*in.EventDate) ||
		got.InZone().EventDate.Format(time.RFC3339) != "2026-08-14T19:00:00+02:00" {
		t.Errorf("stored = %+v", got)
	}
}
