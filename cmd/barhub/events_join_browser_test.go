package main

import (
	"strings"
	"testing"

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
	var night e2eEvent
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
