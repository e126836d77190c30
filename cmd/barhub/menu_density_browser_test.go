package main

import (
	"fmt"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// visibleDrinksJS lists the drinks wholly on screen between the top bar and the bottom
// navigation, each with where its Order button is.
const visibleDrinksJS = `(() => {
	const top = document.querySelector(".topbar").getBoundingClientRect().bottom;
	const bottom = document.getElementById("tabbar").getBoundingClientRect().top;
	return [...document.querySelectorAll("#menu-list .drink")].filter((d) => {
		const r = d.getBoundingClientRect();
		return r.top >= top - 1 && r.bottom <= bottom + 1;
	}).map((d) => {
		const b = d.querySelector(".order-button")?.getBoundingClientRect();
		return {id: d.dataset.id, left: b ? b.left : -1, right: b ? b.right : -1, button: !!b};
	});
})()`

type visibleDrink struct {
	ID     string  `json:"id"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
	Button bool    `json:"button"`
}

// TestBrowserPhoneMenuDensity: on a 390×844 phone the 37-drink starter menu is a list
// of compact rows, at least five to a screen, each with its Order button on the screen;
// a drink the guest's needs rule out says so in its row; a tap on a row opens its
// details (ingredients, glass and garnish), and a second tap closes them.
func TestBrowserPhoneMenuDensity(t *testing.T) {
	p := startBarParty(t, nil)
	if status := p.guest.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 1, "dietary": "nut allergy"}, nil); status != 200 {
		t.Fatalf("rsvp with a nut allergy: %d", status)
	}
	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Negroni")
	waitEval(t, phone, "the whole starter menu", `document.querySelectorAll("#menu-list .drink").length === 37`)

	// Per screen: the first drink just under the top bar, then count what fits.
	browsertest.Eval[bool](t, phone, `(() => {
		const first = document.querySelector("#menu-list .drink");
		scrollBy({top: first.getBoundingClientRect().top - document.querySelector(".topbar").getBoundingClientRect().bottom, behavior: "instant"});
		return true; })()`)
	shown := browsertest.Eval[[]visibleDrink](t, phone, visibleDrinksJS)
	if len(shown) < 5 {
		t.Errorf("%d drinks on a 390×844 screen, want at least 5: %+v", len(shown), shown)
	}
	for _, d := range shown {
		if d.Button && (d.Left < 0 || d.Right > float64(browsertest.Phone.Width)) {
			t.Errorf("%s: its Order button spans %.0f–%.0f px on a %d px screen", d.ID, d.Left, d.Right, browsertest.Phone.Width)
		}
	}
	perDrink := browsertest.Eval[float64](t, phone, `(() => {
		const list = document.getElementById("menu-list").getBoundingClientRect();
		return list.height / document.querySelectorAll("#menu-list .drink").length; })()`)
	if perDrink > float64(browsertest.Phone.Height)/5 {
		t.Errorf("the menu takes %.0f px per drink, want at most %d", perDrink, browsertest.Phone.Height/5)
	}
	// A description is one line, however long.
	if tall := browsertest.Eval[[]string](t, phone, `[...document.querySelectorAll("#menu-list .drink .desc")].filter((p) => p.getBoundingClientRect().height >= 2 * parseFloat(getComputedStyle(p).lineHeight)).map((p) => p.closest(".drink").dataset.id)`); len(tall) > 0 {
		t.Errorf("descriptions over more than one line: %v", tall)
	}
	if width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`); int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	t.Logf("%d drinks on the first screen, %.0f px per drink", len(shown), perDrink)
	browsertest.ScreenshotScreen(t, phone, "menu")

	// The guest's nut allergy shows in the Mai Tai's row, not behind a tap.
	maiTai := `#menu-list .drink[data-id="mai-tai"]`
	browsertest.WaitVisible(t, phone, maiTai+" .allergen-flag")
	browsertest.WaitText(t, phone, maiTai+" .allergen-flag", "contains nuts")

	// A tap opens the details; another closes them.
	negroni := `#menu-list .drink[data-id="negroni"]`
	details := negroni + " .drink-details"
	if browsertest.Eval[bool](t, phone, fmt.Sprintf(`!document.querySelector(%q).hidden`, details)) {
		t.Fatal("the Negroni's details are open before a tap")
	}
	browsertest.Click(t, phone, negroni+" .desc")
	browsertest.WaitVisible(t, phone, details)
	browsertest.WaitText(t, phone, details, "Campari")
	browsertest.WaitText(t, phone, details+" .serving", "garnish")
	if got := browsertest.Eval[string](t, phone, fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-expanded")`, negroni+" .drink-toggle")); got != "true" {
		t.Errorf("the opened drink says aria-expanded=%q", got)
	}
	browsertest.ScreenshotScreen(t, phone, "details")
	browsertest.Click(t, phone, negroni+" .drink-toggle")
	browsertest.WaitNotVisible(t, phone, details)

	// The Order button orders; it does not open the details.
	browsertest.Click(t, phone, negroni+" .order-button")
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-title", "Negroni")
	if browsertest.Eval[bool](t, phone, fmt.Sprintf(`!document.querySelector(%q).hidden`, details)) {
		t.Error("the Order button opened the details too")
	}
}
