package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserPublicMenu: a stranger opens the address on the bar's
// poster on their phone. While the host keeps the menu private (the
// default), the page says so and offers the sign-in, and nothing of the
// menu reaches the phone; once the host switches the public menu on, the
// same page shows the drinks without signing in: sections, search,
// allergens, "alcohol-free", and "sign in to order" (no "join": this
// server takes no sign-ups).
func TestBrowserPublicMenu(t *testing.T) {
	p := startBarParty(t, map[string]string{"BARHUB_PUBLIC_MENU": "0"})
	s, admin := p.s, p.admin
	var poster []byte
	if status := admin.call("GET", "/api/admin/poster", nil, &poster); status != 200 {
		t.Fatalf("poster: %d %s", status, poster)
	}
	m := regexp.MustCompile(`<p class="link">([^<]+)</p>`).FindSubmatch(poster)
	if m == nil || string(m[1]) != s.URL+"/menu" {
		t.Fatalf("the poster's address is %q, want %s/menu", m, s.URL)
	}
	menuURL := string(m[1])

	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, menuURL)
	browsertest.WaitText(t, phone, "#pm-private", "The menu is private")
	if href := browsertest.Eval[string](t, phone, `document.querySelector("#pm-private a").getAttribute("href")`); href != "/login?next=/" {
		t.Errorf("sign-in link %q", href)
	}
	// Nothing of the menu reached the page: no drink, no section.
	if leaked := browsertest.Eval[bool](t, phone, `/Negroni|Mojito|Classics/.test(document.body.innerText) || !document.getElementById("pm-menu").hidden`); leaked {
		t.Error("the private menu shows drinks to a stranger")
	}
	browsertest.Screenshot(t, phone, "public-menu-private")

	// The host switches it on from the admin page; the stranger reloads.
	if status := admin.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Garden party"}, nil); status != 200 {
		t.Fatalf("name the party: %d", status)
	}
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#pubmenu-source", "Off by default")
	if browsertest.Eval[bool](t, desk, `document.getElementById("pubmenu-switch").checked`) {
		t.Error("the admin's switch shows the public menu on")
	}
	browsertest.Click(t, desk, "#pubmenu-switch")
	browsertest.WaitText(t, desk, "#pubmenu-source", "Set here")
	browsertest.ScreenshotOf(t, desk, "#public-menu", "public-menu-switch")
	browsertest.Navigate(t, phone, menuURL)
	browsertest.WaitText(t, phone, "#pm-event", "Garden party")
	browsertest.WaitText(t, phone, "#pm-list", "Negroni")
	browsertest.WaitText(t, phone, "#pm-sections", "Alcohol-free")
	browsertest.WaitText(t, phone, `#pm-list [data-drink="negroni"] .pm-allergens`, "Contains: sulphites")
	if href := browsertest.Eval[string](t, phone, `document.getElementById("pm-signin").getAttribute("href")`); href != "/login?next=/" {
		t.Errorf("sign in to order links to %q", href)
	}
	browsertest.WaitText(t, phone, "#pm-signin", "Sign in to order")
	if !browsertest.Eval[bool](t, phone, `document.getElementById("pm-join").hidden`) {
		t.Error(`"join" shows while the event says nothing of sign-ups`)
	}
	browsertest.Screenshot(t, phone, "public-menu")

	browsertest.Fill(t, phone, "#pm-search", "mojito")
	browsertest.WaitText(t, phone, "#pm-list", "Virgin Mojito")
	browsertest.WaitText(t, phone, `#pm-list [data-drink="virgin-mojito"] .pm-af`, "Alcohol-free")
	if n := browsertest.Eval[float64](t, phone, `document.querySelectorAll("#pm-list .pm-drink").length`); n != 2 {
		t.Errorf("search for mojito shows %v drinks, want Mojito and Virgin Mojito", n)
	}
	browsertest.Click(t, phone, `#pm-af`)
	browsertest.WaitText(t, phone, "#pm-count", "1 drink")
	if strings.Contains(browsertest.Text(t, phone, "#pm-list"), "White rum") {
		t.Error("alcohol-free only still shows the Mojito")
	}
	browsertest.Screenshot(t, phone, "public-menu-search")
}

// TestBrowserWalkIn: a friend of a guest arrives without an invitation.
// The door adds her in a few taps, with her friend's group and her
// allergy, while the door's Wi-Fi is down: the walk-in waits on the
// tablet and is added once when the network is back, and the door shows
// her code and QR. She signs in with that code on her own phone and
// orders; the host's figures count one walk-in.
func TestBrowserWalkIn(t *testing.T) {
	p := startBarParty(t, nil)
	s, admin := p.s, p.admin
	var anna e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Anna", "lastName": "Ek", "status": "coming"}, &anna); status != 201 {
		t.Fatalf("create guest: %d", status)
	}

	b := browsertest.New(t)
	door := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, door, s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.Navigate(t, door, s.URL+"/door")
	browsertest.WaitText(t, door, "#live-status", "Live")
	browsertest.Click(t, door, "#walkin-open")
	browsertest.Fill(t, door, "#walkin-first", "Nora")
	browsertest.Fill(t, door, "#walkin-last", "Lind")
	browsertest.Fill(t, door, "#walkin-with", "anna")
	browsertest.WaitText(t, door, "#walkin-with-results", "Anna Ek")
	browsertest.Click(t, door, "#walkin-with-results button")
	browsertest.WaitText(t, door, "#walkin-with-name", "Anna Ek")
	browsertest.Fill(t, door, "#walkin-needs", "no nuts")
	browsertest.Screenshot(t, door, "walk-in-form")

	setOffline(t, door, true)
	browsertest.Click(t, door, "#walkin-submit")
	browsertest.WaitText(t, door, "#walkin-queue", "Nora Lind")
	browsertest.WaitText(t, door, "#walkin-queue", "not yet sent")
	browsertest.Screenshot(t, door, "walk-in-queued")
	setOffline(t, door, false)
	code := browsertest.WaitText(t, door, "#walkin-code", "")
	for code == "" {
		code = browsertest.WaitText(t, door, "#walkin-code", "")
	}
	browsertest.WaitText(t, door, "#walkin-name", "Welcome, Nora Lind")
	if !browsertest.Eval[bool](t, door, `(() => { const i = document.getElementById("walkin-qr"); return i.complete && i.naturalWidth > 0 })()`) {
		t.Error("the walk-in's QR code did not load")
	}
	browsertest.WaitText(t, door, "#door-in", "1")
	browsertest.Screenshot(t, door, "walk-in-code")

	// Added once, however often the tablet tried.
	var list struct {
		Guests []e2eGuest `json:"guests"`
		Total  int        `json:"total"`
	}
	if status := admin.call("GET", "/api/admin/guests?q=lind", nil, &list); status != 200 || list.Total != 1 || list.Guests[0].Code != code {
		t.Fatalf("guests named Lind: %d %+v, want one with code %s", status, list, code)
	}
	var stats struct{ WalkIns, CheckedIn int }
	if status := admin.call("GET", "/api/admin/stats", nil, &stats); status != 200 || stats.WalkIns != 1 || stats.CheckedIn != 1 {
		t.Errorf("stats %d %+v, want 1 walk-in checked in", status, stats)
	}

	// Nora's own phone: the code from the door, her last name, an order.
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, code, "Lind", "/")
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Virgin Mojito")
	browsertest.Click(t, phone, `#menu-list .drink[data-id="virgin-mojito"] .order-button`)
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitText(t, phone, "#order-list", "Virgin Mojito")
	browsertest.WaitText(t, phone, "#order-list", "Number 1 in the queue")
	browsertest.Screenshot(t, phone, "walk-in-ordered")
}
