package api

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/store"
)

var joinLink = regexp.MustCompile(`http://party\.test/join\?r=([0-9a-f]{24}\.[0-9a-f]{32})`)

// TestRegistrationConfirmByEmail: with e-mail set up, registering takes
// no place and answers without the link; exactly one e-mail goes out per
// registration (through the real mail job, run twice as a retry would,
// and a real SMTP server), in the page's language, with the link. Opening
// the link takes the place, or the place in line, in the order people
// confirm; a registration not confirmed in time is expired by the sweep
// (two instances) and holds nothing, and its e-mail, run late, is not
// sent. Before, a place was given at once even with e-mail set up.
func TestRegistrationConfirmByEmail(t *testing.T) {
	var (
		mu     sync.Mutex
		queued []store.Job
	)
	c := &clock{t: time.Now()}
	p := newPushEnv(t, lowWork, func(d *Deps) {
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Rate: 5}
		d.AI.JobQueued = func(j store.Job) { mu.Lock(); queued = append(queued, j); mu.Unlock() }
		d.Config.Now = c.now
	})
	ctx := context.Background()
	srv, sender := startSMTP(t)
	mailer := invite.NewMailer(invite.MailerConfig{Store: p.store, Sender: sender, PublicURL: "http://party.test", PublicURLSet: true, Rate: 1000, Now: c.now})
	// runConfirms runs the confirmation e-mails queued since the last run,
	// each twice.
	runConfirms := func() {
		t.Helper()
		mu.Lock()
		jobs := queued
		queued = nil
		mu.Unlock()
		for _, j := range jobs {
			if j.Payload["kind"] != invite.KindConfirm {
				continue // a placed guest's code (docs/INVITATIONS.md)
			}
			for range 2 {
				if _, err := mailer.Handle(ctx, j); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	taken := func() app.RegistrationCounts {
		t.Helper()
		code, raw := p.do("GET", "/api/admin/registrations", p.aTok, nil)
		var d app.RegistrationsDesk
		decodeInto(t, raw, &d)
		if code != http.StatusOK {
			t.Fatalf("desk: %d %s", code, raw)
		}
		return d.Counts
	}
	if code, body := p.do("PUT", "/api/admin/settings", p.aTok, map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm",
		"registration": "open", "capacity": 1}); code != http.StatusOK {
		t.Fatalf("settings: %d %s", code, body)
	}
	register := func(name, lang string) {
		t.Helper()
		body := registerBody(t, p.srv.URL, name, 0)
		body["language"] = lang
		code, raw := p.do("POST", "/api/register", "", body)
		var v app.RegistrationView
		decodeInto(t, raw, &v)
		if code != http.StatusCreated || v.Status != guest.RegUnconfirmed || v.Token != "" || v.Code != "" {
			t.Fatalf("%s registers: %d %s, want unconfirmed without the link", name, code, raw)
		}
	}
	register("Ada", "sv")
	register("Bo", "en")
	if c := taken(); c.Taken != 0 || c.Placed != 0 || c.Waiting != 0 {
		t.Fatalf("unconfirmed registrations hold places: %+v", c)
	}

	runConfirms()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	got := srv.Wait(wctx, t, 2)
	tokens := map[string]string{}
	for _, m := range got {
		msg, err := mailtest.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		part, _ := msg.Part("text/plain")
		link := joinLink.FindStringSubmatch(string(part.Body))
		if len(link) != 2 {
			t.Fatalf("no link in the e-mail to %v:\n%s", m.To, part.Body)
		}
		tokens[m.To[0]] = link[1]
		if m.To[0] == "Ada@example.com" && msg.Subject() != "Bekräfta din anmälan: Crayfish party" {
			t.Errorf("Ada's subject %q, want Swedish", msg.Subject())
		}
	}
	if len(tokens) != 2 {
		t.Fatalf("e-mails to %v, want one to Ada and one to Bo", tokens)
	}
	confirm := func(token string) app.RegistrationView {
		t.Helper()
		code, raw := p.do("POST", "/api/register/"+token+"/confirm", "", nil)
		var v app.RegistrationView
		decodeInto(t, raw, &v)
		if code != http.StatusOK {
			t.Fatalf("confirm: %d %s", code, raw)
		}
		return v
	}
	// Bo opens his link first: the one place is his; Ada's is then the
	// first place in line. Opening it again changes nothing.
	if v := confirm(tokens["Bo@example.com"]); v.Status != guest.RegPlaced || v.Code == "" {
		t.Fatalf("Bo confirmed: %+v, want placed with a code", v)
	}
	for range 2 {
		if v := confirm(tokens["Ada@example.com"]); v.Status != guest.RegWaiting || v.Position != 1 {
			t.Fatalf("Ada confirmed: %+v, want first in line", v)
		}
	}
	if c := taken(); c.Taken != 1 || c.Placed != 1 || c.Waiting != 1 {
		t.Fatalf("after confirming: %+v, want 1 taken, 1 placed, 1 waiting", c)
	}
	if code, _ := p.do("POST", "/api/register/"+strings.Repeat("0", 24)+"."+strings.Repeat("0", 32)+"/confirm", "", nil); code != http.StatusNotFound {
		t.Errorf("a made-up link confirms: %d, want 404", code)
	}

	// Cy never opens hers: after a day the sweep, on two instances, ends
	// it; her e-mail, run only now, is not sent.
	register("Cy", "en")
	c.add(guest.ConfirmFor + time.Minute)
	expired := 0
	for range 2 {
		n, err := app.NewRegistrations(app.RegistrationsDeps{Store: p.store, Now: c.now}).ExpireUnconfirmed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		expired += n
	}
	if expired != 1 {
		t.Errorf("%d expired, want Cy's once", expired)
	}
	cy, err := p.store.Registration(ctx, guest.RegistrationID("Cy@example.com"))
	if err != nil || cy.Status != guest.RegExpired {
		t.Fatalf("Cy: %s %v, want expired", cy.Status, err)
	}
	runConfirms()
	if n := len(srv.Messages()); n != 2 {
		t.Errorf("%d e-mails, want only Ada's and Bo's", n)
	}
	if code, raw := p.do("POST", "/api/register/"+cy.ID+"."+cy.Secret+"/confirm", "", nil); code != http.StatusOK || !strings.Contains(string(raw), `"expired"`) || !strings.Contains(string(raw), `"confirmBy"`) {
		t.Errorf("Cy's late confirmation: %d %s, want her registration expired", code, raw)
	}
	if c := taken(); c.Taken != 1 || c.Placed != 1 || c.Waiting != 1 {
		t.Errorf("after the sweep: %+v, want Cy holding nothing", c)
	}
}
