package plan

import (
	"reflect"
	"testing"
)

func TestLearn(t *testing.T) {
	used := []Used{
		// 1.3 of 2 bottles: 0.65.
		{Key: "gin", Amounts: []Amount{{910, "ml"}}, Packs: 1.3, Planned: 2},
		// 0.3 of 1: bounded up to 0.5.
		{Key: "campari", Amounts: []Amount{{210, "ml"}}, Packs: 0.3, Planned: 1},
		// 4.8 of 3: 1.6, bounded down to 1.5.
		{Key: "tonic water", Amounts: []Amount{{4800, "ml"}}, Packs: 4.8, Planned: 3},
		// Bought and never used: the least.
		{Key: "mint", Amounts: []Amount{}, Planned: 1},
		// Not on the plan: nothing to set it against.
		{Key: "lime", Amounts: []Amount{{14, "wedge"}}, Packs: 1.8},
		// Used in a unit with no pack size: unknown, not nothing.
		{Key: "bitters", Amounts: []Amount{{12, "dash"}}, Planned: 1},
	}
	for _, tc := range []struct {
		name    string
		glasses int
		want    map[string]float64
	}{
		{"a night", 21, map[string]float64{"gin": 0.65, "campari": 0.5, "tonic water": 1.5, "mint": 0.5}},
		{"just enough glasses", MinLearnGlasses, map[string]float64{"gin": 0.65, "campari": 0.5, "tonic water": 1.5, "mint": 0.5}},
		{"too few glasses", MinLearnGlasses - 1, map[string]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Learn(used, tc.glasses, "2026-12-02")
			if got.Date != "2026-12-02" || !reflect.DeepEqual(got.Factors, tc.want) {
				t.Errorf("Learn = %+v, want factors %v", got, tc.want)
			}
		})
	}
}

// TestMakeLearnt: the ten heads of TestMake, four hours, with factors
// learnt from a night; each ingredient's amount is multiplied by its
// factor before it is turned into packs.
func TestMakeLearnt(t *testing.T) {
	in := Input{Guests: heads(2, 3, 1, 4), Drinks: threeDrinks(t), Params: DefaultParams()}
	before := Make(in)
	if before.LearntFrom != "" {
		t.Errorf("nothing learnt, yet learnt from %q", before.LearntFrom)
	}
	in.Learnt = Learnt{Date: "2026-12-02", Factors: map[string]float64{
		"gin":         0.5, // 1380 ml → 690 ml: 1 bottle, not 2
		"tonic water": 1.2, // 2587.5 ml → 3105 ml: 4 bottles, not 3
		"mint":        0.6, // 138 leaves → 82.8, 83: 2 bunches, not 3
		"lime juice":  1.5, // 431.25 ml → 646.9 ml: 22 limes, not 15
		"vodka":       0.5, // not on the menu: nothing
	}}
	p := Make(in)
	if p.LearntFrom != "2026-12-02" {
		t.Errorf("learnt from %q", p.LearntFrom)
	}
	want := map[string]string{
		"gin": "1 bottle (700 ml)", "tonic water": "4 bottles (1 L)", "mint": "2 bunches", "lime juice": "22 limes",
		"campari": "1 bottle (700 ml)", "orange": "3 oranges", "soda water": "3 bottles (1 L)",
	}
	got := buys(p)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: buy %q, want %q", k, got[k], w)
		}
	}
	for _, n := range p.Ingredients {
		if f := in.Learnt.Factors[n.Key]; n.Factor != f {
			t.Errorf("%s: factor %v, want %v", n.Key, n.Factor, f)
		}
		if n.Key == "mint" && !reflect.DeepEqual(n.Amounts, []Amount{{83, "leaf"}}) {
			t.Errorf("mint amounts %+v", n.Amounts)
		}
	}
	// The drinks expected are the plan's, not the night's: only the
	// list learns.
	if p.Servings != before.Servings || p.PlannedDrinks != before.PlannedDrinks {
		t.Errorf("servings %d/%v, before %d/%v", p.Servings, p.PlannedDrinks, before.Servings, before.PlannedDrinks)
	}
}
