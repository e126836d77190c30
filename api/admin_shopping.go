package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/plan"
)

// The shopping and stock plan (plan): JSON for the admin page, CSV
// for a spreadsheet or the printer.

// shoppingPlan reads what the plan is made from: the people coming, the
// whole menu, the stock marks and what has been ordered so far.
func (s *Server) shoppingPlan(ctx context.Context, q url.Values) (plan.Plan, error) {
	params, err := plan.ParseParams(q)
	if err != nil {
		var pe *plan.ParamError
		if errors.As(err, &pe) {
			return plan.Plan{}, errBadRequest("invalid_query", pe.Error())
		}
		return plan.Plan{}, err
	}
	coming, err := s.store.ComingGuests(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	drinks, err := s.store.Drinks(ctx, menu.Filter{})
	if err != nil {
		return plan.Plan{}, err
	}
	ordered, err := s.store.OrderedDrinks(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	outOfStock, err := s.store.OutOfStock(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	trimmed := false
	if v := q.Get("trim"); v != "" {
		if trimmed, err = strconv.ParseBool(v); err != nil {
			return plan.Plan{}, errBadRequest("invalid_query", "trim must be true or false")
		}
	}
	guests := make([]plan.Guest, 0, len(coming))
	for _, g := range coming {
		guests = append(guests, plan.GuestsOf(g)...)
	}
	return plan.Make(plan.Input{Guests: guests, Drinks: drinks, Ordered: ordered, OutOfStock: outOfStock, Params: params, Trimmed: trimmed}), nil
}

func (s *Server) handleShoppingPlan(w http.ResponseWriter, r *http.Request) {
	p, err := s.shoppingPlan(r.Context(), r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleShoppingCSV(w http.ResponseWriter, r *http.Request) {
	p, err := s.shoppingPlan(r.Context(), r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := plan.WriteCSV(&buf, p); err != nil {
		s.fail(w, r, err)
		return
	}
	name := fmt.Sprintf("shopping-%s.csv", time.Now().UTC().Format(time.DateOnly))
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}
