package diet

import "slices"

// ingredientWords are what bar ingredients give away: the liqueurs and
// mixers whose name hides an allergen (orgeat and amaretto are almond,
// Worcestershire sauce is anchovy and malt vinegar, wine and vermouth
// carry sulphites) next to the plain words. Need words (see needWords)
// count too, in any language.
var ingredientWords = map[string][]string{
	"orgeat": {Nuts}, "amaretto": {Nuts}, "disaronno": {Nuts}, "frangelico": {Nuts}, "nocino": {Nuts},
	"falernum": {Nuts}, "noyaux": {Nuts}, "noyau": {Nuts}, "praline": {Nuts}, "nutella": {Nuts}, "marzipan": {Nuts},
	"egg": {Eggs}, "eggs": {Eggs}, "albumen": {Eggs}, "meringue": {Eggs}, "advocaat": {Eggs, Milk}, "eggnog": {Eggs, Milk},
	"worcestershire": {Fish, Gluten}, "anchovy": {Fish}, "anchovies": {Fish}, "bonito": {Fish},
	"milk": {Milk}, "cream": {Milk}, "butter": {Milk}, "buttermilk": {Milk}, "cheese": {Milk}, "whey": {Milk},
	"yoghurt": {Milk}, "yogurt": {Milk}, "kefir": {Milk}, "baileys": {Milk}, "rumchata": {Milk}, "amarula": {Milk},
	"half-and-half": {Milk}, "condensed": {Milk}, "evaporated": {Milk}, "ghee": {Milk}, "casein": {Milk}, "lactose": {Milk},
	"beer": {Gluten}, "lager": {Gluten}, "ale": {Gluten}, "stout": {Gluten}, "porter": {Gluten}, "ipa": {Gluten}, "pilsner": {Gluten},
	"wine": {Sulphites}, "prosecco": {Sulphites}, "champagne": {Sulphites}, "cava": {Sulphites}, "crémant": {Sulphites},
	"cremant": {Sulphites}, "vermouth": {Sulphites}, "sherry": {Sulphites}, "madeira": {Sulphites}, "marsala": {Sulphites},
	"lillet": {Sulphites}, "dubonnet": {Sulphites}, "port": {Sulphites}, "cider": {Sulphites}, "perry": {Sulphites},
	"clamato": {Molluscs}, "clam": {Molluscs}, "oyster": {Molluscs},
	"tahini": {Sesame},
	"honey":  {Honey}, "mead": {Honey}, "drambuie": {Honey}, "bénédictine": {Honey}, "benedictine": {Honey}, "bärenjäger": {Honey},
	"gelatin": {Gelatin}, "gelatine": {Gelatin}, "jello": {Gelatin},
}

// notContents are the names whose allergen word misleads: ginger beer has
// no gluten, coconut milk and peanut butter no milk, crème de cassis no
// cream, rye whiskey no gluten (distilled spirits keep none).
func misleads(words []string, i int) bool {
	prev, next := "", ""
	if i > 0 {
		prev = words[i-1]
	}
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch words[i] {
	case "beer", "ale":
		return prev == "ginger" || prev == "root"
	case "milk", "cream", "butter", "yoghurt", "yogurt", "creme":
		switch prev {
		case "coconut", "oat", "almond", "soy", "soya", "rice", "peanut", "cashew", "cocoa", "hazelnut":
			return true
		}
		return next == "of" || next == "de" || next == "soda"
	case "rye", "wheat", "barley", "malt", "oats", "oat", "corn":
		return slices.ContainsFunc(words, func(w string) bool { return distillates[w] })
	}
	return false
}

var distillates = set("whisky whiskey bourbon scotch vodka gin genever spirit spirits korn single")

// IngredientContents returns what one ingredient contains that a need
// can rule out: canonical allergens, honey and gelatin.
func IngredientContents(ingredient string) []string {
	toks := tokenize(ingredient)
	words := make([]string, len(toks))
	for i, tk := range toks {
		words[i] = tk.folded
	}
	var out []string
	for i, w := range words {
		if misleads(words, i) {
			continue
		}
		t, ok := ingredientWords[w]
		if !ok {
			t, ok = ingredientWords[toks[i].word]
		}
		if !ok {
			t, ok = foldedNeeds[w]
		}
		if !ok {
			t, ok = plural(w)
		}
		for _, c := range t {
			if c != AlcoholFree && (IsAllergen(c) || c == Honey || c == Gelatin) {
				out = appendNew(out, c)
			}
		}
	}
	for i := 0; i+1 < len(words); i++ {
		if t, ok := needPhrases[words[i]+" "+words[i+1]]; ok {
			for _, c := range t {
				if IsAllergen(c) {
					out = appendNew(out, c)
				}
			}
		}
	}
	return out
}
