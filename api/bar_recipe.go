package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/api/order"
)

// handleBarRecipe is GET /api/bar/drinks/{id}/recipe?qty=N: how to make
// the drink, every amount scaled to the ticket's N glasses, so whoever is
// behind the bar reads "67.5 ml Bourbon" instead of multiplying.
func (s *Server) handleBarRecipe(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	qty := 1
	if raw := r.URL.Query().Get("qty"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > order.MaxGlasses {
			s.fail(w, r, errBadRequest("invalid_query", "qty must be a whole number from 1 to "+strconv.Itoa(order.MaxGlasses)))
			return
		}
		qty = n
	}
	snap, err := s.bar.menu.snapshot(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, ok := snap.drink(chi.URLParam(r, "id"))
	if !ok {
		s.fail(w, r, errNotFound("that drink is not on the menu"))
		return
	}
	writeJSON(w, http.StatusOK, d.Scale(qty))
}
