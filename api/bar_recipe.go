package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
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
	snap, err := s.menu.Snapshot(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, ok := snap.Drink(chi.URLParam(r, "id"))
	if !ok {
		s.fail(w, r, errNotFound("that drink is not on the menu"))
		return
	}
	writeJSON(w, http.StatusOK, s.localRecipe(r, d.Scale(qty)))
}

// localRecipe puts the starter menu's own words in a recipe (glass,
// garnish, ingredient names, steps) into the language the bar's page asks
// for (Accept-Language); a text the host wrote stays as written
// (menu.Translate).
func (s *Server) localRecipe(r *http.Request, sc menu.Scaled) menu.Scaled {
	lang := s.requestLanguage(r)
	if lang == "" || lang == "en" {
		return sc
	}
	tr := func(text string) string {
		if t := menu.Translate(text)[lang]; t != "" {
			return t
		}
		return text
	}
	sc.Glass, sc.Garnish = tr(sc.Glass), tr(sc.Garnish)
	steps := make([]string, len(sc.Method))
	for i, step := range sc.Method {
		steps[i] = tr(step)
	}
	sc.Method = steps
	lines := make([]menu.ScaledLine, len(sc.Ingredients))
	for i, l := range sc.Ingredients {
		l.Name = tr(l.Name)
		l.Text = menu.LineText(l.Amount, l.Unit, l.Name, lang)
		lines[i] = l
	}
	sc.Ingredients = lines
	return sc
}
