// Package alert tells the people running an event that something needs
// them, without an open admin page: dead jobs, repeated server errors, a
// lost Redis backplane. Alerts go to a webhook (Slack-compatible or a
// generic JSON body) and by e-mail when SMTP is configured. The same
// alert is sent once per repeat window, on every instance together
// (deduplicated through a claim in the shared database), and a rate limit
// caps a storm.
package alert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/barhub/barhub/mail"
)

// Severity says how urgent an alert is.
type Severity string

// Severities.
const (
	Critical Severity = "critical"
	Warning  Severity = "warning"
	Resolved Severity = "resolved"
)

// Alert is one thing to tell the operators.
type Alert struct {
	// Key names the condition ("dead-jobs", "errors", "backplane"); the
	// same key is sent once per repeat window.
	Key      string    `json:"key"`
	Severity Severity  `json:"severity"`
	Summary  string    `json:"summary"`
	Detail   string    `json:"detail,omitempty"`
	Instance string    `json:"instance,omitempty"`
	At       time.Time `json:"at"`
}

// Webhook formats.
const (
	FormatSlack = "slack" // {"text": "…"}: Slack, Mattermost, Rocket.Chat, Teams workflows
	FormatJSON  = "json"  // the Alert itself
)

// Mailer sends one e-mail (the mail package's Sender, wrapped).
type Mailer interface {
	SendAlert(ctx context.Context, subject, text string) error
}

// Deduper makes sure an alert key is sent once per window across every
// instance: Once returns false when another instance (or this one)
// already sent it in the window. The store's claims do it.
type Deduper interface {
	Once(ctx context.Context, key string, window time.Duration) (bool, error)
}

// Config is where alerts go and how often.
type Config struct {
	// WebhookURL receives a POST per alert; empty sends none.
	WebhookURL string
	// Format is FormatSlack (default) or FormatJSON.
	Format string
	// Mail sends alerts by e-mail; nil sends none.
	Mail Mailer
	// Host hears every alert sent (after deduplication and the cap): the
	// host's own devices are told of dead jobs and a lost backplane
	// (app.Host, docs/PUSH.md); nil tells nobody.
	Host func(ctx context.Context, a Alert)
	// Repeat is how long the same key stays quiet after it was sent
	// (default 30 minutes).
	Repeat time.Duration
	// MaxPerHour caps every alert this instance sends (default 20).
	MaxPerHour int
	// Instance names this process in alerts.
	Instance string
	// Client posts the webhook; nil uses one with a 10 s timeout.
	Client *http.Client
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Notifier sends alerts.
type Notifier struct {
	cfg   Config
	dedup Deduper
	log   *slog.Logger

	mu     sync.Mutex
	sentAt map[string]time.Time // key → last sent here (dedup without a Deduper, and a fast path)
	hour   []time.Time          // sends in the last hour, for MaxPerHour
	// Dropped counts alerts the rate limit held back.
	dropped int
}

// New returns a Notifier; dedup may be nil (this instance alone).
func New(cfg Config, dedup Deduper, logger *slog.Logger) *Notifier {
	if cfg.Format == "" {
		cfg.Format = FormatSlack
	}
	if cfg.Repeat <= 0 {
		cfg.Repeat = 30 * time.Minute
	}
	if cfg.MaxPerHour <= 0 {
		cfg.MaxPerHour = 20
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Notifier{cfg: cfg, dedup: dedup, log: logger, sentAt: map[string]time.Time{}}
}

// dedupTimeout bounds the shared claim that deduplicates an alert.
const dedupTimeout = 3 * time.Second

// Enabled reports whether alerts go anywhere.
func (n *Notifier) Enabled() bool {
	return n.cfg.WebhookURL != "" || n.cfg.Mail != nil || n.cfg.Host != nil
}

// Notify sends a unless the same key was sent within the repeat window
// (here or, with a Deduper, on any instance) or the hourly cap is
// reached. It reports whether it was sent.
func (n *Notifier) Notify(ctx context.Context, a Alert) (bool, error) {
	if !n.Enabled() {
		return false, nil
	}
	now := n.cfg.Now()
	if a.At.IsZero() {
		a.At = now.UTC()
	}
	if a.Instance == "" {
		a.Instance = n.cfg.Instance
	}
	// A resolution is its own key, so it is not held back by the alert
	// it resolves.
	key := a.Key + "/" + string(a.Severity)
	n.mu.Lock()
	if last, ok := n.sentAt[key]; ok && now.Sub(last) < n.cfg.Repeat {
		n.mu.Unlock()
		return false, nil
	}
	n.mu.Unlock()
	if n.dedup != nil {
		// Bounded: the database that would deduplicate may be the very
		// thing the alert is about.
		dctx, cancel := context.WithTimeout(ctx, dedupTimeout)
		first, err := n.dedup.Once(dctx, "alert/"+key, n.cfg.Repeat)
		cancel()
		if err != nil {
			// Better twice than never: a database hiccup is when alerts matter.
			n.log.WarnContext(ctx, "alert dedup unavailable; sending anyway", "key", a.Key, "err", err)
		} else if !first {
			n.remember(key, now)
			return false, nil
		}
	}
	n.mu.Lock()
	kept := n.hour[:0]
	for _, t := range n.hour {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	n.hour = kept
	if len(n.hour) >= n.cfg.MaxPerHour {
		n.dropped++
		n.mu.Unlock()
		n.log.WarnContext(ctx, "alert held back by the hourly cap", "key", a.Key, "summary", a.Summary, "maxPerHour", n.cfg.MaxPerHour)
		return false, nil
	}
	n.hour = append(n.hour, now)
	n.sentAt[key] = now
	n.mu.Unlock()

	if n.cfg.Host != nil {
		n.cfg.Host(ctx, a)
	}
	var errs []error
	if n.cfg.WebhookURL != "" {
		if err := n.post(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	if n.cfg.Mail != nil {
		subject := fmt.Sprintf("[barhub %s] %s", a.Severity, a.Summary)
		if err := n.cfg.Mail.SendAlert(ctx, subject, text(a)); err != nil {
			errs = append(errs, fmt.Errorf("alert e-mail: %w", err))
		}
	}
	err := errors.Join(errs...)
	if err != nil {
		n.log.WarnContext(ctx, "alert not delivered everywhere", "key", a.Key, "err", err)
	} else {
		n.log.InfoContext(ctx, "alert sent", "key", a.Key, "severity", a.Severity, "summary", a.Summary)
	}
	return true, err
}

func (n *Notifier) remember(key string, at time.Time) {
	n.mu.Lock()
	n.sentAt[key] = at
	n.mu.Unlock()
}

// Dropped counts alerts the hourly cap held back.
func (n *Notifier) Dropped() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.dropped
}

func text(a Alert) string {
	s := fmt.Sprintf("%s: %s", a.Severity, a.Summary)
	if a.Detail != "" {
		s += "\n" + a.Detail
	}
	if a.Instance != "" {
		s += "\ninstance: " + a.Instance
	}
	return s + "\nat: " + a.At.UTC().Format(time.RFC3339)
}

// post sends a to the webhook, once more after a moment when the first
// try fails on the network or with a 5xx.
func (n *Notifier) post(ctx context.Context, a Alert) error {
	var body []byte
	var err error
	if n.cfg.Format == FormatJSON {
		body, err = json.Marshal(a)
	} else {
		icon := map[Severity]string{Critical: ":rotating_light:", Warning: ":warning:", Resolved: ":white_check_mark:"}[a.Severity]
		body, err = json.Marshal(map[string]string{"text": icon + " *barhub* " + text(a)})
	}
	if err != nil {
		return fmt.Errorf("encode alert: %w", err)
	}
	var last error
	for attempt := range 2 {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.WebhookURL, bytes.NewReader(body))
		if err != nil {
			return errors.New("alert webhook: the URL is not valid") // the URL may hold a secret: never repeat it
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "barhub-alerts")
		resp, err := n.cfg.Client.Do(req)
		if err != nil {
			// url.Error repeats the URL, whose path is often the secret.
			var ue interface{ Unwrap() error }
			if errors.As(err, &ue) {
				err = ue.Unwrap()
			}
			last = fmt.Errorf("alert webhook: %w", err)
			continue
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		last = fmt.Errorf("alert webhook: status %d", resp.StatusCode)
		if resp.StatusCode < 500 {
			return last
		}
	}
	return last
}

// MailSender is the part of the mail package's Sender alerts use.
type MailSender interface {
	Send(ctx context.Context, m mail.Message) error
}

// ByMail sends alerts to the address to through s.
func ByMail(s MailSender, to string) Mailer { return byMail{s, to} }

type byMail struct {
	s  MailSender
	to string
}

func (b byMail) SendAlert(ctx context.Context, subject, text string) error {
	return b.s.Send(ctx, mail.Message{To: b.to, Subject: subject, Text: text,
		// Auto-replies (holiday notices) must not answer an alert.
		Headers: map[string]string{"Auto-Submitted": "auto-generated"}})
}
