package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// shownViews lists the guest app's views on screen, by name.
const shownViews = `[...document.querySelectorAll("#app > .view")].filter(v => getComputedStyle(v).display !== "none").map(v => v.dataset.view).join(",")`

// TestBrowserGuestPhoneApp follows a guest through the phone app on a 390×844
// phone: the bottom navigation shows one view at a time (the invitation first,
// before an answer) and the menu is one tap away; the host's new event details
// appear live with a map link and "Add to calendar"; a recommended drink is
// ordered with its own Order button; and an announcement floats over the menu
// while the guest is scrolled deep into it.
func TestBrowserGuestPhoneApp(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	// Not answered yet: the invitation comes first, alone.
	browsertest.WaitVisible(t, phone, "#rsvp-form")
	waitEval(t, phone, "only the info view", shownViews+` === "info"`)
	if cur := browsertest.Eval[string](t, phone, `document.querySelector("#tabbar [aria-current=page]").id`); cur != "tab-info" {
		t.Errorf("current tab %q, want tab-info", cur)
	}
	waitEval(t, phone, "live", `document.getElementById("live-status").dataset.status === "open"`)
	browsertest.Eval[int](t, phone, `window.notReloaded = 1`)

	// The menu is one tap away, and the navigation stays on screen.
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Negroni")
	waitEval(t, phone, "only the menu view", shownViews+` === "menu"`)
	if !browsertest.Eval[bool](t, phone, `(() => { const r = document.getElementById("tabbar").getBoundingClientRect(); return r.bottom <= innerHeight + 1 && r.top > innerHeight / 2; })()`) {
		t.Error("the bottom navigation is not at the bottom of the screen")
	}
	if width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`); int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	browsertest.ScreenshotScreen(t, phone, "menu-view")

	// The host changes the event: the open page shows it without a reload.
	place := "Storgatan 1, Lund"
	if status := p.admin.call("PUT", "/api/admin/settings", map[string]string{
		"eventName": "Midsummer on the roof", "eventDate": "2030-06-19T18:00", "location": place,
		"dressCode": "Flowers in your hair", "timezone": "Europe/Stockholm",
	}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}
	browsertest.Click(t, phone, "#tab-info")
	browsertest.WaitText(t, phone, "#event-name", "Midsummer on the roof")
	browsertest.WaitText(t, phone, "#event-where", place)
	browsertest.WaitText(t, phone, "#event-dress", "Flowers in your hair")
	browsertest.WaitText(t, phone, "#event-when", "2030")
	if href := browsertest.Eval[string](t, phone, `document.getElementById("event-map").href`); href != "https://www.openstreetmap.org/search?query="+strings.ReplaceAll(url.QueryEscape(place), "+", "%20") {
		t.Errorf("map link %q", href)
	}
	if !browsertest.Eval[bool](t, phone, `window.notReloaded === 1`) {
		t.Error("the page reloaded to show the new event")
	}
	browsertest.Click(t, phone, "#event-calendar")
	waitEval(t, phone, "calendar file fetched", `document.getElementById("event-calendar").dataset.blob === "1"`)
	ics := browsertest.Eval[string](t, phone, `(h => decodeURIComponent(h.slice(h.indexOf(",") + 1)))(document.getElementById("event-calendar").href)`)
	if !strings.Contains(ics, "BEGIN:VCALENDAR") || !strings.Contains(ics, "Midsummer on the roof") {
		t.Errorf("the calendar file is not the event's:\n%s", ics)
	}
	browsertest.ScreenshotScreen(t, phone, "info-view")

	// Ask the bartender, and order what it recommends.
	browsertest.Click(t, phone, "#tab-ask")
	waitEval(t, phone, "only the ask view", shownViews+` === "ask"`)
	browsertest.Click(t, phone, `#reco-form input[name="reco-like"][value="fresh"] + span`)
	browsertest.Click(t, phone, "#reco-ask")
	browsertest.WaitVisible(t, phone, "#reco-result .reco-order")
	drink := browsertest.Eval[string](t, phone, `document.querySelector("#reco-result li[data-drink-id] strong").textContent`)
	browsertest.Click(t, phone, "#reco-result .reco-order")
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-title", drink)
	browsertest.ScreenshotScreen(t, phone, "reco-order")
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#orders-count", "1")
	browsertest.Click(t, phone, "#tab-orders")
	browsertest.WaitText(t, phone, "#order-list", drink)
	waitEval(t, phone, "only the orders view", shownViews+` === "orders"`)
	var mine struct{ Orders []e2eOrder }
	if status := p.guest.call("GET", "/api/orders", nil, &mine); status != 200 || len(mine.Orders) != 1 || mine.Orders[0].Items[0].Name != drink {
		t.Fatalf("orders: %d %+v, want one %s", status, mine.Orders, drink)
	}

	// Deep in the menu, the host's announcement floats on screen.
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.Eval[int](t, phone, `window.scrollTo(0, document.documentElement.scrollHeight), window.scrollY`)
	if y := browsertest.Eval[int](t, phone, `window.scrollY`); y < 3000 {
		t.Fatalf("scrolled only %d px into the menu", y)
	}
	if status := p.admin.call("POST", "/api/admin/announcements", map[string]any{"text": "Last call at the bar!"}, nil); status != 202 {
		t.Fatalf("announce: %d", status)
	}
	browsertest.WaitText(t, phone, "#announcements", "Last call at the bar!")
	if !browsertest.Eval[bool](t, phone, `(() => {
		const box = document.querySelector("#announcements .announcement"), r = box.getBoundingClientRect();
		const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return scrollY > 3000 && r.top >= 0 && r.bottom <= innerHeight && box.contains(top);
	})()`) {
		t.Error("the announcement is not on screen over the menu")
	}
	browsertest.ScreenshotScreen(t, phone, "announcement-over-menu")
	browsertest.Click(t, phone, "#announcements .announcement-close")
	waitEval(t, phone, "announcement dismissed", `!document.querySelector("#announcements .announcement")`)
	if y := browsertest.Eval[int](t, phone, `window.scrollY`); y < 3000 {
		t.Errorf("dismissing the announcement moved the menu to %d px", y)
	}

	// Back to the RSVP view: it is where the guest left it.
	browsertest.Click(t, phone, "#tab-info")
	browsertest.WaitVisible(t, phone, "#rsvp-form")
	browsertest.Click(t, phone, "#tab-menu")
	if y := browsertest.Eval[int](t, phone, `window.scrollY`); y < 3000 {
		t.Errorf("the menu lost its place: back at %d px", y)
	}
}
