package api

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/plan"
)

// shoppingParty is a host, six invitations (10 people coming) and a
// three-drink menu, all made through the admin API.
type shoppingParty struct {
	*testEnv
	aTok                string
	negroni, gt, mojito string
	ann                 guest.Guest
	annTok              string
}

func newShoppingParty(t *testing.T) *shoppingParty {
	t.Helper()
	e := newTestEnv(t)
	p := &shoppingParty{testEnv: e}
	p.aTok = e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	for _, g := range []map[string]any{
		{"firstName": "Ann", "lastName": "Plain", "expectedGuests": 2, "status": "coming"},
		{"firstName": "Bo", "lastName": "Sober", "expectedGuests": 1, "status": "coming", "tastes": map[string]any{"likes": []string{"bitter"}, "alcoholFree": true}},
		{"firstName": "Cy", "lastName": "Sulphite", "expectedGuests": 3, "status": "coming", "dietary": "allergic to sulphites"},
		{"firstName": "Di", "lastName": "Gin", "expectedGuests": 4, "status": "coming", "tastes": map[string]any{"likes": []string{"gin"}}},
		{"firstName": "Ed", "lastName": "Pending", "expectedGuests": 5},
		{"firstName": "Fi", "lastName": "Declined", "expectedGuests": 2, "status": "declined"},
	} {
		var made guest.Guest
		status, body := e.do("POST", "/api/admin/guests", p.aTok, g)
		if status != http.StatusCreated {
			t.Fatalf("create %v: %d %s", g["firstName"], status, body)
		}
		decodeInto(t, body, &made)
		if made.FirstName == "Ann" {
			p.ann = made
		}
	}
	p.annTok = e.tokenFor(p.ann)
	for _, d := range []struct {
		id   *string
		body map[string]any
	}{
		{&p.negroni, map[string]any{"name": "Negroni", "section": "Classics", "abv": 26, "tags": []string{"bitter", "strong"}, "allergens": []string{"sulphites"},
			"ingredients": []map[string]any{{"name": "Gin", "amount": 30, "unit": "ml"}, {"name": "Campari", "amount": 30, "unit": "ml"}, {"name": "Sweet vermouth", "amount": 3, "unit": "cl"}, {"name": "Orange", "amount": 1, "unit": "slice"}}}},
		{&p.gt, map[string]any{"name": "Gin & Tonic", "section": "Long", "abv": 10, "tags": []string{"bitter", "fresh"},
			"ingredients": []map[string]any{{"name": "Gin", "amount": 50, "unit": "ml"}, {"name": "Tonic water", "amount": 150, "unit": "ml"}, {"name": "Lime", "amount": 1, "unit": "wedge"}}}},
		{&p.mojito, map[string]any{"name": "Virgin Mojito", "section": "Alcohol-free", "alcoholFree": true, "tags": []string{"fresh", "sweet"},
			"ingredients": []map[string]any{{"name": "Lime juice", "amount": 25, "unit": "ml"}, {"name": "Sugar syrup", "amount": 20, "unit": "ml"}, {"name": "Mint", "amount": 8, "unit": "leaf"}, {"name": "Soda water", "amount": 120, "unit": "ml"}}}},
	} {
		status, body := e.do("POST", "/api/admin/drinks", p.aTok, d.body)
		if status != http.StatusCreated {
			t.Fatalf("create %v: %d %s", d.body["name"], status, body)
		}
		var v struct{ ID string }
		decodeInto(t, body, &v)
		*d.id = v.ID
	}
	return p
}

func (p *shoppingParty) plan(query string) plan.Plan {
	p.t.Helper()
	status, body := p.do("GET", "/api/admin/reports/shopping"+query, p.aTok, nil)
	if status != http.StatusOK {
		p.t.Fatalf("shopping%s: %d %s", query, status, body)
	}
	var out plan.Plan
	decodeInto(p.t, body, &out)
	return out
}

// figures are a plan's servings by drink id and purchases by ingredient.
func (p *shoppingParty) figures(pl plan.Plan) (map[string]int, map[string]string) {
	servings, buy := map[string]int{}, map[string]string{}
	names := map[string]string{p.negroni: "negroni", p.gt: "g&t", p.mojito: "mojito"}
	for _, d := range pl.Drinks {
		servings[names[d.ID]] = d.Servings
	}
	for _, n := range pl.Ingredients {
		buy[n.Key] = n.Buy
	}
	return servings, buy
}

// TestShoppingPlan: 10 people coming for 4 hours drink 45 drinks. Ann's 2
// share theirs equally (3 each); Bo only has the Virgin Mojito (4.5); Cy's
// 3, allergic to sulphites, never the Negroni (6.75 each of the other
// two); Di's 4 like gin, so the two gin drinks weigh 3 to the mojito's 1
// (7.71, 7.71, 2.57). Negroni 10.71, G&T 17.46, mojito 16.82; plus 15%:
// 12.32, 20.08 and 19.35, so be ready for 13, 21 and 20, and buy for the
// 51.75 planned.
func TestShoppingPlan(t *testing.T) {
	p := newShoppingParty(t)

	got := p.plan("")
	if got.Headcount != 10 || got.Invitations != 4 || got.WithTastes != 2 || got.DrinksPerHead != 4.5 || got.ExpectedDrinks != 45 || got.PlannedDrinks != 51.8 || got.Servings != 52 {
		t.Errorf("headcount %d, invitations %d, with tastes %d, per head %g, expected %g, planned %g, servings %d",
			got.Headcount, got.Invitations, got.WithTastes, got.DrinksPerHead, got.ExpectedDrinks, got.PlannedDrinks, got.Servings)
	}
	if got.Params != plan.DefaultParams() {
		t.Errorf("parameters %+v, want the defaults", got.Params)
	}
	servings, buy := p.figures(got)
	if want := map[string]int{"negroni": 13, "g&t": 21, "mojito": 20}; !reflect.DeepEqual(servings, want) {
		t.Errorf("servings %v, want %v", servings, want)
	}
	if got.Drinks[0].Expected != 17.5 || got.Drinks[1].Expected != 16.8 || got.Drinks[2].Expected != 10.7 {
		t.Errorf("expected drinks %+v", got.Drinks)
	}
	wantBuy := map[string]string{
		"gin":            "2 bottles (700 ml)", // 12.32 × 30 + 20.08 × 50 = 1374 ml
		"campari":        "1 bottle (700 ml)",  // 370 ml
		"sweet vermouth": "1 bottle (750 ml)",  // 370 ml
		"orange":         "2 oranges",          // 12.3 slices
		"tonic water":    "4 bottles (1 L)",    // 3013 ml
		"lime":           "3 limes",            // 20.1 wedges
		"lime juice":     "17 limes",           // 484 ml
		"sugar syrup":    "1 bottle (700 ml)",  // 387 ml
		"mint":           "3 bunches",          // 155 leaves
		"soda water":     "3 bottles (1 L)",    // 2321 ml
	}
	if !reflect.DeepEqual(buy, wantBuy) {
		t.Errorf("buy %v\nwant %v", buy, wantBuy)
	}

	// Six hours, 1 a head an hour, no margin: 6.5 a head, 65 in all.
	got = p.plan("?hours=6&perHour=1&margin=0")
	servings, buy = p.figures(got)
	if want := map[string]int{"negroni": 16, "g&t": 26, "mojito": 25}; !reflect.DeepEqual(servings, want) || got.ExpectedDrinks != 65 {
		t.Errorf("six hours: servings %v (want %v), expected %g", servings, want, got.ExpectedDrinks)
	}
	if buy["gin"] != "3 bottles (700 ml)" || buy["tonic water"] != "4 bottles (1 L)" || buy["lime juice"] != "21 limes" {
		t.Errorf("six hours: %v", buy)
	}

	// Real orders blend in: 3 Negronis ordered (a cancelled order for 5
	// mojitos does not count) against 10 people: 3/13 of the plan follows
	// them. Negroni 10/13 × 10.71 + 3/13 × 45 = 18.63 → 22 with the margin.
	p.placeOrder(order.ItemInput{DrinkID: p.negroni, Qty: 2})
	p.placeOrder(order.ItemInput{DrinkID: p.negroni, Qty: 1})
	cancelled := p.placeOrder(order.ItemInput{DrinkID: p.mojito, Qty: 5})
	if status, body := p.do("POST", "/api/orders/"+cancelled+"/cancel", p.annTok, nil); status != http.StatusOK {
		t.Fatalf("cancel: %d %s", status, body)
	}
	got = p.plan("")
	servings, _ = p.figures(got)
	if want := map[string]int{"negroni": 22, "g&t": 16, "mojito": 15}; !reflect.DeepEqual(servings, want) || got.OrderedSoFar != 3 || got.ObservedWeight != 0.231 {
		t.Errorf("with orders: servings %v (want %v), ordered %d, weight %g", servings, want, got.OrderedSoFar, got.ObservedWeight)
	}

	// Mint out of stock: the mojito cannot be ordered now, but it is
	// still planned, and the mint is flagged.
	if status, body := p.do("PUT", "/api/bar/stock/Mint", p.aTok, map[string]bool{"inStock": false}); status != http.StatusOK {
		t.Fatalf("mint out: %d %s", status, body)
	}
	got = p.plan("")
	for _, n := range got.Ingredients {
		if n.OutOfStock != (n.Key == "mint") {
			t.Errorf("%s: out of stock %v", n.Key, n.OutOfStock)
		}
	}
	for _, d := range got.Drinks {
		if d.ID == p.mojito && (d.Available || d.Servings != 15) {
			t.Errorf("mojito while out of mint: %+v", d)
		}
	}
}

func (p *shoppingParty) placeOrder(items ...order.ItemInput) string {
	p.t.Helper()
	status, body := p.do("POST", "/api/orders", p.annTok, order.Request{Items: items}, "Idempotency-Key", newKey())
	if status != http.StatusCreated {
		p.t.Fatalf("order: %d %s", status, body)
	}
	var v struct{ ID string }
	decodeInto(p.t, body, &v)
	return v.ID
}

func TestShoppingCSV(t *testing.T) {
	p := newShoppingParty(t)
	resp := p.doResp("GET", "/api/admin/reports/shopping.csv?hours=4", p.aTok, nil)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	body := string(raw)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="shopping-`) {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 11 || lines[0] != strings.Join(plan.CSVColumns, ",") {
		t.Fatalf("csv has %d lines:\n%s", len(lines), body)
	}
	if want := `"Spirits & liqueurs","Gin","2 bottles (700 ml)",2,"bottle (700 ml)",1373.8,"ml",false,false,,"Gin & Tonic; Negroni"`; lines[2] != want {
		t.Errorf("gin line %q\nwant     %q", lines[2], want)
	}
}

func TestShoppingPlanBadParameters(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	for _, q := range []string{"hours=abc", "hours=0", "hours=-2", "hours=1e9", "perHour=0", "perHour=NaN", "margin=15", "margin=-1", "margin=%E2%88%9E"} {
		for _, path := range []string{"/api/admin/reports/shopping?", "/api/admin/reports/shopping.csv?"} {
			status, body := e.do("GET", path+q, tok, nil)
			if status != http.StatusBadRequest || errorCode(t, body) != "invalid_query" {
				t.Errorf("%s%s: %d %s", path, q, status, body)
			}
		}
	}
}

// With nobody coming the plan is empty, not an error.
func TestShoppingPlanNobodyComing(t *testing.T) {
	e := newTestEnv(t)
	seedMenu(t, e.store)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	status, body := e.do("GET", "/api/admin/reports/shopping", tok, nil)
	if status != http.StatusOK {
		t.Fatalf("%d %s", status, body)
	}
	var got plan.Plan
	decodeInto(t, body, &got)
	if got.Headcount != 0 || got.Servings != 0 || len(got.Drinks) != 0 || len(got.Ingredients) != 0 || !strings.Contains(string(body), `"ingredients":[]`) {
		t.Errorf("nobody coming: %s", body)
	}
}

// TestShoppingPlanTrim is the reproduction through the API: three
// people coming and the starter menu. The plan buys 24 bottles of spirit
// and 4 of wine for sixteen drinks and proposes six drinks that share 3;
// ?trim=true gives that menu's list (JSON and CSV); pausing the proposed
// drinks, as the admin page's button does, makes it the plan.
func TestShoppingPlanTrim(t *testing.T) {
	e := newTestEnv(t)
	seedMenu(t, e.store)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	if status, body := e.do("POST", "/api/admin/guests", tok, map[string]any{"firstName": "Tre", "lastName": "Few", "expectedGuests": 3, "status": "coming"}); status != http.StatusCreated {
		t.Fatalf("guest: %d %s", status, body)
	}
	get := func(query string) plan.Plan {
		t.Helper()
		status, body := e.do("GET", "/api/admin/reports/shopping"+query, tok, nil)
		if status != http.StatusOK {
			t.Fatalf("shopping%s: %d %s", query, status, body)
		}
		var p plan.Plan
		decodeInto(t, body, &p)
		return p
	}
	whole := get("")
	tr := whole.Trim
	// The proposal is documented field by field (the OpenAPI check's own
	// party is too small to get one).
	_, root := loadOpenAPI(t)
	_, raw := e.do("GET", "/api/admin/reports/shopping", tok, nil)
	var body any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	for _, prob := range checkOpenAPISchema(root, map[string]any{"$ref": "#/components/schemas/ShoppingPlan"}, body, "body") {
		t.Error(prob)
	}
	if whole.Headcount != 3 || whole.Bottles != 28 || len(whole.Drinks) != 37 || tr == nil || tr.TrimmedBottles != 3 || tr.BottlesSaved != 25 || len(tr.Keep) != 6 || len(tr.Pause) != 31 {
		t.Fatalf("whole menu: %d coming, %d bottles, %d drinks, trim %+v", whole.Headcount, whole.Bottles, len(whole.Drinks), tr)
	}
	trimmed := get("?trim=true")
	if !trimmed.Trimmed || trimmed.Bottles != 3 || len(trimmed.Drinks) != 6 || len(trimmed.Ingredients) != 12 {
		t.Errorf("trimmed: %v, %d bottles, %d drinks, %d lines", trimmed.Trimmed, trimmed.Bottles, len(trimmed.Drinks), len(trimmed.Ingredients))
	}

	// The CSV of the trimmed menu: a line per ingredient, whole garnish.
	resp := e.doResp("GET", "/api/admin/reports/shopping.csv?trim=1", tok, nil)
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("csv: %d %v", resp.StatusCode, err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 13 || !slices.Contains(lines, `"Spirits & liqueurs","White rum","1 bottle (700 ml)",1,"bottle (700 ml)",401.1,"ml",false,false,,"Daiquiri; Mojito; Piña Colada"`) ||
		!slices.Contains(lines, `"Fruit, herbs & garnish","Mint","1 bunch",1,"bunch",16,"leaf",false,true,"a bunch has about 8 sprigs or 60 leaves","Mojito"`) {
		t.Errorf("trimmed csv:\n%s", raw)
	}
	for _, l := range lines {
		if strings.Contains(l, ",,,,") {
			t.Errorf("a row of empty cells: %q", l)
		}
	}

	if status, body := e.do("GET", "/api/admin/reports/shopping?trim=maybe", tok, nil); status != http.StatusBadRequest || errorCode(t, body) != "invalid_query" {
		t.Errorf("trim=maybe: %d %s", status, body)
	}

	// Pausing the proposed drinks (the bar's switch, as the admin page
	// does it) makes the trimmed menu the plan, with nothing more to trim.
	for _, d := range tr.Pause {
		if status, body := e.do("PUT", "/api/bar/drinks/"+d.ID+"/stock", tok, map[string]bool{"inStock": false}); status != http.StatusOK {
			t.Fatalf("pause %s: %d %s", d.Name, status, body)
		}
	}
	after := get("")
	if after.Trim != nil || after.Bottles != 3 || len(after.Drinks) != 6 || len(after.Skipped) != 31 {
		t.Errorf("after pausing: trim %+v, %d bottles, %d drinks, %d skipped", after.Trim, after.Bottles, len(after.Drinks), len(after.Skipped))
	}
}

// TestLearnFromNight: the report's "Use this night for the next plan".
// Too few glasses teach nothing; after 12 G&Ts and 2 Negronis served the
// plan keeps each ingredient's used-over-planned factor with the event's
// date, the next plan buys by it and says so, and forgetting brings the
// plan back.
func TestLearnFromNight(t *testing.T) {
	p := newShoppingParty(t)
	if status, body := p.do("PUT", "/api/admin/settings", p.aTok, map[string]any{"eventName": "Garden party", "timezone": "Europe/Stockholm", "eventDate": "2026-12-02T20:00:00Z"}); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, body)
	}
	serve := func(items ...order.ItemInput) {
		id := p.placeOrder(items...)
		for _, action := range []string{"start", "ready", "serve"} {
			if status, body := p.do("POST", "/api/bar/orders/"+id+"/"+action, p.aTok, map[string]string{}); status != http.StatusOK {
				t.Fatalf("%s: %d %s", action, status, body)
			}
		}
	}
	serve(order.ItemInput{DrinkID: p.gt, Qty: 5})
	if status, body := p.do("POST", "/api/admin/orders/report/learn", p.aTok, nil); status != http.StatusUnprocessableEntity || errorCode(t, body) != "nothing_to_learn" {
		t.Fatalf("5 glasses: %d %s, want 422 nothing_to_learn", status, body)
	}
	if got := p.plan(""); got.LearntFrom != "" {
		t.Fatalf("nothing learnt, yet learnt from %q", got.LearntFrom)
	}
	serve(order.ItemInput{DrinkID: p.gt, Qty: 5}, order.ItemInput{DrinkID: p.negroni, Qty: 2})
	for range 4 {
		serve(order.ItemInput{DrinkID: p.gt, Qty: 5})
	}
	before := p.plan("")
	_, buyBefore := p.figures(before)

	status, body := p.do("POST", "/api/admin/orders/report/learn", p.aTok, nil)
	if status != http.StatusOK {
		t.Fatalf("learn: %d %s", status, body)
	}
	var learnt plan.Learnt
	decodeInto(t, body, &learnt)
	// 30 G&Ts and 2 Negronis served, against the plan the orders have
	// pulled towards the G&T (gin 4 bottles, tonic 7, lime 6): gin
	// 30 × 50 + 2 × 30 = 1560 ml, 2.2 of 4 bottles: 0.55; tonic 4500 ml,
	// 4.5 of 7: 0.64; lime 30 wedges, 3.8 of 6 limes: 0.63; campari 60 ml
	// of 1 bottle and the mojito's, not used at all: the least, 0.5.
	want := map[string]float64{"gin": 0.55, "tonic water": 0.64, "lime": 0.63, "campari": 0.5, "sweet vermouth": 0.5, "orange": 0.5,
		"lime juice": 0.5, "sugar syrup": 0.5, "mint": 0.5, "soda water": 0.5}
	if learnt.Date != "2026-12-02" || !reflect.DeepEqual(learnt.Factors, want) {
		t.Errorf("learnt %+v, want %v", learnt, want)
	}
	if buyBefore["gin"] != "4 bottles (700 ml)" || buyBefore["tonic water"] != "7 bottles (1 L)" || buyBefore["lime"] != "6 limes" {
		t.Errorf("the plan before: %v", buyBefore)
	}

	got := p.plan("")
	_, buy := p.figures(got)
	if got.LearntFrom != "2026-12-02" {
		t.Errorf("learnt from %q", got.LearntFrom)
	}
	// Each amount times its factor, then rounded up into packs: gin 4
	// bottles → 2, tonic 7 → 5, lime 6 → 4, lime juice 4 → 2; a bottle
	// of campari stays a bottle.
	for k, w := range map[string]string{"gin": "2 bottles (700 ml)", "tonic water": "5 bottles (1 L)", "lime": "4 limes", "lime juice": "2 limes", "campari": "1 bottle (700 ml)"} {
		if buy[k] != w {
			t.Errorf("learnt plan: %s buys %q, want %q", k, buy[k], w)
		}
	}
	for _, n := range got.Ingredients {
		if n.Factor != learnt.Factors[n.Key] {
			t.Errorf("%s: factor %v, want %v", n.Key, n.Factor, learnt.Factors[n.Key])
		}
	}
	// Learning twice from one night gives the same, not the product.
	if status, body := p.do("POST", "/api/admin/orders/report/learn", p.aTok, nil); status != http.StatusOK {
		t.Fatalf("learn again: %d %s", status, body)
	} else {
		var again plan.Learnt
		decodeInto(t, body, &again)
		if !reflect.DeepEqual(again, learnt) {
			t.Errorf("learnt again %+v, first %+v", again, learnt)
		}
	}

	if status, body := p.do("DELETE", "/api/admin/reports/shopping/learnt", p.aTok, nil); status != http.StatusNoContent {
		t.Fatalf("forget: %d %s", status, body)
	}
	got = p.plan("")
	if _, buy := p.figures(got); got.LearntFrom != "" || !reflect.DeepEqual(buy, buyBefore) {
		t.Errorf("forgotten: learnt from %q, buy %v, want %v", got.LearntFrom, buy, buyBefore)
	}
}
