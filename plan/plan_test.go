package plan

import (
	"bytes"
	"encoding/csv"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/safecsv"
	"github.com/barhub/barhub/safecsv/safecsvtest"
)

// drink builds a valid drink the way the admin's editor does.
func drink(t *testing.T, id string, in menu.Input) menu.Drink {
	t.Helper()
	if in.Section == "" {
		in.Section = "Test"
	}
	if !in.AlcoholFree && in.ABV == 0 {
		in.ABV = 20
	}
	d, err := in.Normalize()
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	d.ID, d.Available, d.MissingIngredients = id, true, []string{}
	return d
}

// threeDrinks is a small menu: a bitter classic with sulphites, a long
// bitter one, and an alcohol-free one.
func threeDrinks(t *testing.T) []menu.Drink {
	return []menu.Drink{
		drink(t, "negroni", menu.Input{Name: "Negroni", Tags: []string{"bitter", "strong"}, Allergens: []string{"sulphites"},
			Ingredients: []menu.Ingredient{{Name: "Gin", Amount: 30, Unit: "ml"}, {Name: "Campari", Amount: 30, Unit: "ml"}, {Name: "Sweet vermouth", Amount: 3, Unit: "cl"}, {Name: "Orange", Amount: 1, Unit: "slice"}}}),
		drink(t, "gin-tonic", menu.Input{Name: "Gin & Tonic", Tags: []string{"bitter", "fresh", "long"},
			Ingredients: []menu.Ingredient{{Name: "Gin", Amount: 50, Unit: "ml"}, {Name: "Tonic water", Amount: 150, Unit: "ml"}, {Name: "Lime", Amount: 1, Unit: "wedge"}}}),
		drink(t, "virgin-mojito", menu.Input{Name: "Virgin Mojito", AlcoholFree: true, Tags: []string{"fresh", "sweet", "long"},
			Ingredients: []menu.Ingredient{{Name: "Lime juice", Amount: 25, Unit: "ml"}, {Name: "Sugar syrup", Amount: 20, Unit: "ml"}, {Name: "Mint", Amount: 8, Unit: "leaf"}, {Name: "Soda water", Amount: 120, Unit: "ml"}}}),
	}
}

// servings maps drink id → servings; expected drink id → expected.
func servingsOf(p Plan) (map[string]int, map[string]float64) {
	s, e := map[string]int{}, map[string]float64{}
	for _, d := range p.Drinks {
		s[d.ID], e[d.ID] = d.Servings, d.Expected
	}
	return s, e
}

// buys maps ingredient key → "buy" text.
func buys(p Plan) map[string]string {
	out := map[string]string{}
	for _, n := range p.Ingredients {
		out[n.Key] = n.Buy
	}
	return out
}

func heads(n ...int) []Guest {
	var out []Guest
	for _, h := range n {
		out = append(out, Guest{Heads: h})
	}
	return out
}

func params(hours, perHour, margin float64) Params {
	return Params{Hours: hours, PerHour: perHour, FirstHourFactor: FirstHourFactor, Margin: margin}
}

func TestDrinksPerHead(t *testing.T) {
	for _, tc := range []struct {
		p    Params
		want float64
	}{
		{DefaultParams(), 4.5}, // 1.5 in the first hour, then 3 × 1
		{params(1, 1, 0), 1.5},
		{params(0.5, 1, 0), 0.75},
		{params(6, 1, 0), 6.5},
		{params(3, 2, 0), 7}, // 3 + 2 × 2
	} {
		if got := tc.p.DrinksPerHead(); got != tc.want {
			t.Errorf("%+v: %g drinks a head, want %g", tc.p, got, tc.want)
		}
	}
}

func TestMake(t *testing.T) {
	menuOf := threeDrinks(t)
	for _, tc := range []struct {
		name     string
		guests   []Guest
		ordered  map[string]int
		params   Params
		servings map[string]int
		expected map[string]float64
		buy      map[string]string
		total    int
	}{
		{
			// 10 people, 4 hours: 4.5 drinks each, 45 in all, 15 of each
			// drink; +15% is 17.25 (18 to be ready for), 51.75 in all.
			name: "ten heads, no tastes, four hours", guests: heads(2, 3, 1, 4), params: DefaultParams(),
			servings: map[string]int{"negroni": 18, "gin-tonic": 18, "virgin-mojito": 18},
			expected: map[string]float64{"negroni": 15, "gin-tonic": 15, "virgin-mojito": 15},
			buy: map[string]string{
				"gin":            "2 bottles (700 ml)", // 17.25 × (30 + 50) = 1380 ml
				"campari":        "1 bottle (700 ml)",  // 517.5 ml
				"sweet vermouth": "1 bottle (750 ml)",  // 17.25 × 3 cl
				"orange":         "3 oranges",          // 17.25 slices at 8 an orange
				"tonic water":    "3 bottles (1 L)",    // 2587.5 ml
				"lime":           "3 limes",            // 17.25 wedges at 8 a lime
				"lime juice":     "15 limes",           // 431.25 ml at 30 ml a lime
				"sugar syrup":    "1 bottle (700 ml)",  // 345 ml
				"mint":           "3 bunches",          // 138 leaves at 60 a bunch
				"soda water":     "3 bottles (1 L)",    // 2070 ml
			},
			total: 52,
		},
		{
			// Six hours, no margin: 6.5 drinks each, 65 in all.
			name: "ten heads, six hours, no margin", guests: heads(10), params: params(6, 1, 0),
			servings: map[string]int{"negroni": 22, "gin-tonic": 22, "virgin-mojito": 22},
			expected: map[string]float64{"negroni": 21.7, "gin-tonic": 21.7, "virgin-mojito": 21.7},
			buy:      map[string]string{"gin": "3 bottles (700 ml)", "lime juice": "19 limes", "mint": "3 bunches"}, // 1733 ml, 542 ml, 173 leaves
			total:    65,
		},
		{
			// Sulphites rule the Negroni out: their 9 drinks go to the
			// other two, and nothing of the Negroni is bought.
			name: "allergen never planned", params: params(4, 1, 0),
			guests:   []Guest{{Heads: 2, Needs: diet.Needs{Tags: []string{"sulphites"}}}},
			servings: map[string]int{"negroni": 0, "gin-tonic": 5, "virgin-mojito": 5},
			expected: map[string]float64{"negroni": 0, "gin-tonic": 4.5, "virgin-mojito": 4.5},
			buy:      map[string]string{"campari": "", "sweet vermouth": "", "orange": "", "gin": "1 bottle (700 ml)"},
			total:    9,
		},
		{
			name: "alcohol-free guests only alcohol-free", params: DefaultParams(),
			guests:   []Guest{{Heads: 4, AlcoholFree: true, Likes: []string{"bitter"}}},
			servings: map[string]int{"negroni": 0, "gin-tonic": 0, "virgin-mojito": 21}, // 18 × 1.15 = 20.7
			expected: map[string]float64{"negroni": 0, "gin-tonic": 0, "virgin-mojito": 18},
			buy:      map[string]string{"gin": "", "lime juice": "18 limes", "soda water": "3 bottles (1 L)"}, // 517.5 ml, 2484 ml
			total:    21,
		},
		{
			// Both bitter drinks weigh 0.05, the mojito 1: of 4.5 drinks
			// 0.2 each go to the bitter ones, 4.1 to the mojito.
			name: "disliked tag downweighted", params: params(4, 1, 0),
			guests:   []Guest{{Heads: 1, Dislikes: []string{"Bitter"}}},
			servings: map[string]int{"negroni": 1, "gin-tonic": 1, "virgin-mojito": 5},
			expected: map[string]float64{"negroni": 0.2, "gin-tonic": 0.2, "virgin-mojito": 4.1},
			total:    5,
		},
		{
			// Liking gin makes both gin drinks weigh 3 against 1: of 7
			// drinks (6.5 hours), 3 + 3 + 1.
			name: "liked ingredient", params: params(6.5, 1, 0),
			guests:   []Guest{{Heads: 1, Likes: []string{"gin"}}},
			servings: map[string]int{"negroni": 3, "gin-tonic": 3, "virgin-mojito": 1},
			expected: map[string]float64{"negroni": 3, "gin-tonic": 3, "virgin-mojito": 1},
			total:    7,
		},
		{
			// 10 Negronis ordered against 10 people: half the plan follows
			// the orders. Negroni 0.5 × 15 + 0.5 × 45 = 30; the others 7.5.
			name: "orders blended in", guests: heads(10), params: DefaultParams(),
			ordered:  map[string]int{"negroni": 10, "gone-from-the-menu": 7},
			servings: map[string]int{"negroni": 35, "gin-tonic": 9, "virgin-mojito": 9},
			expected: map[string]float64{"negroni": 30, "gin-tonic": 7.5, "virgin-mojito": 7.5},
			total:    52,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Make(Input{Guests: tc.guests, Drinks: menuOf, Ordered: tc.ordered, Params: tc.params})
			s, e := servingsOf(p)
			if !reflect.DeepEqual(s, tc.servings) {
				t.Errorf("servings %v, want %v", s, tc.servings)
			}
			if !reflect.DeepEqual(e, tc.expected) {
				t.Errorf("expected %v, want %v", e, tc.expected)
			}
			got := buys(p)
			for key, want := range tc.buy {
				if got[key] != want {
					t.Errorf("buy %s: %q, want %q", key, got[key], want)
				}
			}
			if p.Servings != tc.total {
				t.Errorf("total servings %d, want %d", p.Servings, tc.total)
			}
		})
	}
}

func TestMakeTotals(t *testing.T) {
	p := Make(Input{Guests: []Guest{{Heads: 3, Likes: []string{"sour"}}, {Heads: 7}}, Drinks: threeDrinks(t), Params: DefaultParams(),
		Ordered: map[string]int{"negroni": 4, "gin-tonic": 6}})
	if p.Headcount != 10 || p.Invitations != 2 || p.WithTastes != 1 || p.UnservedHeads != 0 {
		t.Errorf("headcount %d, invitations %d, with tastes %d, unserved %d", p.Headcount, p.Invitations, p.WithTastes, p.UnservedHeads)
	}
	if p.DrinksPerHead != 4.5 || p.ExpectedDrinks != 45 || p.PlannedDrinks != 51.8 || p.Servings != 52 || p.OrderedSoFar != 10 || p.ObservedWeight != 0.5 {
		t.Errorf("per head %g, expected %g, planned %g (%d servings), ordered %d, observed weight %g",
			p.DrinksPerHead, p.ExpectedDrinks, p.PlannedDrinks, p.Servings, p.OrderedSoFar, p.ObservedWeight)
	}
	// Negroni 0.5 × 15 + 0.5 × 18 = 16.5; G&T 0.5 × 15 + 0.5 × 27 = 21;
	// mojito 7.5. Most servings first.
	var order []string
	for _, d := range p.Drinks {
		order = append(order, d.ID)
	}
	if !reflect.DeepEqual(order, []string{"gin-tonic", "negroni", "virgin-mojito"}) {
		t.Errorf("drinks in order %v", order)
	}
	var kinds []string
	for _, n := range p.Ingredients {
		kinds = append(kinds, n.Kind+":"+n.Key)
	}
	want := []string{"spirits:campari", "spirits:gin", "wine:sweet vermouth", "mixers:soda water", "mixers:tonic water",
		"fruit:lime", "fruit:lime juice", "fruit:mint", "fruit:orange", "syrups:sugar syrup"}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("shopping list order\n%v\nwant\n%v", kinds, want)
	}
}

func TestMakeEmpty(t *testing.T) {
	for _, tc := range []struct {
		name     string
		guests   []Guest
		drinks   []menu.Drink
		unserved int
	}{
		{"zero coming guests", nil, threeDrinks(t), 0},
		{"no menu", heads(3), nil, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Make(Input{Guests: tc.guests, Drinks: tc.drinks, Params: DefaultParams()})
			if p.Drinks == nil || len(p.Drinks) != 0 || p.Ingredients == nil || len(p.Ingredients) != 0 || p.Servings != 0 {
				t.Errorf("plan %+v, want empty lists", p)
			}
			if p.UnservedHeads != tc.unserved {
				t.Errorf("unserved %d, want %d", p.UnservedHeads, tc.unserved)
			}
		})
	}
}

func TestUnservedGuests(t *testing.T) {
	menuOf := threeDrinks(t)[:2] // nothing alcohol-free
	p := Make(Input{Guests: []Guest{{Heads: 2, AlcoholFree: true}, {Heads: 1}}, Drinks: menuOf, Params: params(2, 1, 0)})
	s, _ := servingsOf(p)
	// Only the one person who may have them: 2.5 drinks, 1.25 each.
	if p.Headcount != 3 || p.UnservedHeads != 2 || !reflect.DeepEqual(s, map[string]int{"negroni": 2, "gin-tonic": 2}) {
		t.Errorf("headcount %d, unserved %d, servings %v", p.Headcount, p.UnservedHeads, s)
	}
}

func TestStockInThePlan(t *testing.T) {
	menuOf := threeDrinks(t)
	menuOf[2].MissingIngredients, menuOf[2].Available = []string{"mint"}, false // waiting for mint: planned
	menuOf[0].OutOfStock, menuOf[0].Available = true, false                     // switched off: left out
	p := Make(Input{Guests: heads(10), Drinks: menuOf, Params: DefaultParams(), OutOfStock: map[string]bool{"mint": true}})
	if len(p.Skipped) != 1 || p.Skipped[0].ID != "negroni" {
		t.Errorf("skipped %+v, want the Negroni", p.Skipped)
	}
	s, _ := servingsOf(p)
	if !reflect.DeepEqual(s, map[string]int{"gin-tonic": 26, "virgin-mojito": 26}) { // 22.5 × 1.15 = 25.875
		t.Errorf("servings %v", s)
	}
	for _, n := range p.Ingredients {
		if n.OutOfStock != (n.Key == "mint") {
			t.Errorf("%s: out of stock %v", n.Key, n.OutOfStock)
		}
		if n.Key == "campari" {
			t.Errorf("campari is only in the switched-off Negroni")
		}
	}
	for _, d := range p.Drinks {
		if d.Available != (d.ID != "virgin-mojito") {
			t.Errorf("%s: available %v", d.ID, d.Available)
		}
	}
}

func TestGuestOf(t *testing.T) {
	g := GuestOf(guest.Guest{
		Status: guest.StatusComing, ExpectedGuests: 2, ExtraGuests: 1,
		Dietary: guest.Dietary{Text: "nut allergy, pregnant", Tags: []string{"alcohol-free", "nuts"}},
		Tastes:  guest.Tastes{Likes: []string{"sour"}, Dislikes: []string{"sweet"}},
	})
	want := Guest{Heads: 3, Likes: []string{"sour"}, Dislikes: []string{"sweet"},
		Needs: diet.Needs{Text: "nut allergy, pregnant", Tags: []string{"alcohol-free", "nuts"}}}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("GuestOf = %+v\nwant      %+v", g, want)
	}
	if h := GuestOf(guest.Guest{Status: guest.StatusDeclined, ExpectedGuests: 2}).Heads; h != 0 {
		t.Errorf("a declined guest has %d heads", h)
	}
}

// A family of three: the parent has no needs, one child a nut allergy of
// his own, the other child nothing said; the child's needs count for one
// head, never for the whole family.
func TestGuestsOfCompanions(t *testing.T) {
	g := guest.Guest{Status: guest.StatusComing, ExpectedGuests: 3,
		Companions: []guest.Companion{{Name: "Leo", Dietary: guest.NormalizeDietary(guest.Dietary{Text: "nötallergi"})}}}
	got := GuestsOf(g)
	if len(got) != 2 || got[0].Heads != 2 || got[1].Heads != 1 || !got[1].Needs.Has(diet.Nuts) || got[0].Needs.Has(diet.Nuts) {
		t.Fatalf("GuestsOf = %+v", got)
	}
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	p := Make(Input{Guests: got, Drinks: drinks, Params: params(2, 1, 0)})
	for _, d := range p.Drinks {
		if d.Name == "Mai Tai" && d.Planned < 0.01 {
			t.Errorf("Mai Tai planned %v: the parent and the other child may have it", d.Planned)
		}
	}
}

func TestPackFor(t *testing.T) {
	for _, tc := range []struct {
		key, pack, kind string
		known           bool
	}{
		{"gin", "bottle (700 ml)", KindSpirits, true},
		{"ginger beer", "bottle (1 L)", KindMixers, true},
		{"orange bitters", "bottle (200 ml)", KindSpirits, true},
		{"orange curaçao", "bottle (700 ml)", KindSpirits, true},
		{"orange juice", "carton (1 L)", KindJuice, true},
		{"orange peel", "orange", KindFruit, true},
		{"orange", "orange", KindFruit, true},
		{"sugar syrup", "bottle (700 ml)", KindSyrups, true},
		{"sugar", "bag of sugar (1 kg)", KindPantry, true},
		{"celery salt", "pack", KindPantry, true},
		{"celery stick", "head of celery", KindFruit, true},
		{"crème de cassis", "bottle (700 ml)", KindSpirits, true},
		{"coconut cream", "can (400 ml)", KindPantry, true},
		{"fresh cream", "carton (250 ml)", KindFridge, true},
		{"prosecco", "bottle (750 ml)", KindWine, true},
		{"dry vermouth", "bottle (750 ml)", KindWine, true},
		{"lime juice", "lime", KindFruit, true},
		{"yuzu kosho", "", KindOther, false},
	} {
		p, known := packFor(tc.key)
		if p.name != tc.pack || p.kind != tc.kind || known != tc.known {
			t.Errorf("packFor(%q) = %q %s %v, want %q %s %v", tc.key, p.name, p.kind, known, tc.pack, tc.kind, tc.known)
		}
	}
}

// Every ingredient of the starter menu is bought in packs the table
// knows, in every unit the starter recipes use.
func TestStarterMenuIsCovered(t *testing.T) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	p := Make(Input{Guests: heads(50), Drinks: drinks, Params: DefaultParams()})
	if len(p.Drinks) != len(drinks) || len(p.Ingredients) < 50 {
		t.Fatalf("%d drinks, %d ingredients", len(p.Drinks), len(p.Ingredients))
	}
	for _, n := range p.Ingredients {
		if n.Packs <= 0 || n.Kind == KindOther {
			t.Errorf("%s (%v): no pack (%q, kind %s)", n.Name, n.Amounts, n.Buy, n.Kind)
		}
	}
}

func TestUnknownIngredients(t *testing.T) {
	d := []menu.Drink{drink(t, "odd", menu.Input{Name: "Odd One", Ingredients: []menu.Ingredient{
		{Name: "Yuzu kosho", Amount: 5, Unit: "ml"}, {Name: "Gold leaf", Amount: 1, Unit: "piece"}, {Name: "Gin", Amount: 1, Unit: "scoop"},
	}})}
	p := Make(Input{Guests: heads(10), Drinks: d, Params: params(1, 1, 0)}) // 15 drinks
	got := map[string]Need{}
	for _, n := range p.Ingredients {
		got[n.Key] = n
	}
	if n := got["yuzu kosho"]; n.Buy != "1 litre" || !n.Guess || n.Kind != KindOther || n.Amounts[0] != (Amount{75, "ml"}) {
		t.Errorf("an unknown liquid is counted in litres: %+v", n)
	}
	if n := got["gold leaf"]; n.Buy != "15 piece" || n.Packs != 0 || n.Note == "" {
		t.Errorf("an unknown counted thing is its count: %+v", n)
	}
	if n := got["gin"]; n.Buy != "15 scoop" || n.Packs != 0 || !strings.Contains(n.Note, "buy the amounts") {
		t.Errorf("a known ingredient in a unit without a pack: %+v", n)
	}
}

func TestParseParams(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  Params
		param string // the parameter refused, if any
	}{
		{"", DefaultParams(), ""},
		{"hours=6&perHour=2&margin=0.1", Params{6, 2, FirstHourFactor, 0.1}, ""},
		{"hours=&perHour=+1.5", Params{DefaultHours, 1.5, FirstHourFactor, DefaultMargin}, ""},
		{"margin=0", Params{DefaultHours, DefaultPerHour, FirstHourFactor, 0}, ""},
		{"hours=abc", Params{}, "hours"},
		{"hours=0", Params{}, "hours"},
		{"hours=49", Params{}, "hours"},
		{"hours=NaN", Params{}, "hours"},
		{"perHour=-1", Params{}, "perHour"},
		{"perHour=Inf", Params{}, "perHour"},
		{"margin=15", Params{}, "margin"},
		{"margin=-0.1", Params{}, "margin"},
	} {
		q, _ := url.ParseQuery(tc.query)
		got, err := ParseParams(q)
		var pe *ParamError
		switch {
		case tc.param != "" && (!errors.As(err, &pe) || pe.Param != tc.param):
			t.Errorf("%q: %v, want a refusal of %s", tc.query, err, tc.param)
		case tc.param == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %+v, %v; want %+v", tc.query, got, err, tc.want)
		}
	}
}

// TestWriteCSVCannotRun: the payloads as ingredient, pack, unit,
// note and drink names start no formula in the shopping list, whatever
// separator a spreadsheet splits it at; packs and amounts stay numbers
// (37.5 of a unit the menu does not know is counted whole: 38).
func TestWriteCSVCannotRun(t *testing.T) {
	for _, pl := range safecsvtest.Payloads() {
		t.Run(pl.Name, func(t *testing.T) {
			v := pl.Text
			p := Plan{Ingredients: []Need{{Key: v, Name: v, Kind: "other", Packs: 2, Pack: v, Buy: v, Note: v, Drinks: []string{v, "Mojito", v},
				Amounts: []Amount{{Amount: 37.5, Unit: v}, {Amount: 2, Unit: v}}}}}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, p); err != nil {
				t.Fatal(err)
			}
			for _, f := range safecsvtest.Formulas(buf.Bytes()) {
				t.Errorf("formula in %s\nfile:\n%s", f, buf.Bytes())
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil || len(recs) != 2 {
				t.Fatalf("read back: %v %q", err, recs)
			}
			if row := recs[1]; row[3] != "2" || row[5] != "38" || row[7] != "false" || safecsv.Restore(row[1]) != strings.ReplaceAll(v, "\r\n", "\n") {
				t.Errorf("row read back as %q", row)
			}
		})
	}
}

func TestWriteCSV(t *testing.T) {
	d := threeDrinks(t)[1:] // the G&T and the Virgin Mojito
	d[0].Name = `=HYPERLINK("http://evil")`
	d[0].Ingredients = append(d[0].Ingredients,
		menu.Ingredient{Name: "Mint", Key: "mint", Amount: 1, Unit: "sprig"},
		menu.Ingredient{Name: "@Mint", Key: "@mint", Amount: 2, Unit: "sprig"})
	// 2 people, 1 hour, no margin: 3 drinks, 1.5 of each.
	p := Make(Input{Guests: heads(2), Drinks: d, Params: params(1, 1, 0), OutOfStock: map[string]bool{"tonic water": true}})
	var buf bytes.Buffer
	if err := WriteCSV(&buf, p); err != nil {
		t.Fatal(err)
	}
	// Every text cell is quoted; numbers and truth values are bare.
	evil := `"'=HYPERLINK(""http://evil"")"`
	want := strings.Join([]string{
		"kind,ingredient,buy,packs,pack,amount,unit,outOfStock,guess,note,drinks",
		`"Spirits & liqueurs","Gin","1 bottle (700 ml)",1,"bottle (700 ml)",75,"ml",false,false,,` + evil,
		`"Mixers","Soda water","1 bottle (1 L)",1,"bottle (1 L)",180,"ml",false,true,"mixers come in many sizes; 1 L assumed","Virgin Mojito"`,
		`"Mixers","Tonic water","1 bottle (1 L)",1,"bottle (1 L)",225,"ml",true,true,"mixers come in many sizes; 1 L assumed",` + evil,
		`"Fruit, herbs & garnish","Lime","1 lime",1,"lime",2,"wedge",false,true,"8 wedges or 10 slices a lime",` + evil,
		`"Fruit, herbs & garnish","Lime juice","2 limes",2,"lime",37.5,"ml",false,true,"a lime gives about 30 ml of juice","Virgin Mojito"`,
		// No row of empty cells with a fraction of a sprig: the further
		// unit is in the note, and garnish is counted whole.
		`"Fruit, herbs & garnish","Mint","1 bunch",1,"bunch",12,"leaf",false,true,"a bunch has about 8 sprigs or 60 leaves; also 2 sprig","'=HYPERLINK(""http://evil""); Virgin Mojito"`,
		`"Syrups & cordials","Sugar syrup","1 bottle (700 ml)",1,"bottle (700 ml)",30,"ml",false,false,,"Virgin Mojito"`,
		`"Other","'@Mint","3 sprig",,,3,"sprig",false,false,"no pack size known for this ingredient: buy the amounts",` + evil,
		"",
	}, "\n")
	if got := buf.String(); got != want {
		t.Errorf("csv:\n%s\nwant:\n%s", got, want)
	}
}

// TestChildrenCountInAlcoholFreeDrinks (issue 26): a child brought along
// is planned for in alcohol-free drinks only; before, each child counted
// as 4.5 drinks of whatever the menu had, cocktails included.
func TestChildrenCountInAlcoholFreeDrinks(t *testing.T) {
	g := guest.Guest{Status: guest.StatusComing, ExpectedGuests: 2,
		Companions: []guest.Companion{{Name: "Elsa", AgeGroup: guest.AgeChild}}}
	got := GuestsOf(g)
	if len(got) != 2 || got[0].Heads != 1 || got[0].AlcoholFree || got[1].Heads != 1 || !got[1].AlcoholFree {
		t.Fatalf("GuestsOf = %+v", got)
	}
	p := Make(Input{Guests: got, Drinks: threeDrinks(t), Params: params(2, 1, 0)})
	_, planned := servingsOf(p)
	// Two drinks each over two hours plus the first hour's half: 2.5 for
	// the child, all of them virgin mojitos; the parent's 2.5 spread over
	// the three.
	if mojito := planned["virgin-mojito"]; mojito < 2.5 || p.Headcount != 2 || p.UnservedHeads != 0 {
		t.Errorf("virgin mojitos %.2f (want at least the child's 2.5), headcount %d, unserved %d; plan %v", mojito, p.Headcount, p.UnservedHeads, planned)
	}
}

// TestChildGuestCountsInAlcoholFreeDrinks (issue 26): a group member who
// is a child (a guest with a code of their own) is planned for in
// alcohol-free drinks alone, as a companion marked a child is; the people
// they bring without needs of their own keep the guest's tastes.
func TestChildGuestCountsInAlcoholFreeDrinks(t *testing.T) {
	tests := []struct {
		name string
		g    guest.Guest
		want []Guest
	}{
		{"a child alone", guest.Guest{Status: guest.StatusComing, ExpectedGuests: 1, AgeGroup: guest.AgeChild},
			[]Guest{{Heads: 1, AlcoholFree: true}}},
		{"a child with a +1 nobody described", guest.Guest{Status: guest.StatusComing, ExpectedGuests: 2, AgeGroup: guest.AgeChild},
			[]Guest{{Heads: 1, AlcoholFree: true}, {Heads: 1}}},
		{"an adult", guest.Guest{Status: guest.StatusComing, ExpectedGuests: 1},
			[]Guest{{Heads: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GuestsOf(tt.g)
			if len(got) != len(tt.want) {
				t.Fatalf("GuestsOf = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i].Heads != tt.want[i].Heads || got[i].AlcoholFree != tt.want[i].AlcoholFree {
					t.Errorf("entry %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
	p := Make(Input{Guests: GuestsOf(tests[0].g), Drinks: threeDrinks(t), Params: params(1, 1, 0)})
	_, planned := servingsOf(p)
	for id, n := range planned {
		if id != "virgin-mojito" && n > 0 {
			t.Errorf("a child planned %.2f of %s; plan %v", n, id, planned)
		}
	}
}
