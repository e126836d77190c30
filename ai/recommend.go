package ai

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
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
	for _, t := range tagsOf(d) {
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

// PastOrder is one drink a guest ordered before.
type PastOrder struct {
	DrinkID string
	At      time.Time
	// StandardDrinks is the alcohol of the line (all its glasses).
	StandardDrinks float64
}

// Pacing: a guest who had at least paceDrinks standard drinks within
// paceWindow is offered an alcohol-free drink first.
const (
	paceDrinks = 2.0
	paceWindow = time.Hour
)

// recentDrinks is how many standard drinks (rounded down) the guest had
// within paceWindow before now.
func recentDrinks(past []PastOrder, now time.Time) int {
	sum := 0.0
	for _, o := range past {
		if !o.At.IsZero() && o.At.After(now.Add(-paceWindow)) && !o.At.After(now) {
			sum += o.StandardDrinks
		}
	}
	return int(sum)
}

// LocalInput is what the local recommender answers from.
type LocalInput struct {
	Menu  []Drink
	Guest Guest
	Prefs Preferences
	Past  []PastOrder
	// Now is the time of the request, for pacing.
	Now time.Time
}

// LocalAnswer is the local recommender's answer.
type LocalAnswer struct {
	Picks []Pick
	// Fits is false when the guest asked for something (likes, a mood)
	// that no drink they may have matches: the picks are the closest.
	Fits bool
}

// scored is a drink's score with the evidence for its explanation.
type scored struct {
	Pick
	liked     []string
	moodLabel string
	again     bool
	like      string // a past order it resembles
	pace      bool   // alcohol-free, offered for pacing
	matched   bool   // it meets a like or the mood
}

// Recommend picks up to MaxPicks drinks for a guest without a model.
// Only drinks the guest may have are considered: available, safe by the
// safety rule, not disliked. Each scores by how its tags (and its
// strength, from the ABV), ingredients, spirit family and name meet the
// guest's likes (+3 a tag, +2 a related taste, an ingredient or the
// name), the mood they describe (+1.5 a suiting taste, +1.5 the right
// strength), their past orders (+1 ordered before, +0.5 a shared tag, at
// most +1.5) and their pace (+3 alcohol-free after paceDrinks within the
// hour). The picks are drawn at random, weighted by score, from the best
// matches, so a second ask may give another answer; with no match at
// all every drink is as good, and the draw spreads over the sections.
// "Surprise me" spreads over the sections too. rnd nil uses a fresh
// random source.
func Recommend(in LocalInput, rnd *rand.Rand) LocalAnswer {
	if rnd == nil {
		rnd = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	g, p := in.Guest, in.Prefs
	el := newEligibility(g, p)
	likes := dedupe(append(slices.Clone(p.Likes), g.Likes...))
	moodsFound, moodTastes := moodsOf(p.Mood)
	surprise := slices.ContainsFunc(append(words(p.Mood), likes...), func(w string) bool { return w == "surprise" || w == "surprise me" || w == "anything" })
	asked := !surprise && (len(likes) > 0 || len(moodsFound) > 0 || len(moodTastes) > 0)
	pacing := !el.alcoholFree() && float64(recentDrinks(in.Past, in.Now)) >= paceDrinks

	byID := make(map[string]Drink, len(in.Menu))
	for _, d := range in.Menu {
		byID[d.ID] = d
	}
	ordered := map[string]bool{}
	var pastDrinks []Drink
	for _, o := range in.Past {
		if d, ok := byID[o.DrinkID]; ok && !ordered[o.DrinkID] {
			pastDrinks = append(pastDrinks, d)
		}
		ordered[o.DrinkID] = true
	}

	var cands []scored
	for _, d := range in.Menu {
		if el.refuse(d) != "" {
			continue
		}
		s := scored{Pick: Pick{Drink: d}}
		for _, l := range likes {
			if w, label := termMatch(d, l); w > 0 {
				s.Score += w
				s.liked = appendNew(s.liked, label)
				s.matched = true
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
			s.matched = s.matched || hit
		}
		for _, t := range moodTastes {
			if w, label := termMatch(d, t); w > 0 {
				s.Score += 1.5
				s.liked = appendNew(s.liked, label)
				s.matched = true
			}
		}
		if ordered[d.ID] {
			s.Score++
			s.again = true
		} else {
			bonus := 0.0
			for _, pd := range pastDrinks {
				shared := 0
				for _, tag := range tagsOf(d) {
					if slices.Contains(tagsOf(pd), tag) {
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
		if pacing && d.AlcoholFree {
			s.Score += 3
			s.pace = true
		}
		cands = append(cands, s)
	}
	// A stable order first, so that a given random source always gives
	// the same answer whatever the order of the menu.
	slices.SortFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Drink.ID, b.Drink.ID)
	})
	chosen := draw(cands, rnd, surprise || !slices.ContainsFunc(cands, func(c scored) bool { return c.Score > 0 }))
	ans := LocalAnswer{Fits: !asked || slices.ContainsFunc(cands, func(c scored) bool { return c.matched })}
	for _, c := range chosen {
		c.Reason = explain(c, el.alcoholFree())
		ans.Picks = append(ans.Picks, c.Pick)
	}
	if len(ans.Picks) == 0 {
		ans.Fits = false
	}
	return ans
}

// bestBand is how far below the best score a drink still counts as one
// of the best matches.
const bestBand = 1.5

// draw picks up to MaxPicks of cands (sorted best first): each pick at
// random among the remaining best matches (within bestBand of the best
// remaining score), weighted by score. With spread, drinks from a
// section not yet picked go first.
func draw(cands []scored, rnd *rand.Rand, spread bool) []scored {
	left := slices.Clone(cands)
	var out []scored
	sections := map[string]bool{}
	for len(out) < MaxPicks && len(left) > 0 {
		pool := left
		if spread {
			var fresh []scored
			for _, c := range left {
				if !sections[c.Drink.Section] {
					fresh = append(fresh, c)
				}
			}
			if len(fresh) > 0 {
				pool = fresh
			}
		}
		// The best matches: within bestBand of the best, and matching at
		// all when the best does.
		top := pool[0].Score
		n := 0
		for n < len(pool) && pool[n].Score >= top-bestBand && (top <= 0 || pool[n].Score > 0) {
			n++
		}
		// Weights 1 (at the edge of the band) to 1+bestBand (the best).
		weight := func(c scored) float64 { return 1 + max(c.Score-(top-bestBand), 0) }
		total := 0.0
		for _, c := range pool[:n] {
			total += weight(c)
		}
		x := rnd.Float64() * total
		i := 0
		for ; i < n-1; i++ {
			if x -= weight(pool[i]); x < 0 {
				break
			}
		}
		c := pool[i]
		out = append(out, c)
		sections[c.Drink.Section] = true
		left = slices.DeleteFunc(left, func(o scored) bool { return o.Drink.ID == c.Drink.ID })
	}
	// The pace pick leads: it is the point of the answer.
	slices.SortStableFunc(out, func(a, b scored) int {
		switch {
		case a.pace && !b.pace:
			return -1
		case b.pace && !a.pace:
			return 1
		}
		return 0
	})
	return out
}

// tagsOf is d's taste tags, lower-case, with its strength read from the
// ABV: "strong" from 20%, "light" up to 8% or alcohol-free.
func tagsOf(d Drink) []string {
	tags := lower(d.Tags)
	switch {
	case d.AlcoholFree || d.ABV > 0 && d.ABV <= 8:
		tags = appendNew(tags, "light")
	case d.ABV >= 20:
		tags = appendNew(tags, "strong")
	}
	return tags
}

// explain says in one sentence why s was picked.
func explain(s scored, alcoholFree bool) string {
	var parts []string
	if s.pace {
		parts = append(parts, "an alcohol-free one to pace the evening")
	}
	if len(s.liked) > 0 {
		parts = append(parts, listJoin(s.liked[:min(len(s.liked), 3)])+", just what you like")
	}
	if s.moodLabel != "" && len(parts) < 2 {
		parts = append(parts, "made for "+article(s.moodLabel)+" "+s.moodLabel+" mood")
	}
	switch {
	case len(parts) >= 2:
	case s.again:
		parts = append(parts, "you have enjoyed it before")
	case s.like != "":
		parts = append(parts, "close to the "+s.like+" you ordered before")
	}
	if len(parts) == 0 {
		parts = append(parts, describe(s.Drink))
	}
	sentence := listJoin(parts)
	if alcoholFree && s.Drink.AlcoholFree && !s.pace {
		sentence += " — and alcohol-free"
	}
	return capitalize(sentence) + "."
}

// article is "a" or "an" for the word that follows it.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(strings.ToLower(word)[0])) {
		return "an"
	}
	return "a"
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
