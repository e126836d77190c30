package menu

import (
	"sort"
	"strings"
	"unicode"
)

// The allergens a drink is labelled with, by their canonical names: the
// fourteen the EU requires on menus, plus honey, which vegans ask about.
var Allergens = []string{
	"gluten", "crustaceans", "eggs", "fish", "peanuts", "soy", "milk", "nuts",
	"celery", "mustard", "sesame", "sulphites", "lupin", "molluscs", "honey",
}

// allergenWords maps the words people write, in a drink's label or in
// their own dietary answer, to canonical allergens. A diet ("vegan")
// stands for every allergen it rules out. For safety the map errs towards
// flagging: "nuts" also flags peanuts, since many people with one allergy
// avoid both, and a flag only asks for a confirmation.
var allergenWords = map[string][]string{
	"gluten": {"gluten"}, "wheat": {"gluten"}, "barley": {"gluten"}, "rye": {"gluten"},
	"oats": {"gluten"}, "coeliac": {"gluten"}, "celiac": {"gluten"}, "beer": {"gluten"},
	"crustacean": {"crustaceans"}, "crustaceans": {"crustaceans"}, "shrimp": {"crustaceans"},
	"prawn": {"crustaceans"}, "prawns": {"crustaceans"}, "crab": {"crustaceans"}, "lobster": {"crustaceans"},
	"shellfish": {"crustaceans", "molluscs"},
	"egg":       {"eggs"}, "eggs": {"eggs"}, "egg white": {"eggs"}, "albumen": {"eggs"},
	"fish": {"fish"}, "anchovy": {"fish"}, "anchovies": {"fish"},
	"peanut": {"peanuts"}, "peanuts": {"peanuts"}, "groundnut": {"peanuts"},
	"soy": {"soy"}, "soya": {"soy"}, "soybean": {"soy"},
	"milk": {"milk"}, "dairy": {"milk"}, "lactose": {"milk"}, "cream": {"milk"}, "casein": {"milk"}, "whey": {"milk"},
	"nut": {"nuts", "peanuts"}, "nuts": {"nuts", "peanuts"}, "tree nut": {"nuts"}, "tree nuts": {"nuts"},
	"almond": {"nuts"}, "almonds": {"nuts"}, "hazelnut": {"nuts"}, "hazelnuts": {"nuts"}, "walnut": {"nuts"},
	"cashew": {"nuts"}, "pecan": {"nuts"}, "pistachio": {"nuts"}, "macadamia": {"nuts"}, "orgeat": {"nuts"},
	"celery": {"celery"}, "mustard": {"mustard"}, "sesame": {"sesame"},
	"sulphite": {"sulphites"}, "sulphites": {"sulphites"}, "sulfite": {"sulphites"}, "sulfites": {"sulphites"},
	"sulphur dioxide": {"sulphites"}, "sulfur dioxide": {"sulphites"},
	"lupin": {"lupin"}, "lupine": {"lupin"},
	"mollusc": {"molluscs"}, "molluscs": {"molluscs"}, "mollusk": {"molluscs"}, "mollusks": {"molluscs"},
	"oyster": {"molluscs"}, "clam": {"molluscs"}, "mussel": {"molluscs"},
	"honey":      {"honey"},
	"vegan":      {"eggs", "milk", "fish", "crustaceans", "molluscs", "honey"},
	"vegetarian": {"fish", "crustaceans", "molluscs"},
}

// CanonicalAllergen maps one allergen label to its canonical name when it
// names exactly one ("dairy" → "milk"), and returns it unchanged (folded)
// otherwise, so uncommon labels still match the same word in a guest's
// answer.
func CanonicalAllergen(label string) string {
	label = strings.Join(strings.Fields(strings.ToLower(label)), " ")
	if c := allergenWords[label]; len(c) == 1 {
		return c[0]
	}
	return label
}

// GuestAllergens reads a guest's dietary tags and free text and returns the
// allergens they rule out, canonical names sorted. Unknown tags are kept
// as written, so they can match a drink labelled the same way.
func GuestAllergens(tags []string, text string) []string {
	set := map[string]bool{}
	for _, t := range tags {
		t = strings.Join(strings.Fields(strings.ToLower(t)), " ")
		if t == "" {
			continue
		}
		if c, ok := allergenWords[t]; ok {
			for _, a := range c {
				set[a] = true
			}
			continue
		}
		set[t] = true
		for _, w := range words(t) {
			for _, a := range allergenWords[w] {
				set[a] = true
			}
		}
	}
	ws := words(text)
	for i, w := range ws {
		for _, a := range allergenWords[w] {
			set[a] = true
		}
		if i+1 < len(ws) {
			for _, a := range allergenWords[w+" "+ws[i+1]] {
				set[a] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Conflicts returns the drink's allergens that appear in the guest's list
// (from GuestAllergens), in the drink's order.
func Conflicts(drinkAllergens, guestAllergens []string) []string {
	if len(drinkAllergens) == 0 || len(guestAllergens) == 0 {
		return nil
	}
	var out []string
	for _, a := range drinkAllergens {
		a = CanonicalAllergen(a)
		for _, g := range guestAllergens {
			if a == g {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
