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
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/push/pushtest"
)

// clock is a test's time, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// hostEnv is a push test server with the host's notifications over it,
// and the admin's laptop subscribed.
func hostEnv(t *testing.T) (*pushEnv, *app.Host, *clock, *pushtest.Device) {
	return hostEnvOf(t, newPushEnv(t), &clock{t: time.Now().Add(-time.Second)})
}

// hostEnvOf is hostEnv over p, on clock c.
func hostEnvOf(t *testing.T, p *pushEnv, c *clock) (*pushEnv, *app.Host, *clock, *pushtest.Device) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostDeps{Store: p.store, Push: p.sender, Locale: cat, Now: c.now})
	laptop := p.svc.NewDevice()
	p.subscribe(p.aTok, laptop)
	return p, h, c, laptop
}

// TestHostPushAnswersBatched: the host's laptop gets one notification
// for three answers ("3 new answers: 2 coming, 1 declined"), nothing more
// while the batch (five minutes) lasts, and the next answer after it; in Swedish for a
// host whose page is in Swedish. Before, no admin was ever told.
func TestHostPushAnswersBatched(t *testing.T) {
	p, h, c, laptop := hostEnv(t)
	ctx := context.Background()
	if err := h.CheckAnswers(ctx); err != nil { // the first look starts the count
		t.Fatal(err)
	}
	answer := func(first, status string) {
		g := p.addGuest(guest.Guest{FirstName: first, LastName: "Answer"})
		if code, body := p.do("PUT", "/api/rsvp", p.tokenFor(g), `{"status":"`+status+`"}`); code != http.StatusOK {
			t.Fatalf("%s answers %s: %d %s", first, status, code, body)
		}
	}
	answer("Cy", "coming")
	answer("Di", "coming")
	answer("Ed", "declined")
	// The first answers after a quiet spell are told at the next look.
	c.add(time.Minute)
	if err := h.CheckAnswers(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err := laptop.Wait(1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	n := payloadOf(t, msgs[0])
	if n.Kind != "host.answers" || n.Title != "New answers" || n.Body != "3 new answers: 2 coming, 1 declined" || n.URL != "/admin#guests" {
		t.Errorf("notification %+v", n)
	}
	// A second instance looking at the same moment sends nothing more.
	if err := h.CheckAnswers(ctx); err != nil {
		t.Fatal(err)
	}
	answer("Fi", "coming")
	c.add(2 * time.Minute)
	if err := h.CheckAnswers(ctx); err != nil {
		t.Fatal(err)
	}
	p.settle()
	if n := len(laptop.Messages()); n != 1 {
		t.Fatalf("%d notifications, want still 1 inside the next batch", n)
	}
	// The host reads Swedish: the next summary is in Swedish.
	if err := p.store.SetGuestLanguage(ctx, p.admin.ID, "sv"); err != nil {
		t.Fatal(err)
	}
	c.add(4 * time.Minute)
	if err := h.CheckAnswers(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err = laptop.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[1]); n.Title != "Nya svar" || n.Body != "1 nytt svar: 1 kommer, 0 tackar nej" {
		t.Errorf("second notification %+v", n)
	}
	// The host turns answers off: the next one is not sent.
	if code, body := p.do("PUT", "/api/admin/notifications", p.aTok, map[string]any{"off": []string{"answers"}, "batchMinutes": 5, "digestHour": 9}); code != http.StatusOK {
		t.Fatalf("turn answers off: %d %s", code, body)
	}
	answer("Gus", "declined")
	c.add(10 * time.Minute)
	if err := h.CheckAnswers(ctx); err != nil {
		t.Fatal(err)
	}
	p.settle()
	if n := len(laptop.Messages()); n != 2 {
		t.Errorf("%d notifications after answers were turned off, want 2", n)
	}
}

// TestHostPushLowStock: the bar serves 25 mojitos within the hour to a
// party whose plan bought for four; white rum, at that pace, lasts
// under half an hour and the host's laptop is told, once. Mint marked out
// behind the bar is told too, once.
func TestHostPushLowStock(t *testing.T) {
	p, h, _, laptop := hostEnv(t)
	ctx := context.Background()
	if code, body := p.do("PUT", "/api/admin/guests/"+p.guest.ID, p.aTok, map[string]any{"status": "coming", "expectedGuests": 4}); code != http.StatusOK {
		t.Fatalf("Ada coming: %d %s", code, body)
	}
	for range 5 {
		v := p.order(p.gTok, 201, order.ItemInput{DrinkID: "mojito", Qty: 5})
		for _, action := range []string{"start", "ready", "serve"} {
			p.move(v.ID, action, 200)
		}
	}
	levels, err := h.StockEstimate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rum app.StockLevel
	for _, l := range levels {
		if l.Key == "white rum" {
			rum = l
		}
	}
	t.Logf("white rum: %+v", rum)
	if rum.Planned == 0 || rum.LastHour == 0 || !rum.Low() || rum.Out {
		t.Fatalf("white rum %+v: want bought, used in the last hour and running low", rum)
	}
	if err := h.CheckStock(ctx); err != nil {
		t.Fatal(err)
	}
	if code, body := p.do("PUT", "/api/bar/stock/Mint", p.bTok, map[string]bool{"inStock": false}); code != http.StatusOK {
		t.Fatalf("mint out: %d %s", code, body)
	}
	if err := h.CheckStock(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.CheckStock(ctx); err != nil { // nothing new: nothing sent again
		t.Fatal(err)
	}
	p.settle()
	var rumLow, mintOut int
	for _, m := range laptop.Messages() {
		n := payloadOf(t, m)
		if n.Kind != "host.low-stock" {
			t.Errorf("notification %+v", n)
		}
		switch {
		case n.Title == "White rum is running low" && strings.Contains(n.Body, "min left at the last hour's pace"):
			rumLow++
		case n.Title == "Mint is out" && strings.Contains(n.Body, "drinks on the menu need it"):
			mintOut++
		}
	}
	if rumLow != 1 || mintOut != 1 {
		for _, m := range laptop.Messages() {
			t.Logf("%s", m.Payload)
		}
		t.Errorf("white rum low told %d times, mint out %d times; want once each", rumLow, mintOut)
	}
}

// TestHostPushDeadline: 30 hours before the RSVP deadline, with two
// guests silent, the host is told once (the 48-hour mark), however often
// every instance looks; at 20 hours the 24-hour mark is told once more.
func TestHostPushDeadline(t *testing.T) {
	p, h, c, laptop := hostEnv(t)
	ctx := context.Background()
	p.addGuest(guest.Guest{FirstName: "Silent", LastName: "One"})
	deadline := c.now().Add(30 * time.Hour).UTC().Truncate(time.Second)
	settings, err := p.store.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	settings.RSVPDeadline = &deadline
	if _, err := p.store.SaveSettings(ctx, settings); err != nil {
		t.Fatal(err)
	}
	if _, err := p.store.RecountStats(ctx); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := h.CheckDeadline(ctx); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := laptop.Wait(1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// Ada (the bar's guest) and the new one have not answered.
	if n := payloadOf(t, msgs[0]); n.Kind != "host.deadline" || n.Title != "RSVP deadline in 30 h" || n.Body != "2 guests have not answered yet" {
		t.Errorf("notification %+v", n)
	}
	c.add(10 * time.Hour)
	for range 2 {
		if err := h.CheckDeadline(ctx); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err = laptop.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[1]); n.Title != "RSVP deadline in 20 h" {
		t.Errorf("second notification %+v", n)
	}
	p.settle()
	if n := len(laptop.Messages()); n != 2 {
		t.Errorf("%d notifications, want 2 (one per mark)", n)
	}
}

// smtpDigest sends the digest through the real mail sender, as the
// server's own adapter does.
type smtpDigest struct{ s *mail.Sender }

func (d smtpDigest) SendDigest(ctx context.Context, to, subject, text string) error {
	return d.s.Send(ctx, mail.Message{To: to, Subject: subject, Text: text})
}

// TestHostDigestByMail: at the digest hour the host with an e-mail
// address gets one e-mail a day (two looks, one mail) on a real SMTP
// server: the answers of the last day, who is silent, the stock, the
// dead jobs.
func TestHostDigestByMail(t *testing.T) {
	p := newPushEnv(t)
	ctx := context.Background()
	srv, sender := startSMTP(t)
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	halMail := "hal@example.com"
	if _, err := p.store.UpdateGuest(ctx, p.admin.ID, guest.Patch{Email: &halMail}, "test"); err != nil {
		t.Fatal(err)
	}
	g := p.addGuest(guest.Guest{FirstName: "Cy", LastName: "Coming"})
	if code, body := p.do("PUT", "/api/rsvp", p.tokenFor(g), `{"status":"coming"}`); code != http.StatusOK {
		t.Fatalf("answer: %d %s", code, body)
	}
	// 10:00 UTC: past the default hour (9) of an event in UTC.
	day := time.Now().UTC().Truncate(24 * time.Hour).Add(10 * time.Hour)
	h := app.NewHost(app.HostDeps{Store: p.store, Push: p.sender, Mail: smtpDigest{sender}, Locale: cat, Now: func() time.Time { return day }})
	for range 2 {
		if err := h.CheckDigest(ctx); err != nil {
			t.Fatal(err)
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	got := srv.Wait(wctx, t, 1)
	msg, err := mailtest.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := msg.Part("text/plain")
	body := string(part.Body)
	if got[0].To[0] != "hal@example.com" || !strings.Contains(msg.Subject(), "the host's summary for "+day.Format(time.DateOnly)) {
		t.Errorf("mail to %v, subject %q", got[0].To, msg.Subject())
	}
	// Ada has not answered (staff are not guests); nothing ran low.
	for _, want := range []string{"1 guest has not answered yet:", "Ada Guest", "Nothing is running low.", "0 jobs failed every attempt"} {
		if !strings.Contains(body, want) {
			t.Errorf("digest lacks %q:\n%s", want, body)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("%d digests, want 1", n)
	}
}

// startSMTP starts a real SMTP server for the test and a sender to it, as
// party@example.com.
func startSMTP(t *testing.T) (*mailtest.Server, *mail.Sender) {
	t.Helper()
	srv := mailtest.Start(t)
	settings, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.Config{Settings: settings, From: "barhub <party@example.com>", RootCAs: srv.Pool})
	if err != nil {
		t.Fatal(err)
	}
	return srv, sender
}
