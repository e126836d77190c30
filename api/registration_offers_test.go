package api

import (
	"context"
	"net/http"
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

// hostFunc lets a test hand the API a host built after the server.
type hostFunc func(ctx context.Context, kind string, m app.HostMessage) error

func (f hostFunc) Tell(ctx context.Context, kind string, m app.HostMessage) error {
	return f(ctx, kind, m)
}

// TestRegistrationOfferTold: a freed place sends the first in line
// exactly one e-mail, through the real mail job and a real SMTP server,
// in the language of the page they registered on, with the link to their
// status page and the time limit in the event's time zone; running the
// job again (a retry) sends nothing more. Accepting the offer tells the
// host's laptop once, and an offer let expire tells it once although two
// instances sweep. Before, the offer was only on the status page and the
// host was never told.
func TestRegistrationOfferTold(t *testing.T) {
	var (
		mu     sync.Mutex
		queued []store.Job
		h      *app.Host
	)
	c := &clock{t: time.Now()}
	p := newPushEnv(t, lowWork, func(d *Deps) {
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Rate: 5}
		d.AI.JobQueued = func(j store.Job) { mu.Lock(); queued = append(queued, j); mu.Unlock() }
		d.Config.Now = c.now
		d.Host = hostFunc(func(ctx context.Context, kind string, m app.HostMessage) error { return h.Tell(ctx, kind, m) })
	})
	_, h, _, laptop := hostEnvOf(t, p, c)
	ctx := context.Background()
	srv, sender := startSMTP(t)
	mailer := invite.NewMailer(invite.MailerConfig{Store: p.store, Sender: sender, PublicURL: "http://party.test", PublicURLSet: true, Rate: 1000, Now: c.now})
	// runOffers runs the offer e-mails queued so far, each twice: a job
	// retried after its send.
	runOffers := func() {
		t.Helper()
		mu.Lock()
		jobs := append([]store.Job(nil), queued...)
		mu.Unlock()
		for _, j := range jobs {
			if j.Payload["kind"] != invite.KindOffer {
				continue
			}
			for range 2 {
				if _, err := mailer.Handle(ctx, j); err != nil {
					t.Fatal(err)
				}
			}
		}
	}

	if code, body := p.do("PUT", "/api/admin/settings", p.aTok, map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm",
		"registration": "open", "capacity": 1, "offerHours": 2}); code != http.StatusOK {
		t.Fatalf("settings: %d %s", code, body)
	}
	register := func(name, lang string) app.RegistrationView {
		t.Helper()
		body := registerBody(t, p.srv.URL, name, 0)
		body["language"] = lang
		code, raw := p.do("POST", "/api/register", "", body)
		if code != http.StatusCreated {
			t.Fatalf("%s registers: %d %s", name, code, raw)
		}
		// With e-mail set up the registration waits for its e-mailed
		// link (TestRegistrationConfirmByEmail): open it.
		r, err := p.store.Registration(ctx, guest.RegistrationID(name+"@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		code, raw = p.do("POST", "/api/register/"+r.ID+"."+r.Secret+"/confirm", "", nil)
		var v app.RegistrationView
		decodeInto(t, raw, &v)
		if code != http.StatusOK {
			t.Fatalf("%s confirms: %d %s", name, code, raw)
		}
		return v
	}
	ada := register("Ada", "en")
	bo := register("Bo", "sv")
	if bo.Status != guest.RegWaiting {
		t.Fatalf("Bo is %s, want waiting", bo.Status)
	}
	// Ada withdraws: Bo is offered her place, and e-mailed once.
	if code, raw := p.do("POST", "/api/register/"+ada.Token+"/cancel", "", nil); code != http.StatusOK {
		t.Fatalf("Ada cancels: %d %s", code, raw)
	}
	runOffers()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	got := srv.Wait(wctx, t, 1)
	if len(got[0].To) != 1 || got[0].To[0] != "Bo@example.com" {
		t.Fatalf("offer e-mailed to %v, want Bo", got[0].To)
	}
	msg, err := mailtest.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := msg.Part("text/plain")
	text := string(part.Body)
	_, raw := p.do("GET", "/api/register/"+bo.Token, "", nil)
	decodeInto(t, raw, &bo)
	if bo.Status != guest.RegOffered || bo.OfferedUntil == nil {
		t.Fatalf("Bo after Ada cancelled: %s", raw)
	}
	stockholm, _ := time.LoadLocation("Europe/Stockholm")
	until := bo.OfferedUntil.In(stockholm).Format("15:04")
	for _, want := range []string{"http://party.test/join?r=" + bo.Token, "En plats på Crayfish party har blivit ledig", until, "(Europe/Stockholm)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the offer e-mail lacks %q:\n%s", want, text)
		}
	}
	if subject := msg.Subject(); subject != "En plats är ledig för dig: Crayfish party" {
		t.Errorf("subject %q, want Swedish", subject)
	}
	p.settle()
	if n := len(laptop.Messages()); n != 0 {
		t.Fatalf("%d host notifications before any answer, want 0", n)
	}

	// Bo accepts, twice: the host is told once.
	for range 2 {
		if code, raw := p.do("POST", "/api/register/"+bo.Token+"/accept", "", nil); code != http.StatusOK {
			t.Fatalf("Bo accepts: %d %s", code, raw)
		}
	}
	msgs, err := laptop.Wait(1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[0]); n.Kind != "host.waitlist" || n.Title != "Waiting list" || n.Body != "Bo Lind accepted a place from the waiting list" {
		t.Errorf("accepted: %+v", n)
	}

	// Cy waits, is offered Bo's place, and lets the time pass; two
	// instances sweep: the host is told once.
	cy := register("Cy", "en")
	if code, raw := p.do("POST", "/api/register/"+bo.Token+"/cancel", "", nil); code != http.StatusOK {
		t.Fatalf("Bo cancels: %d %s", code, raw)
	}
	c.add(3 * time.Hour)
	instance := func() *app.Registrations {
		return app.NewRegistrations(app.RegistrationsDeps{Store: p.store, Host: h, Now: c.now})
	}
	one, two := instance(), instance()
	for _, u := range []*app.Registrations{one, two} {
		if _, err := u.ExpireOffers(ctx); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err = laptop.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[1]); n.Kind != "host.waitlist" || n.Body != "Cy Lind let a waiting-list offer expire" {
		t.Errorf("expired: %+v", n)
	}
	// Cy's offer e-mail, run after the offer expired, is not sent.
	runOffers()
	p.settle()
	if n := len(laptop.Messages()); n != 2 {
		t.Errorf("%d host notifications, want 2 (one accept, one expiry)", n)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("%d e-mails, want only Bo's offer", n)
	}
	_, raw = p.do("GET", "/api/register/"+cy.Token, "", nil)
	decodeInto(t, raw, &cy)
	if cy.Status != guest.RegExpired {
		t.Errorf("Cy is %s, want expired", cy.Status)
	}
}
