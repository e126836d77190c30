package main

import (
	"context"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserRegistrationWaitingListAndOffer: with two places, three
// people register on /join from their phones; the third waits. The first
// declines on the RSVP, the third's page offers the freed place, she takes
// it within its time, and the host's desk shows her placed, live.
func TestBrowserRegistrationWaitingListAndOffer(t *testing.T) {
	// A light proof of work and no per-address limit: the three phones
	// share this machine's address.
	s := startServer(t, "", nil, "--registration-work", "8", "--rate-register", "0")
	admin := signInAdmin(t, s)
	settings := map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm", "registration": "open", "capacity": 2}
	if status := admin.call("PUT", "/api/admin/settings", settings, nil); status != 200 {
		t.Fatalf("open registration: %d", status)
	}
	var hugo struct{ ID string }
	if status := admin.call("POST", "/api/admin/drinks", newDrink("Hugo"), &hugo); status != 201 {
		t.Fatalf("add a drink: %d", status)
	}
	b := browsertest.New(t)
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, desk, "#registrations-counts", "0 of 2 places taken")

	register := func(first string) context.Context {
		ctx := b.Page(t, browsertest.Phone)
		browsertest.Navigate(t, ctx, s.URL+"/join")
		browsertest.WaitVisible(t, ctx, "#join-form")
		browsertest.Fill(t, ctx, "#join-first", first)
		browsertest.Fill(t, ctx, "#join-last", "Lind")
		browsertest.Fill(t, ctx, "#join-email", first+"@example.com")
		browsertest.Fill(t, ctx, "#join-needs", "vegan")
		browsertest.Click(t, ctx, "#join-submit")
		browsertest.WaitVisible(t, ctx, "#join-status")
		return ctx
	}
	ada := register("Ada")
	browsertest.WaitText(t, ada, "#join-status-text", "You're on the list")
	browsertest.WaitVisible(t, ada, "#join-qr svg")
	code := browsertest.Text(t, ada, "#join-code")
	browsertest.Screenshot(t, ada, "join-placed")
	register("Bo")
	// A Swedish phone gets the page in Swedish, as the sign-in page does.
	sv := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, sv, s.URL+"/login")
	browsertest.Language(t, sv, "sv-SE,sv;q=0.9")
	browsertest.Navigate(t, sv, s.URL+"/join")
	browsertest.WaitText(t, sv, "#join-submit", "Anmäl mig")
	cy := register("Cy")
	browsertest.WaitText(t, cy, "#join-status-text", "number 1 on the waiting list")
	browsertest.Screenshot(t, cy, "join-waiting")
	browsertest.WaitText(t, desk, "#registrations-counts", "2 of 2 places taken · 2 placed · 0 offered · 1 waiting")

	// Ada signs in with the code her page showed and declines.
	status, lr := login(t, s.URL, code, "lind")
	if status != 200 {
		t.Fatalf("Ada signs in with %q: %d", code, status)
	}
	ada2 := rsvpClient{t: t, base: s.URL, token: lr.Token}
	if status := ada2.call("PUT", "/api/rsvp", map[string]any{"status": "declined"}, nil); status != 200 {
		t.Fatalf("Ada declines: %d", status)
	}
	browsertest.WaitText(t, desk, "#registrations-counts", "1 offered · 0 waiting")

	// Cy's page (opened again, as from the e-mail's link) offers the place.
	browsertest.Navigate(t, cy, s.URL+"/join")
	browsertest.WaitText(t, cy, "#join-status-text", "A place is free for you")
	browsertest.Screenshot(t, cy, "join-offered")
	browsertest.Click(t, cy, "#join-accept")
	browsertest.WaitText(t, cy, "#join-status-text", "You're on the list, Cy")
	browsertest.WaitVisible(t, cy, "#join-signin")

	// The page's link signs Cy in with her own code, and she orders.
	browsertest.Click(t, cy, "#join-signin")
	browsertest.WaitPath(t, cy, "/login")
	browsertest.Fill(t, cy, "#lastName", "Lind")
	browsertest.Click(t, cy, "#login-submit")
	browsertest.WaitPath(t, cy, "/")
	browsertest.Click(t, cy, "#tab-menu")
	browsertest.WaitText(t, cy, "#menu-list", "Hugo")
	browsertest.Click(t, cy, `#menu-list .drink[data-id="`+hugo.ID+`"] .order-button`)
	browsertest.WaitVisible(t, cy, "#order-dialog")
	browsertest.Click(t, cy, "#order-submit")
	browsertest.WaitNotVisible(t, cy, "#order-dialog")
	browsertest.Click(t, cy, "#tab-orders")
	browsertest.WaitText(t, cy, "#orders-area", "Hugo")

	browsertest.WaitText(t, desk, "#registrations-counts", "2 of 2 places taken · 2 placed · 0 offered · 0 waiting")
	browsertest.WaitText(t, desk, "#registrations-list", "Cy Lind")
	browsertest.ScreenshotOf(t, desk, "#registrations", "desk-registrations")
}
