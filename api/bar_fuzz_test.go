package api

import (
	"testing"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/text"
)

// FuzzParseOrderRequest feeds arbitrary bodies to the order decoder: a
// valid order or a 4xx, never a panic; what it accepts is already in its
// final form (normalizing again changes nothing) and within the limits.
func FuzzParseOrderRequest(f *testing.F) {
	for _, seed := range []string{
		`{"items":[{"drinkId":"negroni","qty":2,"notes":"no ice"}]}`,
		`{"items":[{"drinkId":"a"},{"drinkId":"a","notes":" "}],"confirmAllergens":true}`,
		`{"items":[{"drinkId":"a","qty":-1}]}`, `{"items":[{"drinkId":"a","qty":1e9}]}`,
		`{"items":{}}`, `{"items":null}`, `[]`, `null`, `{`, ``, "\x00", `{"items":[{"drinkId":"\u0000"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseOrderRequest(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		again, err := req.Normalize()
		if err != nil || again.Hash() != req.Hash() {
			t.Fatalf("accepted %+v, which does not normalize to itself: %+v %v", req, again, err)
		}
		total := 0
		for _, it := range req.Items {
			if it.DrinkID == "" || it.Qty < 1 || it.Qty > order.MaxQty {
				t.Fatalf("accepted item %+v", it)
			}
			total += it.Qty
		}
		if len(req.Items) == 0 || total > order.MaxGlasses {
			t.Fatalf("accepted %d items, %d glasses", len(req.Items), total)
		}
	})
}

// FuzzParseDrinkInput does the same for the admin's drink editor.
func FuzzParseDrinkInput(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Negroni","section":"Classics","abv":27,"ingredients":[{"name":"Gin","amount":30,"unit":"ml"}],"tags":["bitter"],"allergens":["sulfites"]}`,
		`{"name":"Nojito","section":"Alcohol-free","alcoholFree":true,"ingredients":[{"name":"Mint","amount":6,"unit":"leaf"}]}`,
		`{"name":"x","section":"&&","abv":"NaN"}`, `{"abv":1e400}`, `{"ingredients":[{"amount":-0}]}`,
		`{"imageUrl":"javascript:alert(1)"}`, `[]`, `null`, `{`, ``,
		`{"name":"\u202eX","section":"S\u0000","ingredients":[{"name":"\u200b","amount":1,"unit":"ml","brand":"x"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d, err := parseDrinkInput(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if d.Name == "" || d.Section == "" || len(d.Ingredients) == 0 || d.ABV < 0 || d.ABV > 100 {
			t.Fatalf("accepted %+v", d)
		}
		if d.AlcoholFree && d.StandardDrinks() != 0 {
			t.Fatalf("alcohol-free drink with %v standard drinks", d.StandardDrinks())
		}
		for _, in := range d.Ingredients {
			if in.Key == "" || in.Amount < 0 || text.Line(in.Name) != nil {
				t.Fatalf("accepted ingredient %+v", in)
			}
		}
		// Every text kept is what the text rule keeps.
		for _, v := range append([]string{d.Name, d.Section, d.Glass, d.Garnish}, d.Method...) {
			if err := text.Line(v); v != "" && err != nil {
				t.Fatalf("accepted %+q: %v", v, err)
			}
		}
		if err := text.Lines(d.Description); d.Description != "" && err != nil {
			t.Fatalf("accepted the description %+q: %v", d.Description, err)
		}
	})
}
