package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

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
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	// Three guests: the host is staff, not one of them.
	browsertest.WaitText(t, desk, "#stat-invited", "3")
	browsertest.WaitText(t, desk, "#stat-pending", "3")
	browsertest.WaitText(t, desk, "#guest-rows", "Mia Lund")
	browsertest.Eval[bool](t, desk, `window.sameDocument = true`)
	browsertest.Screenshot(t, desk, "desk-before")

	// The guest's phone.
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, fam[0].Code, "lund", "/")
	browsertest.WaitText(t, phone, "#event-name", "Midsummer at the Lunds")
	browsertest.WaitText(t, phone, "#event-dress", "Flowers in your hair")
	browsertest.WaitText(t, phone, "#deadline", "Please answer by")
	// The names are listed the way the browser's locale lists them (Intl.ListFormat: en-US puts a comma before "and").
	browsertest.WaitText(t, phone, "#rsvp-for", "Ivy, Leo, and Mia")
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

	// Ivy answers for the whole family from her own phone while Mia's page
	// still shows her own answer; Mia then changes her answer on that
	// picture: the page is told the group changed and shows it as it is.
	status, ivy := login(t, s.URL, fam[2].Code, "lund")
	if status != 200 {
		t.Fatalf("Ivy's sign-in: %d", status)
	}
	if status := (rsvpClient{t: t, base: s.URL, token: ivy.Token}).call("PUT", "/api/rsvp", map[string]any{"status": "declined", "scope": "group"}, nil); status != 200 {
		t.Fatalf("Ivy's answer: %d", status)
	}
	browsertest.Click(t, phone, "#rsvp-change")
	browsertest.Click(t, phone, "#rsvp-yes")
	browsertest.WaitVisible(t, phone, "#who-dialog")
	browsertest.Click(t, phone, fmt.Sprintf(`#who-list input[value=%q]`, fam[2].ID))
	browsertest.Click(t, phone, "#who-ok")
	browsertest.WaitNotVisible(t, phone, "#who-dialog")
	browsertest.WaitText(t, phone, "#rsvp-notice", "changed a moment ago")
	browsertest.WaitText(t, phone, "#rsvp-summary-text", "You're not coming.")
	browsertest.Screenshot(t, phone, "rsvp-group-changed")
	if status := admin.call("PUT", "/api/admin/guests/"+fam[0].ID, map[string]any{"status": "coming"}, nil); status != 200 {
		t.Fatalf("put Mia back: %d", status)
	}
	if status := admin.call("PUT", "/api/admin/guests/"+fam[1].ID, map[string]any{"status": "coming"}, nil); status != 200 {
		t.Fatalf("put Leo back: %d", status)
	}

	// The desk followed, live.
	browsertest.WaitText(t, desk, "#stat-comingHeads", "2")
	browsertest.WaitText(t, desk, "#stat-declined", "1")
	browsertest.WaitText(t, desk, "#stat-pending", "0")
	browsertest.WaitText(t, desk, "#feed", "Mia Lund answered")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+fam[2].ID+`"]`, "Declined")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+fam[0].ID+`"]`, "Coming")
	browsertest.WaitText(t, desk, "#dietary-report", "nuts")
	if !browsertest.Eval[bool](t, desk, `window.sameDocument === true`) {
		t.Error("the dashboard reloaded; it should have updated in place")
	}
	browsertest.Screenshot(t, desk, "desk-after")
}

// TestBrowserGuestDesk walks the host's desk on a laptop: add a guest in
// the dialog, start a group, filter and sort the list, save the event,
// import a CSV file and print the invitations.
func TestBrowserGuestDesk(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	addFamily(t, admin, "Berg", "", "Leo")
	addFamily(t, admin, "Ek", "", "Ava")

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#guest-rows", "Ava Ek")

	// Add a guest with a small child.
	browsertest.Click(t, desk, "#guest-add")
	browsertest.WaitVisible(t, desk, "#guest-dialog")
	browsertest.Fill(t, desk, "#g-firstName", "Nora")
	browsertest.Fill(t, desk, "#g-lastName", "Ny")
	browsertest.Eval[bool](t, desk, `(document.getElementById("g-expectedGuests").value = "2") === "2"`)
	browsertest.Fill(t, desk, "#g-dietary", "vegetarian")
	browsertest.Screenshot(t, desk, "add-guest")
	browsertest.Click(t, desk, "#g-save")
	browsertest.WaitNotVisible(t, desk, "#guest-dialog")
	browsertest.WaitText(t, desk, "#guest-rows", "Nora Ny")
	browsertest.WaitText(t, desk, "#stat-expected", "4")

	// Leo and Ava become a couple: Leo's dialog, "start a group with Ava".
	var page struct {
		Guests []e2eGuest `json:"guests"`
	}
	admin.call("GET", "/api/admin/guests?q=Ava", nil, &page)
	ava := page.Guests[0]
	admin.call("GET", "/api/admin/guests?q=Leo", nil, &page)
	leo := page.Guests[0]

	// A live refresh replaces only the rows that changed: Leo's row, which the
	// host is about to click, stays the same element while Ava's changes.
	leoRow := fmt.Sprintf(`document.querySelector('tr[data-id=%q]')`, leo.ID)
	browsertest.Eval[bool](t, desk, leoRow+`.keptAcrossRefresh = true`)
	if status := admin.call("PUT", "/api/admin/guests/"+ava.ID, map[string]any{"expectedGuests": 2}, nil); status != 200 {
		t.Fatalf("edit Ava: status %d", status)
	}
	browsertest.WaitText(t, desk, fmt.Sprintf(`tr[data-id=%q]`, ava.ID), "– / 2")
	if !browsertest.Eval[bool](t, desk, leoRow+`.keptAcrossRefresh === true`) {
		t.Error("a live refresh replaced a row that had not changed")
	}
	browsertest.Click(t, desk, fmt.Sprintf(`tr[data-id=%q] button.edit`, leo.ID))
	browsertest.WaitVisible(t, desk, "#guest-dialog")
	browsertest.WaitText(t, desk, "#g-code", leo.Code)
	browsertest.WaitText(t, desk, "#g-group", "Ava Ek")
	browsertest.Eval[string](t, desk, fmt.Sprintf(`document.getElementById("g-group").value = "new:%s"`, ava.ID))
	browsertest.Click(t, desk, "#g-save")
	browsertest.WaitNotVisible(t, desk, "#guest-dialog")
	browsertest.WaitText(t, desk, fmt.Sprintf(`tr[data-id=%q]`, leo.ID), "Ava")
	browsertest.WaitText(t, desk, fmt.Sprintf(`tr[data-id=%q]`, ava.ID), "Leo")
	var groups struct {
		Groups []struct {
			Members []e2eGuest `json:"members"`
		} `json:"groups"`
	}
	admin.call("GET", "/api/admin/groups", nil, &groups)
	if len(groups.Groups) != 1 || len(groups.Groups[0].Members) != 2 {
		t.Errorf("groups after joining: %+v", groups)
	}

	// Filter and sort.
	browsertest.Fill(t, desk, "#filter-q", "zzz")
	browsertest.WaitText(t, desk, "#page-info", "No guests match")
	browsertest.Fill(t, desk, "#filter-q", "")
	browsertest.Click(t, desk, "#filter-dietary")
	browsertest.WaitText(t, desk, "#page-info", "1–1 of 1")
	browsertest.WaitText(t, desk, "#guest-rows", "Nora Ny")
	browsertest.Click(t, desk, "#filter-dietary")
	browsertest.WaitText(t, desk, "#page-info", "of 4")
	browsertest.Click(t, desk, `button.sort[data-sort="lastName"]`) // now descending
	browsertest.WaitText(t, desk, "#guest-rows tr:first-child", "Nora Ny")

	// The event.
	browsertest.Fill(t, desk, "#s-eventName", "Autumn dinner")
	browsertest.Fill(t, desk, "#s-timezone", "Europe/Lisbon")
	browsertest.Click(t, desk, "#settings-save")
	browsertest.WaitText(t, desk, "#settings-status", "Saved")
	browsertest.WaitText(t, desk, "#event-line", "Autumn dinner")
	browsertest.Fill(t, desk, "#s-timezone", "Mars/Olympus")
	browsertest.Click(t, desk, "#settings-save")
	browsertest.WaitText(t, desk, "#settings-error", "not a time zone")

	// Import a file with a good row, a duplicate and a bad one.
	file := filepath.Join(t.TempDir(), "more-guests.csv")
	csv := "first name,last name,expected\nOla,Nord,1\nOla,Nord,1\nPer,,1\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(desk, chromedp.SetUploadFiles("#import-file", []string{file})); err != nil {
		t.Fatal(err)
	}
	browsertest.Click(t, desk, "#import-run")
	browsertest.WaitText(t, desk, "#import-report", "Created 1, updated 0, refused 2")
	browsertest.WaitText(t, desk, "#import-report", "the same guest as row 2")
	browsertest.WaitText(t, desk, "#guest-rows", "Ola Nord")
	browsertest.Screenshot(t, desk, "desk-after-import")

	// Print: the cards are written into the window the button opens.
	browsertest.Eval[bool](t, desk, `(window.open = () => window) !== null`)
	browsertest.Click(t, desk, "#print-all")
	browsertest.WaitText(t, desk, "body", "Your code:")
	// Leo, Ava, Nora and Ola: no card for the host's own admin code.
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("article.card svg").length`); n != 4 {
		t.Errorf("%d cards with a QR code, want 4", n)
	}
	if strings.Contains(browsertest.Eval[string](t, desk, `document.body.innerText`), "Dear Party") {
		t.Error("the host's admin code was printed as an invitation (Dear Party,)")
	}
	if w := browsertest.Eval[float64](t, desk, `document.querySelector(".qr svg").getBoundingClientRect().width`); w != 150 {
		t.Errorf("QR code is %.0f px wide: the card stylesheet did not load", w)
	}
	browsertest.Screenshot(t, desk, "invitations")
}
