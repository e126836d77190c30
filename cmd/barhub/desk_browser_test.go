package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserDeskTellsTheTruth: the host's dashboard is open on a laptop
// while a guest gives a dietary answer on a phone. The "coming with
// dietary needs" figure moves without a reload (it stayed 0 until one);
// after a reload "Latest answers" still lists the answer (it was empty);
// the audit log says "Checked in" for the door, not the action's code
// twice, "moved to group Berg" for a group change, and its Door filter
// shows the door's entries only.
func TestBrowserDeskTellsTheTruth(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var ada, bea, bo e2eGuest
	for _, g := range []struct {
		into *e2eGuest
		body map[string]any
	}{
		{&ada, map[string]any{"firstName": "Ada", "lastName": "Lovelace", "status": "coming"}},
		{&bea, map[string]any{"firstName": "Bea", "lastName": "Barista", "role": "bartender"}},
		{&bo, map[string]any{"firstName": "Bo", "lastName": "Berg"}},
	} {
		if status := admin.call("POST", "/api/admin/guests", g.body, g.into); status != 201 {
			t.Fatalf("create %v: %d", g.body["firstName"], status)
		}
	}

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, desk, "#stat-withAllergies", "0")
	browsertest.WaitText(t, desk, "#feed", "Party Host added Bo Berg")
	browsertest.Eval[bool](t, desk, `window.sameDocument = true`)

	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, ada.Code, "lovelace", "/")
	browsertest.Click(t, phone, "#tab-info") // "RSVP & info": a guest who answered opens on the menu
	browsertest.WaitVisible(t, phone, "#dietary")
	browsertest.Fill(t, phone, "#dietary", "nut allergy")
	browsertest.Click(t, phone, "#prefs-save")
	browsertest.WaitVisible(t, phone, "#prefs-status")

	// Live, in place.
	browsertest.WaitText(t, desk, "#stat-withAllergies", "1")
	browsertest.WaitText(t, desk, "#feed li:first-child", "Ada Lovelace answered: dietary needs")
	if !browsertest.Eval[bool](t, desk, `window.sameDocument === true`) {
		t.Error("the dashboard reloaded; it should have updated in place")
	}

	// The host moves Bo to a group; the bartender lets Ada in at the door.
	if status := admin.call("PUT", "/api/admin/guests/"+bo.ID, map[string]any{"groupId": "Berg"}, nil); status != 200 {
		t.Fatalf("move Bo: %d", status)
	}
	status, lr := login(t, s.URL, bea.Code, "barista")
	if status != 200 {
		t.Fatalf("Bea's sign-in: %d", status)
	}
	if status := (rsvpClient{t: t, base: s.URL, token: lr.Token}).call("POST", "/api/door/checkin", map[string]string{"code": ada.Code}, nil); status != 200 {
		t.Fatalf("check-in: %d", status)
	}
	browsertest.WaitText(t, desk, "#stat-checkedIn", "1")

	// A reload: the answers come from the store.
	browsertest.Navigate(t, desk, s.URL+"/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, desk, "#stat-withAllergies", "1")
	feed := browsertest.WaitText(t, desk, "#feed", "Ada Lovelace answered: dietary needs")
	for _, want := range []string{"Party Host moved Bo Berg to group Berg", "Party Host added Ada Lovelace"} {
		if !strings.Contains(feed, want) {
			t.Errorf("the latest answers after a reload %q lack %q", feed, want)
		}
	}

	// The guest list tells each invitation's story; without SMTP the
	// e-mail buttons say how to set it up.
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+ada.ID+`"] .invite-status`, "answered")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+bo.ID+`"] .invite-status`, "not invited")
	browsertest.WaitText(t, desk, "#invite-mail-note", "--smtp-url")
	if !browsertest.Eval[bool](t, desk, `document.getElementById("invite-email-all").disabled && document.querySelector('#guest-rows button[data-invite="email"]').disabled`) {
		t.Error("an e-mail button is enabled without SMTP")
	}

	// The audit log in words.
	top := browsertest.WaitText(t, desk, "#audit-rows tr:first-child", "Checked in")
	for _, want := range []string{"Ada Lovelace", "Bea Barista", "bartender"} {
		if !strings.Contains(top, want) {
			t.Errorf("the check-in's entry %q lacks %q", top, want)
		}
	}
	if log := browsertest.Text(t, desk, "#audit-rows"); strings.Contains(log, "door.check_in") || strings.Contains(log, "groupId") {
		t.Errorf("the audit log shows an action's or a field's code: %q", log)
	}
	browsertest.WaitText(t, desk, "#audit-rows", "moved to group Berg")
	browsertest.WaitText(t, desk, "#audit-rows", "Answered the invitation")
	if !browsertest.Eval[bool](t, desk, `(() => { const s = document.getElementById("audit-area"); s.value = "door"; s.dispatchEvent(new Event("change")); return s.value === "door"; })()`) {
		t.Fatal("the audit log has no Door filter")
	}
	browsertest.WaitText(t, desk, "#audit-page-info", "1–1 of 1")
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll('#audit-rows tr[data-action]:not([data-action^="door."])').length`); n != 0 {
		t.Errorf("the Door filter shows %d entries of other areas", n)
	}
	browsertest.Eval[bool](t, desk, `document.getElementById("overview").scrollIntoView() === undefined`)
	browsertest.Screenshot(t, desk, "desk-after-reload")
	browsertest.Eval[bool](t, desk, `document.getElementById("audit").scrollIntoView() === undefined`)
	browsertest.Screenshot(t, desk, "audit-door-filter")

	// The same desk in Swedish: the page's words, the ones scripts build
	// (the list, the answers, the log) and the drink editor's.
	browsertest.Navigate(t, desk, s.URL+"/admin?lang=sv")
	browsertest.WaitText(t, desk, "#overview-title", "Värdpanel")
	browsertest.WaitText(t, desk, "#feed", "Ada Lovelace svarade: specialkost")
	browsertest.WaitText(t, desk, "#audit-rows tr:first-child", "Checkade in")
	browsertest.WaitText(t, desk, `#guest-rows tr[data-id="`+bo.ID+`"]`, "Har inte svarat")
	browsertest.WaitText(t, desk, "#drinks-card", "Ny drink")
	browsertest.WaitText(t, desk, "#public-url-problem", "barhub lyssnar bara på 127.0.0.1")
	browsertest.WaitText(t, desk, "#invite-mail-note", "E-post är inte inställd")
	browsertest.WaitText(t, desk, ".chart-legend", "tackade ja den dagen")
	for sel, want := range map[string]string{"#audit-title": "Ändringslogg", "#guest-add": "Lägg till gäst", "#stat-withAllergies + .label": "kommer med specialkost"} {
		if got := browsertest.Text(t, desk, sel); got != want {
			t.Errorf("%s in Swedish: %q, want %q", sel, got, want)
		}
	}
	browsertest.Screenshot(t, desk, "desk-in-swedish")
}
