package plan

import "math"

// The next plan learns from the night (docs/SHOPPING.md): the host takes
// the report's usage of each ingredient over what the plan bought and the
// next plan buys that much more or less of it.

// Bounds of a learnt factor, and what a night must have had for one: a
// single night says little, so a factor moves the plan at most by half
// and only where the plan bought a pack or more and the night served
// enough glasses to be a night.
const (
	MinFactor       = 0.5
	MaxFactor       = 1.5
	MinLearnPacks   = 1
	MinLearnGlasses = 10
)

// Learnt is what a night taught the plan: a factor per ingredient key
// (used over planned) and the night it came from (a date, YYYY-MM-DD).
type Learnt struct {
	Date    string             `json:"date" bson:"date"`
	Factors map[string]float64 `json:"factors" bson:"factors"`
}

// Learn turns the night's usage into factors: for each ingredient the
// plan bought at least MinLearnPacks packs of and whose use is known in
// packs, the packs used (none when nothing was used) over the packs planned, to two decimals and
// bounded to [MinFactor, MaxFactor]. A night of fewer than
// MinLearnGlasses served glasses teaches nothing (empty Factors).
func Learn(used []Used, glasses int, date string) Learnt {
	l := Learnt{Date: date, Factors: map[string]float64{}}
	if glasses < MinLearnGlasses {
		return l
	}
	for _, u := range used {
		// Used but not in packs (a unit with no pack size): unknown,
		// not nothing.
		if u.Planned < MinLearnPacks || (u.Packs == 0 && len(u.Amounts) > 0) {
			continue
		}
		f := math.Round(u.Packs/float64(u.Planned)*100) / 100
		l.Factors[u.Key] = math.Min(MaxFactor, math.Max(MinFactor, f))
	}
	return l
}
