package main

import (
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserRegistrationInAnotherEvent: a bar's weekly night is an event
// of its own with open registration. Its host's desk gives the link to
// that night's page (/join?event=…); a stranger registers there, the
// registration and the new guest are that night's and not the first
// event's, the status page keeps its event across a reload, and the code
// it shows signs in to that night.
func TestBrowserRegistrationInAnotherEvent(t *testing.T) {
	s := startServer(t, "", nil, "--registration-work", "8", "--rate-register", "0")
	admin := signInAdmin(t, s)
	host := barClient{t: t, base: s.URL, token: admin.token}
	var night checkedEvent
	if status := host.call("POST", "/api/admin/events", map[string]any{"name": "Thursday open mic"}, &night); status != 201 {
		t.Fatalf("new event: %d", status)
	}
	hostThere := switchTo(t, host, night.ID)
	if status := hostThere.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Thursday open mic", "timezone": "UTC", "registration": "open", "capacity": 10}, nil); status != 200 {
		t.Fatalf("open the night's registration: %d", status)
	}

	b := browsertest.New(t)
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	// The host opens the night (as the Events card's Open does).
	browsertest.Eval[any](t, desk, `localStorage.setItem("barhub.token", "`+hostThere.token+`")`)
	browsertest.Navigate(t, desk, s.URL+"/admin")
	browsertest.WaitVisible(t, desk, `#registration-settings a[href="/join?event=`+night.ID+`"]`)

	phone := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, s.URL+"/join?event="+night.ID)
	browsertest.WaitText(t, phone, "body", "Thursday open mic")
	browsertest.WaitVisible(t, phone, "#join-form")
	browsertest.Fill(t, phone, "#join-first", "Nils")
	browsertest.Fill(t, phone, "#join-last", "Sång")
	browsertest.Fill(t, phone, "#join-email", "nils@example.com")
	browsertest.Click(t, phone, "#join-submit")
	browsertest.WaitText(t, phone, "#join-status-text", "You're on the list")
	code := browsertest.Text(t, phone, "#join-code")
	loc := browsertest.Eval[string](t, phone, `location.href`)
	if !strings.Contains(loc, "event="+night.ID) || !strings.Contains(loc, "r=") {
		t.Errorf("the status page's address %q does not keep its event", loc)
	}
	browsertest.Navigate(t, phone, loc)
	browsertest.WaitText(t, phone, "#join-status-text", "You're on the list")

	var regs struct {
		Registrations []struct{ FirstName string } `json:"registrations"`
	}
	hostThere.call("GET", "/api/admin/registrations", nil, &regs)
	if len(regs.Registrations) != 1 || regs.Registrations[0].FirstName != "Nils" {
		t.Errorf("the night's registrations: %+v", regs.Registrations)
	}
	regs.Registrations = nil
	host.call("GET", "/api/admin/registrations", nil, &regs)
	if len(regs.Registrations) != 0 {
		t.Errorf("the first event's registrations hold the night's: %+v", regs.Registrations)
	}
	status, lr := login(t, s.URL, code, "Sång")
	if status != 200 {
		t.Fatalf("sign in with the code the page showed (%q): %d", code, status)
	}
	var mine e2eEvents
	(barClient{t: t, base: s.URL, token: lr.Token}).call("GET", "/api/me/events", nil, &mine)
	if len(mine.Events) != 1 || mine.Events[0].ID != night.ID || !mine.Events[0].Current {
		t.Errorf("Nils's events: %+v, want the night alone", mine.Events)
	}
}

// TestBrowserNotificationOpensItsEvent: a push notification about the
// wedding opens the app with ?event=<wedding> (the service worker adds
// it). A phone still holding the rehearsal's sign-in switches to the
// wedding and drops the parameter, so a reload stays; a link to an event
// the guest is not invited to leaves them where they are.
func TestBrowserNotificationOpensItsEvent(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	host := barClient{t: t, base: s.URL, token: admin.token}
	var ada e2eGuest
	if status := host.call("POST", "/api/admin/guests", map[string]any{"firstName": "Ada", "lastName": "Lovelace", "expectedGuests": 1}, &ada); status != 201 {
		t.Fatalf("add a guest: %d", status)
	}
	tomorrow := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Hour)
	if status := host.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Rehearsal dinner", "timezone": "UTC", "eventDate": tomorrow.Format(time.RFC3339)}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}
	var wedding, closed checkedEvent
	if status := host.call("POST", "/api/admin/events", map[string]any{"name": "Wedding", "startsAt": tomorrow.Add(24 * time.Hour), "guests": true}, &wedding); status != 201 {
		t.Fatalf("the wedding: %d", status)
	}
	if status := host.call("POST", "/api/admin/events", map[string]any{"name": "Staff party"}, &closed); status != 201 {
		t.Fatalf("an event Ada is not invited to: %d", status)
	}

	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, ada.Code, "Lovelace", "/")
	browsertest.WaitText(t, phone, "#event-name", "Rehearsal dinner")
	tokenEvent := `JSON.parse(atob(localStorage.getItem("barhub.token").split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).evt || ""`

	browsertest.Navigate(t, phone, s.URL+"/?event="+closed.ID)
	browsertest.WaitText(t, phone, "#event-name", "Rehearsal dinner")
	browsertest.WaitVisible(t, phone, "#tabbar")
	if evt := browsertest.Eval[string](t, phone, tokenEvent); evt != "" {
		t.Errorf("a link to an event Ada is not invited to moved her to %q", evt)
	}

	browsertest.Navigate(t, phone, s.URL+"/?event="+wedding.ID)
	browsertest.WaitText(t, phone, "#event-name", "Wedding")
	if evt := browsertest.Eval[string](t, phone, tokenEvent); evt != wedding.ID {
		t.Errorf("the phone's sign-in is for %q after the wedding's link, want %s", evt, wedding.ID)
	}
	if search := browsertest.Eval[string](t, phone, `location.search`); strings.Contains(search, "event=") {
		t.Errorf("the address still names the event after the switch: %q", search)
	}
	browsertest.Navigate(t, phone, browsertest.Eval[string](t, phone, `location.href`))
	browsertest.WaitText(t, phone, "#event-name", "Wedding")
}
