package plan

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// The model's defaults. They are rules of thumb from party planning, not
// measurements: the host changes hours, rate and margin on the page.
const (
	// DefaultHours is an evening: drinks from arrival to the last round.
	DefaultHours = 4.0
	// DefaultPerHour is one drink per person per hour, the figure
	// caterers plan with after the first hour.
	DefaultPerHour = 1.0
	// FirstHourFactor: people arrive thirsty, so the first hour runs at
	// one and a half times the rate (1.5 drinks a head at the default).
	FirstHourFactor = 1.5
	// DefaultMargin is the safety margin on top of the expected drinks:
	// a plan that runs out at 23:00 is worse than a spare bottle.
	DefaultMargin = 0.15
)

// Bounds of the parameters, so a typo cannot plan a thousand bottles.
const (
	MaxHours   = 48.0
	MaxPerHour = 10.0
	MaxMargin  = 1.0
)

// Params are what the host tunes.
type Params struct {
	// Hours the bar is open.
	Hours float64 `json:"hours"`
	// PerHour is drinks per person per hour after the first hour.
	PerHour float64 `json:"perHour"`
	// FirstHourFactor multiplies the rate in the first hour.
	FirstHourFactor float64 `json:"firstHourFactor"`
	// Margin is added on top of the expected drinks: 0.15 is 15%.
	Margin float64 `json:"margin"`
}

// DefaultParams is a four-hour evening at the default rate and margin.
func DefaultParams() Params {
	return Params{Hours: DefaultHours, PerHour: DefaultPerHour, FirstHourFactor: FirstHourFactor, Margin: DefaultMargin}
}

// DrinksPerHead is how many drinks one person has over the evening: the
// first hour (or the part of it the bar is open) at FirstHourFactor times
// the rate, every later hour at the rate.
func (p Params) DrinksPerHead() float64 {
	first := math.Min(p.Hours, 1)
	rest := math.Max(p.Hours-1, 0)
	return p.PerHour * (first*p.FirstHourFactor + rest)
}

// ParamError is a parameter out of range, naming it.
type ParamError struct {
	Param   string
	Message string
}

func (e *ParamError) Error() string { return e.Param + " " + e.Message }

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	switch {
	case !(p.Hours > 0 && p.Hours <= MaxHours):
		return &ParamError{"hours", fmt.Sprintf("must be a number of hours above 0 and at most %g", MaxHours)}
	case !(p.PerHour > 0 && p.PerHour <= MaxPerHour):
		return &ParamError{"perHour", fmt.Sprintf("must be drinks per person per hour above 0 and at most %g", MaxPerHour)}
	case !(p.FirstHourFactor >= 1 && p.FirstHourFactor <= 3):
		return &ParamError{"firstHourFactor", "must be from 1 to 3"}
	case !(p.Margin >= 0 && p.Margin <= MaxMargin):
		return &ParamError{"margin", fmt.Sprintf("must be a fraction from 0 to %g (0.15 is 15%%)", MaxMargin)}
	}
	return nil
}

// ParseParams reads ?hours=&perHour=&margin= over the defaults; an empty
// or missing value keeps the default.
func ParseParams(q url.Values) (Params, error) {
	p := DefaultParams()
	for _, f := range []struct {
		name string
		to   *float64
	}{{"hours", &p.Hours}, {"perHour", &p.PerHour}, {"margin", &p.Margin}} {
		s := strings.TrimSpace(q.Get(f.name))
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return p, &ParamError{f.name, fmt.Sprintf("must be a number, not %q", clip(s))}
		}
		*f.to = v
	}
	return p, p.Validate()
}

// clip shortens an echoed value without splitting a character.
func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return s
}
