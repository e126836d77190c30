package plan

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/barhub/barhub/api/menu"
)

// CSVColumns are the shopping list's columns, one row per ingredient (and
// one more for each further unit it is counted in).
var CSVColumns = []string{"kind", "ingredient", "buy", "packs", "pack", "amount", "unit", "outOfStock", "guess", "note", "drinks"}

// WriteCSV writes the shopping list. Ingredient and drink names come from
// the menu, so text a spreadsheet would run as a formula is prefixed with
// a quote, as the guest export does.
func WriteCSV(w io.Writer, p Plan) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVColumns); err != nil {
		return fmt.Errorf("write shopping csv: %w", err)
	}
	for _, n := range p.Ingredients {
		packs := ""
		if n.Packs > 0 {
			packs = strconv.Itoa(n.Packs)
		}
		// One row per ingredient: a further unit it is counted in
		// ("2 sprig" beside "12 leaf" of mint) goes into the note, never
		// a row of its own with empty cells a shopper cannot read.
		amount, unit, note := "", "", n.Note
		if len(n.Amounts) > 0 {
			amount, unit = csvAmount(n.Amounts[0])
		}
		for _, a := range n.Amounts[min(1, len(n.Amounts)):] {
			x, u := csvAmount(a)
			note = strings.TrimPrefix(note+"; also "+x+" "+u, "; ")
		}
		rec := []string{
			KindLabels[n.Kind], cell(n.Name), cell(n.Buy), packs, n.Pack, amount, unit,
			strconv.FormatBool(n.OutOfStock), strconv.FormatBool(n.Guess), cell(note), cell(strings.Join(n.Drinks, "; ")),
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write shopping csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write shopping csv: %w", err)
	}
	return nil
}

func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// csvAmount writes an amount the way it is picked up: a counted garnish (a
// leaf, a sprig, a wedge) is a whole one, so 1.5 wedges is 2 and 0.1 sprig
// is 1.
func csvAmount(a Amount) (string, string) {
	if menu.Units[a.Unit] == 0 {
		return number(math.Ceil(a.Amount)), a.Unit
	}
	return number(a.Amount), a.Unit
}

// cell defuses formula injection: a leading =, +, -, @, tab or carriage
// return makes spreadsheets evaluate the cell.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
