package menu

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/barhub/barhub/text"
)

// Recipe is how a drink is made, for a helper behind the bar who has
// never made it: the steps, the glass, the garnish and the ice.
type Recipe struct {
	Method  []string `bson:"method,omitempty" json:"method,omitempty"`
	Glass   string   `bson:"glass,omitempty" json:"glass"`
	Garnish string   `bson:"garnish,omitempty" json:"garnish"`
	Ice     Ice      `bson:"ice,omitempty" json:"ice"`
}

// Ice is what the drink is served over.
type Ice string

const (
	IceNone    Ice = "none" // served up, no ice in the glass
	IceCubes   Ice = "cubes"
	IceCrushed Ice = "crushed"
	IceLarge   Ice = "large" // one large cube or sphere
)

// Ices lists the ice a recipe may name, for forms and messages.
var Ices = []Ice{IceNone, IceCubes, IceCrushed, IceLarge}

// Limits of a recipe.
const (
	MaxSteps      = 12
	MaxStepLen    = 200
	MaxGlassLen   = 40
	MaxGarnishLen = 80
)

// recipe tidies and checks the recipe part of an input, reporting
// problems through add. Every part is optional: a host may add a drink
// before they know how to make it.
func (in Input) recipe(add func(field, format string, args ...any)) Recipe {
	// One line each, under barhub's text rule (package text): the bar's
	// helper reads them off the ticket.
	oneLine := func(field, typed string, limit int) string {
		v, err := text.Rule{Max: limit}.Clean(typed)
		switch {
		case errors.Is(err, text.ErrTooLong):
			add(field, "keep it under %d characters", limit)
		case err != nil:
			add(field, "%v", err)
		}
		return v
	}
	r := Recipe{
		Glass:   oneLine("glass", in.Glass, MaxGlassLen),
		Garnish: oneLine("garnish", in.Garnish, MaxGarnishLen),
		Ice:     Ice(strings.ToLower(strings.TrimSpace(string(in.Ice)))),
	}
	if r.Ice != "" && !validIce(r.Ice) {
		add("ice", "ice %q is not one of none, cubes, crushed, large", r.Ice)
	}
	if len(in.Method) > MaxSteps {
		add("method", "a recipe has at most %d steps", MaxSteps)
	}
	for i, step := range in.Method {
		if i >= MaxSteps {
			break
		}
		// An empty line in the editor is not a step.
		if step = oneLine(fmt.Sprintf("method[%d]", i), step, MaxStepLen); step != "" {
			r.Method = append(r.Method, step)
		}
	}
	return r
}

func validIce(i Ice) bool {
	for _, x := range Ices {
		if x == i {
			return true
		}
	}
	return false
}

// HasRecipe reports whether the drink says how to make it.
func (d Drink) HasRecipe() bool { return len(d.Method) > 0 || d.Glass != "" }

// ScaledLine is one ingredient of a recipe made qty times.
type ScaledLine struct {
	Name   string  `json:"name"`
	Amount float64 `json:"amount"`
	Unit   string  `json:"unit"`
	// Text says it the way a bartender reads it: "90 ml Gin", "12 leaf Mint".
	Text string `json:"text"`
}

// Scaled is a drink's recipe for qty glasses, as the bar's ticket opens it.
type Scaled struct {
	DrinkID     string       `json:"drinkId"`
	Name        string       `json:"name"`
	Qty         int          `json:"qty"`
	Ingredients []ScaledLine `json:"ingredients"`
	Recipe
}

// Scale makes the recipe for qty glasses (at least 1): every amount times
// qty, to one decimal, so "22.5 ml" for three is "67.5 ml".
func (d Drink) Scale(qty int) Scaled {
	qty = max(qty, 1)
	s := Scaled{DrinkID: d.ID, Name: d.Name, Qty: qty, Recipe: d.Recipe, Ingredients: make([]ScaledLine, 0, len(d.Ingredients))}
	if s.Method == nil {
		s.Method = []string{}
	}
	for _, in := range d.Ingredients {
		amount := math.Round(in.Amount*float64(qty)*10) / 10
		s.Ingredients = append(s.Ingredients, ScaledLine{Name: in.Name, Amount: amount, Unit: in.Unit, Text: LineText(amount, in.Unit, in.Name, "en")})
	}
	return s
}

// formatAmount writes 60 as "60" and 67.5 as "67.5".
func formatAmount(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}
