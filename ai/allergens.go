package ai

import (
	"slices"
	"strings"
	"unicode"
)

// allergenWords maps the words guests and hosts use to one canonical
// allergen, so "hazelnut" on a drink and "allergic to nuts" in an RSVP
// meet. It leans towards caution: a word that may mean an allergen does.
// It covers at least every word the menu's own allergen check knows
// (api/menu), so a drink that ordering would warn about is never
// recommended.
var allergenWords = map[string]string{
	"nut": "nuts", "nuts": "nuts", "peanut": "nuts", "peanuts": "nuts", "almond": "nuts", "almonds": "nuts",
	"hazelnut": "nuts", "hazelnuts": "nuts", "walnut": "nuts", "walnuts": "nuts", "pecan": "nuts", "pecans": "nuts",
	"cashew": "nuts", "cashews": "nuts", "pistachio": "nuts", "pistachios": "nuts", "macadamia": "nuts",
	"orgeat": "nuts", "amaretto": "nuts", "frangelico": "nuts", "praline": "nuts", "nutella": "nuts",
	"dairy": "dairy", "milk": "dairy", "lactose": "dairy", "cream": "dairy", "butter": "dairy", "cheese": "dairy",
	"whey": "dairy", "yoghurt": "dairy", "yogurt": "dairy", "casein": "dairy", "baileys": "dairy",
	"egg": "egg", "eggs": "egg", "albumen": "egg", "meringue": "egg",
	"gluten": "gluten", "wheat": "gluten", "barley": "gluten", "malt": "gluten", "beer": "gluten", "lager": "gluten", "ale": "gluten", "coeliac": "gluten", "celiac": "gluten",
	"soy": "soy", "soya": "soy",
	"sesame": "sesame", "tahini": "sesame",
	"sulphite": "sulphites", "sulphites": "sulphites", "sulfite": "sulphites", "sulfites": "sulphites",
	"celery": "celery", "mustard": "mustard", "lupin": "lupin",
	"fish": "fish", "anchovy": "fish", "shellfish": "shellfish", "crustacean": "shellfish", "crustaceans": "shellfish",
	"shrimp": "shellfish", "prawn": "shellfish", "prawns": "shellfish", "crab": "shellfish", "lobster": "shellfish",
	"oyster": "shellfish", "clam": "shellfish", "mussel": "shellfish", "mollusc": "shellfish", "molluscs": "shellfish",
	"mollusk": "shellfish", "mollusks": "shellfish", "rye": "gluten", "oats": "gluten", "groundnut": "nuts",
	"lupine": "lupin", "soybean": "soy", "anchovies": "fish", "milk-free": "dairy",
	"honey": "honey", "gelatin": "gelatin", "gelatine": "gelatin",
	"coconut": "coconut", "kiwi": "kiwi", "strawberry": "strawberry", "strawberries": "strawberry",
	"pineapple": "pineapple", "mango": "mango", "banana": "banana", "citrus": "citrus",
	"caffeine": "caffeine", "coffee": "caffeine", "espresso": "caffeine",
}

// dietWords are diets that rule out whole allergen groups.
var dietWords = map[string][]string{
	"vegan":        {"dairy", "egg", "honey", "gelatin", "fish", "shellfish"},
	"vegetarian":   {"gelatin", "fish", "shellfish"},
	"pescatarian":  {"gelatin"},
	"lactose-free": {"dairy"},
	"dairy-free":   {"dairy"},
	"gluten-free":  {"gluten"},
	"nut-free":     {"nuts"},
	"egg-free":     {"egg"},
}

// alcoholFreeWords in a dietary answer mean the guest takes no alcohol.
var alcoholFreeWords = map[string]bool{
	"alcohol-free": true, "no-alcohol": true, "non-alcoholic": true, "teetotal": true, "teetotaler": true,
	"sober": true, "pregnant": true, "halal": true,
}

// words splits s into lower-case words, keeping hyphens inside words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}

// phrases yields each word of s, and each hyphenated pair of neighbours
// ("gluten free" → "gluten-free"), so diets written either way are found.
func phrases(s string) []string {
	ws := words(s)
	out := slices.Clone(ws)
	for i := 0; i+1 < len(ws); i++ {
		out = append(out, ws[i]+"-"+ws[i+1])
	}
	return out
}

// canonicalAllergens maps free words and tags to canonical allergens.
// Unknown tags are kept as they are, so a host's own allergen tag
// ("passion fruit") still matches the same tag on a guest.
func canonicalAllergens(items ...string) []string {
	set := map[string]bool{}
	for _, it := range items {
		key := strings.ToLower(strings.TrimSpace(it))
		if key == "" {
			continue
		}
		if a, ok := allergenWords[key]; ok {
			set[a] = true
			continue
		}
		if diet, ok := dietWords[key]; ok {
			for _, a := range diet {
				set[a] = true
			}
			continue
		}
		found := false
		for _, w := range phrases(key) {
			if a, ok := allergenWords[w]; ok {
				set[a], found = true, true
			}
			if diet, ok := dietWords[w]; ok {
				for _, a := range diet {
					set[a] = true
				}
				found = true
			}
		}
		if !found && !alcoholFreeWords[key] {
			set[key] = true
		}
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// safetyRule is the one check of whether a drink is safe for a guest:
// none of its allergens is one they avoid, and it is alcohol-free when
// they take no alcohol. Both recommenders and the check of the model's
// picks go through check, and nothing else decides safety.
type safetyRule struct {
	avoid       []string
	alcoholFree bool
}

// newSafetyRule reads g's needs; wantsAlcoholFree is the guest asking
// for alcohol-free drinks (in the request or the RSVP tastes).
func newSafetyRule(g Guest, wantsAlcoholFree bool) safetyRule {
	return safetyRule{avoid: guestAvoids(g), alcoholFree: wantsAlcoholFree || guestNeedsAlcoholFree(g)}
}

// check returns why d is not safe for the guest, or "" when it is.
func (r safetyRule) check(d Drink) string {
	if c := conflicts(d, r.avoid); len(c) > 0 {
		return "contains " + strings.Join(c, ", ") + ", which the guest avoids"
	}
	if r.alcoholFree && !d.AlcoholFree {
		return "not alcohol-free"
	}
	return ""
}

// guestAvoids is what g must not be served: the allergens of their
// dietary tags and of the words in their dietary answer.
func guestAvoids(g Guest) []string {
	items := slices.Clone(g.DietaryTags)
	// Free text only contributes words we recognise: "I love nuts!" would
	// exclude nuts too, which is the cautious mistake to make.
	for _, w := range phrases(g.DietaryText) {
		if _, ok := allergenWords[w]; ok {
			items = append(items, w)
		}
		if _, ok := dietWords[w]; ok {
			items = append(items, w)
		}
	}
	return canonicalAllergens(items...)
}

// guestNeedsAlcoholFree reports whether the dietary answer rules out alcohol.
func guestNeedsAlcoholFree(g Guest) bool {
	for _, t := range g.DietaryTags {
		if alcoholFreeWords[strings.ToLower(strings.TrimSpace(t))] {
			return true
		}
	}
	for _, w := range phrases(g.DietaryText) {
		if alcoholFreeWords[w] {
			return true
		}
	}
	return false
}

// drinkAllergens is what d contains: its declared allergens plus what its
// ingredient names give away (an "almond syrup" the host forgot to tag).
func drinkAllergens(d Drink) []string {
	items := slices.Clone(d.Allergens)
	for _, ing := range d.Ingredients {
		ws := words(ing)
		for i, w := range ws {
			if _, ok := allergenWords[w]; !ok || notWhatItSays(ws, i) {
				continue
			}
			items = append(items, w)
		}
	}
	return canonicalAllergens(items...)
}

// notWhatItSays catches the ingredient names whose allergen word misleads:
// ginger beer has no gluten, coconut milk and peanut butter no dairy,
// cream of coconut no cream.
func notWhatItSays(ws []string, i int) bool {
	prev, next := "", ""
	if i > 0 {
		prev = ws[i-1]
	}
	if i+1 < len(ws) {
		next = ws[i+1]
	}
	switch ws[i] {
	case "beer", "ale":
		return prev == "ginger" || prev == "root"
	case "milk", "cream", "butter", "yoghurt", "yogurt":
		switch prev {
		case "coconut", "oat", "almond", "soy", "soya", "rice", "peanut", "cashew", "cocoa":
			return true
		}
		return ws[i] == "cream" && next == "of"
	}
	return false
}

// conflicts returns the allergens of d that avoid lists.
func conflicts(d Drink, avoid []string) []string {
	if len(avoid) == 0 {
		return nil
	}
	var out []string
	for _, a := range drinkAllergens(d) {
		if slices.Contains(avoid, a) {
			out = append(out, a)
		}
	}
	return out
}
