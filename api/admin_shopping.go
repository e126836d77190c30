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
	"github.com/barhub/barhub/audit"
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

// handleLearnFromNight is the report's "Use this night for the next
// plan": the plan's parameters are read as on the report, the night is
// set against that plan and each ingredient's factor kept
// (app.LearnFromNight).
func (s *Server) handleLearnFromNight(w http.ResponseWriter, r *http.Request) {
	params, err := plan.ParseParams(r.URL.Query())
	if err != nil {
		var pe *plan.ParamError
		if errors.As(err, &pe) {
			err = errBadRequest("invalid_query", pe.Error())
		}
		s.fail(w, r, err)
		return
	}
	l, err := app.LearnFromNight(r.Context(), s.store, params, time.Now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(r.Context(), "date", l.Date)
	audit.Note(r.Context(), "ingredients", len(l.Factors))
	writeJSON(w, http.StatusOK, l)
}

// handleForgetLearnt drops what the plan learnt from a night.
func (s *Server) handleForgetLearnt(w http.ResponseWriter, r *http.Request) {
	if err := app.ForgetLearnt(r.Context(), s.store); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
