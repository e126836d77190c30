package main

import (
	"fmt"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserGuestInSwedish: a guest whose phone is set to Swedish goes
// through the evening in Swedish, end to end: the sign-in page (and the
// server's own error message), the RSVP, the starter menu's descriptions,
// ordering, and the bartender's "ready" reaching the phone. The bar's
// tablet stays in English: each person's page follows their own device.
func TestBrowserGuestInSwedish(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)

	tablet := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, tablet, "#live-status", "Live")
	browsertest.WaitVisible(t, tablet, "barhub-lang select")

	phone := b.Page(t, browsertest.Phone)
	browsertest.Language(t, phone, "sv-SE,sv;q=0.9,en;q=0.8")

	// Sign in: the page in Swedish, and the server's refusal too.
	browsertest.Navigate(t, phone, p.s.URL+"/login?code="+p.guestCode)
	browsertest.WaitText(t, phone, ".welcome h1", "Välkommen")
	browsertest.Fill(t, phone, "#lastName", "Fel")
	browsertest.Click(t, phone, "#login-submit")
	browsertest.WaitText(t, phone, "#login-error", "Koden och efternamnet stämmer inte med någon inbjudan")
	browsertest.Screenshot(t, phone, "login-error")
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	// The RSVP.
	browsertest.WaitText(t, phone, "#greeting", "Välkommen, Ada!")
	browsertest.WaitText(t, phone, "#rsvp-yes", "Ja, jag kommer")
	if got := browsertest.Eval[string](t, phone, `document.querySelector("barhub-lang select").value`); got != "sv" {
		t.Errorf("the language switch shows %q, want sv", got)
	}
	browsertest.ScreenshotOf(t, phone, "#rsvp-area", "rsvp")
	browsertest.Click(t, phone, "#rsvp-yes")
	browsertest.WaitText(t, phone, "#rsvp-done-text", "Tack! Du kommer. Vi ses där!")
	browsertest.WaitText(t, phone, "#tab-menu", "Meny")
	browsertest.Click(t, phone, "#tab-menu")

	// The menu: the starter menu's Swedish texts, Swedish buttons.
	negroni := `#menu-list .drink[data-id="negroni"]`
	browsertest.WaitText(t, phone, negroni, "Lika delar gin, Campari och söt vermouth")
	// The ingredients are in the details a tap opens.
	browsertest.Click(t, phone, negroni+" .desc")
	browsertest.WaitVisible(t, phone, negroni+" .drink-details")
	browsertest.WaitText(t, phone, negroni, "Söt vermouth · Apelsin")
	browsertest.WaitText(t, phone, "#menu-sections", "Alkoholfritt")
	browsertest.WaitText(t, phone, negroni+" .order-button", "Beställ")
	if width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`); int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	browsertest.ScreenshotOf(t, phone, negroni, "menu-negroni")

	// Order.
	browsertest.Click(t, phone, `#menu-list .drink[data-id="mojito"] .order-button`)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-dialog", "Hur många?")
	browsertest.Click(t, phone, "#qty-up")
	browsertest.WaitText(t, phone, "#qty", "2")
	browsertest.ScreenshotOf(t, phone, "#order-dialog", "order-sheet")
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-list", "2 × Mojito")
	browsertest.WaitText(t, phone, "#order-list", "Nummer 1 i kön")
	browsertest.WaitText(t, phone, "#tab-orders", "Mina beställningar")
	browsertest.Click(t, phone, "#tab-orders")
	browsertest.ScreenshotOf(t, phone, "#my-orders", "ordered")
	id := browsertest.Eval[string](t, phone, `document.querySelector("#order-list .order").dataset.id`)
	ticket := fmt.Sprintf(`.ticket[data-id=%q]`, id)

	// The bartender, in English, makes it; the phone hears it in Swedish.
	browsertest.WaitText(t, tablet, "#tickets-queued", "Mojito")
	browsertest.Click(t, tablet, ticket+" .act-start")
	browsertest.WaitText(t, phone, "#order-list", "Görs nu")
	browsertest.Click(t, tablet, ticket+" .act-ready")
	browsertest.WaitVisible(t, phone, "#ready-overlay")
	browsertest.WaitText(t, phone, "#ready-title", "Din drink är klar!")
	browsertest.WaitText(t, phone, "#ready-items", "2 × Mojito")
	browsertest.ScreenshotOf(t, phone, "#ready-overlay", "ready")
	browsertest.Click(t, phone, "#ready-ok")
	browsertest.WaitText(t, phone, "#order-list", "Klar! Hämta den i baren")
}
