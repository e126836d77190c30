package ai

import (
	"strings"
	"testing"
)

func TestSafetyRule(t *testing.T) {
	maiTai := Drink{Name: "Mai Tai", Ingredients: []string{"rum", "lime juice", "orgeat syrup"}, ABV: 20}
	amarettoSour := Drink{Name: "Amaretto Sour", Ingredients: []string{"amaretto", "lemon juice", "egg white"}, Allergens: []string{"egg", "nuts"}, ABV: 12}
	lemonade := Drink{Name: "House Lemonade", Ingredients: []string{"lemon juice", "sugar syrup", "soda water"}, AlcoholFree: true}
	tests := []struct {
		name  string
		guest Guest
		asks  bool // the guest asked for alcohol-free
		drink Drink
		want  string // a part of the refusal; "" when the drink is safe
	}{
		{"tag meets declared allergen", Guest{DietaryTags: []string{"Nuts"}}, false, Drink{Allergens: []string{"nuts"}, AlcoholFree: true}, "nuts"},
		{"hidden in an ingredient", Guest{DietaryTags: []string{"nuts"}}, false, maiTai, "nuts"},
		{"free text names a kind of nut", Guest{DietaryText: "Allergic to hazelnuts."}, false, Drink{Allergens: []string{"nuts"}, AlcoholFree: true}, "nuts"},
		{"lactose intolerant vs cream", Guest{DietaryText: "lactose intolerant"}, false, Drink{Ingredients: []string{"double cream"}, AlcoholFree: true}, "milk"},
		{"lactose intolerant vs coconut cream", Guest{DietaryText: "lactose intolerant"}, false, Drink{Ingredients: []string{"coconut cream", "cream of coconut"}, AlcoholFree: true}, ""},
		{"vegan vs egg white", Guest{DietaryTags: []string{"vegan"}}, false, Drink{Ingredients: []string{"egg white"}, AlcoholFree: true}, "vegan"},
		// Reproductions: a Swedish or French nut allergy was a silent
		// "other", and the recommender offered Amaretto Sour and Mai Tai.
		{"Swedish nut allergy vs Mai Tai", Guest{DietaryText: "nötallergi"}, false, maiTai, "nuts"},
		{"Swedish nut allergy vs Amaretto Sour", Guest{DietaryText: "nötallergi"}, false, amarettoSour, "nuts"},
		{"French nut allergy vs Mai Tai", Guest{DietaryText: "allergie aux noix"}, false, maiTai, "nuts"},
		{"no egg white please", Guest{DietaryText: "no eggwhite please"}, false, amarettoSour, "eggs"},
		// Reproduction: the designated driver was offered alcohol.
		{"designated driver", Guest{DietaryText: "I'm the designated driver tonight"}, false, maiTai, "alcohol"},
		{"designated driver, alcohol-free drink", Guest{DietaryText: "I'm the designated driver tonight"}, false, lemonade, ""},
		{"pregnant", Guest{DietaryTags: []string{"pregnant"}}, false, maiTai, "alcohol"},
		{"asked for alcohol-free", Guest{}, true, maiTai, "alcohol"},
		{"no restrictions", Guest{}, false, amarettoSour, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := newSafetyRule(tt.guest, tt.asks).check(tt.drink)
			switch {
			case tt.want == "" && got != "":
				t.Fatalf("refused: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Fatalf("refusal %q, want one naming %q", got, tt.want)
			}
		})
	}
}
