package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// TestGuestAgeGroup (issue 26): a guest marked a child is stored so, by
// every path that writes it (a new guest, the host's edit, a group
// member's RSVP answer), read back by GuestByID, the group and the
// shopping plan's read, and unmarked again without a trace.
func TestGuestAgeGroup(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	child, adult, coming := guest.AgeChild, guest.AgeAdult, guest.StatusComing
	read := func(id string) string {
		t.Helper()
		g, err := s.GuestByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.AgeGroup
	}

	kid := guest.Guest{FirstName: "Nils", LastName: "Berg", GroupID: "berg", AgeGroup: guest.AgeChild, Status: guest.StatusComing}
	if err := s.InsertGuest(ctx, &kid); err != nil {
		t.Fatal(err)
	}
	if got := read(kid.ID); got != guest.AgeChild {
		t.Errorf("inserted a child: ageGroup %q", got)
	}

	steps := []struct {
		name string
		do   func() error
		id   string
		want string
	}{
		{"the host marks Leo a child", func() error {
			_, err := s.UpdateGuest(ctx, p["Leo"].ID, guest.Patch{AgeGroup: &child}, p["Ada"].ID)
			return err
		}, p["Leo"].ID, guest.AgeChild},
		{"an edit of something else keeps it", func() error {
			name := "Leopold"
			_, err := s.UpdateGuest(ctx, p["Leo"].ID, guest.Patch{FirstName: &name}, p["Ada"].ID)
			return err
		}, p["Leo"].ID, guest.AgeChild},
		{"the host marks Leo an adult", func() error {
			_, err := s.UpdateGuest(ctx, p["Leo"].ID, guest.Patch{AgeGroup: &adult}, p["Ada"].ID)
			return err
		}, p["Leo"].ID, ""},
		{"Mia marks Leo a child with her answer", func() error {
			return answer(ctx, t, s, p["Mia"].ID, []guest.MemberNeeds{{ID: p["Leo"].ID, AgeGroup: &child}})
		}, p["Leo"].ID, guest.AgeChild},
		{"Mia marks Nils an adult, with needs", func() error {
			return answer(ctx, t, s, p["Mia"].ID, []guest.MemberNeeds{{ID: kid.ID, AgeGroup: &adult, Dietary: &guest.Dietary{Text: "nut allergy"}}})
		}, kid.ID, ""},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := read(st.id); got != st.want {
			t.Errorf("%s: ageGroup %q, want %q", st.name, got, st.want)
		}
	}

	// Leo, a child again, is coming: the shopping plan's read carries it.
	if _, err := s.UpdateGuest(ctx, p["Leo"].ID, guest.Patch{Status: &coming}, p["Ada"].ID); err != nil {
		t.Fatal(err)
	}
	list, err := s.ComingGuests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range list {
		if g.ID == p["Leo"].ID {
			found = g.Child()
		}
	}
	if !found {
		t.Errorf("ComingGuests does not read Leo as a child: %+v", list)
	}
	group, err := s.GroupOf(ctx, p["Mia"])
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range group {
		if want := g.ID == p["Leo"].ID; g.Child() != want {
			t.Errorf("GroupOf: %s child %v, want %v", g.FirstName, g.Child(), want)
		}
	}
}

// answer stores guest id's RSVP answer giving members' needs.
func answer(ctx context.Context, t *testing.T, s *store.Store, id string, members []guest.MemberNeeds) error {
	t.Helper()
	me, err := s.GuestByID(ctx, id)
	if err != nil {
		return err
	}
	group, err := s.GroupOf(ctx, me)
	if err != nil {
		return err
	}
	d, err := guest.Decide(guest.Answer{Members: members}, me, group)
	if err != nil {
		return err
	}
	_, err = s.ApplyRSVP(ctx, me, group, d, time.Now())
	return err
}
