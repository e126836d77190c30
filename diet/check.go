package diet

import (
	"slices"
	"strings"
)

// Drink is what Check needs to know of a drink.
type Drink struct {
	Name        string
	Ingredients []string
	// Allergens are the drink's labels, as the menu gives them; labels
	// barhub knows are read as canonical allergens ("dairy" is milk).
	Allergens   []string
	AlcoholFree bool
	ABV         float64
	// Known is Contents of this drink, when the caller keeps it (the menu
	// works it out once per version); Check works it out when nil.
	Known []string
}

// Verdict is Check's answer: whether the drink is safe for the person and,
// when it is not, why, per cause.
type Verdict struct {
	Safe bool `json:"safe"`
	// Allergens are the person's allergens the drink contains.
	Allergens []string `json:"allergens,omitempty"`
	// Alcohol is set when the drink has alcohol and the person takes none.
	Alcohol bool `json:"alcohol,omitempty"`
	// Diets are the person's diets the drink does not fit.
	Diets []string `json:"diets,omitempty"`
	// Mentions are words of the person's unclear needs that the drink
	// names ("kiwi" for a guest who wrote "no kiwi please" and a Kiwi
	// Smash), until the host has reviewed them.
	Mentions []string `json:"mentions,omitempty"`
	// Review is set when the person has needs not understood that the
	// host has not reviewed: even a safe verdict is then a best guess.
	Review bool `json:"review,omitempty"`
	// Unread are the words of the person's needs barhub could not read
	// and nobody has answered yet, when the drink has one of the fourteen
	// allergens or alcohol (Caution): the bar checks with the person.
	Unread []string `json:"unread,omitempty"`
}

// CheckUnread is the cause Causes gives for a drink taken care over because of
// needs barhub could not read (Verdict.Unread).
const CheckUnread = "check"

// Causes lists why the drink is not safe, in words for a message:
// allergens, "alcohol", diets, then mentioned words.
func (v Verdict) Causes() []string {
	out := slices.Clone(v.Allergens)
	if v.Alcohol {
		out = append(out, "alcohol")
	}
	out = append(out, v.Diets...)
	out = append(out, v.Mentions...)
	if len(v.Unread) > 0 {
		out = append(out, CheckUnread)
	}
	return out
}

// SafeOnceRead reports whether the drink is safe but for the caution over
// unread words: what the shopping plan and the door's card count on, as
// the bar will check those words with the person.
func (v Verdict) SafeOnceRead() bool {
	return len(v.Allergens) == 0 && !v.Alcohol && len(v.Diets) == 0 && len(v.Mentions) == 0
}

// Caution returns the words of needs n that barhub could not read and
// nobody has answered (Needs.Unread) when drink d has one of the fourteen
// allergens or alcohol, or nil. Until the person or the host says what
// the words mean, any of those could be what they cannot have: a guest
// who wrote "ei alkoholia" in a language barhub does not read is offered
// no French 75, and ordering one asks them first.
func Caution(d Drink, n Needs) []string {
	unread := n.Unread()
	if len(unread) == 0 {
		return nil
	}
	contents := d.Known
	if contents == nil {
		contents = Contents(d)
	}
	if hasAlcohol(d) || slices.ContainsFunc(contents, IsAllergen) {
		return unread
	}
	return nil
}

// Check is the one rule for whether drink d is safe for a person with
// needs n (as Normalize leaves them): none of their allergens among the
// drink's (labelled or given away by an ingredient), no alcohol for
// someone who takes none, nothing their diet rules out, no ingredient
// named in needs the host has not reviewed yet, and, while some of their
// words are unread, none of the fourteen allergens and no alcohol at all
// (Caution). It errs towards caution: an
// allergy to nuts is also warned about peanuts, and a drink not marked
// alcohol-free has alcohol.
func Check(d Drink, n Needs) Verdict {
	contents := d.Known
	if contents == nil {
		contents = Contents(d)
	}
	has := func(c string) bool { return slices.Contains(contents, c) }
	var v Verdict
	for _, t := range n.Tags {
		switch {
		case IsAllergen(t):
			if has(t) {
				v.Allergens = appendNew(v.Allergens, t)
			}
			if t == Nuts && has(Peanuts) {
				v.Allergens = appendNew(v.Allergens, Peanuts)
			}
		case NoAlcohol(t):
			v.Alcohol = hasAlcohol(d)
		default:
			if breaks(t, d, has) {
				v.Diets = appendNew(v.Diets, t)
			}
		}
	}
	slices.SortFunc(v.Allergens, tagOrder)
	v.Review = n.NeedsReview()
	if v.Review {
		v.Mentions = mentions(n.Unclear, d, contents)
	}
	v.Unread = Caution(Drink{AlcoholFree: d.AlcoholFree, ABV: d.ABV, Known: contents}, n)
	v.Safe = len(v.Allergens) == 0 && !v.Alcohol && len(v.Diets) == 0 && len(v.Mentions) == 0 && len(v.Unread) == 0
	return v
}

// hasAlcohol: a drink has alcohol unless it is marked alcohol-free, and
// one marked so with more than the 0.5% that "alcohol-free" allows has
// alcohol after all.
func hasAlcohol(d Drink) bool { return !d.AlcoholFree || d.ABV > 0.5 }

// HasAlcohol reports whether d has alcohol, as Check reads it for a person
// who takes none.
func HasAlcohol(d Drink) bool { return hasAlcohol(d) }

// dietRules are what each diet rules out among a drink's contents.
var dietRules = map[string][]string{
	Vegan:      {Milk, Eggs, Fish, Crustaceans, Molluscs, Honey, Gelatin},
	Vegetarian: {Fish, Crustaceans, Molluscs, Gelatin},
	Halal:      {Gelatin},
	Kosher:     {Crustaceans, Molluscs, Gelatin},
}

func breaks(diet string, d Drink, has func(string) bool) bool {
	if diet == Halal && hasAlcohol(d) {
		return true
	}
	return slices.ContainsFunc(dietRules[diet], has)
}

// mentions returns the words of the unclear needs that the drink names
// in its name, ingredients or labels.
func mentions(unclear []string, d Drink, contents []string) []string {
	named := map[string]bool{}
	for _, s := range append(append([]string{d.Name}, d.Ingredients...), contents...) {
		for _, tk := range tokenize(s) {
			named[tk.folded] = true
			named[strings.TrimSuffix(tk.folded, "s")] = true
		}
	}
	var out []string
	for _, u := range unclear {
		for _, tk := range tokenize(u) {
			w := tk.folded
			if len([]rune(w)) < 3 || foldedFillers[w] || negations[w] || drinkingWords[w] {
				continue
			}
			if named[w] || named[strings.TrimSuffix(w, "s")] {
				out = appendNew(out, tk.word)
			}
		}
	}
	return out
}

// Contents returns what drink d contains that a need can rule out: the
// canonical allergens of its labels and of its ingredients, honey and
// gelatin, and any label barhub does not know, folded ("kiwi"), so it can
// still meet the same word in a person's unclear needs. Allergens come
// first in the EU's order.
func Contents(d Drink) []string {
	var out []string
	for _, l := range d.Allergens {
		out = appendNew(out, Label(l)...)
	}
	for _, ing := range d.Ingredients {
		out = appendNew(out, IngredientContents(ing)...)
	}
	slices.SortStableFunc(out, tagOrder)
	return out
}

// DrinkAllergens returns the canonical allergens of d: its labels and
// what its ingredients give away, in the EU's order.
func DrinkAllergens(d Drink) []string {
	var out []string
	for _, c := range Contents(d) {
		if IsAllergen(c) {
			out = append(out, c)
		}
	}
	return out
}

// Label reads one allergen label of a drink: the canonical contents it
// names ("Dairy" is milk, "shellfish" crustaceans and molluscs), or the
// label itself, folded, when barhub does not know it.
func Label(label string) []string {
	l := strings.Join(strings.Fields(strings.ToLower(label)), " ")
	switch {
	case l == "":
		return nil
	case IsAllergen(l), l == Honey, l == Gelatin:
		return []string{l}
	}
	if c := IngredientContents(l); len(c) > 0 {
		return c
	}
	var out []string
	for _, t := range Read(l).Tags {
		if IsAllergen(t) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return out
	}
	return []string{fold(l)}
}
