package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestStockKeysAreTheMenusIngredients: PUT /api/bar/stock/{ingredient}
// marks only an ingredient a drink on the menu uses, by its folded key;
// anything else is a 404 and stores nothing. It used to create a mark for
// whatever the path said ("../../etc/passwd" stayed in the bar's list).
func TestStockKeysAreTheMenusIngredients(t *testing.T) {
	e := newBarEnv(t)
	for _, path := range []string{"../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "nothing-we-serve", "lime%00juice", url.PathEscape("\u202eemil"), url.PathEscape("lime juice\u200b!")} {
		status, body := e.do("PUT", "/api/bar/stock/"+path, e.bTok, map[string]bool{"inStock": false})
		want := "unknown_ingredient"
		if strings.Contains(path, "/") {
			want = "not_found" // the router's: no route has a slash in the ingredient
		}
		if status != http.StatusNotFound || errorCode(t, body) != want {
			t.Errorf("PUT %s: %d %s, want 404 %s", path, status, body, want)
		}
	}
	items, err := e.store.IngredientStock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Drinks == 0 {
			t.Errorf("stock holds %q, which no drink uses", it.Key)
		}
	}
	// A real ingredient, any case and spacing; and one typed with its
	// accents decomposed finds the menu's.
	if status, body := e.do("PUT", "/api/bar/stock/LIME%20%20Juice", e.bTok, map[string]bool{"inStock": false}); status != 200 {
		t.Fatalf("lime juice: %d %s", status, body)
	}
	status, body := e.do("POST", "/api/admin/drinks", e.aTok, map[string]any{"name": "Åkerö sour", "section": "Sours", "abv": 15,
		"ingredients": []any{map[string]any{"name": "Åkerö gin", "amount": 50, "unit": "ml"}}})
	if status != 201 {
		t.Fatalf("new drink: %d %s", status, body)
	}
	status, body = e.do("PUT", "/api/bar/stock/"+url.PathEscape("A\u030akero\u0308 GIN"), e.bTok, map[string]bool{"inStock": false})
	var res ingredientStockResponse
	if err := json.Unmarshal(body, &res); status != 200 || err != nil || res.Ingredient.Key != "åkerö gin" || res.Ingredient.Name != "Åkerö gin" || len(res.Unavailable) != 1 {
		t.Fatalf("decomposed Åkerö gin: %d %s", status, body)
	}
}
