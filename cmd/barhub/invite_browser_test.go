package main

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserEmailedInvitationToLiveAnswer is the invitation end to end:
// the host e-mails a guest from the desk, the test's SMTP server (STARTTLS,
// AUTH) receives it, the link in the e-mail signs the guest in on a phone,
// and the guest's answer shows live on the desk, which also shows the
// invitation delivered and opened; Send again e-mails it once more.
func TestBrowserEmailedInvitationToLiveAnswer(t *testing.T) {
	smtp := mailtest.Start(t)
	s := startServer(t, "", map[string]string{
		"BARHUB_SMTP_URL": smtp.URL(), "BARHUB_MAIL_FROM": "Nora's party <party@example.com>", "BARHUB_SMTP_CA_FILE": smtp.CAFile,
	})
	admin := signInAdmin(t, s)
	if status := admin.call("PUT", "/api/admin/settings", map[string]string{
		"eventName": "Nora's birthday", "eventDate": "2099-09-09T19:00", "timezone": "Europe/Stockholm", "location": "Storgatan 1, Lund",
	}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}
	var nora e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Nora", "lastName": "Ny", "email": "nora@example.com"}, &nora); status != 201 {
		t.Fatalf("create guest: %d", status)
	}

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	row := `#guest-rows tr[data-id="` + nora.ID + `"]`
	browsertest.WaitText(t, desk, row, "not invited")
	browsertest.WaitText(t, desk, "#invite-mail-note", "party@example.com")
	browsertest.Click(t, desk, row+` button[data-invite="email"]`)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	got := smtp.Wait(ctx, t, 1)[0]
	if !got.TLS || got.To[0] != "nora@example.com" {
		t.Fatalf("arrived without TLS or to %v", got.To)
	}
	msg, err := mailtest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := msg.Part("text/plain")
	link := regexp.MustCompile(`http://\S+/login\?code=[A-Z0-9]+`).FindString(string(text.Body))
	if link == "" || link != s.URL+"/login?code="+nora.Code {
		t.Fatalf("link %q in:\n%s", link, text.Body)
	}
	if _, ok := msg.Part("text/calendar"); !ok {
		t.Error("no calendar file")
	}
	browsertest.WaitText(t, desk, row, "delivered")

	// The guest's phone opens the link from the e-mail.
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, link)
	browsertest.Fill(t, phone, "#lastName", "Ny")
	browsertest.Click(t, phone, "#login-submit")
	browsertest.WaitPath(t, phone, "/")
	browsertest.Click(t, phone, "#rsvp-yes")

	browsertest.WaitText(t, desk, "#stat-comingHeads", "1")
	browsertest.WaitText(t, desk, "#feed", "Nora Ny")
	browsertest.WaitText(t, desk, row, "opened")
	browsertest.WaitText(t, desk, row, "Coming")
	browsertest.Screenshot(t, desk, "invitation-delivered-opened-answered")
	if n := len(smtp.Messages()); n != 1 {
		t.Errorf("%d e-mails, want 1", n)
	}

	// Once e-mailed, the row sends the same code again (the first
	// message lost, or its link wrong), where it used to say "already
	// invited" for good.
	browsertest.WaitText(t, desk, row+` button[data-invite="again"]`, "Send again")
	browsertest.Click(t, desk, row+` button[data-invite="again"]`)
	second := smtp.Wait(ctx, t, 2)[1]
	if second.To[0] != "nora@example.com" {
		t.Fatalf("sent again to %v", second.To)
	}
}
