package main

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// The worker's views read the real stores: the guest's RSVP answer with the
// menu's own reading of it, past orders without the cancelled ones, the
// available menu only.
func TestWorkerViewsOfTheStores(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	g := guest.Guest{FirstName: "Mia", LastName: "Holm",
		Dietary: guest.Dietary{Text: "Allergic to hazelnuts", Tags: []string{"vegan"}},
		Tastes:  guest.Tastes{Likes: []string{"sour"}, Dislikes: []string{"sweet"}, AlcoholFree: true}}
	if err := st.CreateGuest(ctx, &g); err != nil {
		t.Fatal(err)
	}
	for _, o := range []order.Order{
		{GuestID: g.ID, Status: order.Served, Items: []order.Item{{DrinkID: "hugo", Qty: 2}, {DrinkID: "negroni", Qty: 1}}},
		{GuestID: g.ID, Status: order.Cancelled, Items: []order.Item{{DrinkID: "mai-tai", Qty: 1}}},
		{GuestID: "someone-else", Status: order.Served, Items: []order.Item{{DrinkID: "spritz", Qty: 1}}},
	} {
		o.ID = store.NewID()
		if err := st.CreateOrder(ctx, &o); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []menu.Drink{
		{ID: "hugo", Name: "Hugo", Section: "summer-specials", Ingredients: []menu.Ingredient{{Name: "Prosecco"}}, Tags: []string{"fresh"}, Available: true},
		{ID: "gone", Name: "Gone", Section: "classics", OutOfStock: true},
	} {
		if err := st.CreateDrink(ctx, &d); err != nil {
			t.Fatal(err)
		}
	}

	gv := guestView{st}
	ag, err := gv.Guest(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ag.Name != "Mia Holm" || !ag.AlcoholFree || !slices.Equal(ag.Likes, []string{"sour"}) || !slices.Contains(ag.DietaryTags, "vegan") ||
		!slices.Contains(ag.DietaryTags, "nuts") || ag.DietaryText != "Allergic to hazelnuts" {
		t.Errorf("guest view %+v", ag)
	}
	// Words barhub could not read, and what the guest answered of them,
	// reach the recommenders' rule (diet.Caution).
	u := guest.Guest{FirstName: "Aino", LastName: "Virtanen",
		Dietary: guest.NormalizeDietary(guest.Dietary{Text: "diszulfirámot szedek, nem ihatok", Tags: []string{"alcohol-free"}, Answered: []string{"nem ihatok"}})}
	if err := st.CreateGuest(ctx, &u); err != nil {
		t.Fatal(err)
	}
	if au, err := gv.Guest(ctx, u.ID); err != nil || !slices.Equal(au.DietaryUnclear, []string{"diszulfirámot szedek", "nem ihatok"}) ||
		!slices.Equal(au.DietaryAnswered, []string{"nem ihatok"}) || au.DietaryReviewed {
		t.Errorf("guest view of unread needs %+v, %v", au, err)
	}
	past, err := gv.PastOrders(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var pastIDs []string
	for _, o := range past {
		pastIDs = append(pastIDs, o.DrinkID)
	}
	slices.Sort(pastIDs)
	if !slices.Equal(pastIDs, []string{"hugo", "negroni"}) {
		t.Errorf("past orders %v, want hugo and negroni", pastIDs)
	}

	mv := menuView{st}
	avail, err := mv.AvailableDrinks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(avail) != 1 || avail[0].ID != "hugo" || avail[0].Section != "summer specials" || !slices.Equal(avail[0].Ingredients, []string{"Prosecco"}) {
		t.Errorf("available drinks %+v", avail)
	}
	// The worker finishes the job of a deleted drink on this error.
	if _, err := mv.Drink(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing drink: %v, want store.ErrNotFound", err)
	}
}

// TestWorkerViewOfAChild (issue 26): a guest marked a child is an
// alcohol-free guest to the recommenders, whatever their taste answers
// say, so their suggestions are alcohol-free as their orders are.
func TestWorkerViewOfAChild(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	gv := guestView{st}
	tests := []struct {
		name        string
		g           guest.Guest
		alcoholFree bool
	}{
		{"a child", guest.Guest{FirstName: "Nils", LastName: "Berg", AgeGroup: guest.AgeChild}, true},
		{"a child who likes sour", guest.Guest{FirstName: "Leo", LastName: "Berg", AgeGroup: guest.AgeChild, Tastes: guest.Tastes{Likes: []string{"sour"}}}, true},
		{"an adult", guest.Guest{FirstName: "Mia", LastName: "Berg"}, false},
		{"an adult who drinks none", guest.Guest{FirstName: "Sam", LastName: "Berg", Tastes: guest.Tastes{AlcoholFree: true}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := st.CreateGuest(ctx, &tt.g); err != nil {
				t.Fatal(err)
			}
			ag, err := gv.Guest(ctx, tt.g.ID)
			if err != nil || ag.AlcoholFree != tt.alcoholFree {
				t.Errorf("alcohol-free %v (%v), want %v", ag.AlcoholFree, err, tt.alcoholFree)
			}
		})
	}
}
