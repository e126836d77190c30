package plan

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/barhub/barhub/menu"
)

// spirits maps each bottle of spirits, liqueurs and wine the plan buys to
// its packs: ingredient key → packs.
func spiritBottles(p Plan) map[string]int {
	out := map[string]int{}
	for _, n := range p.Ingredients {
		if n.Kind == KindSpirits || n.Kind == KindWine {
			out[n.Key] = n.Packs
		}
	}
	return out
}

func names(ds []TrimDrink) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// TestTrimStarterMenu is the reproduction: three people coming
// and the 37-drink starter menu. The whole menu opens 24 bottles of
// spirit and 4 of wine for 16 drinks, one of each ("Aged rum: 1 bottle
// (700 ml)" for 12.6 ml); the plan says the menu is big for three and
// proposes six drinks that share three bottles. A 150-guest party drinks
// the whole menu: no trim, and the bottles are the recipes' totals.
func TestTrimStarterMenu(t *testing.T) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		guests  []Guest
		ordered map[string]int
		// The whole menu's plan.
		servings, bottles int
		// The proposal: nil keep means none.
		keep                    []string
		trimmedBottles, paused  int
		items, trimmedItems     int
		trimmedBuy              map[string]int
		wholeBuy                map[string]int
		trimmedServings, target int
	}{
		{
			// 3 × 4.5 × 1.15 = 15.5 drinks: the suggested menu is the
			// smallest, six. Sections keep their share (1 classic, 2
			// sours, 2 long, 1 alcohol-free); bourbon, white rum and
			// Angostura serve all six.
			name: "three guests", guests: heads(3), servings: 16, bottles: 28, target: 6,
			keep:           []string{"Old Fashioned", "Daiquiri", "Whiskey Sour", "Mojito", "Piña Colada", "Virgin Piña Colada"},
			trimmedBottles: 3, paused: 31, items: 61, trimmedItems: 12, trimmedServings: 16,
			trimmedBuy: map[string]int{"bourbon": 1, "white rum": 1, "angostura bitters": 1},
		},
		{
			// One of the three wants alcohol-free drinks: they keep three
			// to choose from.
			name: "one of three alcohol-free", guests: []Guest{{Heads: 2}, {Heads: 1, AlcoholFree: true}}, servings: 16, bottles: 28, target: 6,
			keep:           []string{"Old Fashioned", "Daiquiri", "Whiskey Sour", "Mojito", "Piña Colada", "Virgin Mojito", "Shirley Temple", "Virgin Piña Colada"},
			trimmedBottles: 3, paused: 29, items: 61, trimmedItems: 15, trimmedServings: 16,
			trimmedBuy: map[string]int{"bourbon": 1, "white rum": 1, "angostura bitters": 1},
		},
		{
			// They like gin and dislike sweet drinks: the sweet ones go
			// first, and the menu keeps the gin.
			name: "three who like gin and not sweet", guests: []Guest{{Heads: 3, Likes: []string{"gin"}, Dislikes: []string{"sweet"}}}, servings: 16, bottles: 25, target: 6,
			keep:           []string{"Last Word", "Margarita", "Sidecar", "Paloma", "Gin & Tonic", "Virgin Mary"},
			trimmedBottles: 6, paused: 31, items: 53, trimmedItems: 18, trimmedServings: 16,
			trimmedBuy: map[string]int{"gin": 1, "green chartreuse": 1, "maraschino liqueur": 1, "tequila blanco": 1, "cointreau": 1, "cognac": 1},
		},
		{
			// A Negroni already ordered stays on the menu.
			name: "three guests, a Negroni ordered", guests: heads(3), ordered: map[string]int{"negroni": 2}, servings: 16, bottles: 28, target: 6,
			keep:           []string{"Negroni", "Daiquiri", "Whiskey Sour", "Tom Collins", "Piña Colada", "Virgin Piña Colada"},
			trimmedBottles: 6, paused: 31, items: 61, trimmedItems: 14, trimmedServings: 16,
			trimmedBuy: map[string]int{"gin": 1, "campari": 1, "sweet vermouth": 1, "bourbon": 1, "white rum": 1, "angostura bitters": 1},
		},
		{
			// 150 × 4.5 × 1.15 = 776.25 drinks, about 21 of each: the
			// whole menu earns its place, and the bottles are the
			// recipes' totals over the planned drinks.
			name: "150 guests", guests: heads(150), servings: 777, bottles: 72, items: 61,
			wholeBuy: map[string]int{
				"aged rum": 1, "amaretto": 2, "amaro nonino": 1, "angostura bitters": 1, "aperol": 3, "bourbon": 6, "cachaça": 2,
				"campari": 2, "citrus vodka": 2, "coffee liqueur": 2, "cognac": 2, "cointreau": 2, "crème de cassis": 1, "dark rum": 3,
				"gin": 8, "green chartreuse": 1, "maraschino liqueur": 1, "orange bitters": 1, "orange curaçao": 1, "pisco": 2,
				"rye whiskey": 2, "tequila blanco": 3, "vodka": 6, "white rum": 5,
				"champagne": 5, "dry vermouth": 1, "prosecco": 3, "sweet vermouth": 3,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Guests: tc.guests, Drinks: drinks, Ordered: tc.ordered, Params: DefaultParams()}
			p := Make(in)
			if p.Servings != tc.servings || p.Bottles != tc.bottles || len(p.Ingredients) != tc.items || len(p.Drinks) != 37 || p.Trimmed {
				t.Errorf("whole menu: %d servings, %d bottles, %d lines, %d drinks, trimmed %v; want %d, %d, %d, 37, false",
					p.Servings, p.Bottles, len(p.Ingredients), len(p.Drinks), p.Trimmed, tc.servings, tc.bottles, tc.items)
			}
			if tc.wholeBuy != nil {
				if got := spiritBottles(p); !reflect.DeepEqual(got, tc.wholeBuy) {
					t.Errorf("bottles %v\nwant    %v", got, tc.wholeBuy)
				}
			}
			if tc.keep == nil {
				if p.Trim != nil {
					t.Fatalf("a trim proposed for %d servings: %+v", p.Servings, p.Trim)
				}
				in.Trimmed = true
				if q := Make(in); !reflect.DeepEqual(q, p) {
					t.Errorf("asking for the trimmed plan with no trim changed the plan")
				}
				return
			}
			tr := p.Trim
			if tr == nil {
				t.Fatal("no trim proposed")
			}
			if got := names(tr.Keep); !reflect.DeepEqual(got, tc.keep) {
				t.Errorf("keep %q\nwant %q", got, tc.keep)
			}
			if tr.MenuDrinks != 37 || tr.SuggestedDrinks != tc.target || len(tr.Pause) != tc.paused || len(tr.Keep)+len(tr.Pause) != 37 ||
				tr.Bottles != tc.bottles || tr.TrimmedBottles != tc.trimmedBottles || tr.BottlesSaved != tc.bottles-tc.trimmedBottles ||
				tr.Items != tc.items || tr.TrimmedItems != tc.trimmedItems {
				t.Errorf("trim %d of %d drinks (suggested %d), %d paused, bottles %d → %d (saves %d), lines %d → %d",
					len(tr.Keep), tr.MenuDrinks, tr.SuggestedDrinks, len(tr.Pause), tr.Bottles, tr.TrimmedBottles, tr.BottlesSaved, tr.Items, tr.TrimmedItems)
			}

			// The trimmed plan: the same people and drinks, over the kept
			// menu, buying the proposal's bottles.
			in.Trimmed = true
			q := Make(in)
			if !q.Trimmed || !reflect.DeepEqual(q.Trim, tr) || q.Servings != tc.trimmedServings || q.Bottles != tc.trimmedBottles || len(q.Ingredients) != tc.trimmedItems {
				t.Errorf("trimmed plan: trimmed %v, %d servings, %d bottles, %d lines", q.Trimmed, q.Servings, q.Bottles, len(q.Ingredients))
			}
			if got := spiritBottles(q); !reflect.DeepEqual(got, tc.trimmedBuy) {
				t.Errorf("trimmed bottles %v\nwant            %v", got, tc.trimmedBuy)
			}
			var kept []string
			for _, d := range q.Drinks {
				kept = append(kept, d.Name)
			}
			if len(kept) != len(tc.keep) {
				t.Errorf("trimmed plan's drinks %q", kept)
			}
		})
	}
}

// The reproduction in the old plan's words: one bottle of each of
// 24 spirits and liqueurs for three people.
func TestThreeGuestsWholeMenuBottles(t *testing.T) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	p := Make(Input{Guests: heads(3), Drinks: drinks, Params: DefaultParams()})
	spirits := 0
	for _, n := range p.Ingredients {
		if n.Kind == KindSpirits {
			spirits += n.Packs
		}
	}
	if spirits != 24 || p.Trim == nil || p.Trim.TrimmedBottles != 3 {
		t.Errorf("%d bottles of spirit, trim %+v", spirits, p.Trim)
	}
}

// A garnish is counted whole in the plan's amounts as in the CSV: 3
// people's mint is 16 leaves, never 15.5.
func TestGarnishCountedWhole(t *testing.T) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	p := Make(Input{Guests: heads(3), Drinks: drinks, Params: DefaultParams(), Trimmed: true})
	for _, n := range p.Ingredients {
		for _, a := range n.Amounts {
			if a.Unit != "ml" && a.Amount != float64(int(a.Amount)) {
				t.Errorf("%s: %v %s", n.Name, a.Amount, a.Unit)
			}
		}
		if n.Key == "mint" && (len(n.Amounts) != 1 || n.Amounts[0] != (Amount{16, "leaf"}) || n.Buy != "1 bunch") {
			t.Errorf("mint %+v", n)
		}
	}
}

// Every pack and note the plan names has its words on the pages, so the
// host's panel says "2 flaskor (70 cl)" rather than English.
func TestPacksNamedForThePages(t *testing.T) {
	raw, err := os.ReadFile("../web/static/i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat map[string]any
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(slices.Clone(packs), litre) {
		if p.unit == "" || cat["shopping.pack."+p.unit] == nil {
			t.Errorf("pack %q: no shopping.pack.%s", p.name, p.unit)
		}
		if p.guess != "" && (noteIDs[p.guess] == "" || cat["shopping.note."+noteIDs[p.guess]] == nil) {
			t.Errorf("note %q: no shopping.note entry", p.guess)
		}
	}
	for note, id := range noteIDs {
		if cat["shopping.note."+id] == nil {
			t.Errorf("note %q: no shopping.note.%s", note, id)
		}
	}
	// The plan names them: the starter menu's whole list, and the odd ones.
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Make(Input{Guests: heads(10), Drinks: drinks, Params: DefaultParams()}).Ingredients {
		if n.PackID == "" || (n.Note != "" && n.NoteID == "") {
			t.Errorf("%s: pack id %q, note id %q for %q", n.Key, n.PackID, n.NoteID, n.Note)
		}
	}
}

// BenchmarkMakeStarterMenu is one shopping plan of the starter menu, as
// the admin page asks for it on every keystroke: with the trim's search
// (ten people, a menu big for them) and without it (150 people).
func BenchmarkMakeStarterMenu(b *testing.B) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 150} {
		b.Run(strconv.Itoa(n)+" guests", func(b *testing.B) {
			guests := make([]Guest, n)
			for i := range guests {
				// Everyone a taste of their own, so no two guests weigh the
				// menu alike: the model's worst case.
				guests[i] = Guest{Heads: 1, Likes: []string{drinks[i%len(drinks)].Name}}
			}
			for b.Loop() {
				Make(Input{Guests: guests, Drinks: drinks, Params: DefaultParams()})
			}
		})
	}
}
