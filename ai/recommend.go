package ai

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MaxPicks is how many drinks a recommendation names.
const MaxPicks = 3

// Preferences is what a guest asks for, merged with their RSVP tastes.
type Preferences struct {
	Likes       []string
	Dislikes    []string
	Mood        string
	AlcoholFree bool
}

// Pick is one recommended drink, its score and why it was picked.
type Pick struct {
	Drink  Drink
	Score  float64
	Reason string
}

// tasteFamilies group words that name the same taste, so a guest who likes
// "citrusy" meets a drink tagged "sour". The first word is the family's
// name, used in explanations.
var tasteFamilies = [][]string{
	{"sour", "tart", "citrus", "citrusy", "lemony", "zesty", "tangy", "sharp"},
	{"sweet", "sugary", "dessert", "candy"},
	{"bitter", "bittersweet", "amaro", "aperitivo"},
	{"fresh", "refreshing", "crisp", "cooling", "minty"},
	{"strong", "boozy", "spirit-forward", "stiff", "potent"},
	{"fruity", "fruit", "berry", "berries", "tropical", "juicy"},
	{"spicy", "spice", "spiced", "warming"},
	{"sparkling", "bubbly", "bubbles", "fizzy", "fizz"},
	{"creamy", "velvety", "silky", "rich", "smooth"},
	{"herbal", "herbaceous", "botanical", "green"},
	{"smoky", "smoke", "peaty"},
	{"floral", "flowery"},
	{"dry"},
	{"light"},
}

// family returns the name of the taste family of w, or "".
func family(w string) string {
	for _, f := range tasteFamilies {
		if slices.Contains(f, w) {
			return f[0]
		}
	}
	return ""
}

// mood is a feeling a guest may describe, and the tastes that suit it.
type mood struct {
	words []string
	label string
	tags  []string
	// abv is "light" (favour low or no alcohol) or "strong".
	abv string
}

var moods = []mood{
	{[]string{"celebrate", "celebrating", "celebration", "party", "partying", "festive", "birthday", "toast", "happy", "excited"}, "festive", []string{"sparkling", "fruity", "sweet"}, ""},
	{[]string{"relax", "relaxed", "relaxing", "chill", "chilled", "calm", "mellow", "tired", "lazy", "unwind"}, "relaxed", []string{"creamy", "herbal", "sweet"}, "light"},
	{[]string{"refresh", "refreshed", "thirsty", "summer", "summery", "sunny", "heat", "hot"}, "refreshing", []string{"fresh", "sour", "sparkling"}, "light"},
	{[]string{"adventurous", "adventure", "surprise", "different", "curious", "bold", "daring"}, "adventurous", []string{"bitter", "smoky", "spicy", "herbal"}, ""},
	{[]string{"cosy", "cozy", "cold", "winter", "chilly", "rainy"}, "cosy", []string{"spicy", "creamy", "strong"}, ""},
	{[]string{"boozy", "stiff"}, "spirited", []string{"strong"}, "strong"},
	{[]string{"easy", "pacing", "pace", "driving", "early", "sober", "slow"}, "easy-going", []string{"fresh", "light"}, "light"},
	{[]string{"treat", "indulgent", "indulge"}, "indulgent", []string{"sweet", "creamy"}, ""},
}

// eligibility is what every recommended drink must satisfy, whoever picks
// it: available, safe for the guest (the safety rule), and not something
// they dislike.
type eligibility struct {
	safety   safetyRule
	dislikes []string
}

func newEligibility(g Guest, p Preferences) eligibility {
	return eligibility{
		safety:   newSafetyRule(g, p.AlcoholFree || g.AlcoholFree),
		dislikes: dedupe(append(slices.Clone(p.Dislikes), g.Dislikes...)),
	}
}

// alcoholFree reports whether only alcohol-free drinks may be offered.
func (e eligibility) alcoholFree() bool { return e.safety.alcoholFree() }

// refuse returns why d may not be recommended, or "" when it may.
func (e eligibility) refuse(d Drink) string {
	if !d.Available {
		return "not available"
	}
	if why := e.safety.check(d); why != "" {
		return why
	}
	return dislikedBy(d, e.dislikes)
}

// termMatch says how well a preference term matches d, and the word to
// name in an explanation. 3: a tag; 2: a tag of the same taste family, an
// ingredient or a word of the name.
func termMatch(d Drink, term string) (float64, string) {
	term = strings.ToLower(strings.TrimSpace(term))
	if term == "" {
		return 0, ""
	}
	fam := family(term)
	best, label := 0.0, ""
	for _, tag := range d.Tags {
		t := strings.ToLower(tag)
		switch {
		case t == term:
			return 3, t
		case fam != "" && family(t) == fam && best < 2:
			best, label = 2, t
		}
	}
	// A taste word is about the taste, not the label: disliking "sweet"
	// does not rule out a Negroni for its sweet vermouth.
	if best == 2 || fam != "" {
		return best, label
	}
	for _, ing := range d.Ingredients {
		if containsWords(fold(ing), fold(term)) {
			return 2, strings.ToLower(ing)
		}
	}
	if f, ok := spiritFamilyOf(term); ok {
		if ing, ok := f.holds(d); ok {
			return 2, ing
		}
	}
	if containsWords(fold(d.Name), fold(term)) {
		return 2, term
	}
	return 0, ""
}

// containsWords reports whether the words of phrase appear in s, in
// order and whole: "gin" is in "London dry gin" but not in "ginger beer".
func containsWords(s, phrase string) bool {
	hay, needle := words(s), words(phrase)
	if len(needle) == 0 {
		return false
	}
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}

// moodsOf finds the moods named in the guest's words, and taste words
// they used ("something sour").
func moodsOf(text string) ([]mood, []string) {
	var found []mood
	var tastes []string
	for _, w := range words(text) {
		for _, m := range moods {
			if slices.Contains(m.words, w) && !slices.ContainsFunc(found, func(f mood) bool { return f.label == m.label }) {
				found = append(found, m)
			}
		}
		if f := family(w); f != "" && !slices.Contains(tastes, w) {
			tastes = append(tastes, w)
		}
	}
	return found, tastes
}

// scored is a drink's score with the evidence for its explanation.
type scored struct {
	Pick
	liked     []string
	moodLabel string
	again     bool
	like      string // a past order it resembles
}

// RecommendLocal picks up to MaxPicks drinks from menu for g without a
// model. Each drink scores by how its tags, ingredients and name meet the
// guest's likes (+3 a tag, +2 a related taste, an ingredient or the name)
// and dislikes (-4), the mood they describe (+1.5 a suiting taste, +1.5
// for the right strength), and their past orders (+1 ordered before,
// +0.5 a shared tag, at most +1.5). Drinks the guest may not have (not
// available, an allergen, alcohol when they want none) and drinks they
// dislike are never picked. Ties go to the name, so the answer is the
// same every time.
func RecommendLocal(menu []Drink, g Guest, p Preferences, pastOrders []string) []Pick {
	el := newEligibility(g, p)
	likes := dedupe(append(slices.Clone(p.Likes), g.Likes...))
	moodsFound, moodTastes := moodsOf(p.Mood)

	byID := make(map[string]Drink, len(menu))
	for _, d := range menu {
		byID[d.ID] = d
	}
	ordered := map[string]bool{}
	var pastDrinks []Drink
	for _, id := range pastOrders {
		if d, ok := byID[id]; ok && !ordered[id] {
			pastDrinks = append(pastDrinks, d)
		}
		ordered[id] = true
	}

	var cands []scored
	for _, d := range menu {
		if el.refuse(d) != "" {
			continue
		}
		s := scored{Pick: Pick{Drink: d}}
		for _, l := range likes {
			if w, label := termMatch(d, l); w > 0 {
				s.Score += w
				s.liked = appendNew(s.liked, label)
			}
		}
		for _, m := range moodsFound {
			hit := false
			for _, tag := range m.tags {
				if w, _ := termMatch(d, tag); w > 0 {
					s.Score += 1.5
					hit = true
				}
			}
			switch {
			case m.abv == "light" && (d.AlcoholFree || d.ABV <= 8):
				s.Score += 1.5
				hit = true
			case m.abv == "light" && d.ABV >= 20:
				s.Score--
			case m.abv == "strong" && d.ABV >= 20:
				s.Score += 1.5
				hit = true
			}
			if hit && s.moodLabel == "" {
				s.moodLabel = m.label
			}
		}
		for _, t := range moodTastes {
			if w, label := termMatch(d, t); w > 0 {
				s.Score += 1.5
				s.liked = appendNew(s.liked, label)
			}
		}
		if ordered[d.ID] {
			s.Score++
			s.again = true
		} else {
			bonus := 0.0
			for _, pd := range pastDrinks {
				shared := 0
				for _, tag := range d.Tags {
					if slices.ContainsFunc(pd.Tags, func(t string) bool { return strings.EqualFold(t, tag) }) {
						shared++
					}
				}
				if shared > 0 && s.like == "" {
					s.like = pd.Name
				}
				bonus += 0.5 * float64(shared)
			}
			s.Score += min(bonus, 1.5)
		}
		cands = append(cands, s)
	}
	slices.SortStableFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(strings.ToLower(a.Drink.Name), strings.ToLower(b.Drink.Name)); c != 0 {
			return c
		}
		return cmp.Compare(a.Drink.ID, b.Drink.ID)
	})
	picks := make([]Pick, 0, MaxPicks)
	for _, c := range cands[:min(len(cands), MaxPicks)] {
		c.Reason = explain(c, el.alcoholFree())
		picks = append(picks, c.Pick)
	}
	return picks
}

// explain says in one sentence why s was picked.
func explain(s scored, alcoholFree bool) string {
	var parts []string
	if len(s.liked) > 0 {
		parts = append(parts, listJoin(s.liked[:min(len(s.liked), 3)])+", just what you like")
	}
	if s.moodLabel != "" {
		parts = append(parts, "made for a "+s.moodLabel+" mood")
	}
	switch {
	case s.again:
		parts = append(parts, "you have enjoyed it before")
	case s.like != "" && len(parts) < 2:
		parts = append(parts, "close to the "+s.like+" you ordered before")
	}
	if len(parts) == 0 {
		parts = append(parts, describe(s.Drink))
	}
	sentence := listJoin(parts)
	if alcoholFree && s.Drink.AlcoholFree {
		sentence += " — and alcohol-free"
	}
	return capitalize(sentence) + "."
}

// describe is the explanation of a pick with no particular match: what
// kind of drink it is.
func describe(d Drink) string {
	var b strings.Builder
	b.WriteString("a good place to start")
	if len(d.Tags) > 0 {
		fmt.Fprintf(&b, ": %s", listJoin(lower(d.Tags[:min(len(d.Tags), 2)])))
	}
	if len(d.Ingredients) > 0 {
		fmt.Fprintf(&b, ", with %s", listJoin(lower(d.Ingredients[:min(len(d.Ingredients), 2)])))
	}
	return b.String()
}

func listJoin(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func capitalize(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

func lower(items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = strings.ToLower(s)
	}
	return out
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// dedupe trims, lower-cases and removes repeats and blanks.
func dedupe(items []string) []string {
	var out []string
	for _, it := range items {
		out = appendNew(out, strings.ToLower(strings.TrimSpace(it)))
	}
	return out
}
