package api

import (
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/menu"
)

// Stock: the bar marks ingredients (or whole drinks) out and back in;
// every drink needing them follows, live, on every phone (app.Menu).

// The stock routes' answers.
type (
	stockResponse           = app.Stock
	ingredientStockResponse = app.IngredientStock
)

func (s *Server) handleListStock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st, err := s.menu.Stock(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

type stockRequest struct {
	InStock *bool `json:"inStock"`
}

func parseStockRequest(r *http.Request) (bool, error) {
	var req stockRequest
	if err := decode(r, &req); err != nil {
		return false, err
	}
	if req.InStock == nil {
		return false, errBadRequest("missing_in_stock", `say whether it is in stock: {"inStock": false} or {"inStock": true}`)
	}
	return *req.InStock, nil
}

// handleSetStock marks an ingredient, named in the path (any case or
// spacing: "Lime%20juice"), out of or back in stock. Only an ingredient
// the menu uses can be marked (app.Menu.SetIngredientStock).
func (s *Server) handleSetStock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	raw, err := url.PathUnescape(chi.URLParam(r, "ingredient"))
	if err != nil {
		raw = chi.URLParam(r, "ingredient")
	}
	key := menu.IngredientKey(raw)
	if key == "" || utf8.RuneCountInString(key) > menu.MaxIngredientLen {
		s.fail(w, r, errBadRequest("invalid_ingredient", "name the ingredient in the path, e.g. /api/bar/stock/mint"))
		return
	}
	inStock, err := parseStockRequest(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp, err := s.menu.SetIngredientStock(ctx, key, inStock, who.Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(ctx, "stock", "ingredient", key, "inStock", inStock, "drinks", len(resp.Drinks), "by", who.GuestID)
	audit.SetSubject(ctx, key)
	audit.Note(ctx, "inStock", inStock)
	audit.Note(ctx, "drinks", len(resp.Drinks))
	writeJSON(w, http.StatusOK, resp)
}

// handleSetDrinkStock marks one whole drink out of or back in stock.
func (s *Server) handleSetDrinkStock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	inStock, err := parseStockRequest(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, err := s.menu.SetDrinkStock(ctx, chi.URLParam(r, "id"), inStock)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(ctx, "name", d.Name)
	audit.Note(ctx, "inStock", inStock)
	writeJSON(w, http.StatusOK, app.ViewOf(d))
}
