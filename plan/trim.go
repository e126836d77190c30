package plan

import (
	"math"
)

// A menu big for the headcount. Three people and a 37-drink menu expect
// about sixteen drinks between them; buying for every drink on the menu
// opens two dozen bottles of spirit for a splash each. The plan then
// proposes a smaller menu that shares bottles, and says which drinks to
// pause and how many bottles that saves. The rules, in order:
//
//  1. The menu is big when it has more drinks than the plan's servings
//     divided by ServingsPerDrink, and more than MinMenu: that number (at
//     least MinMenu) is the suggested size.
//  2. Each section keeps its share of the suggested size, at least one
//     drink, so the trimmed menu still has an alcohol-free drink, a long
//     drink, a sour… as the host laid it out.
//  3. Every coming person keeps at least MinChoice drinks they may have
//     and do not dislike (all of them, if they had fewer); nobody loses
//     their last drink; a drink already ordered is never paused.
//  4. Within those bounds drinks are paused one at a time until the menu
//     is the suggested size or no drink may be paused. First the drinks
//     the guests hardly want (expected less than LowShare of the average,
//     say a taste they dislike); then each time the one whose pause leaves
//     the fewest bottles of spirits, liqueurs and wine to buy (then the
//     fewest lines on the list, the fewest packs, the drink expected
//     least, its name).
//
// The trim is proposed only when it saves at least one bottle.

const (
	// ServingsPerDrink is about how many of a drink the plan should
	// expect for it to earn its place on the menu: fewer, and its bottles
	// stay mostly full.
	ServingsPerDrink = 10
	// MinMenu is the smallest menu the trim proposes: six drinks still
	// give every guest a choice.
	MinMenu = 6
	// MinChoice is how many drinks each person keeps that they may have
	// and do not dislike.
	MinChoice = 3
	// LowShare: a drink expected less than this share of the menu's
	// average is one the guests hardly want, and is paused first.
	LowShare = 0.25
)

// Trim is the proposal for a menu big for the headcount.
type Trim struct {
	// MenuDrinks is the drinks planned now; SuggestedDrinks the menu size
	// the headcount supports (see the rules above).
	MenuDrinks      int `json:"menuDrinks"`
	SuggestedDrinks int `json:"suggestedDrinks"`
	// Keep and Pause split the menu: the trimmed menu, and the drinks to
	// pause for it (in menu order).
	Keep  []TrimDrink `json:"keep"`
	Pause []TrimDrink `json:"pause"`
	// Bottles of spirits, liqueurs and wine for the whole menu and for
	// the trimmed one, and the difference.
	Bottles        int `json:"bottles"`
	TrimmedBottles int `json:"trimmedBottles"`
	BottlesSaved   int `json:"bottlesSaved"`
	// Items are the lines on the shopping list, before and after.
	Items        int `json:"items"`
	TrimmedItems int `json:"trimmedItems"`

	keep []bool
}

// TrimDrink names a drink of the proposal.
type TrimDrink struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Section     string `json:"section"`
	AlcoholFree bool   `json:"alcoholFree"`
}

// bottles counts the packs of spirits, liqueurs, bitters and wine.
func bottles(needs []Need) int {
	n := 0
	for _, nd := range needs {
		if nd.Kind == KindSpirits || nd.Kind == KindWine {
			n += nd.Packs
		}
	}
	return n
}

// trim proposes a smaller menu for full, the plan of the whole menu, or
// nil when the menu suits the headcount.
func (m *model) trim(full Plan) *Trim {
	n := len(m.drinks)
	if full.Headcount == 0 || full.Servings == 0 {
		return nil
	}
	target := max(MinMenu, int(math.Ceil(float64(full.Servings)/ServingsPerDrink)))
	if n <= target {
		return nil
	}

	// Section quotas: each section's share of the target, at least one.
	size := map[string]int{}
	for _, d := range m.drinks {
		size[d.Section]++
	}
	quota := map[string]int{}
	for s, k := range size {
		quota[s] = max(1, int(math.Round(float64(target*k)/float64(n))))
	}

	// The choices each guest has now, and the fewest they keep.
	left := make([]int, len(m.guests))
	least := make([]int, len(m.guests))
	for g, w := range m.weights {
		for _, x := range w {
			if x >= 1 {
				left[g]++
			}
		}
		least[g] = min(MinChoice, left[g])
	}

	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	kept := n
	cur := full
	for kept > target {
		expected := map[string]float64{}
		for _, d := range cur.Drinks {
			expected[d.ID] = d.Planned
		}
		// A drink the guests hardly want (a taste they dislike) goes
		// first, whatever it shares: keeping it would open bottles for
		// nobody.
		low := LowShare * cur.PlannedDrinks / float64(kept)
		lowOnly := false
		for i, d := range m.drinks {
			if keep[i] && expected[d.ID] < low && m.mayPause(i, size, quota, left, least) {
				lowOnly = true
				break
			}
		}
		best := -1
		var bestCost trimCost
		for i, d := range m.drinks {
			if !keep[i] || !m.mayPause(i, size, quota, left, least) || (lowOnly && expected[d.ID] >= low) {
				continue
			}
			keep[i] = false
			var c trimCost
			var unserved int
			c.bottles, c.lines, c.packs, unserved = m.cost(keep)
			keep[i] = true
			if unserved > full.UnservedHeads {
				continue
			}
			c.name, c.expected = d.Name, expected[d.ID]
			if best < 0 || c.better(bestCost) {
				best, bestCost = i, c
			}
		}
		if best < 0 {
			break
		}
		keep[best] = false
		kept--
		size[m.drinks[best].Section]--
		for g, w := range m.weights {
			if w[best] >= 1 {
				left[g]--
			}
		}
		cur = m.plan(keep)
	}
	if cur.Bottles >= full.Bottles {
		return nil
	}
	t := &Trim{
		MenuDrinks: n, SuggestedDrinks: target, Keep: []TrimDrink{}, Pause: []TrimDrink{},
		Bottles: full.Bottles, TrimmedBottles: cur.Bottles, BottlesSaved: full.Bottles - cur.Bottles,
		Items: len(full.Ingredients), TrimmedItems: len(cur.Ingredients), keep: keep,
	}
	for i, d := range m.drinks {
		td := TrimDrink{ID: d.ID, Name: d.Name, Section: d.Section, AlcoholFree: d.AlcoholFree}
		if keep[i] {
			t.Keep = append(t.Keep, td)
		} else {
			t.Pause = append(t.Pause, td)
		}
	}
	return t
}

// mayPause reports whether rules 2 and 3 let drink i go.
func (m *model) mayPause(i int, size, quota map[string]int, left, least []int) bool {
	d := m.drinks[i]
	if size[d.Section] <= quota[d.Section] || m.in.Ordered[d.ID] > 0 {
		return false
	}
	for g, w := range m.weights {
		if w[i] >= 1 && left[g]-1 < least[g] {
			return false
		}
	}
	return true
}

// trimCost is what pausing one drink leaves, and that drink.
type trimCost struct {
	bottles, lines, packs int
	name                  string
	expected              float64
}

// better reports whether pausing c's drink beats pausing o's: fewer
// bottles, fewer lines, fewer packs, the drink expected least, then by
// name.
func (c trimCost) better(o trimCost) bool {
	switch {
	case c.bottles != o.bottles:
		return c.bottles < o.bottles
	case c.lines != o.lines:
		return c.lines < o.lines
	case c.packs != o.packs:
		return c.packs < o.packs
	case c.expected != o.expected:
		return c.expected < o.expected
	}
	return c.name < o.name
}
