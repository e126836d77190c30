package main

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/alert"
	barapp "github.com/barhub/barhub/app"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/push"
)

// How often the host's notifications look: answers in batches of at
// least a minute, the deadline and the stock within a minute.
const (
	hostAnswersEvery = 30 * time.Second
	hostCheckEvery   = time.Minute
)

// startHost builds the host's notifications (docs/PUSH.md, "The host's
// notifications") on the push sender and, when SMTP is set up, the daily
// digest by e-mail, and registers their checks with m. Every instance
// looks; claims let one of them send each notification.
func startHost(cfg *config, a *app, sender *push.Sender, m *jobs.Maintenance, logger *slog.Logger) (*barapp.Host, error) {
	cat, err := locale.New()
	if err != nil {
		return nil, err
	}
	var mailer barapp.HostMailer
	if cfg.SMTPURL != "" {
		s, err := newSender(cfg)
		if err != nil {
			return nil, err
		}
		mailer = digestMailer{s}
	}
	h := barapp.NewHost(barapp.HostDeps{Store: a.store, Push: sender, Mail: mailer, Locale: cat, Logger: logger})
	m.Every("tell the host: answers", hostAnswersEvery, h.CheckAnswers)
	m.Every("tell the host: RSVP deadline", hostCheckEvery, h.CheckDeadline)
	m.Every("tell the host: stock", hostCheckEvery, h.CheckStock)
	m.Every("tell the host: daily digest", hostCheckEvery, h.CheckDigest)
	return h, nil
}

// digestMailer sends the host's digest through the SMTP sender.
type digestMailer struct{ s *mail.Sender }

func (d digestMailer) SendDigest(ctx context.Context, to, subject, text string) error {
	return d.s.Send(ctx, mail.Message{To: to, Subject: subject, Text: text,
		Headers: map[string]string{"Auto-Submitted": "auto-generated"}})
}

// hostAlerts passes the alerts the host's devices are told of to h: a
// dead job (the key counts them) and a lost or recovered backplane.
func hostAlerts(h *barapp.Host, logger *slog.Logger) func(ctx context.Context, a alert.Alert) {
	return func(ctx context.Context, a alert.Alert) {
		var err error
		switch {
		case strings.HasPrefix(a.Key, "dead-jobs-") && a.Severity == alert.Critical:
			n, _ := strconv.Atoi(strings.TrimPrefix(a.Key, "dead-jobs-"))
			err = h.Tell(ctx, barapp.HostDeadJob, barapp.HostMessage{Title: "host.deadjob.title", Body: "host.deadjob.body",
				Vars: map[string]any{"Count": n}, URL: "/admin#bar-admin-area"})
		case strings.HasPrefix(a.Key, "backplane/") && a.Severity == alert.Critical:
			err = h.Tell(ctx, barapp.HostBackplane, barapp.HostMessage{Title: "host.backplane.lost.title", Body: "host.backplane.lost.body"})
		case strings.HasPrefix(a.Key, "backplane/") && a.Severity == alert.Resolved:
			err = h.Tell(ctx, barapp.HostBackplane, barapp.HostMessage{Title: "host.backplane.back.title", Body: "host.backplane.back.body"})
		}
		if err != nil {
			logger.WarnContext(ctx, "tell the host of an alert", "key", a.Key, "err", err)
		}
	}
}
