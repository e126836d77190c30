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
	n := diet.Normalize(diet.Needs{Tags: g.DietaryTags, Text: g.DietaryText})
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
