package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func guestIDs(gs []guest.Guest) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.ID
	}
	return out
}

// TestGuestIndexAnswersAsTheQuery: every filter, search and sort of the
// guest list gives, from the index, the page and total the database's
// query gives, on a list with ties, accents, staff, groups, needs,
// sign-ins and answers.
func TestGuestIndexAnswersAsTheQuery(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	at := time.Date(2026, 5, 3, 10, 0, 0, 0, time.UTC)
	for i := range 120 {
		g := guest.Guest{FirstName: []string{"Ana", "ana", "Émile", "Zoë", "Bo"}[i%5], LastName: []string{"Lund", "Ångström", "lund", "Berg", "O'Neil", "Lundqvist"}[i%6]}
		switch i % 7 {
		case 0:
			g.Role = guest.RoleBartender
		case 1:
			g.Role, g.Attending = guest.RoleAdmin, true
		case 2:
			g.Dietary = guest.Dietary{Tags: []string{"gluten"}}
		}
		if i%3 == 0 {
			g.GroupID = fmt.Sprintf("grp%d", i%4)
		}
		if err := s.InsertGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
		if i%4 == 1 {
			status := []guest.Status{guest.StatusComing, guest.StatusDeclined}[i%2]
			when := at.Add(time.Duration(i%3) * time.Hour)
			if _, err := s.ApplyRSVP(ctx, g, []guest.Guest{g}, guest.Decision{Status: status, WholeGroup: true}, when); err != nil {
				t.Fatal(err)
			}
		}
		if i%5 == 0 {
			if _, err := s.RecordActivity(ctx, []store.Activity{{GuestID: g.ID, LastLogin: &at}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var queries []store.GuestQuery
	for _, sort := range store.SortFields {
		for _, desc := range []bool{false, true} {
			queries = append(queries, store.GuestQuery{Sort: sort, Desc: desc, Limit: 40, Offset: 20})
		}
	}
	queries = append(queries,
		store.GuestQuery{Status: guest.StatusPending, Limit: 500},
		store.GuestQuery{Status: guest.StatusComing, Sort: "rsvpDate", Desc: true},
		store.GuestQuery{HasDietary: true, Limit: 500},
		store.GuestQuery{NeverLoggedIn: true, Limit: 500},
		store.GuestQuery{GroupID: "grp1", Limit: 500},
		store.GuestQuery{Q: "lund", Limit: 500},
		store.GuestQuery{Q: "angstrom", Limit: 500},
		store.GuestQuery{Q: "ANA", Sort: "firstName", Limit: 500},
		store.GuestQuery{Q: "o'n", Limit: 500},
		store.GuestQuery{Q: "zoë", Status: guest.StatusDeclined, Limit: 500},
		store.GuestQuery{Q: "nobody at all", Limit: 500},
		store.GuestQuery{Limit: 50, Offset: 500},
	)
	all, _, err := s.ListGuestsQueried(ctx, store.GuestQuery{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	code := all[0].Code
	queries = append(queries, store.GuestQuery{Q: code}, store.GuestQuery{Q: code, NamesOnly: true})
	for _, q := range queries {
		want, wantTotal, err := s.ListGuestsQueried(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, total, err := s.ListGuests(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if total != wantTotal || !slices.Equal(guestIDs(got), guestIDs(want)) {
			t.Errorf("%+v: the index gives %d of %d %v, the query %d of %d %v", q, len(got), total, guestIDs(got), len(want), wantTotal, guestIDs(want))
		}
	}
	// The pages hold whole guests, as read.
	got, _, _ := s.ListGuests(ctx, store.GuestQuery{Q: code})
	if len(got) != 1 || got[0].Code != code || got[0].FirstName != all[0].FirstName || got[0].CreatedAt.IsZero() {
		t.Errorf("search by code gives %+v", got)
	}
}

// TestGuestIndexSeesAnotherInstancesWrites: two instances on one
// database. What one writes, the other's guest list shows in its very
// next answer (through the change log); a write that bypassed the log is
// taken in by the index's correction.
func TestGuestIndexSeesAnotherInstancesWrites(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)
	people := party(t, a)
	names := func(q store.GuestQuery) []string {
		t.Helper()
		page, total, err := a.ListGuests(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if int(total) != len(page) {
			t.Fatalf("%+v: total %d for a page of %d", q, total, len(page))
		}
		var out []string
		for _, g := range page {
			out = append(out, g.FirstName+" "+g.LastName)
		}
		return out
	}
	if got := names(store.GuestQuery{Q: "berg"}); !slices.Equal(got, []string{"Leo Berg", "Mia Berg", "Åsa Öberg"}) {
		t.Fatalf("A before any write: %v", got)
	}

	nina := guest.Guest{FirstName: "Nina", LastName: "Berglund"}
	if err := b.InsertGuest(ctx, &nina); err != nil {
		t.Fatal(err)
	}
	if got := names(store.GuestQuery{Q: "berg"}); !slices.Equal(got, []string{"Leo Berg", "Mia Berg", "Nina Berglund", "Åsa Öberg"}) {
		t.Errorf("A after B added Nina: %v", got)
	}
	renamed := "Bergman"
	if _, err := b.UpdateGuest(ctx, people["Leo"].ID, guest.Patch{LastName: &renamed}, ""); err != nil {
		t.Fatal(err)
	}
	if got := names(store.GuestQuery{Q: "berg", Sort: "firstName"}); !slices.Equal(got, []string{"Leo Bergman", "Mia Berg", "Nina Berglund", "Åsa Öberg"}) {
		t.Errorf("A after B renamed Leo: %v", got)
	}
	if _, err := b.ApplyRSVP(ctx, people["Mia"], []guest.Guest{people["Mia"]}, guest.Decision{Status: guest.StatusComing, Coming: []string{people["Mia"].ID}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := names(store.GuestQuery{Status: guest.StatusComing}); !slices.Equal(got, []string{"Mia Berg", "Ada Byron"}) {
		t.Errorf("A's coming guests after Mia answered on B: %v", got)
	}
	if _, err := b.RemoveGuest(ctx, nina.ID); err != nil {
		t.Fatal(err)
	}
	if got := names(store.GuestQuery{Q: "nina"}); len(got) != 0 {
		t.Errorf("A still lists %v after B removed Nina", got)
	}

	// Written behind the store's back: no entry in the log.
	if _, err := b.DB().Collection("guests").UpdateOne(ctx, bson.D{{Key: "_id", Value: people["Sam"].ID}}, bson.D{{Key: "$set", Value: bson.D{{Key: "firstName", Value: "Samuel"}}}}); err != nil {
		t.Fatal(err)
	}
	if err := a.CorrectGuestIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got := names(store.GuestQuery{Q: "solo"}); !slices.Equal(got, []string{"Samuel Solo"}) {
		t.Errorf("A after its correction: %v", got)
	}
}
