package main

import (
	"context"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserAnnouncementReachesGuestPhone: the host types an announcement
// on the laptop and it appears on a guest's phone and the bar's tablet
// without a reload.
func TestBrowserAnnouncementReachesGuestPhone(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	mia := addFamily(t, admin, "Holm", "", "Mia")[0]
	var bo e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bo", "lastName": "Bar", "role": "bartender"}, &bo); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	b := browsertest.New(t)
	signInPage := func(vp browsertest.Viewport, code, lastName, home string) context.Context {
		ctx := b.Page(t, vp)
		browsertest.SignIn(t, ctx, s.URL, code, lastName, home)
		return ctx
	}
	desk := signInPage(browsertest.Laptop, s.Code, s.LastName, "/admin")
	phone := signInPage(browsertest.Phone, mia.Code, "holm", "/")
	bar := signInPage(browsertest.Tablet, bo.Code, "bar", "/bar")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, bar, "#live-status", "Live")
	// Mia's phone counts on the desk as soon as it connects (the bar's
	// tablet is staff, not a guest), not at the desk's next poll.
	browsertest.WaitText(t, desk, "#announce-online", "1 phone or tablet connected")

	browsertest.Fill(t, desk, "#announce-text", "Cake in the garden in 5 minutes!")
	browsertest.Click(t, desk, "#announce-send")
	browsertest.WaitText(t, desk, "#announce-status", "Sent")
	browsertest.WaitText(t, phone, "#announcements", "Cake in the garden in 5 minutes!")
	browsertest.WaitText(t, bar, "#announcements", "Cake in the garden")
	browsertest.Screenshot(t, phone, "guest-announcement")
	browsertest.Screenshot(t, bar, "bar-announcement")
	browsertest.Screenshot(t, desk, "admin-announce")

	// To the guests who are coming: the page sends Mia's id in guestIds.
	if status := admin.call("PUT", "/api/admin/guests/"+mia.ID, map[string]any{"status": "coming"}, nil); status != 200 {
		t.Fatalf("mark Mia coming: %d", status)
	}
	// The desk redraws its figures and lists live; send once it has, so the
	// button is not moving under the click.
	browsertest.WaitText(t, desk, "#stat-comingHeads", "1")
	browsertest.Fill(t, desk, "#announce-text", "Your table is ready")
	browsertest.Eval[string](t, desk, `document.querySelector("#announce-to").value = "coming"`)
	// The desk's panels fill in as their data arrives, so the button may
	// still move on a busy machine: press it where it is now.
	browsertest.Eval[bool](t, desk, `document.querySelector("#announce-send").click(), true`)
	browsertest.WaitText(t, desk, "#announce-status", "Sent to 1 guest")
	browsertest.WaitText(t, phone, "#announcements", "Your table is ready")

	// An empty announcement is refused in the page, not sent.
	browsertest.Click(t, desk, "#announce-send")
	browsertest.WaitText(t, desk, "#announce-status", "Write the announcement first")
}
