package diet

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

var (
	maiTai = Drink{Name: "Mai Tai", Ingredients: []string{"Aged rum", "Dark rum", "Orange curaçao", "Orgeat syrup", "Lime juice", "Sugar syrup", "Mint"},
		ABV: 25}
	bloodyMary = Drink{Name: "Bloody Mary", Ingredients: []string{"Vodka", "Tomato juice", "Lemon juice", "Worcestershire sauce", "Tabasco", "Celery salt", "Black pepper", "Celery stick"},
		ABV: 12}
	kirRoyale  = Drink{Name: "Kir Royale", Ingredients: []string{"Crème de cassis", "Champagne"}, ABV: 12}
	virginMojo = Drink{Name: "Virgin Mojito", Ingredients: []string{"Lime juice", "Mint", "Soda water"}, AlcoholFree: true}
	pinaColada = Drink{Name: "Piña Colada", Ingredients: []string{"White rum", "Cream of coconut", "Pineapple juice"}, ABV: 13}
	whiteRuss  = Drink{Name: "White Russian", Ingredients: []string{"Vodka", "Coffee liqueur", "Heavy cream"}, ABV: 20}
	beesKnees  = Drink{Name: "Bee's Knees", Ingredients: []string{"Gin", "Honey syrup", "Lemon juice"}, ABV: 20}
	kiwiSmash  = Drink{Name: "Kiwi Smash", Ingredients: []string{"Vodka", "Kiwi", "Lime"}, ABV: 15}
	satay      = Drink{Name: "Satay Sour", Ingredients: []string{"Bourbon", "Peanut butter"}, ABV: 20}
	ryeOld     = Drink{Name: "Rye Old Fashioned", Ingredients: []string{"Rye whiskey", "Sugar", "Angostura bitters"}, ABV: 30}
	dark       = Drink{Name: "Dark 'n' Stormy", Ingredients: []string{"Dark rum", "Ginger beer"}, ABV: 10}
	french75   = Drink{Name: "French 75", Ingredients: []string{"Gin", "Lemon juice", "Sugar syrup", "Champagne"}, ABV: 14}
	labelled   = Drink{Name: "House Punch", Allergens: []string{"Dairy", "shellfish", "passion fruit"}, ABV: 8}
)

func TestContents(t *testing.T) {
	tests := []struct {
		d    Drink
		want []string
	}{
		{maiTai, []string{Nuts}},
		{bloodyMary, []string{Gluten, Fish, Celery}},
		{kirRoyale, []string{Sulphites}},
		{virginMojo, nil},
		{pinaColada, nil},
		{whiteRuss, []string{Milk}},
		{beesKnees, []string{Honey}},
		{satay, []string{Peanuts}},
		{ryeOld, nil},
		{dark, nil},
		{labelled, []string{Crustaceans, Milk, Molluscs, "passion fruit"}},
		{Drink{Ingredients: []string{"Amaretto", "Egg white", "Lemon"}}, []string{Eggs, Nuts}},
		{Drink{Ingredients: []string{"Oat milk", "Espresso"}}, []string{Gluten}},
		{Drink{Ingredients: []string{"Leite condensado", "Cachaça"}}, []string{Milk}},
	}
	for _, tt := range tests {
		if got := Contents(tt.d); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Contents(%s) = %q, want %q", tt.d.Name, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		d    Drink
		n    Needs
		want Verdict
	}{
		{"nut allergy, Mai Tai", maiTai, Normalize(Needs{Text: "my son: nut allergy"}), Verdict{Allergens: []string{Nuts}}},
		{"Swedish nut allergy, Mai Tai", maiTai, Normalize(Needs{Text: "nötallergi"}), Verdict{Allergens: []string{Nuts}}},
		{"nut allergy, peanut drink", satay, Needs{Tags: []string{Nuts}}, Verdict{Allergens: []string{Peanuts}}},
		{"peanut allergy, Mai Tai", maiTai, Needs{Tags: []string{Peanuts}}, Verdict{Safe: true}},
		{"anchovies, Bloody Mary", bloodyMary, Normalize(Needs{Text: "allergic to anchovies"}), Verdict{Allergens: []string{Fish}}},
		{"designated driver, Mai Tai", maiTai, Normalize(Needs{Text: "I'm the designated driver tonight"}), Verdict{Alcohol: true}},
		{"designated driver, virgin", virginMojo, Needs{Tags: []string{AlcoholFree}}, Verdict{Safe: true}},
		{"alcohol-free but strong", Drink{AlcoholFree: true, ABV: 5}, Needs{Tags: []string{AlcoholFree}}, Verdict{Alcohol: true}},
		{"vegan, White Russian", whiteRuss, Needs{Tags: []string{Vegan}}, Verdict{Diets: []string{Vegan}}},
		{"vegan, Bee's Knees", beesKnees, Needs{Tags: []string{Vegan}}, Verdict{Diets: []string{Vegan}}},
		{"vegetarian, Bloody Mary", bloodyMary, Needs{Tags: []string{Vegetarian}}, Verdict{Diets: []string{Vegetarian}}},
		{"halal, Mai Tai", maiTai, Needs{Tags: []string{Halal}}, Verdict{Diets: []string{Halal}}},
		{"halal, virgin", virginMojo, Needs{Tags: []string{Halal}}, Verdict{Safe: true}},
		{"dairy-free, Piña Colada", pinaColada, Normalize(Needs{Text: "dairy-free"}), Verdict{Safe: true}},
		{"sulphites, Kir Royale", kirRoyale, Needs{Tags: []string{Sulphites}}, Verdict{Allergens: []string{Sulphites}}},
		{"gluten, rye whiskey", ryeOld, Needs{Tags: []string{Gluten}}, Verdict{Safe: true}},
		{"unclear kiwi, Kiwi Smash", kiwiSmash, Normalize(Needs{Text: "no kiwi please"}), Verdict{Mentions: []string{"kiwi"}, Review: true, Unread: []string{"no kiwi please"}}},
		// Words barhub cannot read rule out every drink with one of the
		// fourteen or alcohol until someone answers them (Caution).
		{"unclear kiwi, Mai Tai", maiTai, Normalize(Needs{Text: "no kiwi please"}), Verdict{Review: true, Unread: []string{"no kiwi please"}}},
		{"unread Finnish, French 75", french75, Normalize(Needs{Text: "disulfiraamilääkitys"}), Verdict{Review: true, Unread: []string{"disulfiraamilääkitys"}}},
		{"unread Finnish, virgin", virginMojo, Normalize(Needs{Text: "disulfiraamilääkitys"}), Verdict{Safe: true, Review: true}},
		{"unread Finnish answered, French 75", french75, Normalize(Needs{Text: "disulfiraamilääkitys", Tags: []string{AlcoholFree}, Answered: []string{"disulfiraamilääkitys"}}), Verdict{Alcohol: true, Review: true}},
		{"unread Finnish answered none, ryeOld", ryeOld, Normalize(Needs{Text: "disulfiraamilääkitys", Answered: []string{"disulfiraamilääkitys"}}), Verdict{Safe: true, Review: true}},
		{"unread Finnish reviewed, French 75", french75, Normalize(Needs{Text: "disulfiraamilääkitys", Reviewed: true}), Verdict{Safe: true}},
		{"unread, known part", french75, Normalize(Needs{Text: "nötallergi, disulfiraamilääkitys"}), Verdict{Review: true, Unread: []string{"disulfiraamilääkitys"}}},
		{"reviewed kiwi, Kiwi Smash", kiwiSmash, Needs{Text: "no kiwi please", Unclear: []string{"no kiwi please"}, Reviewed: true}, Verdict{Safe: true}},
		{"passion fruit label", labelled, Normalize(Needs{Text: "passion fruit"}), Verdict{Mentions: []string{"passion", "fruit"}, Review: true, Unread: []string{"passion fruit"}}},
		{"many causes", bloodyMary, Needs{Tags: []string{Fish, Celery, AlcoholFree, Vegan}}, Verdict{Allergens: []string{Fish, Celery}, Alcohol: true, Diets: []string{Vegan}}},
		{"no needs", bloodyMary, Needs{}, Verdict{Safe: true}},
	}
	for _, tt := range tests {
		if got := Check(tt.d, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Check = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	v := Check(bloodyMary, Needs{Tags: []string{Fish, AlcoholFree, Vegan}})
	if got, want := v.Causes(), []string{Fish, "alcohol", Vegan}; !slices.Equal(got, want) {
		t.Errorf("Causes = %q, want %q", got, want)
	}
	v = Check(french75, Normalize(Needs{Text: "disulfiraamilääkitys"}))
	if got, want := v.Causes(), []string{CheckUnread}; !slices.Equal(got, want) {
		t.Errorf("Causes of an unread need = %q, want %q", got, want)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want Needs
	}{
		{Needs{Text: "  nötallergi "}, Needs{Text: "nötallergi", Tags: []string{Nuts}}},
		{Needs{Text: "no coriander"}, Needs{Text: "no coriander", Unclear: []string{"no coriander"}}},
		{Needs{Text: "no coriander", Tags: []string{"other"}}, Needs{Text: "no coriander", Unclear: []string{"no coriander"}}},
		{Needs{Tags: []string{"Dairy", "nuts", "nuts", "vegan"}}, Needs{Tags: []string{Milk, Nuts, Vegan}}},
		{Needs{Tags: []string{"kiwi"}}, Needs{Unclear: []string{"kiwi"}}},
		{Needs{Text: "dairy-free", Tags: []string{"other"}}, Needs{Text: "dairy-free", Tags: []string{Milk}}},
		// The host reviewed: their tags stand, nothing is unclear.
		{Needs{Text: "no coriander, nuts", Tags: []string{Celery}, Unclear: []string{"no coriander"}, Reviewed: true},
			Needs{Text: "no coriander, nuts", Tags: []string{Celery}, Reviewed: true}},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Normalize(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// The menu marks every drink for a signed-in guest on each request: the
// cost of one Check, and of reading a text once.
func BenchmarkCheck(b *testing.B) {
	n := Normalize(Needs{Text: "nötallergi, vegan"})
	d := bloodyMary
	d.Known = Contents(d)
	for b.Loop() {
		Check(d, n)
	}
}

// Contents is worked out once per drink and menu version.
func BenchmarkContents(b *testing.B) {
	for b.Loop() {
		Contents(bloodyMary)
	}
}

func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		Read("Min son: nötallergi, och jag är gravid. Sin gluten por favor, no coriander")
	}
}

// BenchmarkReadWorst is the costliest text the RSVP form's preview takes
// found so far: the longest allowed, all words Read does not know, each
// compared against every term for typos. docs/SECURITY.md's budget for
// POST /api/dietary/read is reckoned from it (about 2.5 ms on 2 cores).
func BenchmarkReadWorst(b *testing.B) {
	s := strings.Repeat("qwerty uiopas ", 36)[:MaxText]
	for b.Loop() {
		Read(s)
	}
}

// Known contents are used as given: the menu works them out once.
func TestCheckKnownContents(t *testing.T) {
	d := maiTai
	d.Known = Contents(maiTai)
	if v := Check(d, Needs{Tags: []string{Nuts}}); v.Safe || !slices.Equal(v.Allergens, []string{Nuts}) {
		t.Errorf("Check with known contents = %+v", v)
	}
}
