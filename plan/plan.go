// Package plan is the shopping and stock plan: from the people coming,
// what they like and may have, and the menu, how many of each drink the
// bar should be ready to make and what to buy for them.
//
// The model, in order:
//
//  1. Each coming person drinks Params.DrinksPerHead() over the evening.
//  2. A person's drinks are shared out over the drinks they may have (the
//     ones diet.Check finds safe for their dietary needs, each companion
//     with needs of their own counted apart; only alcohol-free ones when
//     they asked for alcohol-free), weighted by taste: 1, plus LikeBoost for
//     each like a drink meets (a tag, an ingredient or a word of its name),
//     times DislikeFactor when it meets a dislike. No tastes: equal shares.
//  3. When orders have been placed, their shares are blended in: the taste
//     model counts as one order per coming person, the real orders as
//     themselves, so the more people order the more the plan follows them.
//  4. The margin goes on top. The ingredients are the recipes times those
//     planned drinks, bought in whole packs (see purchase.go): only the
//     packs are rounded, so forty drinks on the menu do not each add a
//     rounded-up glass to the list.
//  5. When the menu is big for the headcount, a smaller menu that shares
//     bottles is proposed (trim.go).
//
// Plan is plain arithmetic on its input: the same input gives the same
// plan, and tests give exact numbers.
package plan

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
)

// Taste weights.
const (
	// LikeBoost is added to a drink's weight for each like it meets: a
	// drink meeting one like is three times as likely as a plain one.
	LikeBoost = 2.0
	// DislikeFactor scales a drink that meets a dislike: near zero, not
	// zero, because "bitter" in a form is not a vow never to have one.
	DislikeFactor = 0.05
)

// Guest is what the plan knows of one coming guest, or of the people on
// one answer who share the same needs.
type Guest struct {
	// Heads is the people this entry stands for: the guest and anyone
	// without their own code who has no needs of their own; a companion
	// with their own needs is an entry of their own.
	Heads       int
	Likes       []string
	Dislikes    []string
	AlcoholFree bool
	// Needs are the dietary needs diet.Check reads.
	Needs diet.Needs
}

// GuestOf reads a guest's own answer for the plan: heads, tastes and
// dietary needs (see GuestsOf for the people they bring).
func GuestOf(g guest.Guest) Guest {
	return Guest{
		Heads:       g.Heads(),
		Likes:       g.Tastes.Likes,
		Dislikes:    g.Tastes.Dislikes,
		AlcoholFree: g.Tastes.AlcoholFree || g.Child(),
		Needs:       g.Dietary.Needs(),
	}
}

// GuestsOf reads a guest's answer person by person: each companion with
// needs of their own, or marked as a child, is an entry of one head (with
// the guest's tastes; a child's alcohol-free); the guest's entry counts
// the rest. A guest who is a child is an alcohol-free entry of one head,
// and the people they bring without needs of their own an entry apart.
func GuestsOf(g guest.Guest) []Guest {
	self := GuestOf(g)
	out := []Guest{self}
	for _, c := range g.Companions {
		if self.Heads <= 1 {
			break
		}
		if c.Dietary.Empty() && !c.Child() {
			continue
		}
		self.Heads--
		out = append(out, Guest{Heads: 1, Likes: self.Likes, Dislikes: self.Dislikes, AlcoholFree: g.Tastes.AlcoholFree || c.Child(), Needs: c.Dietary.Needs()})
	}
	if g.Child() && self.Heads > 1 {
		out = append(out, Guest{Heads: self.Heads - 1, Likes: self.Likes, Dislikes: self.Dislikes, AlcoholFree: g.Tastes.AlcoholFree})
		self.Heads = 1
	}
	out[0] = self
	return out
}

// Input is everything a plan is made from.
type Input struct {
	Guests []Guest
	// Drinks is the whole menu. Drinks the bar switched off as a whole are
	// left out; drinks waiting only for an ingredient out of stock are
	// planned, and the ingredient is flagged: it is what to buy.
	Drinks []menu.Drink
	// Ordered counts glasses ordered so far by drink id (not cancelled).
	Ordered map[string]int
	// OutOfStock holds the keys of ingredients the bar marked out.
	OutOfStock map[string]bool
	Params     Params
	// Trimmed asks for the plan of the trimmed menu, when there is one.
	Trimmed bool
	// Learnt multiplies each ingredient's amount by its factor (Learn);
	// the zero value learns nothing.
	Learnt Learnt
}

// Plan is the answer.
type Plan struct {
	Params        Params  `json:"parameters"`
	DrinksPerHead float64 `json:"drinksPerHead"`
	// Headcount is the people coming; Invitations the answers behind
	// them; WithTastes the answers that gave likes or dislikes.
	Headcount   int `json:"headcount"`
	Invitations int `json:"invitations"`
	WithTastes  int `json:"withTastes"`
	// UnservedHeads are people for whom the menu has nothing they may
	// have (say, alcohol-free guests and no alcohol-free drink); their
	// drinks are not planned.
	UnservedHeads int `json:"unservedHeads"`
	// OrderedSoFar is the glasses ordered of planned drinks;
	// ObservedWeight the share of the plan that follows them (0 to 1).
	OrderedSoFar   int     `json:"orderedSoFar"`
	ObservedWeight float64 `json:"observedWeight"`
	// ExpectedDrinks is before the margin, PlannedDrinks after it, and
	// Servings that rounded up.
	ExpectedDrinks float64      `json:"expectedDrinks"`
	PlannedDrinks  float64      `json:"plannedDrinks"`
	Servings       int          `json:"servings"`
	Drinks         []DrinkPlan  `json:"drinks"`
	Ingredients    []Need       `json:"ingredients"`
	Skipped        []SkipReason `json:"skipped"`
	// Bottles is how many bottles of spirits, liqueurs, bitters and wine
	// the list buys: the big spend, and what a menu too big for the
	// headcount multiplies.
	Bottles int `json:"bottles"`
	// Trim proposes a smaller menu when this one is big for the
	// headcount (nil when it is not); Trimmed is set when the drinks and
	// the list above are that smaller menu's (Input.Trimmed).
	Trim    *Trim `json:"trim"`
	Trimmed bool  `json:"trimmed"`
	// LearntFrom is the night the ingredients' factors were learnt from
	// (Input.Learnt), "" when none.
	LearntFrom string `json:"learntFrom,omitempty"`
}

// DrinkPlan is one drink's expectation.
type DrinkPlan struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Section     string `json:"section"`
	AlcoholFree bool   `json:"alcoholFree"`
	// Available is false while an ingredient is out of stock.
	Available bool `json:"available"`
	// Expected is drinks over the evening and Planned with the margin,
	// both to one decimal; Servings is Planned rounded up: how many to be
	// ready for.
	Expected float64 `json:"expected"`
	Planned  float64 `json:"planned"`
	Servings int     `json:"servings"`
	Ordered  int     `json:"ordered"`
}

// Amount is a quantity in one unit.
type Amount struct {
	Amount float64 `json:"amount"`
	Unit   string  `json:"unit"`
}

// Need is one line of the shopping list.
type Need struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Amounts is the total: liquids in ml to one decimal, counted things
	// in their own units (wedges, leaves), rounded up to whole ones.
	Amounts []Amount `json:"amounts"`
	// Packs of Pack to buy, rounded up; 0 when there is no conversion and
	// the amounts are the list. Buy says it in words: "3 limes".
	Packs int    `json:"packs"`
	Pack  string `json:"pack"`
	Buy   string `json:"buy"`
	// PackID and NoteID name the pack and the note for the pages'
	// catalogues (shopping.pack.<id>, shopping.note.<id>); empty when
	// there is none, or the note is made of several.
	PackID string `json:"packId,omitempty"`
	NoteID string `json:"noteId,omitempty"`
	// Guess is set when the pack size is an average; Note says which.
	Guess bool   `json:"guess"`
	Note  string `json:"note"`
	// OutOfStock: the bar has marked it out.
	OutOfStock bool     `json:"outOfStock"`
	Drinks     []string `json:"drinks"`
	// Factor is the learnt factor the amounts were multiplied by (0: none).
	Factor float64 `json:"factor,omitempty"`
}

// SkipReason names a drink left out of the plan.
type SkipReason struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Make builds the plan. Input parameters are validated by the caller
// (Params.Validate); zero coming guests give an empty plan. When the menu
// is big for the headcount the plan carries a Trim (see trim.go), and with
// Input.Trimmed its drinks and shopping list are the trimmed menu's.
func Make(in Input) Plan {
	m := newModel(in)
	p := m.plan(nil)
	t := m.trim(p)
	if t != nil && in.Trimmed {
		p = m.plan(t.keep)
		p.Trimmed = true
	}
	p.Trim = t
	if len(in.Learnt.Factors) > 0 {
		p.LearntFrom = in.Learnt.Date
	}
	return p
}

// model is what a plan is computed from, worked out once so the trim can
// try many menus cheaply: the drinks the bar has not switched off and how
// much each guest would like each of them.
type model struct {
	in      Input
	drinks  []menu.Drink
	skipped []SkipReason
	guests  []Guest
	// weights[g][d] is how likely guests[g] is to pick drinks[d]; 0 when
	// they may not have it.
	weights                            [][]float64
	headcount, invitations, withTastes int
	packs                              map[string]packLookup
}

type packLookup struct {
	pack  pack
	known bool
}

func newModel(in Input) *model {
	m := &model{in: in, skipped: []SkipReason{}, packs: map[string]packLookup{}}
	for _, d := range in.Drinks {
		if d.OutOfStock {
			m.skipped = append(m.skipped, SkipReason{ID: d.ID, Name: d.Name, Reason: "switched off by the bar"})
			continue
		}
		m.drinks = append(m.drinks, d)
	}
	facts := make([]drinkFacts, len(m.drinks))
	for i, d := range m.drinks {
		facts[i] = factsOf(d)
	}
	for _, g := range in.Guests {
		if g.Heads <= 0 {
			continue
		}
		m.headcount += g.Heads
		m.invitations++
		if len(g.Likes)+len(g.Dislikes) > 0 {
			m.withTastes++
		}
		w := make([]float64, len(m.drinks))
		for i, d := range m.drinks {
			w[i] = weight(d, facts[i], g)
		}
		m.guests = append(m.guests, g)
		m.weights = append(m.weights, w)
	}
	return m
}

// packFor is packFor, remembered per key.
func (m *model) packFor(key string) (pack, bool) {
	if l, ok := m.packs[key]; ok {
		return l.pack, l.known
	}
	p, known := packFor(key)
	m.packs[key] = packLookup{p, known}
	return p, known
}

// plan is the plan for the drinks keep marks (nil: all of them).
func (m *model) plan(keep []bool) Plan {
	in := m.in
	p := Plan{
		Params: in.Params, DrinksPerHead: round1(in.Params.DrinksPerHead()),
		Headcount: m.headcount, Invitations: m.invitations, WithTastes: m.withTastes,
		Drinks: []DrinkPlan{}, Ingredients: []Need{}, Skipped: m.skipped,
	}
	drinks, model, total, unserved := m.share(keep)
	p.UnservedHeads = unserved
	if p.Headcount == 0 || len(drinks) == 0 {
		p.UnservedHeads = p.Headcount
		return p
	}

	// Real orders, blended in.
	expectedOf, observed, alpha := m.blend(drinks, model, total)
	p.OrderedSoFar = observed
	p.ObservedWeight = math.Round(alpha*1000) / 1000

	margin := 1 + in.Params.Margin
	planned := make([]float64, len(drinks))
	for i, d := range drinks {
		expected := expectedOf[i]
		planned[i] = expected * margin
		p.ExpectedDrinks += expected
		p.PlannedDrinks += planned[i]
		p.Drinks = append(p.Drinks, DrinkPlan{
			ID: d.ID, Name: d.Name, Section: d.Section, AlcoholFree: d.AlcoholFree, Available: d.Available,
			Expected: round1(expected), Planned: round1(planned[i]), Servings: ceil(planned[i]), Ordered: max(0, in.Ordered[d.ID]),
		})
	}
	p.Servings = ceil(p.PlannedDrinks)
	p.ExpectedDrinks, p.PlannedDrinks = round1(p.ExpectedDrinks), round1(p.PlannedDrinks)
	// Most planned first, on the unrounded figures so the list reads in
	// the order of what is shown to one decimal.
	order := make([]int, len(drinks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if planned[i] != planned[j] {
			return planned[i] > planned[j]
		}
		return drinks[i].Name < drinks[j].Name
	})
	sorted := make([]DrinkPlan, len(order))
	for k, i := range order {
		sorted[k] = p.Drinks[i]
	}
	p.Drinks = sorted
	p.Ingredients = m.shoppingList(drinks, planned)
	p.Bottles = bottles(p.Ingredients)
	return p
}

// share picks the drinks keep marks (nil: all) and shares each guest's
// drinks over them by weight: the drinks, each one's share (model),
// the drinks shared out in all, and the heads with nothing to have.
func (m *model) share(keep []bool) (drinks []menu.Drink, model []float64, total float64, unserved int) {
	var idx []int // index into m.drinks
	for i, d := range m.drinks {
		if keep == nil || keep[i] {
			drinks = append(drinks, d)
			idx = append(idx, i)
		}
	}
	if len(drinks) == 0 {
		return drinks, nil, 0, m.headcount
	}
	model = make([]float64, len(drinks))
	perHead := m.in.Params.DrinksPerHead()
	for gi, g := range m.guests {
		w := m.weights[gi]
		sum := 0.0
		for _, i := range idx {
			sum += w[i]
		}
		if sum == 0 {
			unserved += g.Heads
			continue
		}
		demand := float64(g.Heads) * perHead
		total += demand
		for k, i := range idx {
			model[k] += demand * w[i] / sum
		}
	}
	return drinks, model, total, unserved
}

// blend mixes the orders so far into the taste model's shares: each
// drink's expected glasses, the glasses ordered, and the orders' weight.
func (m *model) blend(drinks []menu.Drink, model []float64, total float64) (expected []float64, observed int, alpha float64) {
	for _, d := range drinks {
		observed += max(0, m.in.Ordered[d.ID])
	}
	if observed > 0 && total > 0 {
		alpha = float64(observed) / float64(observed+m.headcount)
	}
	expected = make([]float64, len(drinks))
	for i, d := range drinks {
		expected[i] = model[i]
		if alpha > 0 {
			expected[i] = (1-alpha)*model[i] + alpha*total*float64(max(0, m.in.Ordered[d.ID]))/float64(observed)
		}
	}
	return expected, observed, alpha
}

// cost is what the trim compares menus by, without writing the list out:
// bottles of spirits and wine, lines on the list, packs in all, and the
// heads with nothing to have. It adds up as shoppingList does.
func (m *model) cost(keep []bool) (bottleCount, lines, packCount, unserved int) {
	drinks, model, total, unserved := m.share(keep)
	if len(drinks) == 0 {
		return 0, 0, 0, unserved
	}
	expected, _, _ := m.blend(drinks, model, total)
	margin := 1 + m.in.Params.Margin
	type sum struct {
		ml     float64
		counts map[string]float64
	}
	byKey := map[string]*sum{}
	for i, d := range drinks {
		n := expected[i] * margin
		if n < 0.05 {
			continue
		}
		for _, in := range d.Ingredients {
			key := in.StockKey()
			l := byKey[key]
			if l == nil {
				l = &sum{counts: map[string]float64{}}
				byKey[key] = l
			}
			if ml, ok := menu.Units[in.Unit]; ok && ml > 0 {
				l.ml += in.Amount * ml * n
			} else {
				l.counts[in.Unit] += in.Amount * n
			}
		}
	}
	for key, l := range byKey {
		lines++
		pk, known := m.packFor(key)
		if !known && len(l.counts) == 0 {
			pk = litre
		}
		if k, ok := pk.packsNeeded(l.ml, l.counts); ok {
			packCount += k
			if pk.kind == KindSpirits || pk.kind == KindWine {
				bottleCount += k
			}
		}
	}
	return bottleCount, lines, packCount, unserved
}

// drinkFacts are a drink's words, folded once for taste matching.
type drinkFacts struct {
	tags        []string
	ingredients [][]string
	name        []string
}

func factsOf(d menu.Drink) drinkFacts {
	f := drinkFacts{name: strings.Fields(fold(d.Name))}
	for _, t := range d.Tags {
		f.tags = append(f.tags, fold(t))
	}
	for _, in := range d.Ingredients {
		f.ingredients = append(f.ingredients, strings.Fields(fold(in.Name)))
	}
	return f
}

// meets reports whether a taste term ("sour", "gin", "mint") describes the
// drink: one of its tags, or whole words of an ingredient or of its name.
func (f drinkFacts) meets(term string) bool {
	term = fold(term)
	if term == "" {
		return false
	}
	if slices.Contains(f.tags, term) {
		return true
	}
	words := strings.Fields(term)
	for _, in := range f.ingredients {
		if containsPhrase(in, words) {
			return true
		}
	}
	return containsPhrase(f.name, words)
}

// weight is how likely g is to pick d: 0 when they may not have it.
func weight(d menu.Drink, f drinkFacts, g Guest) float64 {
	if g.AlcoholFree && !d.AlcoholFree {
		return 0
	}
	// Caution over unread words (diet.Caution) is for serving, not for
	// buying: once the bar has checked, the person drinks as anyone does.
	if !diet.Check(d.Diet(), g.Needs).SafeOnceRead() {
		return 0
	}
	w := 1.0
	for _, l := range g.Likes {
		if f.meets(l) {
			w += LikeBoost
		}
	}
	for _, l := range g.Dislikes {
		if f.meets(l) {
			return w * DislikeFactor
		}
	}
	return w
}

// line adds up one ingredient over the planned drinks.
type line struct {
	need   Need
	ml     float64
	counts map[string]float64
}

// shoppingList adds up the recipes times the planned drinks, by
// ingredient, and turns each total into packs.
func (m *model) shoppingList(drinks []menu.Drink, planned []float64) []Need {
	outOfStock := m.in.OutOfStock
	byKey := map[string]*line{}
	for i, d := range drinks {
		// Less than a twentieth of a glass is a rounding crumb of a drink
		// nobody may have, not a reason to buy its ingredients.
		if planned[i] < 0.05 {
			continue
		}
		n := planned[i]
		for _, in := range d.Ingredients {
			key := in.StockKey()
			l := byKey[key]
			if l == nil {
				l = &line{need: Need{Key: key, Name: in.Name}, counts: map[string]float64{}}
				byKey[key] = l
			}
			if !slices.Contains(l.need.Drinks, d.Name) {
				l.need.Drinks = append(l.need.Drinks, d.Name)
			}
			if ml, ok := menu.Units[in.Unit]; ok && ml > 0 {
				l.ml += in.Amount * ml * n
			} else {
				l.counts[in.Unit] += in.Amount * n
			}
		}
	}
	out := make([]Need, 0, len(byKey))
	for key, l := range byKey {
		nd := l.need
		if f, ok := m.in.Learnt.Factors[key]; ok && f > 0 {
			nd.Factor = f
			l.ml *= f
			for u := range l.counts {
				l.counts[u] *= f
			}
		}
		nd.OutOfStock = outOfStock[key]
		sort.Strings(nd.Drinks)
		nd.Amounts = []Amount{}
		if l.ml > 0 {
			nd.Amounts = append(nd.Amounts, Amount{Amount: round1(l.ml), Unit: "ml"})
		}
		units := make([]string, 0, len(l.counts))
		for u := range l.counts {
			units = append(units, u)
		}
		sort.Strings(units)
		for _, u := range units {
			// A garnish is picked up whole: 15.5 leaves is 16.
			nd.Amounts = append(nd.Amounts, Amount{Amount: float64(ceil(l.counts[u])), Unit: u})
		}
		pk, known := m.packFor(key)
		if !known && len(l.counts) == 0 {
			pk = litre
		}
		nd.Kind, nd.Note, nd.Guess = pk.kind, pk.guess, pk.guess != ""
		if n, ok := pk.packsNeeded(l.ml, l.counts); ok {
			nd.Packs, nd.Pack, nd.PackID = n, pk.name, pk.unit
			nd.Buy = strconv.Itoa(n) + " " + pk.plural
			if n == 1 {
				nd.Buy = "1 " + pk.name
			}
		} else {
			nd.Buy = amountsText(nd.Amounts)
			if known {
				nd.Note = strings.TrimPrefix(nd.Note+"; ", "; ") + "no pack size for some of its units: buy the amounts"
			} else {
				nd.Note = "no pack size known for this ingredient: buy the amounts"
			}
		}
		nd.NoteID = noteIDs[nd.Note]
		out = append(out, nd)
	}
	sort.Slice(out, func(i, j int) bool {
		ki, kj := slices.Index(kindOrder, out[i].Kind), slices.Index(kindOrder, out[j].Kind)
		if ki != kj {
			return ki < kj
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// amountsText says amounts in words: "1440 ml + 12 wedge".
func amountsText(as []Amount) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = fmt.Sprintf("%s %s", strconv.FormatFloat(a.Amount, 'f', -1, 64), a.Unit)
	}
	return strings.Join(parts, " + ")
}

// fold lower-cases and single-spaces a word for matching.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// ceil rounds up, forgiving float noise just above a whole number.
func ceil(x float64) int { return int(math.Ceil(x - 1e-9)) }
