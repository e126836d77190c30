package plan

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/safecsv"
)

// CSVColumns are the shopping list's columns, one row per ingredient (a
// further unit it is counted in goes into its note).
var CSVColumns = []string{"kind", "ingredient", "buy", "packs", "pack", "amount", "unit", "outOfStock", "guess", "note", "drinks"}

// WriteCSV writes the shopping list. Ingredient and drink names come from
// the menu, so every text cell is quoted and neutralised (safecsv), as
// the guest export is; packs and amounts are numbers.
func WriteCSV(w io.Writer, p Plan) error {
	cw := safecsv.NewWriter(w)
	if err := cw.Header(CSVColumns...); err != nil {
		return fmt.Errorf("write shopping csv: %w", err)
	}
	text := safecsv.Text
	for _, n := range p.Ingredients {
		packs := text("")
		if n.Packs > 0 {
			packs = safecsv.Int(n.Packs)
		}
		// One row per ingredient: a further unit it is counted in
		// ("2 sprig" beside "12 leaf" of mint) goes into the note, never
		// a row of its own with empty cells a shopper cannot read.
		amount, unit, note := text(""), "", n.Note
		if len(n.Amounts) > 0 {
			var x float64
			x, unit = csvAmount(n.Amounts[0])
			amount = safecsv.Float(x)
		}
		for _, a := range n.Amounts[min(1, len(n.Amounts)):] {
			x, u := csvAmount(a)
			note = strings.TrimPrefix(note+"; also "+number(x)+" "+u, "; ")
		}
		err := cw.Write(
			text(KindLabels[n.Kind]), text(n.Name), text(n.Buy), packs, text(n.Pack), amount, text(unit),
			safecsv.Bool(n.OutOfStock), safecsv.Bool(n.Guess), text(note), text(strings.Join(n.Drinks, "; ")),
		)
		if err != nil {
			return fmt.Errorf("write shopping csv: %w", err)
		}
	}
	if err := cw.Flush(); err != nil {
		return fmt.Errorf("write shopping csv: %w", err)
	}
	return nil
}

func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// csvAmount gives an amount the way it is picked up: a counted garnish (a
// leaf, a sprig, a wedge) is a whole one, so 1.5 wedges is 2 and 0.1 sprig
// is 1.
func csvAmount(a Amount) (float64, string) {
	if menu.Units[a.Unit] == 0 {
		return math.Ceil(a.Amount), a.Unit
	}
	return a.Amount, a.Unit
}
