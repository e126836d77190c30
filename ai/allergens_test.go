package ai

import (
	"slices"
	"testing"
)

func TestAllergenConflicts(t *testing.T) {
	tests := []struct {
		name  string
		guest Guest
		drink Drink
		want  []string
	}{
		{"tag meets declared allergen", Guest{DietaryTags: []string{"Nuts"}}, Drink{Allergens: []string{"nuts"}}, []string{"nuts"}},
		{"hidden in an ingredient", Guest{DietaryTags: []string{"nuts"}}, Drink{Ingredients: []string{"orgeat syrup"}}, []string{"nuts"}},
		{"free text names a kind of nut", Guest{DietaryText: "Allergic to hazelnuts."}, Drink{Allergens: []string{"nuts"}}, []string{"nuts"}},
		{"lactose intolerant vs cream", Guest{DietaryText: "lactose intolerant"}, Drink{Ingredients: []string{"double cream"}}, []string{"dairy"}},
		{"lactose intolerant vs coconut cream", Guest{DietaryText: "lactose intolerant"}, Drink{Ingredients: []string{"coconut cream", "cream of coconut"}}, nil},
		{"coeliac vs ginger beer", Guest{DietaryText: "coeliac"}, Drink{Ingredients: []string{"ginger beer"}}, nil},
		{"coeliac vs beer", Guest{DietaryText: "coeliac"}, Drink{Ingredients: []string{"pale ale"}}, []string{"gluten"}},
		{"vegan vs egg white", Guest{DietaryTags: []string{"vegan"}}, Drink{Ingredients: []string{"egg white"}}, []string{"egg"}},
		{"gluten free written as two words", Guest{DietaryText: "gluten free please"}, Drink{Allergens: []string{"wheat"}}, []string{"gluten"}},
		{"a host's own allergen tag", Guest{DietaryTags: []string{"passion fruit"}}, Drink{Allergens: []string{"Passion fruit"}}, []string{"passion fruit"}},
		{"nutmeg is not a nut", Guest{DietaryTags: []string{"nuts"}}, Drink{Ingredients: []string{"grated nutmeg"}}, nil},
		{"no restrictions", Guest{}, Drink{Allergens: []string{"nuts", "egg"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := conflicts(tt.drink, guestAvoids(tt.guest))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("conflicts %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAlcoholFreeFromDietary(t *testing.T) {
	for _, g := range []Guest{{DietaryTags: []string{"Alcohol-free"}}, {DietaryText: "I'm pregnant"}, {DietaryText: "no alcohol please"}} {
		if !guestNeedsAlcoholFree(g) {
			t.Errorf("%+v: alcohol allowed", g)
		}
	}
	if guestNeedsAlcoholFree(Guest{DietaryText: "vegan"}) {
		t.Error("vegan guest needs alcohol-free")
	}
}

func TestBackoffGrowsAndIsBounded(t *testing.T) {
	for attempt := 1; attempt <= 12; attempt++ {
		d := backoff(1000, 60000, attempt)
		full := int64(1000) << (attempt - 1)
		full = min(full, 60000)
		if int64(d) < full/2 || int64(d) > full {
			t.Fatalf("attempt %d: %d outside [%d, %d]", attempt, d, full/2, full)
		}
	}
}
