package api

import (
	"net/http"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// TestMailLanguage: which language a guest's e-mails are written in.
// Signing in records the language the guest's page shows (its
// Accept-Language); a sign-in that says none keeps it. For a guest who
// has not signed in, the host's language when they send or schedule goes
// with the mail (the mailer prefers the guest's own; see
// invite/invite_test.go for the messages themselves).
func TestMailLanguage(t *testing.T) {
	var queued []store.Job
	e := newTestEnv(t, func(d *Deps) {
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Rate: 5}
		d.AI.JobQueued = func(j store.Job) { queued = append(queued, j) }
	})
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	mia := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Lund", Email: "mia@example.com"})
	leo := e.addGuest(guest.Guest{FirstName: "Leo", LastName: "Lund", Email: "leo@example.com"})

	language := func(id string) string {
		t.Helper()
		g, err := e.store.GuestByID(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Language
	}
	for _, tc := range []struct{ acceptLanguage, want string }{
		{"sv-SE,sv;q=0.9,en;q=0.8", "sv"},
		{"", "sv"}, // says nothing: kept
		{"pt-PT", "pt-BR"},
		{"de-DE", "en"}, // a language barhub does not speak: English
	} {
		var header []string
		if tc.acceptLanguage != "" {
			header = []string{"Accept-Language", tc.acceptLanguage}
		}
		if status, body := e.do("POST", "/api/auth/login", "", map[string]string{"code": mia.Code, "lastName": "Lund"}, header...); status != http.StatusOK {
			t.Fatalf("sign in: %d %s", status, body)
		}
		if got := language(mia.ID); got != tc.want {
			t.Errorf("after a sign-in with %q: %q, want %q", tc.acceptLanguage, got, tc.want)
		}
	}

	// The host sends from a Swedish page: the jobs carry Swedish for the
	// guests who have not chosen.
	if status, body := e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{leo.ID}}, "Accept-Language", "sv"); status != http.StatusAccepted {
		t.Fatalf("send: %d %s", status, body)
	}
	if len(queued) != 1 || queued[0].Payload["lang"] != "sv" {
		t.Errorf("queued %+v, want the host's sv", queued)
	}
	var rem store.Reminder
	status, body := e.do("POST", "/api/admin/reminders", tok, map[string]any{"kind": "morning"}, "Accept-Language", "pt-BR,pt;q=0.9")
	decodeInto(t, body, &rem)
	if status != http.StatusCreated {
		t.Fatalf("reminder: %d %s", status, body)
	}
	if got, err := e.store.ReminderByID(t.Context(), rem.ID); err != nil || got.Lang != "pt-BR" {
		t.Errorf("reminder %+v (%v), want the host's pt-BR", got, err)
	}
}
