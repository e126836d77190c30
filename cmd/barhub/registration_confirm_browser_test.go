package main

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserRegistrationConfirmByEmail: with e-mail set up, a person who
// registers on /join is told to check their e-mail and takes no place;
// the one e-mail that arrives (real SMTP) carries the link, and opening
// it on the phone confirms the registration: they are on the list, with
// their code.
func TestBrowserRegistrationConfirmByEmail(t *testing.T) {
	smtp := mailtest.Start(t)
	s := startServer(t, "", map[string]string{
		"BARHUB_SMTP_URL": smtp.URL(), "BARHUB_MAIL_FROM": "Nora's party <party@example.com>", "BARHUB_SMTP_CA_FILE": smtp.CAFile,
	}, "--registration-work", "8", "--rate-register", "0")
	admin := signInAdmin(t, s)
	settings := map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm", "registration": "open", "capacity": 2}
	if status := admin.call("PUT", "/api/admin/settings", settings, nil); status != 200 {
		t.Fatalf("open registration: %d", status)
	}
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, s.URL+"/join")
	browsertest.WaitVisible(t, phone, "#join-form")
	browsertest.Fill(t, phone, "#join-first", "Ada")
	browsertest.Fill(t, phone, "#join-last", "Lind")
	browsertest.Fill(t, phone, "#join-email", "ada@example.com")
	browsertest.Click(t, phone, "#join-submit")
	browsertest.WaitText(t, phone, "#join-status-text", "Check your e-mail")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	got := smtp.Wait(ctx, t, 1)[0]
	msg, err := mailtest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := msg.Part("text/plain")
	link := regexp.MustCompile(`/join\?r=[0-9a-f]{24}\.[0-9a-f]{32}`).FindString(string(part.Body))
	if got.To[0] != "ada@example.com" || link == "" {
		t.Fatalf("e-mail to %v without a link:\n%s", got.To, part.Body)
	}
	browsertest.Navigate(t, phone, s.URL+link)
	browsertest.WaitText(t, phone, "#join-status-text", "You're on the list")
	browsertest.WaitVisible(t, phone, "#join-code")
	if n := len(smtp.Messages()); n < 1 || n > 2 {
		t.Errorf("%d e-mails, want the confirmation (and the code once placed)", n)
	}
}
