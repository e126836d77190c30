package main

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/barhub/barhub/api"
	"github.com/barhub/barhub/api/publicurl"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/store"
)

// mailParts is e-mail as serve and worker run it: what the API tells the
// host, and the job handlers the worker runs (invitation and reminder
// e-mails, and reminders going out).
type mailParts struct {
	api    api.MailConfig
	mailer *invite.Mailer
	// reminders queues the reminders that are due; check it now and then
	// beside a runner.
	reminders *invite.Scheduler
}

// newMail checks the SMTP settings; without them barhub sends no e-mail
// and the send buttons say how to set it up.
func newMail(cfg *config, st, control *store.Store, eventID string, pub invite.Publisher, logger *slog.Logger) (mailParts, error) {
	p := mailParts{api: api.MailConfig{Rate: cfg.MailRate}}
	if cfg.SMTPURL == "" {
		logger.Info("e-mail is off: set --smtp-url and --mail-from to send invitations and reminders (docs/INVITATIONS.md)")
		return p, nil
	}
	sender, err := newSender(cfg)
	if err != nil {
		return p, err
	}
	settings := sender.Settings()
	p.api.Configured, p.api.From, p.api.Server = true, sender.From(), settings.Redacted()
	p.reminders = invite.NewScheduler(st, nil, nil, logger)
	// Without --public-url, a pick on the admin page wins over this
	// default: this machine's only network address if it has one.
	public := cfg.PublicURL
	if !cfg.PublicURLSet {
		public, _ = publicurl.Resolve("", "", strings.TrimPrefix(cfg.PublicURL, "http://"), cfg.lanAddrs())
	}
	p.mailer = invite.NewMailer(invite.MailerConfig{
		Store: st, Sender: sender, Publish: pub, PublicURL: public, PublicURLSet: cfg.PublicURLSet, Rate: cfg.MailRate, Logger: logger,
		// The public URL the host picked is the installation's; the
		// registration links of an event but the first name it.
		URLs: control, Event: eventID,
	})
	logger.Info("e-mail is on", "server", settings.Redacted(), "from", sender.From(), "ratePerSecond", cfg.MailRate)
	return p, nil
}

// register hands the e-mail job kinds, when e-mail is on, to r.
func (p mailParts) register(r invite.Registry) {
	if p.mailer == nil {
		return
	}
	p.mailer.Register(r)
	p.reminders.Register(r)
}

// newSender is the SMTP sender of --smtp-url, --mail-from and
// --smtp-ca-file, shared by invitations and alerts.
func newSender(cfg *config) (*mail.Sender, error) {
	settings, err := mail.ParseURL(cfg.SMTPURL)
	if err != nil {
		return nil, fmt.Errorf("BARHUB_SMTP_URL: %w", err)
	}
	mc := mail.Config{Settings: settings, From: cfg.MailFrom}
	if cfg.SMTPCAFile != "" {
		if mc.RootCAs, err = mail.LoadRootCAs(cfg.SMTPCAFile); err != nil {
			return nil, err
		}
	}
	return mail.NewSender(mc)
}
