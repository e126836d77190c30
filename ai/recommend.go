package ai

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/barhub/barhub/locale"
)

// MaxPicks is how many drinks a recommendation names.
const MaxPicks = 3

// Preferences is what a guest asks for, merged with their RSVP tastes.
type Preferences struct {
	Likes       []string
	Dislikes    []string
	Mood        string
	AlcoholFree bool
	// Language is the guest's ("en", "sv", "pt-BR"): the one their page
	// showed when they asked, else the one of their last sign-in. The
	// reasons are written in it; their words are read in all three.
	Language string
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
	{"smoky", "smoke", "smoked", "peaty"},
	{"tiki", "tikis", "polynesian"},
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
	// A taste the guest's words turn down ("inget sött", "nothing too
	// sweet") is a dislike like a ticked one, for both recommenders.
	_, _, refused := moodsOf(p.Mood)
	dislikes := append(slices.Clone(p.Dislikes), g.Dislikes...)
	return eligibility{
		safety:   newSafetyRule(g, p.AlcoholFree || g.AlcoholFree),
		dislikes: dedupe(append(dislikes, refused...)),
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
	term = englishTerm(strings.ToLower(strings.TrimSpace(term)))
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
	// does not rule out a Negroni for its sweet vermouth. A drink whose
	// tags do not name the taste may still show it by what it is made of
	// (mezcal is smoky, a Mai Tai tiki): tastes.go.
	if best == 0 && fam != "" {
		if ing, ok := tasteEvidence(d, fam); ok {
			return 2, ing
		}
	}
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

// moodsOf reads the guest's words, in English, Swedish or Portuguese:
// the moods they name, the taste words they use ("something sour",
// "något friskt", "algo refrescante") as English words, and the tastes
// they turn down ("nothing sweet", "inget sött", "nada doce"), also as
// English words.
func moodsOf(text string) (found []mood, tastes, refused []string) {
	for _, clause := range guestWords(text) {
		negated := false
		for _, w := range clause {
			switch {
			case slices.Contains(negators, w):
				negated = true
				continue
			case slices.Contains(clauseBreaks, w):
				negated = false
				continue
			}
			if t := englishTerm(w); family(t) != "" {
				if negated {
					refused = appendNew(refused, t)
				} else {
					tastes = appendNew(tastes, t)
				}
			}
			if negated {
				continue
			}
			if m, ok := moodOf(w); ok && !slices.ContainsFunc(found, func(f mood) bool { return f.label == m.label }) {
				found = append(found, m)
			}
		}
	}
	return found, tastes, refused
}

// surprised reports whether the guest asks for anything at all.
func surprised(mood string, likes []string) bool {
	for _, clause := range guestWords(mood) {
		if slices.ContainsFunc(clause, func(w string) bool { return slices.Contains(surpriseWords, w) }) {
			return true
		}
	}
	return slices.ContainsFunc(likes, func(w string) bool { return w == "surprise" || w == "surprise me" || w == "anything" })
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
	// Texts writes the reasons in the guest's language (Prefs.Language);
	// nil loads the catalogues, which a caller asking often should not.
	Texts *locale.Catalog
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
	resembles string // a drink the guest named ("like a Negroni") it is close to
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
	moodsFound, moodTastes, _ := moodsOf(p.Mood)
	read := readTastes(likes, p.Mood, in.Menu)
	surprise := surprised(p.Mood, likes)
	asked := !surprise && (len(likes) > 0 || len(moodsFound) > 0 || len(moodTastes) > 0 || len(read.refs) > 0 || read.lighter)
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
		// "Something like a Negroni", "bitter like Campari": the drink or
		// ingredient named first, then its kin.
		for _, r := range read.refs {
			if w, label := r.score(d); w > 0 {
				s.Score += w
				s.matched = true
				if r.drink != nil && r.drink.ID != d.ID {
					s.resembles = r.drink.Name
				} else {
					s.liked = appendNew(s.liked, label)
				}
			}
		}
		if read.lighter {
			if b := lighterBonus(d); b > 0 {
				s.Score += b
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
	why := newReasons(in.Texts, p.Language)
	for _, c := range chosen {
		c.Reason = el.safety.withCaveat(why.explain(c, el.alcoholFree()), why)
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
