package plan

import (
	"math"
	"slices"
	"sort"

	"github.com/barhub/barhub/menu"
)

// Used is what the night used of one ingredient, set against the plan:
// "bought 4 bottles of white rum, used 2.3" (docs/REPORTS.md).
type Used struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Amounts is what the served glasses' recipes add up to: liquids in
	// ml, counted things in their own units, to one decimal.
	Amounts []Amount `json:"amounts"`
	// Packs is Amounts in packs of Pack (PackID for the catalogues), to
	// one decimal; 0 when the ingredient has no pack size.
	Packs  float64 `json:"packs"`
	Pack   string  `json:"pack,omitempty"`
	PackID string  `json:"packId,omitempty"`
	// Planned is the packs the shopping plan buys (0: not on the plan, or
	// bought by amount); Ratio is Packs over Planned to two decimals, 0
	// when either is unknown.
	Planned int     `json:"planned"`
	Ratio   float64 `json:"ratio"`
}

// Usage adds up the recipes of the served glasses (drink id → glasses)
// by ingredient and sets each against p's shopping list. The recipes are
// the menu's as it is now: a drink deleted since is left out, as is an
// ingredient nobody used and the plan did not buy.
func Usage(drinks []menu.Drink, served map[string]int, p Plan) []Used {
	byKey := map[string]*line{}
	for _, d := range drinks {
		n := float64(served[d.ID])
		if n <= 0 {
			continue
		}
		for _, in := range d.Ingredients {
			key := in.StockKey()
			l := byKey[key]
			if l == nil {
				l = &line{need: Need{Key: key, Name: in.Name}, counts: map[string]float64{}}
				byKey[key] = l
			}
			if ml, ok := menu.Units[in.Unit]; ok && ml > 0 {
				l.ml += in.Amount * ml * n
			} else {
				l.counts[in.Unit] += in.Amount * n
			}
		}
	}
	planned := map[string]Need{}
	for _, nd := range p.Ingredients {
		planned[nd.Key] = nd
		if byKey[nd.Key] == nil {
			byKey[nd.Key] = &line{need: Need{Key: nd.Key, Name: nd.Name}, counts: map[string]float64{}}
		}
	}
	out := make([]Used, 0, len(byKey))
	for key, l := range byKey {
		pk, known := packFor(key)
		if !known && len(l.counts) == 0 {
			pk = litre
		}
		u := Used{Key: key, Name: l.need.Name, Kind: pk.kind, Amounts: []Amount{}}
		if l.ml > 0 {
			u.Amounts = append(u.Amounts, Amount{Amount: round1(l.ml), Unit: "ml"})
		}
		units := make([]string, 0, len(l.counts))
		for unit := range l.counts {
			units = append(units, unit)
		}
		sort.Strings(units)
		for _, unit := range units {
			u.Amounts = append(u.Amounts, Amount{Amount: round1(l.counts[unit]), Unit: unit})
		}
		if packs, ok := pk.packsOf(l.ml, l.counts); ok {
			u.Packs, u.Pack, u.PackID = round1(packs), pk.plural, pk.unit
		}
		if nd, ok := planned[key]; ok {
			u.Planned = nd.Packs
			if u.Pack == "" && nd.Packs > 0 {
				u.Pack, u.PackID = nd.Pack, nd.PackID
			}
		}
		if u.Planned > 0 && u.Packs > 0 {
			u.Ratio = math.Round(u.Packs/float64(u.Planned)*100) / 100
		}
		out = append(out, u)
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
