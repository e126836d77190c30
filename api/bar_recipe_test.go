package api

import (
	"reflect"
	"testing"

	"github.com/barhub/barhub/menu"
)

// A helper who does not know a Paper Plane taps the ticket for two and
// reads the recipe for two; the host's edits reach the recipe.
func TestBarRecipe(t *testing.T) {
	e := newBarEnv(t)
	status, body := e.do("GET", "/api/bar/drinks/paper-plane/recipe?qty=2", e.bTok, nil)
	var got menu.Scaled
	decodeInto(t, body, &got)
	var lines []string
	for _, l := range got.Ingredients {
		lines = append(lines, l.Text)
	}
	want := []string{"45 ml Bourbon", "45 ml Aperol", "45 ml Amaro Nonino", "45 ml Lemon juice"}
	if status != 200 || got.Qty != 2 || got.Glass != "Coupe (chilled)" || got.Ice != menu.IceNone || len(got.Method) != 2 || !reflect.DeepEqual(lines, want) {
		t.Fatalf("recipe %d: %s", status, body)
	}

	// A Swedish tablet: the starter menu's glass, garnish, ingredients,
	// units and steps in Swedish; the amounts and the drink's name as they
	// are.
	status, body = e.do("GET", "/api/bar/drinks/old-fashioned/recipe?qty=2", e.bTok, nil, "Accept-Language", "sv-SE")
	decodeInto(t, body, &got)
	lines = nil
	for _, l := range got.Ingredients {
		lines = append(lines, l.Text)
	}
	want = []string{"120 ml Bourbon", "10 ml Sockerlag", "4 stänk Angostura bitter", "2 st Apelsinzest"}
	if status != 200 || got.Name != "Old Fashioned" || got.Glass != "Tumlare" || got.Garnish != "Apelsinzest" || !reflect.DeepEqual(lines, want) ||
		len(got.Method) != 4 || got.Method[0] != "Häll sockerlag och bitter i ett röranglas." {
		t.Errorf("Swedish recipe %d: %s\n%q", status, body, lines)
	}

	// A Brazilian one, with "de" between the measure and the ingredient.
	status, body = e.do("GET", "/api/bar/drinks/negroni/recipe", e.bTok, nil, "Accept-Language", "pt-BR")
	got = menu.Scaled{}
	decodeInto(t, body, &got)
	lines = nil
	for _, l := range got.Ingredients {
		lines = append(lines, l.Text)
	}
	want = []string{"30 ml de Gim", "30 ml de Campari", "30 ml de Vermute doce", "1 fatia de Laranja"}
	if status != 200 || !reflect.DeepEqual(lines, want) || len(got.Method) != 4 || got.Method[1] != "Mexa por 20 segundos." {
		t.Errorf("Portuguese recipe %d: %s\n%q", status, body, lines)
	}

	for _, tc := range []struct {
		path string
		want int
		code string
	}{
		{"/api/bar/drinks/paper-plane/recipe?qty=0", 400, "invalid_query"},
		{"/api/bar/drinks/paper-plane/recipe?qty=11", 400, "invalid_query"},
		{"/api/bar/drinks/paper-plane/recipe?qty=two", 400, "invalid_query"},
		{"/api/bar/drinks/no-such-drink/recipe", 404, "not_found"},
	} {
		status, body := e.do("GET", tc.path, e.bTok, nil)
		if status != tc.want || errorCode(t, body) != tc.code {
			t.Errorf("GET %s: %d %s, want %d %s", tc.path, status, body, tc.want, tc.code)
		}
	}
	if status, _ := e.do("GET", "/api/bar/drinks/paper-plane/recipe", e.gTok, nil); status != 403 {
		t.Errorf("a guest reads the bar's recipe: %d, want 403", status)
	}

	// The host writes a recipe for a new drink; the bar reads it at once.
	drink := map[string]any{
		"name": "Garden Sour", "section": "Sours", "abv": 12,
		"ingredients": []map[string]any{{"name": "Gin", "amount": 4, "unit": "cl"}, {"name": "Mint", "amount": 3, "unit": "leaf"}},
		"method":      []string{"Shake with ice.", "Strain."}, "glass": "Coupe", "garnish": "Mint leaf", "ice": "none",
	}
	status, body = e.do("POST", "/api/admin/drinks", e.aTok, drink)
	var created menu.Drink
	decodeInto(t, body, &created)
	if status != 201 || created.Glass != "Coupe" || created.Garnish != "Mint leaf" || len(created.Method) != 2 {
		t.Fatalf("create with a recipe: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/bar/drinks/"+created.ID+"/recipe?qty=3", e.bTok, nil)
	decodeInto(t, body, &got)
	if status != 200 || got.Ingredients[0].Text != "12 cl Gin" || got.Ingredients[1].Text != "9 leaf Mint" || got.Garnish != "Mint leaf" {
		t.Fatalf("new drink's recipe for 3: %d %s", status, body)
	}
	drink["ice"] = "snow"
	if status, body := e.do("PUT", "/api/admin/drinks/"+created.ID, e.aTok, drink); status != 400 {
		t.Errorf("unknown ice: %d %s, want 400", status, body)
	}
}
