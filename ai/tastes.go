package ai

import (
	"fmt"
	"slices"
	"strings"
)

// The tastes guests ask for that a menu's tags often do not carry: a
// drink shows them by what it is made of. Each list is of folded words
// and phrases, matched whole against a drink's ingredients ("mezcal" in
// "Mezcal joven", never "gin" in "ginger"). A taste word is matched
// strictly: "smoky" is a smoky spirit or something smoked, not any strong
// drink; "bitter" a bitter aperitif, not the dash of Angostura in an Old
// Fashioned.
var tasteIngredients = map[string][]string{
	"smoky": {"mezcal", "mescal", "islay", "laphroaig", "ardbeg", "lagavulin", "caol ila", "bowmore", "kilchoman",
		"bruichladdich", "talisker", "peated", "peaty", "smoked", "smoke", "smoky", "lapsang", "lapsang souchong"},
	"bitter": bitterAperitifs,
	"herbal": {"chartreuse", "green chartreuse", "yellow chartreuse", "benedictine", "genepi", "absinthe", "pastis",
		"jagermeister", "strega", "basil", "sage", "rosemary", "thyme", "dill"},
	"creamy": {"cream", "heavy cream", "double cream", "fresh cream", "coconut cream", "cream of coconut", "milk",
		"condensed milk", "irish cream", "baileys", "ice cream", "advocaat"},
	"spicy": {"ginger beer", "fresh ginger", "ginger syrup", "chili", "chilli", "chile", "jalapeno", "habanero",
		"tabasco", "hot sauce", "cayenne", "sriracha"},
}

// bitterAperitifs are the bitter liqueurs and aperitifs: a guest who asks
// for something "bitter like Campari" means one of these.
var bitterAperitifs = []string{"campari", "aperol", "amaro", "amaro nonino", "cynar", "suze", "fernet", "fernet branca",
	"averna", "montenegro", "ramazzotti", "gran classico", "select aperitivo", "bitter aperitivo", "china martini", "picon"}

// tikiNames are the tiki classics, by name: "tiki" finds them whatever
// their tags.
var tikiNames = []string{"mai tai", "pina colada", "zombie", "painkiller", "jungle bird", "hurricane", "navy grog",
	"scorpion", "fog cutter", "suffering bastard", "saturn", "three dots and a dash", "missionarys downfall",
	"planters punch", "blue hawaii", "chi chi", "test pilot", "tiki"}

// tropical are the ingredients that, with rum, make a tiki drink.
var tropical = []string{"pineapple", "pineapple juice", "orgeat", "coconut", "coconut cream", "cream of coconut",
	"passion fruit", "passionfruit", "falernum", "velvet falernum", "guava", "mango", "allspice dram", "pimento dram"}

// tasteEvidence returns the ingredient (or name) of d that gives it the
// taste of family fam, when its tags do not say so.
func tasteEvidence(d Drink, fam string) (string, bool) {
	if fam == "tiki" {
		return tiki(d)
	}
	for _, ing := range d.Ingredients {
		f := fold(ing)
		for _, w := range tasteIngredients[fam] {
			if containsWords(f, w) {
				return strings.ToLower(ing), true
			}
		}
	}
	return "", false
}

// tiki reports whether d is a tiki drink: a tiki classic by name, or rum
// with a tropical partner (pineapple, orgeat, coconut, falernum…).
func tiki(d Drink) (string, bool) {
	name := fold(d.Name)
	for _, n := range tikiNames {
		if containsWords(name, n) {
			return "tiki", true
		}
	}
	rum, _ := spiritFamilyOf("rum")
	if _, ok := rum.holds(d); !ok {
		return "", false
	}
	for _, ing := range d.Ingredients {
		for _, w := range tropical {
			if containsWords(fold(ing), w) {
				return "tiki", true
			}
		}
	}
	return "", false
}

// likeWords introduce a reference: "something like a Negroni", "bitter
// like Campari", "något som en Negroni", "amargo como Campari".
var likeWords = []string{"like", "likt", "liknande", "lik", "typ", "som", "como", "tipo", "estilo", "parecido", "parecida"}

// articles are skipped between a like word and what it names.
var articles = []string{"a", "an", "the", "en", "ett", "um", "uma", "o", "a", "com", "de", "med", "with"}

// reference is a drink on the menu or an ingredient the guest names as
// what they want something like.
type reference struct {
	// drink is set when the guest named a drink on the menu.
	drink *Drink
	// ingredient is the named ingredient or spirit otherwise ("campari").
	ingredient string
}

// tasteReading is what the reader understands of the guest's words
// beyond single taste words: the references they name and whether they
// want something lighter ("not too strong", "inte för starkt", "nada
// muito forte").
type tasteReading struct {
	refs    []reference
	lighter bool
}

// readTastes reads the guest's likes and mood against menu.
func readTastes(likes []string, mood string, menu []Drink) tasteReading {
	var tr tasteReading
	for _, clause := range guestWords(mood) {
		for i, w := range clause {
			if !slices.Contains(likeWords, w) {
				continue
			}
			rest := clause[i+1:]
			for len(rest) > 0 && slices.Contains(articles, rest[0]) {
				rest = rest[1:]
			}
			if r, ok := findReference(rest, menu); ok {
				tr.refs = append(tr.refs, r)
			}
		}
	}
	// A like that is the name of a drink on the menu asks for it and for
	// what is close to it.
	for _, l := range likes {
		if r, ok := findReference(words(fold(l)), menu); ok && r.drink != nil && len(words(fold(l))) == len(words(fold(r.drink.Name))) {
			tr.refs = append(tr.refs, r)
		}
	}
	_, _, refused := moodsOf(mood)
	tr.lighter = slices.Contains(refused, "strong") || slices.ContainsFunc(likes, func(l string) bool {
		_, _, r := moodsOf(l)
		return slices.Contains(r, "strong")
	})
	return tr
}

// findReference reads the first words of ws (up to three) as a drink of
// menu, by its whole name, or as an ingredient or spirit some drink holds
// or a bitter aperitif.
func findReference(ws []string, menu []Drink) (reference, bool) {
	for n := min(3, len(ws)); n >= 1; n-- {
		phrase := strings.Join(ws[:n], " ")
		for i := range menu {
			if strings.Join(words(fold(menu[i].Name)), " ") == phrase {
				return reference{drink: &menu[i]}, true
			}
		}
		if slices.Contains(bitterAperitifs, phrase) {
			return reference{ingredient: phrase}, true
		}
		if _, ok := spiritFamilyOf(phrase); ok {
			return reference{ingredient: phrase}, true
		}
		for _, d := range menu {
			for _, ing := range d.Ingredients {
				if containsWords(fold(ing), phrase) && family(phrase) == "" && !slices.Contains(articles, phrase) {
					return reference{ingredient: phrase}, true
				}
			}
		}
	}
	return reference{}, false
}

// Weights of a reference: the drink named or one holding the ingredient
// named, a kin (another bitter aperitif), and the most a similar drink
// gets. A similar drink counts from minSimilar (two ingredients, or one
// and two tastes: a shared orange slice is not enough). A kin is more
// than bestBand below the exact match, so the drinks with Campari come
// first and an Aperol drink only after them, or when there is none.
const (
	refExact   = 4.0
	refKin     = 2.0
	refSimilar = 3.5
	minSimilar = 2.0
)

// score is how well d meets r, and the word to name in an explanation.
func (r reference) score(d Drink) (float64, string) {
	if r.drink != nil {
		if d.ID == r.drink.ID {
			return refExact, d.Name
		}
		if s := similarity(d, *r.drink); s >= minSimilar {
			return min(s, refSimilar), r.drink.Name
		}
		return 0, ""
	}
	if f, ok := spiritFamilyOf(r.ingredient); ok {
		if ing, ok := f.holds(d); ok {
			return refExact, ing
		}
		return 0, ""
	}
	for _, ing := range d.Ingredients {
		if containsWords(fold(ing), r.ingredient) {
			return refExact, strings.ToLower(ing)
		}
	}
	if slices.Contains(bitterAperitifs, r.ingredient) {
		if ing, ok := tasteEvidence(d, "bitter"); ok {
			return refKin, ing
		}
	}
	return 0, ""
}

// similarity of d to ref: 1 for each ingredient they share, 0.5 for each
// taste tag.
func similarity(d, ref Drink) float64 {
	s := 0.0
	for _, ing := range d.Ingredients {
		if slices.ContainsFunc(ref.Ingredients, func(o string) bool { return fold(o) == fold(ing) }) {
			s++
		}
	}
	for _, t := range lower(d.Tags) {
		if slices.Contains(lower(ref.Tags), t) {
			s += 0.5
		}
	}
	return s
}

// lighterBonus is what a drink gets from a guest who wants nothing too
// strong: the light ones with some alcohol first, then alcohol-free.
func lighterBonus(d Drink) float64 {
	switch {
	case d.AlcoholFree:
		return 0.5
	case d.ABV > 0 && d.ABV <= 12:
		return 1.5
	}
	return 0
}

// understood is the reader's understanding of the guest's words, in
// English, for the model's prompt: the tastes and references it read and
// the drinks of allowed that meet them, so the model and the house
// recommender agree on what "tiki" or "like Campari" means on this menu.
func (tr tasteReading) understood(likes []string, mood string, allowed []Drink) []string {
	var out []string
	_, moodTastes, _ := moodsOf(mood)
	var tastes []string
	for _, l := range likes {
		if f := family(englishTerm(strings.ToLower(strings.TrimSpace(l)))); f != "" {
			tastes = appendNew(tastes, f)
		}
	}
	for _, t := range moodTastes {
		tastes = appendNew(tastes, family(t))
	}
	for _, t := range tastes {
		var names []string
		for _, d := range allowed {
			if w, _ := termMatch(d, t); w > 0 && len(names) < 6 {
				names = append(names, d.Name)
			}
		}
		if len(names) == 0 {
			out = append(out, fmt.Sprintf("%s: no drink on this menu", t))
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s", t, strings.Join(names, ", ")))
	}
	for _, r := range tr.refs {
		what := r.ingredient
		if r.drink != nil {
			what = r.drink.Name
		}
		var names []string
		for _, d := range allowed {
			if w, _ := r.score(d); w > 0 && len(names) < 6 {
				names = append(names, d.Name)
			}
		}
		out = append(out, fmt.Sprintf("like %s: %s", what, strings.Join(orNone(names), ", ")))
	}
	if tr.lighter {
		out = append(out, "nothing too strong: lower-alcohol drinks first")
	}
	return out
}

func orNone(names []string) []string {
	if len(names) == 0 {
		return []string{"no drink on this menu"}
	}
	return names
}

// understoodFor is the reader's understanding for the model's request:
// the guest's likes and mood read against the drinks they may have (ids).
func understoodFor(in recoInput, byID map[string]Drink, ids []string) []string {
	allowed := make([]Drink, 0, len(ids))
	for _, id := range ids {
		allowed = append(allowed, byID[id])
	}
	likes := dedupe(append(slices.Clone(in.prefs.Likes), in.guest.Likes...))
	return orEmpty(readTastes(likes, in.prefs.Mood, in.menu).understood(likes, in.prefs.Mood, allowed))
}
