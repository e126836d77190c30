package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

// eventRow is the host's events card's row of event id.
func eventRow(id string) string { return fmt.Sprintf(`#events-list li[data-event=%q]`, id) }

// hostEvents lists the events as the host's API gives them, to find an event's id.
func hostEvents(t *testing.T, c rsvpClient) map[string]checkedEvent {
	t.Helper()
	var list e2eEvents
	if status := c.call("GET", "/api/admin/events", nil, &list); status != 200 {
		t.Fatalf("the host's events: %d", status)
	}
	out := map[string]checkedEvent{}
	for _, e := range list.Events {
		out[e.Name] = e
	}
	return out
}

// TestBrowserWeddingWeekend is the many-events flow in Chromium. The host
// makes the wedding from the rehearsal dinner in the desk's events card (a
// date in the party's time zone, guest list, menu and settings); a guest
// signs in once, sees both in "Your events", answers the rehearsal, opens
// the wedding, answers it and orders there; the bartender opens the wedding
// from the bar's top bar and sees the order, while the same bartender's
// rehearsal bar on another tablet does not. Then the host makes "Next year"
// from the wedding with the guest list and menu only, opens it, and finds
// the guest not answered and the drinks there; the delete dialog names the
// event it deletes.
func TestBrowserWeddingWeekend(t *testing.T) {
	p := startBarParty(t, nil)
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(stockholm)
	rehearsalAt := time.Date(now.Year(), now.Month(), now.Day()+1, 18, 0, 0, 0, stockholm)
	weddingAt := time.Date(now.Year(), now.Month(), now.Day()+2, 16, 0, 0, 0, stockholm)
	if status := p.admin.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Rehearsal dinner", "timezone": "Europe/Stockholm",
		"eventDate": rehearsalAt.Format("2006-01-02T15:04"), "dressCode": "Smart casual", "location": "The boathouse"}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}
	// The list of events is cached for a few seconds (cmd/barhub/events.go,
	// listFresh): the new name shows once it is read again.
	var rehearsal checkedEvent
	for deadline := time.Now().Add(15 * time.Second); rehearsal.ID == ""; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the events never list the rehearsal dinner: %+v", hostEvents(t, p.admin))
		}
		rehearsal = hostEvents(t, p.admin)["Rehearsal dinner"]
	}

	b := browsertest.New(t)

	// The host's desk: one event, here, named in the overview (its top bar
	// has no room to spare for one event).
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#event-line", "Rehearsal dinner")
	browsertest.WaitText(t, desk, eventRow(rehearsal.ID), "You are here")
	browsertest.WaitText(t, desk, eventRow(rehearsal.ID), "Upcoming")
	for _, box := range []string{"guests", "menu", "settings"} {
		if !browsertest.Eval[bool](t, desk, `document.getElementById("event-new-`+box+`").checked`) {
			t.Errorf("the %s box is not ticked to begin with", box)
		}
	}

	// The wedding, from this one, with everything: its date is the party's
	// local time, in the time zone its settings bring along.
	browsertest.Fill(t, desk, "#event-new-name", "Wedding")
	browsertest.Eval[bool](t, desk, `(document.getElementById("event-new-date").value = `+jsString(weddingAt.Format("2006-01-02T15:04"))+`, true)`)
	browsertest.Click(t, desk, "#event-new-submit")
	browsertest.WaitText(t, desk, "#event-new-status", "Wedding is made")
	events := hostEvents(t, p.admin)
	wedding := events["Wedding"]
	if wedding.ID == "" || wedding.StartsAt == nil || !wedding.StartsAt.Equal(weddingAt) {
		t.Fatalf("the wedding as made: %+v, want it to start at %s", wedding, weddingAt)
	}
	row := eventRow(wedding.ID)
	browsertest.WaitText(t, desk, row, "Wedding")
	browsertest.WaitText(t, desk, row, "Upcoming")
	browsertest.WaitText(t, desk, row+" .event-when", fmt.Sprint(weddingAt.Day()))
	if when := browsertest.Text(t, desk, row+" .event-when"); !strings.Contains(when, "4:00") && !strings.Contains(when, "16:00") {
		t.Errorf("the wedding's date reads %q, want 16:00 Stockholm time", when)
	}
	browsertest.WaitVisible(t, desk, row+" .event-open")
	if order := browsertest.Eval[[]string](t, desk, `[...document.querySelectorAll("#events-list .event-title")].map((n) => n.textContent)`); strings.Join(order, ",") != "Rehearsal dinner,Wedding" {
		t.Errorf("the events card lists %v, want the rehearsal, then the wedding", order)
	}
	browsertest.ScreenshotOf(t, desk, "#events", "desk-events-card")

	// Ada signs in once and sees both; the next one, the rehearsal, is open.
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.WaitVisible(t, phone, "#my-events")
	browsertest.WaitText(t, phone, "#event-name", "Rehearsal dinner")
	mine := fmt.Sprintf(`#my-events-list li[data-event=%q]`, wedding.ID)
	browsertest.WaitText(t, phone, `#my-events-list li[aria-current="true"]`, "Rehearsal dinner")
	browsertest.WaitText(t, phone, `#my-events-list li[aria-current="true"]`, "You are here")
	browsertest.WaitText(t, phone, mine, "Wedding")
	browsertest.ScreenshotOf(t, phone, "#my-events", "guest-your-events")
	browsertest.Click(t, phone, "#rsvp-yes")
	browsertest.WaitVisible(t, phone, "#rsvp-done")

	// To the wedding: a new sign-in for it, the page starts again there,
	// the answer is to be given again.
	browsertest.Click(t, phone, mine+" .event-open")
	browsertest.WaitText(t, phone, "#event-name", "Wedding")
	browsertest.WaitText(t, phone, `#my-events-list li[aria-current="true"]`, "Wedding")
	browsertest.WaitText(t, phone, "#event-dress", "Smart casual")
	browsertest.WaitVisible(t, phone, "#rsvp-yes")
	browsertest.Click(t, phone, "#rsvp-yes")
	browsertest.WaitVisible(t, phone, "#rsvp-done")
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.Click(t, phone, `#menu-list .drink[data-id="mojito"] .order-button`)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-list", "Mojito")
	orderID := browsertest.Eval[string](t, phone, `document.querySelector("#order-list .order").dataset.id`)

	// Each event has its answer: the rehearsal's from the first sign-in's
	// token, the wedding's from the phone's.
	var answer struct {
		Guest struct{ Status string } `json:"guest"`
		Event struct {
			EventName string `json:"eventName"`
		} `json:"event"`
	}
	for _, c := range []struct {
		token, event string
	}{{p.guest.token, "Rehearsal dinner"}, {browsertest.Eval[string](t, phone, `localStorage.getItem("barhub.token")`), "Wedding"}} {
		cl := rsvpClient{t: t, base: p.s.URL, token: c.token}
		if status := cl.call("GET", "/api/rsvp", nil, &answer); status != 200 || answer.Guest.Status != "coming" || answer.Event.EventName != c.event {
			t.Errorf("Ada's answer to %s: %d %+v, want coming", c.event, status, answer)
		}
	}

	// The bartender opens the wedding from the bar's top bar.
	tablet := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, tablet, "#event-switch summary", "Rehearsal dinner")
	browsertest.WaitText(t, tablet, "#count-queued", "0")
	browsertest.CheckHeader(t, tablet, "bar-rehearsal")
	browsertest.Click(t, tablet, "#event-switch summary")
	browsertest.Click(t, tablet, fmt.Sprintf(`#event-switch button[data-event=%q]`, wedding.ID))
	browsertest.WaitText(t, tablet, "#event-switch summary", "Wedding")
	ticket := fmt.Sprintf(`#tickets-queued .ticket[data-id=%q]`, orderID)
	browsertest.WaitText(t, tablet, ticket, "Mojito")
	browsertest.WaitText(t, tablet, ticket, "Ada Lovelace")
	browsertest.WaitText(t, tablet, "#live-status", "Live")
	browsertest.Screenshot(t, tablet, "bar-wedding")

	// The same bartender's rehearsal bar, on another tablet: not there.
	other := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, other, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, other, "#event-switch summary", "Rehearsal dinner")
	browsertest.WaitText(t, other, "#live-status", "Live")
	browsertest.WaitText(t, other, "#tickets-queued", "No orders waiting")
	if n := browsertest.Eval[int](t, other, `document.querySelectorAll(".ticket").length`); n != 0 {
		t.Errorf("the rehearsal's bar shows %d tickets, want none of the wedding's", n)
	}

	// On a phone, the event's name and its menu keep to their own place in
	// the top bar of every staff page.
	staffPhone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, staffPhone, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	for _, page := range []string{"/admin", "/bar", "/door"} {
		browsertest.Navigate(t, staffPhone, p.s.URL+page)
		browsertest.WaitText(t, staffPhone, "#event-switch summary", "Rehearsal dinner")
		// Measured once the bar has settled: the connection's word changes its width.
		browsertest.WaitVisible(t, staffPhone, `#live-status[data-status="open"]`)
		browsertest.CheckHeader(t, staffPhone, "events-"+strings.TrimPrefix(page, "/"))
	}

	// "Next year" from the wedding: the guest list and the menu, not the
	// settings.
	browsertest.Eval[bool](t, desk, `(() => { const s = document.getElementById("event-new-from"); s.value = `+jsString(wedding.ID)+`; return s.value === `+jsString(wedding.ID)+`; })()`)
	browsertest.Fill(t, desk, "#event-new-name", "Next year")
	browsertest.Click(t, desk, "#event-new-settings")
	browsertest.Click(t, desk, "#event-new-submit")
	browsertest.WaitText(t, desk, "#event-new-status", "Next year is made")
	next := hostEvents(t, p.admin)["Next year"]
	if next.ID == "" || next.StartsAt != nil {
		t.Fatalf("next year as made: %+v", next)
	}
	browsertest.Click(t, desk, eventRow(next.ID)+" .event-open")
	browsertest.WaitText(t, desk, "#event-switch summary", "Next year")
	browsertest.CheckHeader(t, desk, "desk-next-year")
	browsertest.WaitText(t, desk, eventRow(next.ID), "You are here")
	guestRow := fmt.Sprintf(`#guest-rows tr[data-id=%q]`, p.guestID)
	browsertest.WaitText(t, desk, guestRow, "Lovelace")
	browsertest.WaitText(t, desk, guestRow, "Not answered")
	browsertest.WaitText(t, desk, "#drink-rows", "Mojito")
	browsertest.WaitText(t, desk, "#stat-pending", "1")
	// Without the settings, no dress code came along.
	var settings struct{ DressCode, Timezone string }
	deskToken := browsertest.Eval[string](t, desk, `localStorage.getItem("barhub.token")`)
	if status := (rsvpClient{t: t, base: p.s.URL, token: deskToken}).call("GET", "/api/admin/settings", nil, &settings); status != 200 || settings.DressCode != "" {
		t.Errorf("next year's settings: %d %+v, want none copied", status, settings)
	}

	// Back to the first event, where events are deleted: the dialog names
	// the one to go.
	browsertest.Click(t, desk, eventRow(rehearsal.ID)+" .event-open")
	browsertest.WaitText(t, desk, "#event-switch summary", "Rehearsal dinner")
	browsertest.Click(t, desk, eventRow(next.ID)+" .event-delete")
	browsertest.WaitVisible(t, desk, "#event-delete-dialog")
	browsertest.WaitText(t, desk, "#event-delete-text", "Next year")
	browsertest.ScreenshotOf(t, desk, "#event-delete-dialog", "desk-delete-event")
	browsertest.Click(t, desk, "#event-delete-ok")
	browsertest.WaitNotVisible(t, desk, "#event-delete-dialog")
	waitEval(t, desk, "next year gone from the list", `!document.querySelector(`+jsString(eventRow(next.ID))+`)`)
	if _, ok := hostEvents(t, p.admin)["Next year"]; ok {
		t.Error("next year is still listed after deleting it")
	}
}
