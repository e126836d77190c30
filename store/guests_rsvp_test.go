package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestApplyRSVPWritesWhatItReturns(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if _, err := s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	n := func(v int) *int { return &v }
	steps := []struct {
		name   string
		me     string
		answer guest.Answer
	}{
		{"the Bergs all come", "Leo", guest.Answer{Status: guest.StatusComing, NumGuests: n(4)}},
		{"Leo stays home and one child too", "Mia", guest.Answer{Status: guest.StatusComing, NumGuests: n(2), NotComing: []string{p["Leo"].ID},
			Dietary: &guest.Dietary{Text: "gluten free"}, Tastes: &guest.Tastes{Likes: []string{"Sour"}, AlcoholFree: true}}},
		{"Bob brings a friend", "Bob", guest.Answer{Status: guest.StatusComing, NumGuests: n(3), Confirm: true}},
		{"the Byrons decline", "Ada", guest.Answer{Status: guest.StatusDeclined, Scope: guest.ScopeGroup}},
		{"Sam changes his mind", "Sam", guest.Answer{Status: guest.StatusComing}},
		{"Åsa only updates her diet", "Åsa", guest.Answer{Dietary: &guest.Dietary{Text: "vegan, no sesame"}}},
	}
	for _, st := range steps {
		me, err := s.GuestByID(ctx, p[st.me].ID)
		if err != nil {
			t.Fatal(err)
		}
		group, err := s.GroupOf(ctx, me)
		if err != nil {
			t.Fatal(err)
		}
		d, err := guest.Decide(st.answer, me, group)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		after, err := s.ApplyRSVP(ctx, me, group, d, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		for _, want := range after {
			got, err := s.GuestByID(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != want.Status || got.Heads() != want.Heads() || got.RSVPBy != want.RSVPBy ||
				!slices.Equal(got.Dietary.Tags, want.Dietary.Tags) || !slices.Equal(got.Tastes.Likes, want.Tastes.Likes) ||
				(got.RSVPDate == nil) != (want.RSVPDate == nil) || got.RSVPDate != nil && !got.RSVPDate.Equal(*want.RSVPDate) {
				t.Errorf("%s: %s stored as\n%+v\nreturned as\n%+v", st.name, want.FirstName, got, want)
			}
		}
		assertStatsMatchRecount(t, s)
	}
	final := assertStatsMatchRecount(t, s)
	// Mia with one child; Sam; nobody else.
	if final.Coming != 2 || final.ComingHeads != 3 || final.Declined != 3 || final.Pending != 1 || final.WithAllergies != 1 {
		t.Errorf("final stats = %+v", final)
	}
	mia, _ := s.GuestByID(ctx, p["Mia"].ID)
	if !slices.Equal(mia.Dietary.Tags, []string{"gluten"}) || !mia.Tastes.AlcoholFree || !slices.Equal(mia.Tastes.Likes, []string{"sour"}) {
		t.Errorf("mia's answers = %+v %+v", mia.Dietary, mia.Tastes)
	}
}

func TestRecordActivity(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if _, err := s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	t1 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	t0 := t1.Add(-time.Hour)
	first, err := s.RecordActivity(ctx, []store.Activity{
		{GuestID: p["Ada"].ID, LastLogin: &t1, LastAccess: &t1},
		{GuestID: p["Sam"].ID, LastLogin: &t1},
		{GuestID: p["Bob"].ID, LastAccess: &t1},
		{GuestID: "deleted-meanwhile", LastAccess: &t1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if first != 1 {
		t.Errorf("first sign-ins = %d, want 1 (Sam had signed in before)", first)
	}
	// An older time flushed late by another instance does not go back.
	if _, err := s.RecordActivity(ctx, []store.Activity{{GuestID: p["Ada"].ID, LastAccess: &t0}}); err != nil {
		t.Fatal(err)
	}
	ada, _ := s.GuestByID(ctx, p["Ada"].ID)
	if ada.LastLogin == nil || !ada.LastLogin.Equal(t1) || ada.LastAccess == nil || !ada.LastAccess.Equal(t1) {
		t.Errorf("ada = login %v access %v", ada.LastLogin, ada.LastAccess)
	}
	bob, _ := s.GuestByID(ctx, p["Bob"].ID)
	if bob.LastLogin != nil || bob.LastAccess == nil {
		t.Errorf("bob = login %v access %v", bob.LastLogin, bob.LastAccess)
	}
	if got := assertStatsMatchRecount(t, s); got.NeverLoggedIn != 4 {
		t.Errorf("never logged in = %d, want 4", got.NeverLoggedIn)
	}
}
