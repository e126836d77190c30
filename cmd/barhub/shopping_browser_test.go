package main

import (
	"strconv"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserShoppingPlan: with the starter menu and 10 people coming, the
// host opens the shopping plan on the laptop, sees 45 drinks expected for
// the default four hours, changes the hours to six and sees 65, with the
// servings and the list following; mint, marked out behind the bar, is
// flagged. The menu is big for ten: the plan proposes a smaller one, the
// host shows its list and pauses the other drinks; then reads the panel in
// Swedish.
func TestBrowserShoppingPlan(t *testing.T) {
	p := startBarParty(t, nil)
	// Ada and her partner like sours; three more people, one of them
	// allergic to nuts; an alcohol-free guest; a pending family who do
	// not count yet.
	if status := p.admin.call("PUT", "/api/admin/guests/"+p.guestID, map[string]any{
		"status": "coming", "expectedGuests": 2, "tastes": map[string]any{"likes": []string{"sour"}},
	}, nil); status != 200 {
		t.Fatalf("Ada coming: %d", status)
	}
	for _, g := range []map[string]any{
		{"firstName": "Cy", "lastName": "Holm", "expectedGuests": 3, "status": "coming", "dietary": "nut allergy"},
		{"firstName": "Bo", "lastName": "Dry", "expectedGuests": 1, "status": "coming", "tastes": map[string]any{"alcoholFree": true}},
		{"firstName": "Di", "lastName": "Gin", "expectedGuests": 4, "status": "coming", "tastes": map[string]any{"likes": []string{"gin"}, "dislikes": []string{"sweet"}}},
		{"firstName": "Ed", "lastName": "Later", "expectedGuests": 5},
	} {
		if status := p.admin.call("POST", "/api/admin/guests", g, nil); status != 201 {
			t.Fatalf("create %v: %d", g["firstName"], status)
		}
	}
	if status := p.bartender.call("PUT", "/api/bar/stock/mint", map[string]bool{"inStock": false}, nil); status != 200 {
		t.Fatalf("mint out: %d", status)
	}
	// The servings the page must show, from the API itself.
	servings := func(query string) string {
		var plan struct {
			Headcount      int     `json:"headcount"`
			ExpectedDrinks float64 `json:"expectedDrinks"`
			Servings       int     `json:"servings"`
		}
		if status := p.admin.call("GET", "/api/admin/reports/shopping"+query, nil, &plan); status != 200 || plan.Headcount != 10 {
			t.Fatalf("plan%s: %d %+v", query, status, plan)
		}
		return strconv.Itoa(plan.Servings)
	}
	fourHours, sixHours := servings("?hours=4&perHour=1&margin=0.15"), servings("?hours=6&perHour=1&margin=0.15")
	if fourHours == sixHours {
		t.Fatalf("four and six hours both plan %s servings", fourHours)
	}

	b := browsertest.New(t)
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#shopping-headcount", "10 people")
	browsertest.WaitText(t, desk, "#shopping-expected", "45")
	browsertest.WaitText(t, desk, "#shopping-servings", fourHours)
	browsertest.WaitText(t, desk, "#shopping-list", "Spirits & liqueurs")
	browsertest.WaitText(t, desk, "#shopping-list", "bottle (700 ml)")
	browsertest.WaitText(t, desk, `#shopping-list tr.out[data-ingredient="mint"]`, "out of stock")
	// Bo only has alcohol-free drinks and Cy never a nutty one: the Amaretto
	// Sour is only for the other six, and an alcohol-free drink is planned.
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("#shopping-drinks tr").length`); n != 37 {
		t.Errorf("%d drinks planned, want the 37 of the starter menu", n)
	}
	browsertest.Eval[bool](t, desk, `document.getElementById("shopping").scrollIntoView(), true`)
	browsertest.Screenshot(t, desk, "shopping-four-hours")

	gin := func() string {
		return browsertest.Text(t, desk, `#shopping-list tr[data-ingredient="gin"] .buy`)
	}
	ginBefore := gin()
	browsertest.Fill(t, desk, "#shopping-hours", "6")
	browsertest.WaitText(t, desk, "#shopping-expected", "65")
	browsertest.WaitText(t, desk, "#shopping-servings", sixHours)
	if after := gin(); after == ginBefore {
		t.Errorf("gin still %q after two more hours", after)
	}
	browsertest.Screenshot(t, desk, "shopping-six-hours")

	// A bad value gets a message, and the last good plan stays: the margin
	// is checked in the page, the hours by the server.
	browsertest.Fill(t, desk, "#shopping-margin", "500")
	browsertest.WaitText(t, desk, "#shopping-error", "percentage from 0 to 100")
	if got := browsertest.Text(t, desk, "#shopping-servings"); got != sixHours {
		t.Errorf("servings %s after a refused margin, want %s", got, sixHours)
	}
	browsertest.Fill(t, desk, "#shopping-margin", "15")
	browsertest.Fill(t, desk, "#shopping-hours", "100")
	browsertest.WaitText(t, desk, "#shopping-error", "at most 48")
	if got := browsertest.Text(t, desk, "#shopping-servings"); got != sixHours {
		t.Errorf("servings %s after refused hours, want %s", got, sixHours)
	}
	t.Logf("four hours: %s servings, six hours: %s; gin %q, then %q", fourHours, sixHours, ginBefore, gin())

	// Ten people and 37 drinks: the plan says the menu is big for them
	// and proposes a smaller one that shares bottles; the host looks at
	// its list, then pauses the other drinks.
	browsertest.Fill(t, desk, "#shopping-hours", "4")
	browsertest.WaitText(t, desk, "#shopping-servings", fourHours)
	var whole struct {
		Bottles int `json:"bottles"`
		Trim    *struct {
			Keep           []struct{ Name string } `json:"keep"`
			Pause          []struct{ ID string }   `json:"pause"`
			TrimmedBottles int                     `json:"trimmedBottles"`
		} `json:"trim"`
	}
	if status := p.admin.call("GET", "/api/admin/reports/shopping", nil, &whole); status != 200 || whole.Trim == nil || len(whole.Trim.Keep) < 6 || whole.Trim.TrimmedBottles >= whole.Bottles {
		t.Fatalf("plan: %d %+v", status, whole)
	}
	kept := len(whole.Trim.Keep)
	browsertest.WaitText(t, desk, "#shopping-trim h3", "big for 10 people")
	browsertest.WaitText(t, desk, "#shopping-trim-saves", "needs "+strconv.Itoa(whole.Trim.TrimmedBottles))
	browsertest.WaitText(t, desk, "#shopping-trim-keep", whole.Trim.Keep[0].Name)
	browsertest.Click(t, desk, "#shopping-trim-toggle")
	browsertest.WaitText(t, desk, "#shopping-list h3", "smaller menu")
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("#shopping-drinks tr").length`); n != kept {
		t.Errorf("the smaller menu's list plans %d drinks, want %d", n, kept)
	}
	browsertest.Eval[bool](t, desk, `document.getElementById("shopping").scrollIntoView(), true`)
	browsertest.Screenshot(t, desk, "shopping-trimmed")
	browsertest.Eval[bool](t, desk, `window.confirm = () => true, true`)
	browsertest.Click(t, desk, "#shopping-trim-apply")
	browsertest.WaitText(t, desk, "#shopping-paused", strconv.Itoa(len(whole.Trim.Pause))+" drinks paused")
	browsertest.WaitNotVisible(t, desk, "#shopping-trim")
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("#shopping-drinks tr").length`); n != kept {
		t.Errorf("after pausing, %d drinks planned, want %d", n, kept)
	}
	var after struct {
		Skipped []struct{ ID string } `json:"skipped"`
		Trim    any                   `json:"trim"`
	}
	if status := p.admin.call("GET", "/api/admin/reports/shopping", nil, &after); status != 200 || len(after.Skipped) != len(whole.Trim.Pause) || after.Trim != nil {
		t.Errorf("after pausing: %d, %d switched off, trim %v", status, len(after.Skipped), after.Trim)
	}

	// The same panel in Swedish: the shop's words too.
	browsertest.Navigate(t, desk, p.s.URL+"/admin?lang=sv")
	browsertest.WaitText(t, desk, "#shopping-title", "Inköpslista")
	browsertest.WaitText(t, desk, "#shopping-headcount", "10 personer")
	browsertest.WaitText(t, desk, "#shopping-list", "Sprit & likör")
	browsertest.WaitText(t, desk, "#shopping-list", "(70 cl)")
	browsertest.Eval[bool](t, desk, `document.getElementById("shopping").scrollIntoView(), true`)
	browsertest.Screenshot(t, desk, "shopping-sv")
}
