package ai

import (
	"strings"
	"unicode"

	"github.com/barhub/barhub/diet"
)

// safetyRule is the recommenders' view of diet.Check, the one rule for
// whether a drink is safe for a person: both recommenders and the check
// of the model's picks ask it, so a recommendation never names a drink
// that ordering would warn about.
type safetyRule struct {
	needs diet.Needs
}

// newSafetyRule reads g's needs; wantsAlcoholFree is the guest asking
// for alcohol-free drinks (in the request or the RSVP tastes).
func newSafetyRule(g Guest, wantsAlcoholFree bool) safetyRule {
	n := diet.Normalize(diet.Needs{Tags: g.DietaryTags, Text: g.DietaryText, Unclear: g.DietaryUnclear, Answered: g.DietaryAnswered, Reviewed: g.DietaryReviewed})
	if wantsAlcoholFree && !n.Has(diet.AlcoholFree) {
		n.Tags = append(n.Tags, diet.AlcoholFree)
	}
	return safetyRule{needs: n}
}

// alcoholFree reports whether the guest takes no alcohol.
func (r safetyRule) alcoholFree() bool {
	return r.needs.Has(diet.AlcoholFree) || r.needs.Has(diet.Halal)
}

// avoid lists the allergens and diets the guest's needs name, for the
// model's prompt.
func (r safetyRule) avoid() []string {
	var out []string
	for _, t := range r.needs.Tags {
		if !diet.NoAlcohol(t) {
			out = append(out, t)
		}
	}
	return out
}

// unread are the guest's words barhub could not read that nobody has
// answered: while there are any, only drinks free of the fourteen
// allergens and of alcohol pass check (diet.Caution).
func (r safetyRule) unread() []string { return r.needs.Unread() }

// caveat is the sentence each pick carries while some of the guest's
// words are unread, in their language: why the choice is short.
func (r safetyRule) caveat(why reasons) string {
	u := r.unread()
	if len(u) == 0 {
		return ""
	}
	q := make([]string, len(u))
	for i, w := range u {
		q[i] = "“" + w + "”"
	}
	return why.text("reco.reason.unread", map[string]any{"Words": why.list(q)})
}

// withCaveat is reason followed by the caveat, if any.
func (r safetyRule) withCaveat(reason string, why reasons) string {
	if c := r.caveat(why); c != "" {
		return reason + " " + c
	}
	return reason
}

// check returns why d is not safe for the guest, or "" when it is.
func (r safetyRule) check(d Drink) string {
	v := diet.Check(dietDrink(d), r.needs)
	if v.Safe {
		return ""
	}
	return "not safe for the guest: " + strings.Join(v.Causes(), ", ")
}

func dietDrink(d Drink) diet.Drink {
	return diet.Drink{Name: d.Name, Ingredients: d.Ingredients, Allergens: d.Allergens, AlcoholFree: d.AlcoholFree, ABV: d.ABV}
}

// drinkAllergens is what d contains, as the menu names allergens: its
// labels and what its ingredients give away.
func drinkAllergens(d Drink) []string {
	return diet.DrinkAllergens(dietDrink(d))
}

// words splits s into lower-case words, keeping hyphens inside words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}
