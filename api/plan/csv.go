package plan

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
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
		amount, unit := "", ""
		if len(n.Amounts) > 0 {
			amount, unit = number(n.Amounts[0].Amount), n.Amounts[0].Unit
		}
		rec := []string{
			KindLabels[n.Kind], cell(n.Name), cell(n.Buy), packs, n.Pack, amount, unit,
			strconv.FormatBool(n.OutOfStock), strconv.FormatBool(n.Guess), cell(n.Note), cell(strings.Join(n.Drinks, "; ")),
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write shopping csv: %w", err)
		}
		for _, a := range n.Amounts[min(1, len(n.Amounts)):] {
			if err := cw.Write([]string{KindLabels[n.Kind], cell(n.Name), "", "", "", number(a.Amount), a.Unit, "", "", "", ""}); err != nil {
				return fmt.Errorf("write shopping csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write shopping csv: %w", err)
	}
	return nil
}

func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// cell defuses formula injection: a leading =, +, -, @, tab or carriage
// return makes spreadsheets evaluate the cell.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
