package invite_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func party() guest.Settings {
	at := time.Date(2030, 6, 19, 16, 0, 0, 0, time.UTC)
	deadline := time.Date(2030, 6, 10, 10, 0, 0, 0, time.UTC)
	return guest.Settings{
		EventName: "Midsummer, at last", EventDate: &at, RSVPDeadline: &deadline, Timezone: "Europe/Stockholm",
		Location: "Storgatan 1, Lund", DressCode: "Flowers; in your hair", Info: "Bring a jumper.",
	}
}

func TestICS(t *testing.T) {
	st := party()
	now := time.Date(2030, 5, 1, 8, 0, 0, 0, time.UTC)
	ics := string(invite.ICS(st, "https://party.example/", "", now))
	for _, want := range []string{
		"BEGIN:VCALENDAR\r\n", "METHOD:PUBLISH\r\n", "DTSTART:20300619T160000Z\r\n", "DTEND:20300619T200000Z\r\n",
		"DTSTAMP:20300501T080000Z\r\n", "SUMMARY:Midsummer\\, at last\r\n", "LOCATION:Storgatan 1\\, Lund\r\n",
		"URL:https://party.example\r\n", "END:VCALENDAR\r\n",
	} {
		if !strings.Contains(ics, want) {
			t.Errorf("ics lacks %q:\n%s", want, ics)
		}
	}
	if !strings.Contains(strings.ReplaceAll(ics, "\r\n ", ""), `DESCRIPTION:Dress code: Flowers\; in your hair\n\nBring a jumper.`) {
		t.Errorf("description:\n%s", ics)
	}
	for _, line := range strings.Split(ics, "\r\n") {
		if len(line) > 75 {
			t.Errorf("line of %d octets: %q", len(line), line)
		}
	}
	// The same event gives the same UID to every guest and download.
	uid := func(s string) string { i := strings.Index(s, "UID:"); return s[i : i+strings.Index(s[i:], "\r\n")] }
	if uid(ics) != uid(string(invite.ICS(st, "https://party.example", "", now.Add(time.Hour)))) {
		t.Error("UID changes between downloads")
	}
	st.EventDate = nil
	if invite.ICS(st, "https://party.example", "", now) != nil {
		t.Error("an event without a date has no calendar entry")
	}
	long := party()
	long.Info = strings.Repeat("Åland ", 40)
	for _, line := range strings.Split(string(invite.ICS(long, "", "", now)), "\r\n") {
		if len(line) > 75 || !utf8Valid(line) {
			t.Errorf("folded badly: %q", line)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func render(t *testing.T, m mail.Message) *mailtest.Parsed {
	t.Helper()
	s, err := mail.NewSender(mail.Config{Settings: mail.Settings{Host: "localhost", Port: 25}, From: "Party <party@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Render(&buf, m); err != nil {
		t.Fatal(err)
	}
	p, err := mailtest.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestComposeInvitation(t *testing.T) {
	g := guest.Guest{ID: "g1", FirstName: "Mia", LastName: "Lund", Code: "ABCD2345", Email: "mia@example.com", ExpectedGuests: 3}
	m, err := invite.Compose(texts(t), language.English, invite.KindInvitation, g, party(), "http://192.168.1.23:8080", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p := render(t, m)
	link := "http://192.168.1.23:8080/login?code=ABCD2345"
	if p.Subject() != "You are invited: Midsummer, at last" {
		t.Errorf("subject %q", p.Subject())
	}
	text, _ := p.Part("text/plain")
	for _, want := range []string{"Dear Mia and 2 more", link, "Your code: ABCD2345", "Where: Storgatan 1, Lund", "Map: https://www.openstreetmap.org/search?query=Storgatan+1%2C+Lund", "Dress code: Flowers; in your hair", "by Monday 10 June 2030, 12:00", "Wednesday 19 June 2030, 18:00 (Europe/Stockholm)"} {
		if !strings.Contains(string(text.Body), want) {
			t.Errorf("text part lacks %q:\n%s", want, text.Body)
		}
	}
	html, _ := p.Part("text/html")
	for _, want := range []string{`href="` + link + `"`, `src="cid:qr"`, `href="https://www.openstreetmap.org/search?query=Storgatan&#43;1%2C&#43;Lund"`} {
		if !strings.Contains(string(html.Body), want) {
			t.Errorf("html part lacks %q:\n%s", want, html.Body)
		}
	}
	qr, ok := p.Part("image/png")
	if !ok || qr.ContentID != "qr" {
		t.Fatalf("no inline QR code: %+v", p.Parts)
	}
	if img, err := png.Decode(bytes.NewReader(qr.Body)); err != nil || img.Bounds().Dx() < 200 {
		t.Errorf("QR code is not a PNG of a useful size: %v", err)
	}
	cal, ok := p.Part("text/calendar")
	if !ok || !strings.Contains(string(cal.Body), "SUMMARY:Midsummer\\, at last") || cal.Filename != "invitation.ics" {
		t.Errorf("calendar part: %+v", cal)
	}
	if p.Header.Get("Auto-Submitted") != "auto-generated" {
		t.Error("no Auto-Submitted header")
	}

	// A name with markup stays text in the HTML part.
	g.FirstName = "<b>Bo</b>"
	m, _ = invite.Compose(texts(t), language.English, invite.KindMorning, g, party(), "http://x", time.Now())
	if strings.Contains(m.HTML, "<b>Bo</b>") || !strings.Contains(m.Text, "Today is the day") || m.Subject != "Today: Midsummer, at last" {
		t.Errorf("morning reminder: %q\n%s", m.Subject, m.HTML)
	}
	if _, err := invite.Compose(texts(t), language.English, "nonsense", g, party(), "http://x", time.Now()); err == nil {
		t.Error("an unknown kind was composed")
	}
}

// events records what the worker and mailer publish.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) Publish(_ context.Context, topic, event string, data any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, topic+" "+event)
	return nil
}

func (e *events) count(name string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, g := range e.got {
		if g == name {
			n++
		}
	}
	return n
}

type rig struct {
	st    *store.Store
	srv   *mailtest.Server
	ev    *events
	w     *jobs.Runner
	clock *clock
	sched *invite.Scheduler
}

// clock is a controllable clock: the reminders read it, nobody sleeps on it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// newRig runs a real job worker with the mailer on a real database,
// sending through a real SMTP server, with backoff short enough to test.
func newRig(t *testing.T) *rig { return newRigTB(t) }

func newRigTB(t testing.TB, tweak ...func(*invite.MailerConfig)) *rig {
	t.Helper()
	st := storetest.New(t)
	srv := mailtest.Start(t)
	settings, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.Config{Settings: settings, From: "party@example.com", RootCAs: srv.Pool, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := st.SaveSettings(context.Background(), party()); err != nil {
		t.Fatal(err)
	}
	mc := invite.MailerConfig{Store: st, Sender: sender, Publish: ev, PublicURL: "http://party.test", Rate: 1000, Logger: logger}
	for _, f := range tweak {
		f(&mc)
	}
	mailer := invite.NewMailer(mc)
	clk := &clock{t: time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)}
	sched := invite.NewScheduler(st, clk.Now, nil, logger)
	w := jobs.NewRunner(jobs.Deps{Queue: st, Logger: logger, Alert: func(ctx context.Context, a map[string]any) error {
		return ev.Publish(ctx, "admin", "alert", a)
	}}, jobs.Config{PollInterval: 20 * time.Millisecond, BackoffBase: 10 * time.Millisecond, BackoffMax: 40 * time.Millisecond, Lease: 30 * time.Second})
	mailer.Register(w)
	sched.Register(w)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return &rig{st: st, srv: srv, ev: ev, w: w, clock: clk, sched: sched}
}

func (r *rig) addGuest(t *testing.T, first, email string) guest.Guest {
	return r.addGuestTB(t, first, email)
}

func (r *rig) addGuestTB(t testing.TB, first, email string) guest.Guest {
	t.Helper()
	g := guest.Guest{FirstName: first, LastName: "Lund", Email: email}
	if err := r.st.InsertGuest(context.Background(), &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// waitFor polls cond (the worker runs on its own) until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestInvitationsThroughTheQueue(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	mia, leo := r.addGuest(t, "Mia", "mia@example.com"), r.addGuest(t, "Leo", "leo@example.com")
	for _, g := range []guest.Guest{mia, leo} {
		if _, err := invite.Queue(ctx, r.st, g, invite.InvitationMailing(g.Code), invite.KindInvitation, ""); err != nil {
			t.Fatal(err)
		}
	}
	// Never twice to the same guest for the same mailing: a double click,
	// a retried request, another instance.
	if _, err := invite.Queue(ctx, r.st, mia, invite.InvitationMailing(mia.Code), invite.KindInvitation, ""); err == nil {
		t.Fatal("the same invitation was queued twice")
	}
	r.w.Wake()
	got := r.srv.Wait(ctxTimeout(t), t, 2)
	to := map[string]bool{}
	for _, m := range got {
		to[m.To[0]] = true
		p, err := mailtest.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := p.Part("text/plain")
		if !strings.Contains(string(text.Body), "http://party.test/login?code=") {
			t.Errorf("no link in %s", text.Body)
		}
	}
	if !to["mia@example.com"] || !to["leo@example.com"] {
		t.Fatalf("recipients %v", to)
	}
	waitFor(t, "both deliveries recorded", func() bool {
		ds, _ := r.st.Deliveries(ctx, invite.InvitationMailing(mia.Code))
		g, _ := r.st.GuestByID(ctx, leo.ID)
		return len(ds) == 1 && ds[0].Status == store.DeliverySent && g.Invite != nil && g.Invite.Status == guest.InviteSent && g.Invite.DeliveredAt != nil
	})
	time.Sleep(100 * time.Millisecond) // a duplicate would have arrived by now
	if n := len(r.srv.Messages()); n != 2 {
		t.Fatalf("%d messages, want 2", n)
	}
}

// TestInvitationToAQuotedName: a guest called Anna "Nan" O'Brien "<x>"
// gets the invitation through the queue and a real SMTP server, with the
// name as typed in the To header. Such a name used to fail every attempt
// as an invalid address, dead-letter the job and alert the host.
func TestInvitationToAQuotedName(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	g := guest.Guest{FirstName: `Anna "Nan"`, LastName: `O'Brien "<x@evil.example>"`, Email: "anna@example.com"}
	if err := r.st.InsertGuest(ctx, &g); err != nil {
		t.Fatal(err)
	}
	j, err := invite.Queue(ctx, r.st, g, invite.InvitationMailing(g.Code), invite.KindInvitation, "")
	if err != nil {
		t.Fatal(err)
	}
	r.w.Wake()
	got := r.srv.Wait(ctxTimeout(t), t, 1)
	if len(got[0].To) != 1 || got[0].To[0] != "anna@example.com" {
		t.Fatalf("envelope to %q", got[0].To)
	}
	p, err := mailtest.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	to, err := p.Header.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Name != g.Name() || to[0].Address != "anna@example.com" {
		t.Fatalf("To %q reads as %v, %v; want %q", p.Header.Get("To"), to, err, g.Name())
	}
	waitFor(t, "the job done", func() bool {
		jj, _ := r.st.JobByID(ctx, j.ID)
		return jj.Status == store.JobDone
	})
	if n := r.ev.count("admin alert"); n != 0 {
		t.Errorf("%d admin alerts for a delivered invitation", n)
	}
}

func ctxTimeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// A 4xx, a dropped connection: retried with backoff until it goes. A
// server that refuses every time (5xx): retried, then dead-lettered, the
// guest's invitation marked failed and the admins alerted.
func TestFailuresAreRetriedThenDeadLettered(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	mia := r.addGuest(t, "Mia", "mia@example.com")
	r.srv.Fail(1, 451)
	r.srv.Drop(1)
	if _, err := invite.Queue(ctx, r.st, mia, invite.InvitationMailing(mia.Code), invite.KindInvitation, ""); err != nil {
		t.Fatal(err)
	}
	r.w.Wake()
	r.srv.Wait(ctxTimeout(t), t, 1)
	var d store.Delivery
	waitFor(t, "the third attempt recorded as sent", func() bool {
		d, _ = r.st.DeliveryByID(ctx, store.DeliveryID(invite.InvitationMailing(mia.Code), mia.ID))
		return d.Status == store.DeliverySent
	})
	if d.Attempts != 3 {
		t.Errorf("%d attempts recorded, want 3 (451, dropped, sent)", d.Attempts)
	}

	leo := r.addGuest(t, "Leo", "leo@example.com")
	r.srv.Fail(100, 554)
	j, err := invite.Queue(ctx, r.st, leo, invite.InvitationMailing(leo.Code), invite.KindInvitation, "")
	if err != nil {
		t.Fatal(err)
	}
	r.w.Wake()
	waitFor(t, "the job dead-lettered", func() bool {
		jj, _ := r.st.JobByID(ctx, j.ID)
		return jj.Status == store.JobDead
	})
	jj, _ := r.st.JobByID(ctx, j.ID)
	if jj.Attempts != store.DefaultJobAttempts || !strings.Contains(jj.LastError, "554") {
		t.Errorf("dead job: %d attempts, last error %q", jj.Attempts, jj.LastError)
	}
	waitFor(t, "the guest's invitation marked failed", func() bool {
		g, _ := r.st.GuestByID(ctx, leo.ID)
		return g.Invite != nil && g.Invite.Status == guest.InviteFailed && strings.Contains(g.Invite.Error, "554")
	})
	d, _ = r.st.DeliveryByID(ctx, store.DeliveryID(invite.InvitationMailing(leo.Code), leo.ID))
	if d.Status != store.DeliveryFailed || d.Attempts != store.DefaultJobAttempts {
		t.Errorf("delivery %+v", d)
	}
	waitFor(t, "an admin alert", func() bool { return r.ev.count("admin alert") == 1 })
	if n := len(r.srv.Messages()); n != 1 {
		t.Errorf("%d messages arrived, want only Mia's", n)
	}
}

func texts(t testing.TB) *locale.Catalog {
	t.Helper()
	c, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestInvitationInTheGuestsLanguage: each invitation arrives, through the
// queue and a real SMTP server, in its guest's language: Mia signed in
// from a Swedish phone and gets Swedish; Leo never signed in and the host
// sent from a Portuguese page, so Portuguese; Ada, with neither, English.
// Subject, plain text, dates and the Content-Language header follow.
func TestInvitationInTheGuestsLanguage(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	mia, leo, ada := r.addGuest(t, "Mia", "mia@example.com"), r.addGuest(t, "Leo", "leo@example.com"), r.addGuest(t, "Ada", "ada@example.com")
	if err := r.st.SetGuestLanguage(ctx, mia.ID, "sv"); err != nil {
		t.Fatal(err)
	}
	// The host's page was in Portuguese for all three: Mia's own choice wins.
	for _, g := range []guest.Guest{mia, leo} {
		if _, err := invite.Queue(ctx, r.st, g, invite.InvitationMailing(g.Code), invite.KindInvitation, "pt-BR"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := invite.Queue(ctx, r.st, ada, invite.InvitationMailing(ada.Code), invite.KindInvitation, ""); err != nil {
		t.Fatal(err)
	}
	r.w.Wake()
	byTo := map[string]*mailtest.Parsed{}
	for _, m := range r.srv.Wait(ctxTimeout(t), t, 3) {
		p, err := mailtest.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		byTo[m.To[0]] = p
	}
	for _, tc := range []struct {
		to, lang, subject string
		text              []string
	}{
		{"mia@example.com", "sv", "Du är inbjuden: Midsummer, at last", []string{
			"Hej Mia!", "Du är inbjuden till Midsummer, at last.", "När: onsdag 19 juni 2030 kl. 18:00 (Europe/Stockholm)", "Var: Storgatan 1, Lund",
			"Klädkod: Flowers; in your hair", "Berätta senast måndag 10 juni 2030 kl. 12:00 om du kan komma: öppna din personliga länk", "Din kod: " + mia.Code,
			"Den bifogade kalenderfilen (invitation.ics)"}},
		{"leo@example.com", "pt-BR", "Você está convidado(a): Midsummer, at last", []string{
			"Olá, Leo!", "Quando: quarta-feira, 19 de junho de 2030, 18:00 (Europe/Stockholm)", "Conte pra gente até segunda-feira, 10 de junho de 2030, 12:00 se você vem", "Seu código: " + leo.Code}},
		{"ada@example.com", "en", "You are invited: Midsummer, at last", []string{
			"Dear Ada,", "When: Wednesday 19 June 2030, 18:00 (Europe/Stockholm)", "Please let us know if you can come by Monday 10 June 2030, 12:00", "Your code: " + ada.Code}},
	} {
		p := byTo[tc.to]
		if p == nil {
			t.Errorf("nothing arrived for %s", tc.to)
			continue
		}
		if p.Subject() != tc.subject || p.Header.Get("Content-Language") != tc.lang {
			t.Errorf("%s: subject %q, Content-Language %q; want %q, %s", tc.to, p.Subject(), p.Header.Get("Content-Language"), tc.subject, tc.lang)
		}
		text, _ := p.Part("text/plain")
		for _, want := range tc.text {
			if !strings.Contains(string(text.Body), want) {
				t.Errorf("%s: the text lacks %q:\n%s", tc.to, want, text.Body)
			}
		}
		html, _ := p.Part("text/html")
		if tc.lang == "sv" && !strings.Contains(string(html.Body), "Öppna min inbjudan") {
			t.Errorf("%s: the HTML part is not Swedish:\n%s", tc.to, html.Body)
		}
	}
}

// --public-url wins over an address the host picked on the admin page
// before the restart; without it the pick wins over the default.
func TestMailedLinkFollowsThePublicURLFlag(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  bool
		want string
	}{
		{"flag", true, "https://party.example.com/login?code="},
		{"no flag", false, "http://192.168.1.20:8080/login?code="},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRigTB(t, func(c *invite.MailerConfig) { c.PublicURL, c.PublicURLSet = "https://party.example.com", tt.set })
			ctx := context.Background()
			if err := r.st.SetPublicURLChoice(ctx, "http://192.168.1.20:8080", ""); err != nil {
				t.Fatal(err)
			}
			mia := r.addGuest(t, "Mia", "mia@example.com")
			if _, err := invite.Queue(ctx, r.st, mia, invite.InvitationMailing(mia.Code), invite.KindInvitation, ""); err != nil {
				t.Fatal(err)
			}
			r.w.Wake()
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			msg, err := mailtest.Parse(r.srv.Wait(wctx, t, 1)[0].Data)
			if err != nil {
				t.Fatal(err)
			}
			text, _ := msg.Part("text/plain")
			if !strings.Contains(string(text.Body), tt.want+mia.Code) {
				t.Fatalf("the e-mail does not link to %s%s:\n%s", tt.want, mia.Code, text.Body)
			}
		})
	}
}
