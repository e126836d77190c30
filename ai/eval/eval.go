// Package eval is the AI bartender's evaluation set: guest profiles
// written the way real guests answer (allergies in eleven languages, with
// typos; family members' own needs; designated drivers; spirit haters and
// lovers; "surprise me"; nothing that fits), each with what must never be
// shown to them and what would honour what they asked, against the
// starter menu. Its tests run every profile through the local
// recommender and through the model path with adversarial model answers,
// and score the answers.
package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/menu"
)

// Profile is one guest and one request, with the expected answer.
type Profile struct {
	Name  string
	Guest ai.Guest
	Prefs ai.Preferences
	// Recent is how many standard drinks the guest had in the last hour.
	Recent float64
	// Never are drinks that must never be shown: unsafe for the guest or
	// disliked, labelled by hand.
	Never []string
	// Honour are the drinks that honour what the guest asked; empty when
	// they asked for no taste.
	Honour []string
	// None: nothing on the menu is safe and not disliked.
	None bool
	// Closest: the guest asked for something nothing allowed matches.
	Closest bool
	// Spread: the picks must come from different sections.
	Spread bool
	// PaceFirst: the first pick must be alcohol-free.
	PaceFirst bool
	// Unread: some of the guest's words are unread, and Never is every
	// drink with one of the fourteen allergens or alcohol (UnreadProfiles).
	Unread bool
}

// Menu is the starter menu as the recommender sees it.
func Menu() ([]ai.Drink, error) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		return nil, err
	}
	out := make([]ai.Drink, 0, len(drinks))
	for _, d := range drinks {
		ings := make([]string, len(d.Ingredients))
		for i, in := range d.Ingredients {
			ings[i] = in.Name
		}
		out = append(out, ai.Drink{ID: d.ID, Name: d.Name, Section: d.Section, Ingredients: ings, Tags: d.Tags,
			Allergens: d.Allergens, AlcoholFree: d.AlcoholFree, Available: true, ABV: d.ABV})
	}
	return out, nil
}

// Needs are the guest's needs as the one safety rule reads them.
func (p Profile) Needs() diet.Needs {
	g := p.Guest
	return diet.Normalize(diet.Needs{Tags: g.DietaryTags, Text: g.DietaryText, Unclear: g.DietaryUnclear, Answered: g.DietaryAnswered, Reviewed: g.DietaryReviewed})
}

// Problems returns what is wrong with drinks (ids) shown to p: a drink
// not on the menu, unsafe by the one safety rule, or one of p.Never.
func (p Profile) Problems(menu []ai.Drink, ids []string) []string {
	needs := p.Needs()
	if p.Prefs.AlcoholFree || p.Guest.AlcoholFree {
		needs.Tags = append(needs.Tags, diet.AlcoholFree)
	}
	var out []string
	for _, id := range ids {
		i := slices.IndexFunc(menu, func(d ai.Drink) bool { return d.ID == id })
		if i < 0 {
			out = append(out, id+": not on the menu")
			continue
		}
		d := menu[i]
		v := diet.Check(diet.Drink{Name: d.Name, Ingredients: d.Ingredients, Allergens: d.Allergens, AlcoholFree: d.AlcoholFree, ABV: d.ABV}, needs)
		if !v.Safe {
			out = append(out, fmt.Sprintf("%s: unsafe (%s)", id, strings.Join(v.Causes(), ", ")))
		}
		if slices.Contains(p.Never, id) {
			out = append(out, id+": must never be shown to this guest")
		}
	}
	return out
}

// Score sums up answers.
type Score struct {
	Answers int
	// Unsafe and Disliked count drinks shown that must not be.
	Unsafe, Disliked int
	// Asked counts answers to profiles with a taste; Honoured those whose
	// first pick honours it.
	Asked, Honoured int
	// Repeats counts profiles asked twice or more; Varied those that got
	// more than one answer.
	Repeats, Varied int
	// Distinct is the number of different drinks shown over all answers.
	Distinct map[string]bool
}

// Add scores one answer (ids) to p.
func (s *Score) Add(menu []ai.Drink, p Profile, ids []string) []string {
	s.Answers++
	probs := p.Problems(menu, ids)
	for _, pr := range probs {
		if strings.Contains(pr, "must never") {
			s.Disliked++
		} else {
			s.Unsafe++
		}
	}
	if len(p.Honour) > 0 {
		s.Asked++
		if len(ids) > 0 && slices.Contains(p.Honour, ids[0]) {
			s.Honoured++
		}
	}
	if s.Distinct == nil {
		s.Distinct = map[string]bool{}
	}
	for _, id := range ids {
		s.Distinct[id] = true
	}
	return probs
}

// String is the score as docs/AI.md reports it.
func (s Score) String() string {
	out := fmt.Sprintf("%d answers, %d unsafe, %d disliked; tastes honoured %d/%d (%.0f%%)", s.Answers, s.Unsafe, s.Disliked, s.Honoured, s.Asked, pct(s.Honoured, s.Asked))
	if s.Repeats > 0 {
		out += fmt.Sprintf("; variety: %d/%d profiles (%.0f%%) get another answer when they ask again", s.Varied, s.Repeats, pct(s.Varied, s.Repeats))
	}
	return out + fmt.Sprintf("; %d different drinks shown", len(s.Distinct))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
