package store_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/plan"
	"github.com/barhub/barhub/store/storetest"
)

func TestComingGuests(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	for _, g := range []guest.Guest{
		{ID: "g3", FirstName: "Cy", LastName: "Coming", Status: guest.StatusComing, ExpectedGuests: 2, ExtraGuests: 1,
			Tastes: guest.Tastes{Likes: []string{"sour"}, Dislikes: []string{"bitter"}}},
		{ID: "g1", FirstName: "Ann", LastName: "Coming", Status: guest.StatusComing, ExpectedGuests: 1,
			Dietary: guest.Dietary{Text: "no nuts", Tags: []string{"nuts"}}, Tastes: guest.Tastes{AlcoholFree: true}},
		{ID: "g2", FirstName: "Bo", LastName: "Pending", Status: guest.StatusPending, ExpectedGuests: 4},
		{ID: "g4", FirstName: "Di", LastName: "Declined", Status: guest.StatusDeclined, ExpectedGuests: 2},
	} {
		if err := s.CreateGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ComingGuests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "g1" || got[1].ID != "g3" {
		t.Fatalf("coming guests %+v, want g1 and g3 by id", got)
	}
	if got[0].Heads() != 1 || got[1].Heads() != 3 {
		t.Errorf("heads %d and %d, want 1 and 3", got[0].Heads(), got[1].Heads())
	}
	if !got[0].Tastes.AlcoholFree || !slices.Equal(got[0].Dietary.Tags, []string{"nuts"}) {
		t.Errorf("g1 tastes %+v, dietary %+v", got[0].Tastes, got[0].Dietary)
	}
	if !reflect.DeepEqual(got[1].Tastes, guest.Tastes{Likes: []string{"sour"}, Dislikes: []string{"bitter"}}) {
		t.Errorf("g3 tastes %+v", got[1].Tastes)
	}
	if got[0].Code != "" || got[0].FirstName != "" {
		t.Errorf("the plan reads no codes or names: %+v", got[0])
	}
}

func TestComingGuestsNone(t *testing.T) {
	got, err := storetest.New(t).ComingGuests(context.Background())
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no guests: %v, %v; want an empty list", got, err)
	}
}

func TestOrderedDrinks(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	items := func(pairs ...any) []order.Item {
		var out []order.Item
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, order.Item{DrinkID: pairs[i].(string), Name: pairs[i].(string), Qty: pairs[i+1].(int)})
		}
		return out
	}
	for _, o := range []*order.Order{
		{ID: "o1", GuestID: "ann", Status: order.Served, Items: items("negroni", 2, "mojito", 1)},
		{ID: "o2", GuestID: "ann", Status: order.Queued, Items: items("negroni", 1)},
		{ID: "o3", GuestID: "bob", Status: order.Preparing, Items: items("mojito", 3, "spritz", 1)},
		{ID: "o4", GuestID: "bob", Status: order.Cancelled, Items: items("negroni", 5, "daiquiri", 2)},
		{ID: "o5", GuestID: "cy", Status: order.Ready, Items: items("spritz", 2)},
		{ID: "o6", GuestID: "cy", Status: order.Served, Items: items("spritz", 1, "negroni", 1)},
	} {
		o.Version, o.CreatedAt, o.UpdatedAt = 1, t0, t0
		if err := s.CreateOrder(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.OrderedDrinks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Cancelled o4 counts for nothing: no daiquiri, and negroni 2+1+1.
	want := map[string]int{"negroni": 4, "mojito": 4, "spritz": 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ordered %v, want %v", got, want)
	}

	empty, err := storetest.New(t).OrderedDrinks(ctx)
	if err != nil || len(empty) != 0 {
		t.Errorf("no orders: %v, %v", empty, err)
	}
}

func TestPlanLearnt(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	if got, err := s.PlanLearnt(ctx); err != nil || got.Date != "" || len(got.Factors) != 0 {
		t.Fatalf("nothing learnt: %+v, %v", got, err)
	}
	want := plan.Learnt{Date: "2026-12-02", Factors: map[string]float64{"gin": 0.65, "tonic water": 1.5, "mint": 0.5}}
	if err := s.SavePlanLearnt(ctx, want); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PlanLearnt(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("learnt %+v, %v; want %+v", got, err, want)
	}
	// A second night replaces the first: its factors, not a merge.
	second := plan.Learnt{Date: "2026-12-09", Factors: map[string]float64{"gin": 1.2}}
	if err := s.SavePlanLearnt(ctx, second); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.PlanLearnt(ctx); !reflect.DeepEqual(got, second) {
		t.Errorf("after a second night %+v", got)
	}
	for range 2 {
		if err := s.ForgetPlanLearnt(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.PlanLearnt(ctx); err != nil || got.Date != "" || len(got.Factors) != 0 {
		t.Errorf("forgotten: %+v, %v", got, err)
	}
	if st, err := s.Settings(ctx); err != nil || !st.UpdatedAt.IsZero() {
		t.Errorf("the event's settings are untouched: %+v, %v", st, err)
	}
}
