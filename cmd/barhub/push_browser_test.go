package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// waitEval polls a JavaScript condition until it is true, failing after
// browsertest.StepTimeout with what was awaited.
func waitEval(t *testing.T, ctx context.Context, what, expression string) {
	t.Helper()
	deadline := time.Now().Add(browsertest.StepTimeout)
	for !browsertest.Eval[bool](t, ctx, expression) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still false after %s: %s", what, browsertest.StepTimeout, expression)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserGuestApp: on a phone the guest app registers its service
// worker, which keeps the app shell; search forgives a typo; after the
// first order the app offers notifications on the locked phone; a page
// whose sign-in is gone goes to the sign-in screen with a sentence, not
// the API's developer text; with the server gone the page still opens
// from the shell, showing that it is reconnecting, and the offline banner
// shows when the phone loses its network.
func TestBrowserGuestApp(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	waitEval(t, phone, "service worker registered", `document.documentElement.dataset.sw === "registered"`)
	waitEval(t, phone, "service worker controls the page", `navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)`)
	waitEval(t, phone, "app shell cached", `caches.open("barhub-shell-v1").then(c => c.match("/")).then(r => !!r)`)
	waitEval(t, phone, "live", `document.getElementById("live-status").dataset.status === "open"`)

	// "mojto" finds the Mojito.
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Negroni")
	browsertest.Fill(t, phone, "#menu-search", "mojto")
	browsertest.WaitText(t, phone, "#menu-list", "Mojito")
	browsertest.Fill(t, phone, "#menu-search", "")

	// The first order brings the offer of notifications.
	browsertest.Click(t, phone, `#menu-list .drink[data-id="mojito"] .order-button`)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	browsertest.Click(t, phone, "#tab-orders")
	browsertest.WaitVisible(t, phone, "#push-offer")
	browsertest.WaitText(t, phone, "#push-offer", "even with the phone locked")
	browsertest.ScreenshotOf(t, phone, "#push-offer", "push-offer")

	// Signed out elsewhere (the token is gone): the next call goes to the
	// sign-in screen, which says so in words.
	// The call is made after Eval returns: the page leaves for /login as
	// it fails, which would otherwise cut the evaluation short.
	browsertest.Eval[bool](t, phone, `localStorage.removeItem("barhub.token"), setTimeout(() => import("/static/js/api.js").then(m => m.api("GET", "/api/orders")).catch(() => {}), 0), true`)
	browsertest.WaitPath(t, phone, "/login")
	notice := browsertest.WaitText(t, phone, "#login-notice", "You have been signed out")
	if strings.Contains(notice, "Bearer") || strings.Contains(notice, "Authorization") {
		t.Errorf("the sign-in screen shows developer text: %q", notice)
	}
	browsertest.Screenshot(t, phone, "signed-out")
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	// The server goes away: the page still opens, from the shell.
	p.s.Stop(t)
	browsertest.Navigate(t, phone, p.s.URL+"/")
	browsertest.WaitVisible(t, phone, "#greeting")
	waitEval(t, phone, "page served by the service worker", `!!navigator.serviceWorker.controller`)
	waitEval(t, phone, "reconnecting shown", `["connecting", "reconnecting"].includes(document.getElementById("live-status").dataset.status)`)

	// The phone loses its network: the banner says so.
	if _, err := chromedp.Call(phone, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitVisible(t, phone, "#offline-banner")
	browsertest.Screenshot(t, phone, "guest-offline")
}

// TestBrowserPickUpBoard: the bartender makes a board link on the bar's
// tablet; the screen by the bar opens it and shows an order under
// "Waiting", then, live, under "Being made" and under "Ready — collect" as
// the newest; revoking the link empties the screen and says so.
func TestBrowserPickUpBoard(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)

	bar := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, bar, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.Click(t, bar, "#board-links")
	browsertest.Fill(t, bar, "#board-name-input", "TV by the bar")
	browsertest.Click(t, bar, "#board-make")
	browsertest.WaitVisible(t, bar, "#board-link")
	link := browsertest.Eval[string](t, bar, `document.getElementById("board-link").href`)
	browsertest.WaitText(t, bar, "#board-list", "TV by the bar")

	tv := b.Page(t, browsertest.Tablet)
	// The link is made with --public-url; the test server listens elsewhere.
	_, fragment, ok := strings.Cut(link, "/board#")
	if !ok {
		t.Fatalf("board link %q", link)
	}
	browsertest.Navigate(t, tv, p.s.URL+"/board#"+fragment)
	browsertest.WaitText(t, tv, "#board-name", "TV by the bar")
	waitEval(t, tv, "board live", `document.getElementById("live-status").dataset.status === "open"`)
	if browsertest.Eval[bool](t, tv, `location.hash !== ""`) {
		t.Error("the board link's key stays in the address bar")
	}

	var o e2eOrder
	order := map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 2}}}
	if status := p.guest.call("POST", "/api/orders", order, &o, "Idempotency-Key", "board-1"); status != 201 {
		t.Fatalf("order: %d", status)
	}
	browsertest.WaitText(t, tv, "#waiting", "Ada L.")
	browsertest.WaitText(t, tv, "#waiting", "2× Mojito")
	if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/start", nil, nil); status != 200 {
		t.Fatalf("start: %d", status)
	}
	browsertest.WaitText(t, tv, "#making", "Ada L.")
	waitEval(t, tv, "left the waiting column", `document.getElementById("waiting").children.length === 0`)
	if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/ready", nil, nil); status != 200 {
		t.Fatalf("ready: %d", status)
	}
	browsertest.WaitText(t, tv, "#ready .order.newest", "Ada L.")
	waitEval(t, tv, "left the making column", `document.getElementById("making").children.length === 0`)
	browsertest.Screenshot(t, tv, "board-ready")

	// Revoked: the screen empties and says why.
	var boards struct{ Boards []struct{ ID string } }
	if status := p.bartender.call("GET", "/api/bar/boards", nil, &boards); status != 200 || len(boards.Boards) != 1 {
		t.Fatalf("boards: %d %+v", status, boards)
	}
	if status := p.bartender.call("DELETE", "/api/bar/boards/"+boards.Boards[0].ID, nil, nil); status != 204 {
		t.Fatalf("revoke: %d", status)
	}
	browsertest.WaitText(t, tv, "#board-error", "no longer works")
	waitEval(t, tv, "board emptied", `document.getElementById("ready").children.length === 0`)
}
