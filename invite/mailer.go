package invite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/store"
)

// JobKind is the kind of the durable job that sends one e-mail to one
// guest: an invitation or a reminder.
const JobKind = "mail"

// Payload keys of a mail job.
const (
	payloadDelivery = "deliveryId"
	payloadGuest    = "guestId"
	payloadKind     = "kind"
	// payloadLang is the language for a guest who has not signed in yet:
	// the host's, when they sent or scheduled it.
	payloadLang = "lang"
)

// Job is the job that sends delivery d; lang is the language for a guest
// who has never signed in (see Mailer.Handle).
func Job(d store.Delivery, lang string) store.NewJob {
	p := map[string]string{payloadDelivery: d.ID, payloadGuest: d.GuestID, payloadKind: d.Kind}
	if lang != "" {
		p[payloadLang] = lang
	}
	return store.NewJob{Kind: JobKind, Subject: "guest:" + d.GuestID, Payload: p}
}

// Catalog is the server's message catalogue (package locale).
type Catalog interface {
	Texts
	// Match picks the supported language that best fits Accept-Language
	// values, most preferred first; English when none does.
	Match(acceptLanguage ...string) language.Tag
}

// Publisher sends a live event to a hub topic on every instance.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
}

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, m mail.Message) error
}

// Mailer runs mail jobs on the durable job queue (a jobs.Runner runs it
// as the handler of JobKind): it writes the message, waits its turn under the rate
// limit, sends it and records the outcome on the delivery and, for an
// invitation, on the guest.
type Mailer struct {
	st        MailStore
	texts     Catalog
	sender    Sender
	pub       Publisher
	publicURL string
	urlSet    bool
	// urls holds the host's pick of public URL; eventID names the event
	// in its registration links (MailerConfig).
	urls    URLChoice
	eventID string
	log     *slog.Logger
	now     func() time.Time

	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

// MailerConfig are a Mailer's parts.
type MailerConfig struct {
	Store  MailStore
	Sender Sender
	// Publish tells the host's desk, live; nil tells nobody.
	Publish Publisher
	// PublicURL is --public-url when PublicURLSet, which wins over the
	// host's pick on the admin page; else the default the pick overrides.
	PublicURL    string
	PublicURLSet bool
	// Rate is messages per second at most, from this process (default 5).
	Rate   float64
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Texts writes the messages in each guest's language; nil loads the
	// embedded catalogues.
	Texts Catalog
	// URLs holds the host's pick of public URL, the installation's (the
	// control database, docs/EVENTS.md); nil is Store.
	URLs URLChoice
	// Event is the id of the event mailed for when it is not the first:
	// the links to its registration page name it.
	Event string
}

// NewMailer returns a Mailer.
func NewMailer(c MailerConfig) *Mailer {
	if c.Rate <= 0 {
		c.Rate = 5
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Texts == nil {
		// The catalogues are compiled in: only a build defect fails here,
		// and package locale's tests catch it.
		cat, err := locale.New()
		if err != nil {
			panic(err)
		}
		c.Texts = cat
	}
	if c.URLs == nil {
		c.URLs = c.Store
	}
	return &Mailer{
		urls: c.URLs, eventID: c.Event,
		st: c.Store, texts: c.Texts, sender: c.Sender, pub: c.Publish, publicURL: c.PublicURL, urlSet: c.PublicURLSet, log: c.Logger, now: c.Now,
		interval: time.Duration(float64(time.Second) / c.Rate),
	}
}

// Registry takes the handlers of job kinds (a jobs.Runner).
type Registry interface {
	Handle(kind string, h jobs.Handler)
}

// permanentError is not retried by the job runner.
type permanentError struct{ error }

func (permanentError) Permanent() bool { return true }
func (e permanentError) Unwrap() error { return e.error }

// PublicURL is the address invitations use: the host's pick on the admin
// page, else the configured one.
func PublicURL(ctx context.Context, st URLChoice, configured string) (string, error) {
	chosen, err := st.PublicURLChoice(ctx)
	if err != nil {
		return configured, err
	}
	if chosen != "" {
		return chosen, nil
	}
	return configured, nil
}

// Register hands the mail jobs to r.
func (m *Mailer) Register(r Registry) { r.Handle(JobKind, m) }

// Handle sends the delivery the job names.
func (m *Mailer) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	values, err := m.send(ctx, j)
	return jobs.Result{Values: values}, err
}

// send sends the delivery the job names. A delivery already sent is not
// sent again (a job retried after its send was recorded).
func (m *Mailer) send(ctx context.Context, j store.Job) (map[string]string, error) {
	d, err := m.st.DeliveryByID(ctx, j.Payload[payloadDelivery])
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, permanentError{err}
		}
		return nil, err
	}
	if d.Status == store.DeliverySent {
		return map[string]string{"status": "already sent"}, nil
	}
	if d.Kind == KindOffer {
		return m.sendOffer(ctx, d)
	}
	if d.Kind == KindConfirm {
		return m.sendConfirm(ctx, d)
	}
	g, err := m.st.GuestByID(ctx, d.GuestID)
	if errors.Is(err, store.ErrNotFound) {
		m.record(ctx, d, store.DeliveryFailed, "the guest was deleted", nil)
		return map[string]string{"status": "guest deleted"}, nil
	}
	if err != nil {
		return nil, err
	}
	if g.Email == "" {
		return nil, permanentError{fmt.Errorf("%s has no e-mail address", g.Name())}
	}
	settings, public, err := m.event(ctx)
	if err != nil {
		return nil, err
	}
	// The guest's language, from their last sign-in; else the host's when
	// the message was sent or scheduled; else English.
	lang := m.texts.Match(g.Language, j.Payload[payloadLang])
	msg, err := Compose(m.texts, lang, d.Kind, g, settings, public, m.now())
	if err != nil {
		return nil, permanentError{err}
	}
	return m.deliver(ctx, d, msg)
}

// sendOffer sends the e-mail of a waiting-list offer, in the language of
// the page the person registered on, unless the offer is over (taken,
// expired or withdrawn) before its turn came.
func (m *Mailer) sendOffer(ctx context.Context, d store.Delivery) (map[string]string, error) {
	r, err := m.st.Registration(ctx, d.GuestID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil || r.Status != guest.RegOffered || OfferMailing(r) != d.Mailing || !m.now().Before(*r.OfferedUntil) {
		m.record(ctx, d, store.DeliveryFailed, "the offer is over", nil)
		return map[string]string{"status": "offer over"}, nil
	}
	settings, public, err := m.event(ctx)
	if err != nil {
		return nil, err
	}
	msg, err := ComposeOffer(m.texts, m.texts.Match(r.Language), r, settings, public, m.eventID)
	if err != nil {
		return nil, permanentError{err}
	}
	return m.deliver(ctx, d, msg)
}

// sendConfirm sends the e-mail that asks a person to confirm their
// registration, in the language of the page they registered on, unless
// the registration is no longer waiting for it (confirmed, expired, or
// registered again under a new time limit) before its turn came.
func (m *Mailer) sendConfirm(ctx context.Context, d store.Delivery) (map[string]string, error) {
	r, err := m.st.Registration(ctx, d.GuestID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil || r.Status != guest.RegUnconfirmed || r.ConfirmBy == nil || ConfirmMailing(r) != d.Mailing || !m.now().Before(*r.ConfirmBy) {
		m.record(ctx, d, store.DeliveryFailed, "the registration is no longer unconfirmed", nil)
		return map[string]string{"status": "confirmation over"}, nil
	}
	settings, public, err := m.event(ctx)
	if err != nil {
		return nil, err
	}
	msg, err := ComposeConfirm(m.texts, m.texts.Match(r.Language), r, settings, public, m.eventID)
	if err != nil {
		return nil, permanentError{err}
	}
	return m.deliver(ctx, d, msg)
}

// event reads the settings and the public address the links point at.
func (m *Mailer) event(ctx context.Context) (guest.Settings, string, error) {
	settings, err := m.st.Settings(ctx)
	if err != nil {
		return settings, "", err
	}
	public := m.publicURL
	if !m.urlSet {
		if public, err = PublicURL(ctx, m.urls, m.publicURL); err != nil {
			return settings, "", err
		}
	}
	return settings, public, nil
}

// deliver waits its turn, sends msg and records d sent.
func (m *Mailer) deliver(ctx context.Context, d store.Delivery, msg mail.Message) (map[string]string, error) {
	if err := m.wait(ctx); err != nil {
		return nil, err
	}
	if err := m.sender.Send(ctx, msg); err != nil {
		if errors.Is(err, mail.ErrInvalidAddress) {
			return nil, permanentError{err}
		}
		return nil, err
	}
	at := m.now().UTC()
	m.record(ctx, d, store.DeliverySent, "", &at)
	return map[string]string{"status": "sent", "to": msg.To}, nil
}

// Failed records a failed attempt: retrying, or failed for good.
func (m *Mailer) Failed(ctx context.Context, j store.Job, err error, final bool) {
	d, derr := m.st.DeliveryByID(ctx, j.Payload[payloadDelivery])
	if derr != nil {
		m.log.WarnContext(ctx, "record failed mail", "job", j.ID, "err", derr)
		return
	}
	status := store.DeliveryRetrying
	if final {
		status = store.DeliveryFailed
	}
	m.record(ctx, d, status, errText(err), nil)
}

func errText(err error) string {
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// record moves a delivery (and an invitation's mark on the guest) and
// tells the desk.
func (m *Mailer) record(ctx context.Context, d store.Delivery, status, lastError string, sentAt *time.Time) {
	if err := m.st.MarkDelivery(ctx, d.ID, status, lastError, sentAt); err != nil {
		m.log.WarnContext(ctx, "record mail delivery", "delivery", d.ID, "err", err)
	}
	if d.Kind == KindInvitation {
		inv := guest.InviteQueued
		switch status {
		case store.DeliverySent:
			inv = guest.InviteSent
		case store.DeliveryFailed:
			inv = guest.InviteFailed
		}
		if err := m.st.MarkInvite(ctx, d.GuestID, inv, lastError, sentAt); err != nil {
			m.log.WarnContext(ctx, "record invitation on guest", "guest", d.GuestID, "err", err)
		}
	}
	if m.pub != nil && d.Kind != KindOffer && d.Kind != KindConfirm {
		data := map[string]any{"guestId": d.GuestID, "mailing": d.Mailing, "kind": d.Kind, "status": status, "error": lastError}
		if err := m.pub.Publish(ctx, live.TopicAdmin, live.EventInviteUpdated, data); err != nil {
			m.log.WarnContext(ctx, "publish invite.updated", "err", err)
		}
	}
}

// wait takes the next send slot under the rate limit.
func (m *Mailer) wait(ctx context.Context) error {
	m.mu.Lock()
	now := time.Now()
	slot := now
	if m.next.After(now) {
		slot = m.next
	}
	m.next = slot.Add(m.interval)
	m.mu.Unlock()
	if d := slot.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// InvitationMailing names the invitation mailing of a code: a guest gets
// it once, and again only with a new code (the old link no longer works).
func InvitationMailing(code string) string { return "invitation/" + code }

// Queue reserves g's message of mailing and queues the job that sends
// it; lang is the language for g if g has never signed in (the host's).
// ErrConflict (wrapped) means g already has this mailing.
func Queue(ctx context.Context, st Outbox, g guest.Guest, mailing, kind, lang string) (store.Job, error) {
	d := store.Delivery{Mailing: mailing, Kind: kind, GuestID: g.ID, To: g.Email}
	if err := st.ReserveDelivery(ctx, &d); err != nil {
		return store.Job{}, err
	}
	j, err := st.EnqueueJob(ctx, Job(d, lang))
	if err != nil {
		// Without its job the reservation would block the guest for good.
		if rerr := st.ReleaseDelivery(context.WithoutCancel(ctx), d.ID); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return store.Job{}, fmt.Errorf("queue %s for %s: %w", kind, g.ID, err)
	}
	if err := st.SetDeliveryJob(ctx, d.ID, j.ID); err != nil {
		return j, fmt.Errorf("queue %s for %s: %w", kind, g.ID, err)
	}
	return j, nil
}
