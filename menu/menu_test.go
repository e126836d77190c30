package menu

import (
	"errors"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/diet"
)

func validInput() Input {
	return Input{
		Name:        "  Negroni ",
		Description: "Bitter and strong.",
		Section:     "Classics",
		Ingredients: []Ingredient{{Name: "Gin", Amount: 30, Unit: "ml"}, {Name: " Sweet  Vermouth", Amount: 30, Unit: "ML"}, {Name: "Campari", Amount: 30, Unit: "ml"}},
		Tags:        []string{"Bitter", "strong", "bitter", " "},
		ABV:         27,
		Allergens:   []string{"Sulfites"},
	}
}

func TestNormalizeTidiesInput(t *testing.T) {
	d, err := validInput().Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Negroni" {
		t.Errorf("name = %q", d.Name)
	}
	if want := []string{"bitter", "strong"}; !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("tags = %q, want %q", d.Tags, want)
	}
	if want := []string{"sulphites"}; !reflect.DeepEqual(d.Allergens, want) {
		t.Errorf("allergens = %q, want %q", d.Allergens, want)
	}
	if got := d.Ingredients[1]; got.Name != "Sweet Vermouth" || got.Key != "sweet vermouth" || got.Unit != "ml" {
		t.Errorf("ingredient = %+v", got)
	}
}

// TestNormalizeCleansText: the text rule's cleaning reaches what is kept:
// NFC names and keys, marks and zero-width spaces taken out, spaces
// collapsed; a description keeps its lines.
func TestNormalizeCleansText(t *testing.T) {
	in := validInput()
	in.Name = " Bra\u0308nnvin\u200e sour "
	in.Description = "Bitter.\r\nStrong."
	in.Section = "Nordic\u00a0 classics"
	in.Ingredients[0].Name = "A\u030akerö\u200b gin"
	d, err := in.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Brännvin sour" || d.Description != "Bitter.\nStrong." || d.Section != "Nordic classics" {
		t.Errorf("name %+q, description %+q, section %+q", d.Name, d.Description, d.Section)
	}
	if got := d.Ingredients[0]; got.Name != "Åkerö gin" || got.Key != "åkerö gin" || IngredientKey("A\u030aKERÖ  GIN") != got.Key {
		t.Errorf("ingredient %+v, key of the decomposed name %q", got, IngredientKey("A\u030aKERÖ  GIN"))
	}
}

func TestNormalizeRefusesBadDrinks(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Input)
		field string
	}{
		{"no name", func(in *Input) { in.Name = "  " }, "name"},
		{"long name", func(in *Input) { in.Name = strings.Repeat("x", MaxNameLen+1) }, "name"},
		{"long description", func(in *Input) { in.Description = strings.Repeat("x", MaxDescriptionLen+1) }, "description"},
		{"no section", func(in *Input) { in.Section = "" }, "section"},
		{"section of punctuation", func(in *Input) { in.Section = "&&" }, "section"},
		{"no ingredients", func(in *Input) { in.Ingredients = nil }, "ingredients"},
		{"too many ingredients", func(in *Input) {
			in.Ingredients = nil
			for i := range MaxIngredients + 1 {
				in.Ingredients = append(in.Ingredients, Ingredient{Name: "x" + strings.Repeat("y", i), Amount: 1, Unit: "ml"})
			}
		}, "ingredients"},
		{"unnamed ingredient", func(in *Input) { in.Ingredients[0].Name = "" }, "ingredients[0].name"},
		{"duplicate ingredient", func(in *Input) { in.Ingredients[1].Name = "GIN" }, "ingredients[1].name"},
		{"negative amount", func(in *Input) { in.Ingredients[2].Amount = -1 }, "ingredients[2].amount"},
		{"huge amount", func(in *Input) { in.Ingredients[2].Amount = MaxAmount + 1 }, "ingredients[2].amount"},
		{"unknown unit", func(in *Input) { in.Ingredients[0].Unit = "bucket" }, "ingredients[0].unit"},
		{"too many tags", func(in *Input) {
			in.Tags = nil
			for i := range MaxTags + 1 {
				in.Tags = append(in.Tags, strings.Repeat("t", i+1))
			}
		}, "tags"},
		{"abv over 100", func(in *Input) { in.ABV = 101 }, "abv"},
		{"negative abv", func(in *Input) { in.ABV = -1 }, "abv"},
		{"alcohol-free with alcohol", func(in *Input) { in.AlcoholFree = true }, "abv"},
		{"alcoholic without abv", func(in *Input) { in.ABV = 0 }, "alcoholFree"},
		{"image from anywhere", func(in *Input) { in.ImageURL = "http://example.com/x.jpg" }, "imageUrl"},
		// The text rule, on everything the host types.
		{"NUL in the name", func(in *Input) { in.Name = "Negroni\x00" }, "name"},
		{"override in the name", func(in *Input) { in.Name = "\u202einorgeN" }, "name"},
		{"zero-width name", func(in *Input) { in.Name = "\u200b\u2060" }, "name"},
		{"Hangul filler name", func(in *Input) { in.Name = "\u3164" }, "name"},
		{"escape in the description", func(in *Input) { in.Description = "Bitter\x1b[8m" }, "description"},
		{"isolate in the section", func(in *Input) { in.Section = "Classics\u2066" }, "section"},
		{"line break in an ingredient", func(in *Input) { in.Ingredients[0].Name = "Gin\nRum" }, "ingredients[0].name"},
		{"C1 in an ingredient", func(in *Input) { in.Ingredients[2].Name = "Campari\u0085x" }, "ingredients[2].name"},
		{"override in a tag", func(in *Input) { in.Tags = []string{"\u202ebitter"} }, "tags[0]"},
		{"control in an allergen", func(in *Input) { in.Allergens = []string{"nuts\x07"} }, "allergens[0]"},
		{"control in the image URL", func(in *Input) { in.ImageURL = "/images/x\x00.jpg" }, "imageUrl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := validInput()
			tt.edit(&in)
			_, err := in.Normalize()
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a ValidationError", err)
			}
			if ve.Problems[0].Field != tt.field {
				t.Errorf("first problem on %q (%s), want %q", ve.Problems[0].Field, ve.Problems[0].Message, tt.field)
			}
		})
	}
}

func TestStandardDrinks(t *testing.T) {
	tests := []struct {
		name string
		d    Drink
		ml   float64
		sd   float64
	}{
		// 90 ml at 27% = 24.3 ml ethanol = 19.2 g = 1.9 standard drinks.
		{"negroni", Drink{ABV: 27, Ingredients: []Ingredient{{Amount: 30, Unit: "ml"}, {Amount: 3, Unit: "cl"}, {Amount: 30, Unit: "ml"}, {Amount: 1, Unit: "slice"}}}, 90, 1.9},
		// 2 oz = 59.15 ml at 40% = 18.7 g.
		{"ounces", Drink{ABV: 40, Ingredients: []Ingredient{{Amount: 2, Unit: "oz"}}}, 59.147, 1.9},
		{"alcohol-free", Drink{AlcoholFree: true, Ingredients: []Ingredient{{Amount: 200, Unit: "ml"}}}, 200, 0},
		// A pint of beer at 5%: 473 ml → 18.7 g.
		{"pint", Drink{ABV: 5, Ingredients: []Ingredient{{Amount: 16, Unit: "oz"}}}, 473.176, 1.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.VolumeML(); got < tt.ml-0.01 || got > tt.ml+0.01 {
				t.Errorf("volume = %.3f ml, want %.3f", got, tt.ml)
			}
			if got := tt.d.StandardDrinks(); got != tt.sd {
				t.Errorf("standard drinks = %v, want %v", got, tt.sd)
			}
		})
	}
}

func TestStarterMenu(t *testing.T) {
	sections, drinks, err := StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	if len(sections) != 4 {
		t.Errorf("%d sections, want 4", len(sections))
	}
	if len(drinks) != 37 {
		t.Errorf("%d drinks, want 37", len(drinks))
	}
	ids := map[string]bool{}
	sectionIDs := map[string]bool{}
	for _, s := range sections {
		sectionIDs[s.ID] = true
	}
	byID := map[string]Drink{}
	alcoholFree := 0
	for _, d := range drinks {
		if ids[d.ID] {
			t.Errorf("duplicate id %s", d.ID)
		}
		ids[d.ID] = true
		byID[d.ID] = d
		if !sectionIDs[d.Section] {
			t.Errorf("%s is in unknown section %q", d.ID, d.Section)
		}
		if !d.Available {
			t.Errorf("%s starts unavailable", d.ID)
		}
		if d.AlcoholFree {
			alcoholFree++
		}
		// A helper who has never made it can: every starter drink says
		// how, in which glass, over what ice.
		if len(d.Method) < 2 || d.Glass == "" || !validIce(d.Ice) {
			t.Errorf("%s: recipe %+v, want steps, a glass and the ice", d.ID, d.Recipe)
		}
		for _, in := range d.Ingredients {
			key := IngredientKey(in.Name)
			if _, spirit := ingredientABV[key]; !spirit && d.ABV > 0 && in.Unit == "ml" && strings.Contains(key, "rum") {
				t.Errorf("%s: %s has no ABV", d.ID, in.Name)
			}
		}
	}
	if alcoholFree != 8 {
		t.Errorf("%d alcohol-free drinks, want 8", alcoholFree)
	}
	// Spot checks worked out by hand.
	for id, want := range map[string]struct {
		abv, sd   float64
		allergens []string
	}{
		"negroni":       {27.0, 1.9, []string{"sulphites"}},
		"old-fashioned": {41.6, 2.2, []string{}},
		"whiskey-sour":  {18.6, 1.6, []string{"eggs"}},
		"amaretto-sour": {16.1, 1.5, []string{"eggs", "nuts"}},
		"bloody-mary":   {11.7, 1.4, []string{"fish", "celery", "gluten"}},
		"virgin-mojito": {0, 0, []string{}},
	} {
		d := byID[id]
		if d.ABV != want.abv || d.StandardDrinks() != want.sd || !reflect.DeepEqual(d.Allergens, want.allergens) {
			t.Errorf("%s: abv %v sd %v allergens %q, want %v %v %q", id, d.ABV, d.StandardDrinks(), d.Allergens, want.abv, want.sd, want.allergens)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Piña Colada":        "pina-colada",
		"Dark 'n' Stormy":    "dark-n-stormy",
		"  Gin & Tonic  ":    "gin-tonic",
		"Alcohol-free & Low": "alcohol-free-low",
		"&&":                 "",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// The starter menu's labels agree with what its ingredients give away,
// and diet.Check reads them: the menu never hides an allergen a guest
// named.
func TestStarterAllergensAndCheck(t *testing.T) {
	_, drinks, err := StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Drink{}
	for _, d := range drinks {
		byName[d.Name] = d
		for _, a := range diet.DrinkAllergens(d.Diet()) {
			if !slices.Contains(d.Allergens, a) {
				t.Errorf("%s: its ingredients give away %s, its labels say %q", d.Name, a, d.Allergens)
			}
		}
	}
	tests := []struct {
		drink, needs string
		safe         bool
	}{
		{"Mai Tai", "nötallergi", false},
		{"Mai Tai", "allergie aux noix", false},
		{"Amaretto Sour", "no eggwhite please", false},
		{"Bloody Mary", "allergic to anchovies", false},
		{"White Russian", "dairy-free", false},
		{"Negroni", "I'm the designated driver tonight", false},
		{"Virgin Mojito", "I'm the designated driver tonight", true},
		{"Negroni", "sin gluten", true},
		{"Kir Royale", "sulfites", false},
	}
	for _, tt := range tests {
		d, ok := byName[tt.drink]
		if !ok {
			t.Fatalf("no %s on the starter menu", tt.drink)
		}
		if v := diet.Check(d.Diet(), diet.Normalize(diet.Needs{Text: tt.needs})); v.Safe != tt.safe {
			t.Errorf("Check(%s, %q) = %+v, want safe %v", tt.drink, tt.needs, v, tt.safe)
		}
	}
	in := Input{Name: "Nutty", Section: "sours", Ingredients: []Ingredient{{Name: "Orgeat", Amount: 15, Unit: "ml"}, {Name: "Rum", Amount: 45, Unit: "ml"}}, Allergens: []string{"Dairy"}, ABV: 20}
	if d, err := in.Normalize(); err != nil || !reflect.DeepEqual(d.Allergens, []string{"milk", "nuts"}) {
		t.Errorf("Normalize allergens = %q, %v; want the label read as milk and the orgeat as nuts", d.Allergens, err)
	}
}

func TestFilter(t *testing.T) {
	_, drinks, err := StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	drinks[0].OutOfStock = true // negroni
	drinks[0].RefreshAvailable()
	tests := []struct {
		query string
		want  int
		first string
	}{
		{"", 37, "negroni"},
		{"section=alcohol-free", 8, "virgin-mojito"},
		{"ingredient=MINT", 4, "mai-tai"},
		{"ingredient=gin", 6, "negroni"},
		{"tag=coffee", 3, "espresso-martini"},
		{"q=tomato", 2, "bloody-mary"},
		{"q=sparkling", 15, "mojito"},
		{"q=spark", 15, "mojito"},
		{"q=ginger", 3, "moscow-mule"},
		{"available=true&ingredient=campari", 1, "boulevardier"},
		{"alcoholFree=false&tag=creamy", 2, "white-russian"},
		{"alcoholFree=true&tag=creamy", 1, "virgin-pina-colada"},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		f, err := ParseFilter(q)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		var got []string
		for _, d := range drinks {
			if f.Match(d) {
				got = append(got, d.ID)
			}
		}
		if len(got) != tt.want || (tt.want > 0 && got[0] != tt.first) {
			t.Errorf("%q matched %d %q, want %d starting with %s", tt.query, len(got), got, tt.want, tt.first)
		}
	}
	for _, bad := range []string{"available=maybe", "alcoholFree=2x", "q=" + strings.Repeat("a", 101)} {
		q, _ := url.ParseQuery(bad)
		if _, err := ParseFilter(q); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestUnavailableReasonNamesIngredients(t *testing.T) {
	d := Drink{Name: "Mojito", Ingredients: []Ingredient{{Name: "Mint", Key: "mint"}, {Name: "Lime juice", Key: "lime juice"}}, MissingIngredients: []string{"mint", "lime juice"}}
	d.RefreshAvailable()
	if got, want := d.UnavailableReason(), "Mojito is not available right now: the bar is out of mint and lime juice"; got != want {
		t.Errorf("reason = %q, want %q", got, want)
	}
	d = Drink{Name: "Mojito", OutOfStock: true}
	d.RefreshAvailable()
	if got := d.UnavailableReason(); !strings.Contains(got, "run out") {
		t.Errorf("reason = %q", got)
	}
}
