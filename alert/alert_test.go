package alert_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/alert"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/store/storetest"
)

// receiver is a real HTTP server that keeps every body posted to it.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	status int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{status: 200}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		var m map[string]any
		if req.Method != "POST" || req.Header.Get("Content-Type") != "application/json" || json.Unmarshal(b, &m) != nil {
			t.Errorf("webhook got %s %s %q", req.Method, req.Header.Get("Content-Type"), b)
		}
		r.mu.Lock()
		r.bodies = append(r.bodies, m)
		status := r.status
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) got() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.bodies...)
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestWebhookFormatsDedupAndCap(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		format string
		check  func(t *testing.T, body map[string]any)
	}{
		{alert.FormatSlack, func(t *testing.T, b map[string]any) {
			text, _ := b["text"].(string)
			if len(b) != 1 || !strings.Contains(text, "critical: 2 jobs failed") || !strings.Contains(text, "instance: web-1") {
				t.Errorf("slack body %v", b)
			}
		}},
		{alert.FormatJSON, func(t *testing.T, b map[string]any) {
			if b["key"] != "dead-jobs-2" || b["severity"] != "critical" || b["summary"] != "2 jobs failed" || b["instance"] != "web-1" || b["at"] == nil {
				t.Errorf("json body %v", b)
			}
		}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			r := newReceiver(t)
			c := &clock{time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
			n := alert.New(alert.Config{WebhookURL: r.URL + "/hooks/secret-path", Format: tt.format, Instance: "web-1", Repeat: 10 * time.Minute, MaxPerHour: 3, Now: c.now}, nil, nil)
			a := alert.Alert{Key: "dead-jobs-2", Severity: alert.Critical, Summary: "2 jobs failed"}
			if sent, err := n.Notify(ctx, a); !sent || err != nil {
				t.Fatalf("first: %v %v", sent, err)
			}
			tt.check(t, r.got()[0])
			// The same alert again within the window: quiet.
			c.t = c.t.Add(9 * time.Minute)
			if sent, _ := n.Notify(ctx, a); sent {
				t.Error("repeated within the window")
			}
			// After the window it is news again.
			c.t = c.t.Add(2 * time.Minute)
			if sent, _ := n.Notify(ctx, a); !sent {
				t.Error("not sent again after the window")
			}
			// The cap: 3 an hour, whatever the keys.
			for _, k := range []string{"a", "b", "c"} {
				n.Notify(ctx, alert.Alert{Key: k, Severity: alert.Warning, Summary: k})
			}
			if got := len(r.got()); got != 3 || n.Dropped() != 2 {
				t.Errorf("posted %d, dropped %d; want 3 and 2", got, n.Dropped())
			}
		})
	}
}

// Two instances on one database send an alert once between them.
func TestDedupAcrossInstances(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	r := newReceiver(t)
	var sent int
	for _, inst := range []string{"web-1", "web-2"} {
		n := alert.New(alert.Config{WebhookURL: r.URL, Instance: inst}, alert.ClaimDedup(st), nil)
		if ok, err := n.Notify(ctx, alert.Alert{Key: "dead-jobs-1", Severity: alert.Critical, Summary: "1 job failed"}); err != nil {
			t.Fatal(err)
		} else if ok {
			sent++
		}
	}
	if sent != 1 || len(r.got()) != 1 {
		t.Fatalf("sent %d, received %d; want 1", sent, len(r.got()))
	}
}

func TestWebhookErrorsNeverShowTheURL(t *testing.T) {
	r := newReceiver(t)
	r.mu.Lock()
	r.status = 503
	r.mu.Unlock()
	n := alert.New(alert.Config{WebhookURL: r.URL + "/T000/B000/hook-secret"}, nil, nil)
	_, err := n.Notify(context.Background(), alert.Alert{Key: "x", Severity: alert.Warning, Summary: "x"})
	if err == nil || !strings.Contains(err.Error(), "503") || len(r.got()) != 2 {
		t.Fatalf("err %v after %d posts; want a 503 after 2 tries", err, len(r.got()))
	}
	r.Close()
	_, err = alert.New(alert.Config{WebhookURL: r.URL + "/T000/B000/hook-secret"}, nil, nil).Notify(context.Background(), alert.Alert{Key: "y", Severity: alert.Warning, Summary: "y"})
	if err == nil || strings.Contains(err.Error(), "hook-secret") {
		t.Fatalf("closed receiver: %v", err)
	}
}

func TestWatcher(t *testing.T) {
	ctx := context.Background()
	r := newReceiver(t)
	n := alert.New(alert.Config{WebhookURL: r.URL, Format: alert.FormatJSON, Instance: "web-1"}, nil, nil)
	var dead int64
	var errs float64
	var pingErr error
	w := alert.NewWatcher(n, alert.Probes{
		DeadJobs:     func(context.Context) (int64, error) { return dead, nil },
		ServerErrors: func() (float64, error) { return errs, nil },
		Backplane:    func(context.Context) error { return pingErr },
	}, alert.WatchConfig{Interval: time.Minute, ErrorsPerInterval: 5})
	keys := func() []string {
		var out []string
		for _, b := range r.got() {
			out = append(out, b["key"].(string)+" "+b["severity"].(string))
		}
		return out
	}
	steps := []struct {
		name string
		set  func()
		want []string
	}{
		{"all well", func() {}, nil},
		{"two jobs die", func() { dead = 2 }, []string{"dead-jobs-2 critical"}},
		{"still two", func() {}, []string{"dead-jobs-2 critical"}},
		{"four 5xx: below the threshold", func() { errs = 4 }, []string{"dead-jobs-2 critical"}},
		{"six more", func() { errs = 10 }, []string{"dead-jobs-2 critical", "errors/web-1 critical"}},
		{"one failed ping", func() { pingErr = errors.New("connection refused") }, []string{"dead-jobs-2 critical", "errors/web-1 critical"}},
		{"second failed ping", func() {}, []string{"dead-jobs-2 critical", "errors/web-1 critical", "backplane/web-1 critical"}},
		{"third: already told", func() {}, []string{"dead-jobs-2 critical", "errors/web-1 critical", "backplane/web-1 critical"}},
		{"back", func() { pingErr = nil }, []string{"dead-jobs-2 critical", "errors/web-1 critical", "backplane/web-1 critical", "backplane/web-1 resolved"}},
	}
	for _, s := range steps {
		s.set()
		w.Check(ctx)
		if got := keys(); strings.Join(got, ",") != strings.Join(s.want, ",") {
			t.Fatalf("%s: alerts %q, want %q", s.name, got, s.want)
		}
	}
	// Dead jobs are any jobs (an invitation e-mail, a reminder), not only
	// the AI's: the alert says "job".
	if got := r.got()[0]["summary"]; got != "2 jobs failed every attempt" {
		t.Errorf("dead jobs summary %q", got)
	}
}

// With SMTP configured, an alert arrives as an e-mail on a real SMTP server.
func TestAlertByMail(t *testing.T) {
	srv := mailtest.Start(t)
	settings, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.Config{Settings: settings, From: "barhub <alerts@example.com>", RootCAs: srv.Pool})
	if err != nil {
		t.Fatal(err)
	}
	n := alert.New(alert.Config{Mail: alert.ByMail(sender, "ops@example.com"), Instance: "web-1"}, nil, nil)
	if sent, err := n.Notify(context.Background(), alert.Alert{Key: "backplane/web-1", Severity: alert.Critical, Summary: "Redis backplane lost"}); !sent || err != nil {
		t.Fatalf("notify: %v %v", sent, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := srv.Wait(ctx, t, 1)
	msg, err := mailtest.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].To[0] != "ops@example.com" || !got[0].TLS || msg.Subject() != "[barhub critical] Redis backplane lost" {
		t.Fatalf("mail to %v (TLS %v), subject %q", got[0].To, got[0].TLS, msg.Subject())
	}
	if part, ok := msg.Part("text/plain"); !ok || !strings.Contains(string(part.Body), "instance: web-1") {
		t.Fatalf("text part: %+v", part)
	}
}

// A stuck database is told once, then its recovery; the alert does not
// wait on the database it is about (the deduplicating claim hangs here).
func TestWatcherDatabase(t *testing.T) {
	ctx := context.Background()
	r := newReceiver(t)
	n := alert.New(alert.Config{WebhookURL: r.URL, Format: alert.FormatJSON, Instance: "web-1"}, hangingDedup{}, nil)
	var stuck error
	w := alert.NewWatcher(n, alert.Probes{Database: func() error { return stuck }}, alert.WatchConfig{Interval: time.Minute})
	steps := []struct {
		name string
		set  func()
		want int
	}{
		{"all well", func() {}, 0},
		{"a call stuck", func() { stuck = errors.New("1 database calls stuck, the oldest (update on barhub.guests) for 21s") }, 1},
		{"still stuck: already told", func() {}, 1},
		{"answers again", func() { stuck = nil }, 2},
	}
	for _, s := range steps {
		s.set()
		w.Check(ctx) // without a bound on the claim, this never returns
		if got := len(r.got()); got != s.want {
			t.Fatalf("%s: %d alerts, want %d", s.name, got, s.want)
		}
	}
	got := r.got()
	if got[0]["key"] != "database/web-1" || got[0]["severity"] != "critical" || !strings.Contains(got[0]["detail"].(string), "update on barhub.guests") {
		t.Errorf("alert = %v", got[0])
	}
	if got[1]["severity"] != "resolved" {
		t.Errorf("recovery = %v", got[1])
	}
}

// hangingDedup is a shared claim store that never answers, as a stuck
// database would.
type hangingDedup struct{}

func (hangingDedup) Once(ctx context.Context, key string, window time.Duration) (bool, error) {
	<-ctx.Done()
	return false, ctx.Err()
}

// TestAlertsReachTheHost: with neither webhook nor e-mail, the host's
// devices still hear the dead jobs and the lost backplane (Config.Host),
// each once across two instances sharing the database's claims.
func TestAlertsReachTheHost(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	var mu sync.Mutex
	var heard []string
	host := func(_ context.Context, a alert.Alert) {
		mu.Lock()
		heard = append(heard, a.Key+" "+string(a.Severity))
		mu.Unlock()
	}
	var dead int64
	var pingErr error
	probes := alert.Probes{
		DeadJobs:  func(context.Context) (int64, error) { return dead, nil },
		Backplane: func(context.Context) error { return pingErr },
	}
	var watchers []*alert.Watcher
	for range 2 {
		n := alert.New(alert.Config{Host: host, Instance: "web"}, alert.ClaimDedup(st), nil)
		if !n.Enabled() {
			t.Fatal("a notifier that tells the host is enabled")
		}
		watchers = append(watchers, alert.NewWatcher(n, probes, alert.WatchConfig{BackplaneFailures: 1}))
	}
	dead, pingErr = 1, errors.New("connection refused")
	for _, w := range watchers {
		w.Check(ctx)
	}
	pingErr = nil
	for _, w := range watchers {
		w.Check(ctx)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "dead-jobs-1 critical,backplane/web critical,backplane/web resolved"; strings.Join(heard, ",") != want {
		t.Errorf("the host heard %q, want %q", heard, want)
	}
}
