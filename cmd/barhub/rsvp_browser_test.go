package main

import (
	"fmt"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserFamilyRSVPShowsLiveOnTheDesk: a guest signs in on a phone and
// answers for a family of three where one is not coming; the host's
// dashboard, open on a laptop the whole time, shows it without a reload.
func TestBrowserFamilyRSVPShowsLiveOnTheDesk(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	fam := addFamily(t, admin, "Lund", "lund", "Mia", "Leo", "Ivy")
	if status := admin.call("PUT", "/api/admin/settings", map[string]string{
		"eventName": "Midsummer at the Lunds", "eventDate": "2099-06-19T16:00", "rsvpDeadline": "2099-06-10T12:00",
		"timezone": "Europe/Stockholm", "location": "Lund garden", "dressCode": "Flowers in your hair",
	}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}

	// The host's laptop: its own browser, so its sign-in is its own.
	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.Navigate(t, desk, s.URL+"/login?code="+s.Code)
	browsertest.Fill(t, desk, "#lastName", s.LastName)
	browsertest.Click(t, desk, "#login-submit")
	browsertest.WaitPath(t, desk, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, desk, "#stat-invited", "4")
	browsertest.WaitText(t, desk, "#stat-pending", "4")
	browsertest.WaitText(t, desk, "#guest-rows", "Mia Lund")
	browsertest.Eval[bool](t, desk, `window.sameDocument = true`)
	browsertest.Screenshot(t, desk, "desk-before")

	// The guest's phone.
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, s.URL+"/login?code="+fam[0].Code)
	browsertest.Fill(t, phone, "#lastName", "lund")
	browsertest.Click(t, phone, "#login-submit")
	browsertest.WaitPath(t, phone, "/")
	browsertest.WaitText(t, phone, "#event-name", "Midsummer at the Lunds")
	browsertest.WaitText(t, phone, "#event-dress", "Flowers in your hair")
	browsertest.WaitText(t, phone, "#deadline", "Please answer by")
	browsertest.WaitText(t, phone, "#rsvp-for", "Ivy, Leo and Mia")
	browsertest.WaitText(t, phone, "#count", "3")
	width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`)
	if int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	for _, sel := range []string{"#rsvp-yes", "#rsvp-no", "#count-down", "#count-up"} {
		if h := browsertest.Eval[float64](t, phone, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().height`, sel)); h < 44 {
			t.Errorf("%s is %.0f px tall, want at least 44 for a thumb", sel, h)
		}
	}
	browsertest.Screenshot(t, phone, "rsvp-form")

	browsertest.Click(t, phone, "#count-down")
	browsertest.WaitText(t, phone, "#count", "2")
	browsertest.WaitText(t, phone, "#count-hint", "1 fewer than invited")
	browsertest.Fill(t, phone, "#dietary", "Leo is allergic to nuts")
	browsertest.Click(t, phone, "#rsvp-yes")
	browsertest.WaitVisible(t, phone, "#who-dialog")
	browsertest.WaitText(t, phone, "#who-text", "2 of the 3")
	browsertest.Screenshot(t, phone, "who-is-not-coming")
	browsertest.Click(t, phone, fmt.Sprintf(`#who-list input[value=%q]`, fam[2].ID))
	browsertest.Click(t, phone, "#who-ok")
	browsertest.WaitNotVisible(t, phone, "#who-dialog")
	browsertest.WaitText(t, phone, "#rsvp-done-text", "2 of you are coming")
	browsertest.WaitText(t, phone, "#rsvp-members", "Ivy Lund")
	browsertest.WaitText(t, phone, "#rsvp-members", "not coming")
	browsertest.Screenshot(t, phone, "rsvp-confirmed")

	// The desk followed, live.
	browsertest.WaitText(t, desk, "#stat-comingHeads", "2")
	browsertest.WaitText(t, desk, "#stat-declined", "1")
	browsertest.WaitText(t, desk, "#stat-pending", "1")
	browsertest.WaitText(t, desk, "#feed", "Mia Lund answered")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+fam[2].ID+`"]`, "Declined")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+fam[0].ID+`"]`, "Coming")
	browsertest.WaitText(t, desk, "#dietary-report", "nuts")
	if !browsertest.Eval[bool](t, desk, `window.sameDocument === true`) {
		t.Error("the dashboard reloaded; it should have updated in place")
	}
	browsertest.Screenshot(t, desk, "desk-after")
}
