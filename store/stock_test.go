package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store/storetest"
)

func unavailable(t *testing.T, drinks []menu.Drink) []string {
	t.Helper()
	var out []string
	for _, d := range drinks {
		if !d.Available {
			out = append(out, d.ID)
		}
	}
	return out
}

func TestIngredientOutOfStockAndBack(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	seedStarter(t, s)

	mint, err := s.SetIngredientStock(ctx, "mint", "Mint", false, "Bea")
	if err != nil {
		t.Fatal(err)
	}
	wantMint := []string{"elderflower-spritz", "mai-tai", "mojito", "virgin-mojito"}
	if !reflect.DeepEqual(mint, wantMint) {
		t.Errorf("drinks needing mint %q, want %q", mint, wantMint)
	}
	all, _ := s.Drinks(ctx, menu.Filter{})
	if got := unavailable(t, all); len(got) != 4 {
		t.Errorf("unavailable after mint: %q", got)
	}
	mojito, _ := s.DrinkByID(ctx, "mojito")
	if mojito.Available || !reflect.DeepEqual(mojito.MissingIngredients, []string{"mint"}) {
		t.Errorf("mojito %v missing %q", mojito.Available, mojito.MissingIngredients)
	}
	if got := mojito.UnavailableReason(); got != "Mojito is not available right now: the bar is out of mint" {
		t.Errorf("reason %q", got)
	}

	// A second missing ingredient on the same drink; marking twice adds it once.
	for range 2 {
		if _, err := s.SetIngredientStock(ctx, "lime juice", "Lime juice", false, "Bea"); err != nil {
			t.Fatal(err)
		}
	}
	mojito, _ = s.DrinkByID(ctx, "mojito")
	if !reflect.DeepEqual(mojito.MissingIngredients, []string{"mint", "lime juice"}) {
		t.Errorf("mojito missing %q", mojito.MissingIngredients)
	}
	all, _ = s.Drinks(ctx, menu.Filter{AvailableOnly: true})
	if len(all) != 37-12 {
		t.Errorf("%d available without mint and lime juice, want 25 (12 drinks need one of them)", len(all))
	}

	// Mint back: the mojito still lacks lime juice, the elderflower spritz
	// lacks it too; the virgin mojito as well. Only drinks missing nothing
	// come back.
	if _, err := s.SetIngredientStock(ctx, "mint", "Mint", true, "Bea"); err != nil {
		t.Fatal(err)
	}
	mojito, _ = s.DrinkByID(ctx, "mojito")
	if mojito.Available || !reflect.DeepEqual(mojito.MissingIngredients, []string{"lime juice"}) {
		t.Errorf("mojito after mint is back: %v %q", mojito.Available, mojito.MissingIngredients)
	}
	if _, err := s.SetIngredientStock(ctx, "lime juice", "Lime juice", true, "Bea"); err != nil {
		t.Fatal(err)
	}
	all, _ = s.Drinks(ctx, menu.Filter{})
	if got := unavailable(t, all); len(got) != 0 {
		t.Errorf("still unavailable: %q", got)
	}

	// A drink marked out by itself stays out when its ingredients return.
	if _, err := s.SetDrinkStock(ctx, "negroni", false); err != nil {
		t.Fatal(err)
	}
	s.SetIngredientStock(ctx, "campari", "Campari", false, "Bea")
	s.SetIngredientStock(ctx, "campari", "Campari", true, "Bea")
	negroni, _ := s.DrinkByID(ctx, "negroni")
	boulevardier, _ := s.DrinkByID(ctx, "boulevardier")
	if negroni.Available || !boulevardier.Available {
		t.Errorf("negroni available=%v (marked out itself), boulevardier=%v", negroni.Available, boulevardier.Available)
	}
	if d, _ := s.SetDrinkStock(ctx, "negroni", true); !d.Available {
		t.Error("negroni not back")
	}
}

func TestNewDrinkWithMissingIngredientIsUnavailable(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	if _, err := s.SetIngredientStock(ctx, "passion fruit", "Passion fruit", false, "Bea"); err != nil {
		t.Fatal(err)
	}
	d := menu.Drink{Name: "Pornstar", Ingredients: []menu.Ingredient{{Name: "Passion fruit", Key: "passion fruit", Amount: 1, Unit: "piece"}, {Name: "Vodka", Key: "vodka", Amount: 45, Unit: "ml"}}}
	if err := s.CreateDrink(ctx, &d); err != nil {
		t.Fatal(err)
	}
	if d.Available || !reflect.DeepEqual(d.MissingIngredients, []string{"passion fruit"}) {
		t.Errorf("new drink available=%v missing=%q", d.Available, d.MissingIngredients)
	}
	stock, err := s.IngredientStock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(stock) != 2 || stock[0].Key != "passion fruit" || stock[0].InStock || stock[0].Drinks != 1 || stock[0].UpdatedBy != "Bea" || !stock[1].InStock {
		t.Errorf("stock list %+v", stock)
	}
}
