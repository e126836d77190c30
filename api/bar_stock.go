package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// Stock: the bar marks ingredients (or whole drinks) out and back in;
// every drink needing them follows, live, on every phone.

type stockDrink struct {
	ID                 string   `json:"id"`
	Name               string   `json:"name"`
	Section            string   `json:"section"`
	Available          bool     `json:"available"`
	OutOfStock         bool     `json:"outOfStock"`
	MissingIngredients []string `json:"missingIngredients"`
}

type stockResponse struct {
	Ingredients []store.StockItem `json:"ingredients"`
	Drinks      []stockDrink      `json:"drinks"`
}

func (s *Server) handleListStock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	items, err := s.store.IngredientStock(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	snap, err := s.bar.menu.snapshot(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := stockResponse{Ingredients: items, Drinks: make([]stockDrink, 0, len(snap.drinks))}
	for _, d := range snap.drinks {
		v := viewOf(d)
		resp.Drinks = append(resp.Drinks, stockDrink{ID: d.ID, Name: d.Name, Section: d.Section, Available: d.Available, OutOfStock: d.OutOfStock, MissingIngredients: v.MissingIngredients})
	}
	writeJSON(w, http.StatusOK, resp)
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

type ingredientStockResponse struct {
	Ingredient store.StockItem `json:"ingredient"`
	// Drinks are the ids of every drink that needs the ingredient.
	Drinks []string `json:"drinks"`
	// Unavailable names the drinks that cannot be ordered now.
	Unavailable []string `json:"unavailable"`
}

// stockedIngredient returns the name of the ingredient key names when a
// drink on the menu uses it, else a 404: the path is typed by whoever
// holds a bartender's token, and marking anything else would store a mark
// no drink reads ("../../etc/passwd" in the bar's stock list for good).
// A mark left on an ingredient whose drinks were taken off the menu
// matters again only when a drink with it is back, and then it can be
// changed.
func (s *Server) stockedIngredient(ctx context.Context, key string) (string, error) {
	snap, err := s.bar.menu.snapshot(ctx)
	if err != nil {
		return "", err
	}
	for _, d := range snap.drinks {
		for _, in := range d.Ingredients {
			if in.Key == key {
				return in.Name, nil
			}
		}
	}
	return "", &apiError{Status: http.StatusNotFound, Code: "unknown_ingredient",
		Message: fmt.Sprintf("no drink on the menu uses %q; name an ingredient of a drink on the menu (GET /api/bar/stock lists them)", key)}
}

// handleSetStock marks an ingredient, named in the path (any case or
// spacing: "Lime%20juice"), out of or back in stock. Only an ingredient
// the menu uses can be marked (stockedIngredient).
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
	name, err := s.stockedIngredient(ctx, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// Each change is a few UpdateMany calls that must not interleave on
	// one drink with another change, on any instance.
	unlock, err := s.store.Lock(ctx, "stock", lockTTL)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ids, err := s.store.SetIngredientStock(ctx, key, name, inStock, who.Name)
	unlock()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.menuChanged(ctx, "stock", ids)
	byID, err := s.store.DrinksByIDs(ctx, ids)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := ingredientStockResponse{
		Ingredient:  store.StockItem{Key: key, Name: name, InStock: inStock, UpdatedBy: who.Name},
		Drinks:      ids,
		Unavailable: []string{},
	}
	for _, id := range ids {
		if d, ok := byID[id]; ok && !d.Available {
			resp.Unavailable = append(resp.Unavailable, d.Name)
		}
	}
	s.log.InfoContext(ctx, "stock", "ingredient", key, "inStock", inStock, "drinks", len(ids), "by", who.GuestID)
	audit.SetSubject(ctx, key)
	audit.Note(ctx, "inStock", inStock)
	audit.Note(ctx, "drinks", len(ids))
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
	d, err := s.store.SetDrinkStock(ctx, chi.URLParam(r, "id"), inStock)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu")
		}
		s.fail(w, r, err)
		return
	}
	s.menuChanged(ctx, "stock", []string{d.ID})
	audit.Note(ctx, "name", d.Name)
	audit.Note(ctx, "inStock", inStock)
	writeJSON(w, http.StatusOK, viewOf(d))
}
