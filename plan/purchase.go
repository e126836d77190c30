package plan

import (
	"math"
	"strings"
)

// How ingredients are bought. A recipe says "30 ml gin" or "1 wedge lime";
// a shop sells bottles and limes. The table below turns one into the
// other. Pack sizes marked standard are what shops sell (EU sizes); the
// rest are averages, marked Guess, and the plan says so next to them.

// Kinds group the shopping list the way a shop is laid out.
const (
	KindSpirits = "spirits"
	KindWine    = "wine"
	KindMixers  = "mixers"
	KindJuice   = "juice"
	KindFruit   = "fruit"
	KindSyrups  = "syrups"
	KindFridge  = "fridge"
	KindPantry  = "pantry"
	KindOther   = "other"
)

// kindOrder is the list's order: the big purchases first.
var kindOrder = []string{KindSpirits, KindWine, KindMixers, KindJuice, KindFruit, KindSyrups, KindFridge, KindPantry, KindOther}

// KindLabels names the kinds for people.
var KindLabels = map[string]string{
	KindSpirits: "Spirits & liqueurs",
	KindWine:    "Wine, bubbles & vermouth",
	KindMixers:  "Mixers",
	KindJuice:   "Juice",
	KindFruit:   "Fruit, herbs & garnish",
	KindSyrups:  "Syrups & cordials",
	KindFridge:  "Fridge",
	KindPantry:  "Pantry",
	KindOther:   "Other",
}

// pack is how one kind of ingredient is bought.
type pack struct {
	// words match the ingredient's key as whole words ("gin" is not in
	// "ginger beer"); the first rule with a match wins, so the specific
	// ones ("lime juice", "orange bitters") come before the general.
	words []string
	kind  string
	// unit names the pack for the pages' catalogues (shopping.pack.<unit>),
	// name and plural in English.
	unit         string
	name, plural string
	// ml is what one pack holds, for recipe lines in volume units; 0:
	// this ingredient is not bought by volume.
	ml float64
	// per says what share of a pack one counted recipe unit is: a lime
	// wedge is 1/8 of a lime.
	per map[string]float64
	// guess explains a size that is an average rather than a label.
	guess string
}

const spiritNote = "EU bottle; in the US spirits come in 750 ml"

// noteIDs name the notes for the pages' catalogues (shopping.note.<id>),
// so the host's panel says them in its language.
var noteIDs = map[string]string{
	"a lime gives about 30 ml of juice":                               "limeJuice",
	"a lemon gives about 40 ml of juice":                              "lemonJuice",
	"a large egg gives about 30 ml of white":                          "eggWhite",
	"cartons vary; 250 ml assumed":                                    "cream",
	"about 35 shots of 30 ml (7 g of coffee each) from a bag (250 g)": "espresso",
	"cordials come in many sizes; 500 ml assumed":                     "cordial",
	"a pack lasts about 250 pinches":                                  "pinches",
	"about 10 sticks a head":                                          "celery",
	"1 kg of sugar fills about 1.2 L":                                 "sugar",
	"mixers come in many sizes; 1 L assumed":                          "mixers",
	"about 6 twists of peel from a fruit":                             "peel",
	"8 wedges or 10 slices a lime":                                    "limeWedges",
	"8 wedges or 10 slices a lemon":                                   "lemonWedges",
	"8 slices or wedges an orange":                                    "orangeSlices",
	"a bunch has about 8 sprigs or 60 leaves":                         "bunch",
	"a jar holds about 50 cherries":                                   "cherries",
	"no pack size known for this ingredient: counted in litres":       "litres",
	"no pack size known for this ingredient: buy the amounts":         "noPack",
	"no pack size for some of its units: buy the amounts":             "noPackUnits",
}

// packs is the conversion table.
var packs = []pack{
	// Citrus juice is squeezed from fruit.
	{words: []string{"lime juice"}, kind: KindFruit, unit: "lime", name: "lime", plural: "limes", ml: 30, guess: "a lime gives about 30 ml of juice"},
	{words: []string{"lemon juice"}, kind: KindFruit, unit: "lemon", name: "lemon", plural: "lemons", ml: 40, guess: "a lemon gives about 40 ml of juice"},
	{words: []string{"juice"}, kind: KindJuice, unit: "carton1l", name: "carton (1 L)", plural: "cartons (1 L)", ml: 1000},
	{words: []string{"bitters"}, kind: KindSpirits, unit: "bottle200", name: "bottle (200 ml)", plural: "bottles (200 ml)", ml: 200},
	{words: []string{"egg white", "egg whites"}, kind: KindFridge, unit: "egg", name: "egg", plural: "eggs", ml: 30, guess: "a large egg gives about 30 ml of white"},
	{words: []string{"coconut cream", "coconut milk"}, kind: KindPantry, unit: "can400", name: "can (400 ml)", plural: "cans (400 ml)", ml: 400},
	{words: []string{"cream", "milk"}, kind: KindFridge, unit: "carton250", name: "carton (250 ml)", plural: "cartons (250 ml)", ml: 250, guess: "cartons vary; 250 ml assumed"},
	{words: []string{"espresso"}, kind: KindPantry, unit: "coffee250", name: "bag of coffee (250 g)", plural: "bags of coffee (250 g)", ml: 35 * 30, guess: "about 35 shots of 30 ml (7 g of coffee each) from a bag (250 g)"},
	{words: []string{"syrup", "grenadine", "orgeat", "falernum"}, kind: KindSyrups, unit: "bottle700", name: "bottle (700 ml)", plural: "bottles (700 ml)", ml: 700},
	{words: []string{"cordial"}, kind: KindSyrups, unit: "bottle500", name: "bottle (500 ml)", plural: "bottles (500 ml)", ml: 500, guess: "cordials come in many sizes; 500 ml assumed"},
	{words: []string{"worcestershire"}, kind: KindPantry, unit: "bottle150", name: "bottle (150 ml)", plural: "bottles (150 ml)", ml: 150},
	{words: []string{"tabasco", "hot sauce"}, kind: KindPantry, unit: "bottle60", name: "bottle (60 ml)", plural: "bottles (60 ml)", ml: 60},
	{words: []string{"salt", "pepper"}, kind: KindPantry, unit: "pack", name: "pack", plural: "packs", per: map[string]float64{"pinch": 1.0 / 250}, guess: "a pack lasts about 250 pinches"},
	{words: []string{"celery"}, kind: KindFruit, unit: "celery", name: "head of celery", plural: "heads of celery", per: map[string]float64{"piece": 1.0 / 10, "whole": 1}, guess: "about 10 sticks a head"},
	{words: []string{"sugar"}, kind: KindPantry, unit: "sugar1kg", name: "bag of sugar (1 kg)", plural: "bags of sugar (1 kg)", ml: 1200, guess: "1 kg of sugar fills about 1.2 L"},
	{words: []string{"soda", "soda water", "tonic", "tonic water", "ginger beer", "ginger ale", "cola", "lemonade", "sparkling water"}, kind: KindMixers, unit: "bottle1l", name: "bottle (1 L)", plural: "bottles (1 L)", ml: 1000, guess: "mixers come in many sizes; 1 L assumed"},
	{words: []string{"prosecco", "champagne", "cava", "crémant", "cremant", "sparkling wine", "wine", "vermouth", "lillet", "sherry"}, kind: KindWine, unit: "bottle750", name: "bottle (750 ml)", plural: "bottles (750 ml)", ml: 750},
	{words: []string{
		"gin", "vodka", "rum", "whiskey", "whisky", "bourbon", "scotch", "tequila", "mezcal", "cognac", "brandy", "pisco",
		"cachaça", "cachaca", "campari", "aperol", "cointreau", "triple sec", "curaçao", "curacao", "liqueur", "chartreuse",
		"amaretto", "amaro", "crème de", "creme de", "absinthe", "schnapps", "aquavit", "akvavit", "calvados", "grappa",
	}, kind: KindSpirits, unit: "bottle700", name: "bottle (700 ml)", plural: "bottles (700 ml)", ml: 700},
	{words: []string{"orange peel", "orange twist", "orange zest"}, kind: KindFruit, unit: "orange", name: "orange", plural: "oranges", per: map[string]float64{"piece": 1.0 / 6, "slice": 1.0 / 6}, guess: "about 6 twists of peel from a fruit"},
	{words: []string{"lemon peel", "lemon twist", "lemon zest"}, kind: KindFruit, unit: "lemon", name: "lemon", plural: "lemons", per: map[string]float64{"piece": 1.0 / 6, "slice": 1.0 / 6}, guess: "about 6 twists of peel from a fruit"},
	{words: []string{"lime peel", "lime twist", "lime zest"}, kind: KindFruit, unit: "lime", name: "lime", plural: "limes", per: map[string]float64{"piece": 1.0 / 6, "slice": 1.0 / 6}, guess: "about 6 twists of peel from a fruit"},
	{words: []string{"lime", "limes"}, kind: KindFruit, unit: "lime", name: "lime", plural: "limes", per: map[string]float64{"wedge": 1.0 / 8, "slice": 1.0 / 10, "piece": 1, "whole": 1}, guess: "8 wedges or 10 slices a lime"},
	{words: []string{"lemon", "lemons"}, kind: KindFruit, unit: "lemon", name: "lemon", plural: "lemons", per: map[string]float64{"wedge": 1.0 / 8, "slice": 1.0 / 10, "piece": 1, "whole": 1}, guess: "8 wedges or 10 slices a lemon"},
	{words: []string{"orange", "oranges"}, kind: KindFruit, unit: "orange", name: "orange", plural: "oranges", per: map[string]float64{"wedge": 1.0 / 8, "slice": 1.0 / 8, "piece": 1, "whole": 1}, guess: "8 slices or wedges an orange"},
	{words: []string{"mint", "basil"}, kind: KindFruit, unit: "bunch", name: "bunch", plural: "bunches", per: map[string]float64{"leaf": 1.0 / 60, "sprig": 1.0 / 8}, guess: "a bunch has about 8 sprigs or 60 leaves"},
	{words: []string{"cherry", "cherries"}, kind: KindFruit, unit: "jar", name: "jar", plural: "jars", per: map[string]float64{"piece": 1.0 / 50, "whole": 1.0 / 50}, guess: "a jar holds about 50 cherries"},
}

// litre is the fallback for a liquid the table does not know: the plan
// gives litres rather than invent a bottle.
var litre = pack{kind: KindOther, unit: "litre", name: "litre", plural: "litres", ml: 1000, guess: "no pack size known for this ingredient: counted in litres"}

// unknown is the fallback for a counted ingredient the table does not
// know: the plan gives the count and no pack.
var unknown = pack{kind: KindOther}

// packFor finds how the ingredient with this key (see menu.IngredientKey)
// is bought, and whether the table knows it.
func packFor(key string) (pack, bool) {
	words := strings.Fields(key)
	for _, p := range packs {
		for _, phrase := range p.words {
			if containsPhrase(words, strings.Fields(phrase)) {
				return p, true
			}
		}
	}
	return unknown, false
}

// containsPhrase reports whether phrase appears in words, whole words in
// a row.
func containsPhrase(words, phrase []string) bool {
	if len(phrase) == 0 {
		return false
	}
	for i := 0; i+len(phrase) <= len(words); i++ {
		match := true
		for j, w := range phrase {
			if words[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// packsNeeded turns what the recipes add up to (ml of liquid and counts by
// unit) into whole packs, rounded up. ok is false when some part has no
// conversion: the host then buys from the amounts themselves.
func (p pack) packsNeeded(ml float64, counts map[string]float64) (n int, ok bool) {
	total, ok := p.packsOf(ml, counts)
	if !ok {
		return 0, false
	}
	// A hair below a whole number is float noise, not a reason for
	// another bottle.
	return int(math.Ceil(total - 1e-9)), true
}

// packsOf is what the recipes add up to (ml of liquid and counts by
// unit) in packs, unrounded. ok is false when some part has no
// conversion.
func (p pack) packsOf(ml float64, counts map[string]float64) (total float64, ok bool) {
	if ml > 0 {
		if p.ml <= 0 {
			return 0, false
		}
		total += ml / p.ml
	}
	for unit, c := range counts {
		f, known := p.per[unit]
		if !known {
			return 0, false
		}
		total += c * f
	}
	return total, total > 0
}
