package store_test

import (
	"context"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// TestListGuestsNameAccents: the guest index and the database's query
// (MongoDB's way) both fold accents in first and last names alike.
func TestListGuestsNameAccents(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	elodie := guest.Guest{FirstName: "Élodie", LastName: "Lefèvre"}
	if err := s.CreateGuest(ctx, &elodie); err != nil {
		t.Fatal(err)
	}
	plain := guest.Guest{FirstName: "Anne Marie", LastName: "Dupont"}
	if err := s.CreateGuest(ctx, &plain); err != nil {
		t.Fatal(err)
	}
	lists := map[string]func(context.Context, store.GuestQuery) ([]guest.Guest, int64, error){
		"index": s.ListGuests, "query": s.ListGuestsQueried,
	}
	for name, list := range lists {
		for _, tc := range []struct {
			q    string
			want string
		}{
			{"Elodie", elodie.ID}, {"élodie", elodie.ID}, {"ELODIE", elodie.ID}, {"Lefevre", elodie.ID}, {"lefèvre", elodie.ID},
			{"Anne Marie", plain.ID}, {"Anne-Marie", plain.ID}, {"Anné", plain.ID}, {"Ëlise", ""},
		} {
			got, total, err := list(ctx, store.GuestQuery{Q: tc.q, NamesOnly: true})
			if err != nil {
				t.Fatalf("%s %q: %v", name, tc.q, err)
			}
			if tc.want == "" && total != 0 || tc.want != "" && (total != 1 || len(got) != 1 || got[0].ID != tc.want) {
				t.Errorf("%s %q: %d found, want %q", name, tc.q, total, tc.want)
			}
		}
	}
}
