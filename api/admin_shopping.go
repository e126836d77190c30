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

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/plan"
)

// The shopping and stock plan (plan): JSON for the admin page, CSV
// for a spreadsheet or the printer.

// shoppingPlan reads the plan's parameters and makes the plan
// (app.ShoppingPlan).
func (s *Server) shoppingPlan(ctx context.Context, q url.Values) (plan.Plan, error) {
	params, err := plan.ParseParams(q)
	if err != nil {
		var pe *plan.ParamError
		if errors.As(err, &pe) {
			return plan.Plan{}, errBadRequest("invalid_query", pe.Error())
		}
		return plan.Plan{}, err
	}
	trimmed := false
	if v := q.Get("trim"); v != "" {
		if trimmed, err = strconv.ParseBool(v); err != nil {
			return plan.Plan{}, errBadRequest("invalid_query", "trim must be true or false")
		}
	}
	return app.ShoppingPlan(ctx, s.store, params, trimmed)
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
