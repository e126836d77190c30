package api

import (
	"io"
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/store"
)

func TestSendInvitationsWithoutMail(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron", Email: "ada@example.com"})
	var mv mailView
	status, body := e.do("GET", "/api/admin/mail", tok, nil)
	decodeInto(t, body, &mv)
	if status != 200 || mv.Configured || !strings.Contains(mv.Setup, "--smtp-url") {
		t.Fatalf("mail status: %d %s", status, body)
	}
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email"})
	if status != 409 || !strings.Contains(string(body), "mail_not_configured") || !strings.Contains(string(body), "--smtp-url") {
		t.Fatalf("send without mail: %d %s", status, body)
	}
	// Copying a link needs no mail: it is recorded on the guest.
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "link"})
	var res sendResult
	decodeInto(t, body, &res)
	if status != 200 || res.Recorded != 1 || res.Queued != 0 {
		t.Fatalf("record link: %d %s", status, body)
	}
}

func TestSendInvitationsQueuesOneJobPerGuest(t *testing.T) {
	var queued []store.Job
	e := newTestEnv(t, func(d *Deps) {
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Server: "smtp://u:xxxxx@smtp.example.com:587", Rate: 5}
		d.AI.JobQueued = func(j store.Job) { queued = append(queued, j) }
	})
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin, Email: "host@example.com"})
	tok := e.tokenFor(admin)
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron", Email: "ada@example.com"})
	bob := e.addGuest(guest.Guest{FirstName: "Bob", LastName: "Byron"})
	bar := e.addGuest(guest.Guest{FirstName: "Bea", LastName: "Tender", Role: guest.RoleBartender, Email: "bea@example.com"})

	status, body := e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email"})
	var res sendResult
	decodeInto(t, body, &res)
	// Ada: queued. Bob: no address. The host and the bartender: staff, not invited.
	if status != 202 || res.Queued != 1 || len(res.Skipped) != 1 || res.Skipped[0].GuestID != bob.ID || res.Skipped[0].Reason != "no_email" {
		t.Fatalf("send all: %d %s", status, body)
	}
	if len(queued) != 1 || queued[0].Kind != invite.JobKind || queued[0].Subject != "guest:"+ada.ID {
		t.Fatalf("jobs handed to the worker: %+v", queued)
	}
	g, _ := e.store.GuestByID(t.Context(), ada.ID)
	if g.Invite == nil || g.Invite.How != "email" || g.Invite.Status != "queued" {
		t.Fatalf("invite on the guest: %+v", g.Invite)
	}
	// Again: never twice for the same code.
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID, ada.ID}})
	decodeInto(t, body, &res)
	if status != 200 || res.Queued != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "already_sent" {
		t.Fatalf("send again: %d %s", status, body)
	}
	// Staff when asked for by name.
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{bar.ID}})
	decodeInto(t, body, &res)
	if status != 202 || res.Queued != 1 {
		t.Fatalf("send to a named bartender: %d %s", status, body)
	}
	// A new code is a new invitation: the old link no longer works.
	e.do("POST", "/api/admin/guests/"+ada.ID+"/code", tok, nil)
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID}})
	decodeInto(t, body, &res)
	if status != 202 || res.Queued != 1 {
		t.Fatalf("send after a new code: %d %s", status, body)
	}
	for _, bad := range []struct {
		body any
		want int
	}{
		{map[string]any{"how": "pigeon"}, 422},
		{map[string]any{"how": "email", "guestIds": []string{"nobody"}}, 404},
		{map[string]any{"how": "email", "extra": 1}, 400},
	} {
		if status, body := e.do("POST", "/api/admin/invitations/send", tok, bad.body); status != bad.want {
			t.Errorf("%v: %d %s, want %d", bad.body, status, body, bad.want)
		}
	}
}

func TestEventICS(t *testing.T) {
	e := newTestEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron"})
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok := e.tokenFor(g)
	if status, body := e.do("GET", "/api/event.ics", tok, nil); status != 404 || !strings.Contains(string(body), "no date") {
		t.Fatalf("no date yet: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/event.ics", "", nil); status != 401 {
		t.Fatalf("signed out: %d", status)
	}
	e.do("PUT", "/api/admin/settings", e.tokenFor(admin), map[string]string{"eventName": "Garden party", "eventDate": "2030-06-12T18:00", "timezone": "Europe/Stockholm", "location": "Storgatan 1"})
	resp := e.doResp("GET", "/api/event.ics", tok, nil)
	defer resp.Body.Close()
	var b strings.Builder
	io.Copy(&b, resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/calendar; charset=utf-8" ||
		!strings.Contains(b.String(), "DTSTART:20300612T160000Z\r\n") || !strings.Contains(b.String(), "LOCATION:Storgatan 1\r\n") || !strings.Contains(b.String(), "URL:http://party.test\r\n") {
		t.Fatalf("%d %v\n%s", resp.StatusCode, resp.Header, b.String())
	}
	// The dress code's label is in the language the guest's page shows.
	if status, body := e.do("PUT", "/api/admin/settings", e.tokenFor(admin), map[string]string{"eventName": "Garden party", "eventDate": "2030-06-12T18:00", "timezone": "Europe/Stockholm", "location": "Storgatan 1", "dressCode": "Vitt"}); status != 200 {
		t.Fatalf("settings: %d %s", status, body)
	}
	status, body := e.do("GET", "/api/event.ics", tok, nil, "Accept-Language", "sv-SE")
	if status != 200 || !strings.Contains(string(body), "DESCRIPTION:Klädkod: Vitt") {
		t.Fatalf("Swedish calendar entry: %d\n%s", status, body)
	}
}

func TestReminderRoutes(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	if status, body := e.do("POST", "/api/admin/reminders", tok, map[string]any{"kind": "unanswered", "daysBefore": 3}); status != 409 || !strings.Contains(string(body), "--smtp-url") {
		t.Fatalf("without mail: %d %s", status, body)
	}
	e2 := newTestEnv(t, func(d *Deps) { d.Mail = MailConfig{Configured: true} })
	admin2 := e2.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok = e2.tokenFor(admin2)
	for _, bad := range []map[string]any{{"kind": "soon"}, {"kind": "unanswered", "daysBefore": 99}, {"kind": "morning", "daysBefore": 2}} {
		if status, body := e2.do("POST", "/api/admin/reminders", tok, bad); status != 422 {
			t.Errorf("%v: %d %s", bad, status, body)
		}
	}
	var rem store.Reminder
	status, body := e2.do("POST", "/api/admin/reminders", tok, map[string]any{"kind": "unanswered", "daysBefore": 3})
	decodeInto(t, body, &rem)
	if status != 201 || rem.Status != store.ReminderScheduled {
		t.Fatalf("create: %d %s", status, body)
	}
	var list struct {
		Reminders []reminderView `json:"reminders"`
	}
	status, body = e2.do("GET", "/api/admin/reminders", tok, nil)
	decodeInto(t, body, &list)
	if status != 200 || len(list.Reminders) != 1 || list.Reminders[0].DueAt != nil {
		t.Fatalf("list (no deadline yet, so no due time): %d %s", status, body)
	}
	if status, _ := e2.do("DELETE", "/api/admin/reminders/"+rem.ID, tok, nil); status != 204 {
		t.Fatalf("cancel: %d", status)
	}
	if status, _ := e2.do("DELETE", "/api/admin/reminders/"+rem.ID, tok, nil); status != 404 {
		t.Fatalf("cancel again: %d", status)
	}
}
