package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/plan"
	"github.com/barhub/barhub/store"
)

// The host is told (docs/PUSH.md, "The host's notifications"): answers
// as they come, in batches; the RSVP deadline approaching with guests
// still silent; an ingredient running low or marked out; waiting-list
// offers accepted or expired; a dead job; a lost backplane. Each goes to
// the devices of every admin who wants that kind, in the admin's
// language, and exactly once across instances (a claim names each).

// Kinds of host notification: what an admin turns on or off.
const (
	HostAnswers   = "answers"
	HostDeadline  = "deadline"
	HostLowStock  = "low-stock"
	HostWaitlist  = "waitlist"
	HostDeadJob   = "dead-job"
	HostBackplane = "backplane"
	// HostDigest is the daily e-mail, sent when SMTP is set up.
	HostDigest = "digest"
)

// HostKinds lists every kind, in the order the admin page shows them.
var HostKinds = []string{HostAnswers, HostDeadline, HostLowStock, HostWaitlist, HostDeadJob, HostBackplane, HostDigest}

// HostNote is one notification as a device shows it.
type HostNote struct {
	Kind  string
	Title string
	Body  string
	// URL is the page a tap opens; Tag makes a newer note of the same
	// thing replace the older one on the device.
	URL string
	Tag string
}

// HostPusher sends a note to every device of one admin: push.Sender's
// PushHost (Web Push), in plain strings so that neither package imports
// the other.
type HostPusher interface {
	PushHost(adminID, kind, title, body, url, tag string)
}

// HostMailer sends the daily digest; nil when e-mail is off.
type HostMailer interface {
	SendDigest(ctx context.Context, to, subject, text string) error
}

// HostStore is what the host's notifications read.
type HostStore interface {
	PlanStore
	Admins(ctx context.Context) ([]guest.Guest, error)
	HostPrefs(ctx context.Context, id string) (store.HostPrefs, error)
	MarkAnswersSummarised(ctx context.Context, id string, since, sentAt time.Time) error
	AnswersAfter(ctx context.Context, from time.Time) ([]guest.Guest, error)
	Stats(ctx context.Context) (store.GuestStats, error)
	Settings(ctx context.Context) (guest.Settings, error)
	Claim(ctx context.Context, key string, ttl time.Duration) error
	ServedGlasses(ctx context.Context, since time.Time) (map[string]int, error)
	CountJobsByStatus(ctx context.Context, kind string) (map[string]int64, error)
	ListGuests(ctx context.Context, q store.GuestQuery) ([]guest.Guest, int64, error)
	PushDevices(ctx context.Context, guestID string) ([]store.PushDevice, error)
}

// HostMessage is a notification to the host: Title and Body name
// messages of the server's catalogues (locale/messages), filled with Vars
// in each admin's language (a Vars "Count" picks the plural form).
type HostMessage struct {
	Title, Body string
	Vars        map[string]any
	// URL is the page a tap opens (default /admin); Tag groups notes
	// that replace each other on a device (default the kind).
	URL, Tag string
}

// Host tells the admins.
type Host struct {
	st     HostStore
	push   HostPusher
	mail   HostMailer
	locale *locale.Catalog
	log    *slog.Logger
	now    func() time.Time
}

// HostDeps is what NewHost builds the host's notifications from.
type HostDeps struct {
	Store  HostStore
	Push   HostPusher
	Mail   HostMailer // nil: no digest
	Locale *locale.Catalog
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// NewHost returns the host's notifications.
func NewHost(d HostDeps) *Host {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Host{st: d.Store, push: d.Push, mail: d.Mail, locale: d.Locale, log: d.Logger, now: d.Now}
}

// Tell sends m to the devices of every admin who has kind on. It is the
// entry point for any part of barhub with news for the host: the
// waiting list calls it with HostWaitlist and WaitlistOffer. It does not
// deduplicate: a caller that may run on several instances claims the
// event first (see once).
func (h *Host) Tell(ctx context.Context, kind string, m HostMessage) error {
	if h.push == nil {
		return nil
	}
	if !slices.Contains(HostKinds, kind) {
		return fmt.Errorf("tell the host: unknown kind %q", kind)
	}
	admins, err := h.st.Admins(ctx)
	if err != nil {
		return err
	}
	for _, a := range admins {
		p, err := h.st.HostPrefs(ctx, a.ID)
		if err != nil {
			return err
		}
		if slices.Contains(p.Off, kind) {
			continue
		}
		h.send(a, kind, m)
	}
	return nil
}

func (h *Host) send(a guest.Guest, kind string, m HostMessage) {
	n := h.note(a, kind, m)
	h.push.PushHost(a.ID, n.Kind, n.Title, n.Body, n.URL, n.Tag)
}

func (h *Host) note(a guest.Guest, kind string, m HostMessage) HostNote {
	n := HostNote{Kind: "host." + kind, Title: h.text(a.Language, m.Title, m.Vars), Body: h.text(a.Language, m.Body, m.Vars), URL: m.URL, Tag: m.Tag}
	if n.URL == "" {
		n.URL = "/admin"
	}
	if n.Tag == "" {
		n.Tag = "host-" + kind
	}
	return n
}

// text is message id in lang; the id itself when the catalogue has no
// such message, which the locale tests rule out for every id used here.
func (h *Host) text(lang, id string, vars map[string]any) string {
	if id == "" {
		return ""
	}
	if h.locale != nil {
		if s, ok := h.locale.Text(h.locale.Match(lang), id, vars); ok {
			return s
		}
	}
	return id
}

// WaitlistOffer is the message for a waiting-list offer that name
// accepted (or let expire).
func WaitlistOffer(name string, accepted bool) HostMessage {
	if accepted {
		return HostMessage{Title: "host.waitlist.accepted.title", Body: "host.waitlist.accepted.body", Vars: map[string]any{"Name": name}, URL: "/admin#guests"}
	}
	return HostMessage{Title: "host.waitlist.expired.title", Body: "host.waitlist.expired.body", Vars: map[string]any{"Name": name}, URL: "/admin#guests"}
}

// listening returns the admins who have kind on and a device to tell:
// with none, the checks read nothing more.
func (h *Host) listening(ctx context.Context, kind string) ([]guest.Guest, error) {
	admins, err := h.st.Admins(ctx)
	if err != nil {
		return nil, err
	}
	var out []guest.Guest
	for _, a := range admins {
		p, err := h.st.HostPrefs(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		if slices.Contains(p.Off, kind) {
			continue
		}
		devices, err := h.st.PushDevices(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		if len(devices) > 0 {
			out = append(out, a)
		}
	}
	return out, nil
}

// once reports whether this instance is the first to claim key: the one
// that sends. ttl must outlast the condition the key names.
func (h *Host) once(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	err := h.st.Claim(ctx, "host/"+key, ttl)
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// CheckAnswers sends each admin with a device a summary of the answers
// after the last one told, at most one summary every BatchMinutes: the first answer after
// a quiet spell is told at the next check, the ones that follow wait for
// the batch. Run it every minute or so on every instance: the claim on the
// admin and the summary's start lets one instance send it.
func (h *Host) CheckAnswers(ctx context.Context) error {
	if h.push == nil {
		return nil
	}
	now := h.now().UTC().Truncate(time.Millisecond)
	admins, err := h.listening(ctx, HostAnswers)
	if err != nil {
		return err
	}
	for _, a := range admins {
		p, err := h.st.HostPrefs(ctx, a.ID)
		if err != nil {
			return err
		}
		if p.AnswersSince.IsZero() {
			// Answers from before the admin's first check are not news.
			if err := h.st.MarkAnswersSummarised(ctx, a.ID, now, time.Time{}); err != nil {
				return err
			}
			continue
		}
		batch := time.Duration(max(p.BatchMinutes, 1)) * time.Minute
		if now.Sub(p.AnswersSentAt) < batch {
			continue
		}
		answers, err := h.st.AnswersAfter(ctx, p.AnswersSince)
		if err != nil {
			return err
		}
		if len(answers) == 0 {
			continue
		}
		first, err := h.once(ctx, fmt.Sprintf("answers/%s/%d", a.ID, p.AnswersSince.UnixMilli()), 24*time.Hour)
		if err != nil || !first {
			continue
		}
		coming, declined := 0, 0
		for _, g := range answers {
			switch g.Status {
			case guest.StatusComing:
				coming++
			case guest.StatusDeclined:
				declined++
			}
		}
		m := HostMessage{Title: "host.answers.title", Body: "host.answers.body",
			Vars: map[string]any{"Count": len(answers), "Coming": coming, "Declined": declined}, URL: "/admin#guests"}
		h.send(a, HostAnswers, m)
		last := p.AnswersSince
		for _, g := range answers {
			if g.RSVPDate != nil && g.RSVPDate.After(last) {
				last = *g.RSVPDate
			}
		}
		if err := h.st.MarkAnswersSummarised(ctx, a.ID, last, now); err != nil {
			return err
		}
	}
	return nil
}

// DeadlineMarks are how long before the RSVP deadline the host is told
// how many guests are still silent: once at each.
var DeadlineMarks = []time.Duration{24 * time.Hour, 48 * time.Hour}

// CheckDeadline tells the host, at each of DeadlineMarks before the RSVP
// deadline, how many guests have not answered: once per mark across
// instances; a server started after a mark tells only the nearest one.
func (h *Host) CheckDeadline(ctx context.Context) error {
	if h.push == nil {
		return nil
	}
	settings, err := h.st.Settings(ctx)
	if err != nil || settings.RSVPDeadline == nil {
		return err
	}
	now := h.now()
	deadline := *settings.RSVPDeadline
	if !now.Before(deadline) {
		return nil
	}
	for _, mark := range DeadlineMarks {
		if now.Before(deadline.Add(-mark)) {
			continue
		}
		if who, err := h.listening(ctx, HostDeadline); err != nil || len(who) == 0 {
			return err
		}
		stats, err := h.st.Stats(ctx)
		if err != nil {
			return err
		}
		if stats.Pending == 0 {
			return nil
		}
		first, err := h.once(ctx, fmt.Sprintf("deadline/%d/%s", deadline.Unix(), mark), mark+24*time.Hour)
		if err != nil || !first {
			return err
		}
		hours := int(math.Ceil(deadline.Sub(now).Hours()))
		return h.Tell(ctx, HostDeadline, HostMessage{Title: "host.deadline.title", Body: "host.deadline.body",
			Vars: map[string]any{"Count": stats.Pending, "Hours": hours}, URL: "/admin#guests"})
	}
	return nil
}

// LowStockMinutes: an ingredient is running low when what is left of it
// lasts less than this at the last hour's pace.
const LowStockMinutes = 30

// StockLevel is the bar's state of one ingredient for the host.
type StockLevel struct {
	Key, Name string
	// Out: the bar marked it out of stock; Drinks is how many drinks on
	// the menu need it.
	Out    bool
	Drinks int
	// Left and Planned are packs (Pack); LastHour is packs used in the
	// last hour; MinutesLeft is Left at that pace (-1: no estimate).
	Left, Planned, LastHour float64
	Pack                    string
	MinutesLeft             int
}

// Low reports whether the ingredient needs the host: marked out, or
// lasting less than LowStockMinutes at the last hour's pace.
func (s StockLevel) Low() bool {
	return s.Out || (s.MinutesLeft >= 0 && s.MinutesLeft < LowStockMinutes)
}

// StockEstimate is the running-low rule (docs/REPORTS.md, "Running
// low"): barhub keeps no count of bottles, so what was bought is the
// shopping plan's packs, what was used is the served glasses times the
// recipes, and the pace is the same over the last hour. An ingredient is
// running low when Planned − used lasts less than LowStockMinutes at
// that pace; one the bar marked out is out whatever the figures say.
func (h *Host) StockEstimate(ctx context.Context) ([]StockLevel, error) {
	p, err := ShoppingPlan(ctx, h.st, plan.DefaultParams(), false)
	if err != nil {
		return nil, err
	}
	drinks, err := h.st.Drinks(ctx, menu.Filter{})
	if err != nil {
		return nil, err
	}
	all, err := h.st.ServedGlasses(ctx, time.Time{})
	if err != nil {
		return nil, err
	}
	hour, err := h.st.ServedGlasses(ctx, h.now().Add(-time.Hour))
	if err != nil {
		return nil, err
	}
	out, err := h.st.OutOfStock(ctx)
	if err != nil {
		return nil, err
	}
	recent := map[string]plan.Used{}
	for _, u := range plan.Usage(drinks, hour, plan.Plan{}) {
		recent[u.Key] = u
	}
	needs := map[string]int{}
	names := map[string]string{}
	for _, d := range drinks {
		for _, in := range d.Ingredients {
			needs[in.StockKey()]++
			names[in.StockKey()] = in.Name
		}
	}
	var list []StockLevel
	for _, u := range plan.Usage(drinks, all, p) {
		s := StockLevel{Key: u.Key, Name: u.Name, Out: out[u.Key], Drinks: needs[u.Key], Planned: float64(u.Planned), Pack: u.Pack, MinutesLeft: -1}
		s.LastHour = recent[u.Key].Packs
		if u.Planned > 0 {
			s.Left = math.Max(0, float64(u.Planned)-u.Packs)
			if s.LastHour > 0 {
				s.MinutesLeft = int(s.Left / s.LastHour * 60)
			}
		}
		list = append(list, s)
		delete(out, u.Key)
	}
	for key := range out {
		list = append(list, StockLevel{Key: key, Name: names[key], Out: true, Drinks: needs[key], MinutesLeft: -1})
	}
	slices.SortFunc(list, func(a, b StockLevel) int { return strings.Compare(a.Key, b.Key) })
	return list, nil
}

// CheckStock tells the host of each ingredient running low or marked
// out, once a night for each (the night of order.Night, in the event's
// time zone) across instances.
func (h *Host) CheckStock(ctx context.Context) error {
	if h.push == nil {
		return nil
	}
	// The estimate reads every order: only when someone will be told.
	if who, err := h.listening(ctx, HostLowStock); err != nil || len(who) == 0 {
		return err
	}
	settings, err := h.st.Settings(ctx)
	if err != nil {
		return err
	}
	list, err := h.StockEstimate(ctx)
	if err != nil {
		return err
	}
	night := order.Night(h.now(), settings.Loc())
	for _, s := range list {
		if !s.Low() {
			continue
		}
		what := "low"
		m := HostMessage{Title: "host.lowstock.title", Body: "host.lowstock.body", URL: "/bar",
			Vars: map[string]any{"Name": s.Name, "Minutes": s.MinutesLeft, "Left": round1(s.Left), "Pack": s.Pack}, Tag: "host-stock-" + s.Key}
		if s.Out {
			what = "out"
			m = HostMessage{Title: "host.out.title", Body: "host.out.body", URL: "/bar",
				Vars: map[string]any{"Name": s.Name, "Count": s.Drinks}, Tag: "host-stock-" + s.Key}
		}
		first, err := h.once(ctx, fmt.Sprintf("stock/%s/%s/%s", night, what, s.Key), 30*time.Hour)
		if err != nil {
			return err
		}
		if !first {
			continue
		}
		if err := h.Tell(ctx, HostLowStock, m); err != nil {
			return err
		}
	}
	return nil
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// maxDigestNames bounds the silent guests a digest names; the count
// says the rest.
const maxDigestNames = 30

// CheckDigest sends each admin with an e-mail address and the digest on
// the day's summary by e-mail, once a day at or after their DigestHour in
// the event's time zone, exactly once across instances (a claim on the
// admin and the date): the answers of the last 24 hours, who is still
// silent, what is running low or out, and the dead jobs.
func (h *Host) CheckDigest(ctx context.Context) error {
	if h.mail == nil {
		return nil
	}
	settings, err := h.st.Settings(ctx)
	if err != nil {
		return err
	}
	now := h.now().In(settings.Loc())
	admins, err := h.st.Admins(ctx)
	if err != nil {
		return err
	}
	for _, a := range admins {
		if a.Email == "" {
			continue
		}
		p, err := h.st.HostPrefs(ctx, a.ID)
		if err != nil {
			return err
		}
		if slices.Contains(p.Off, HostDigest) || now.Hour() < p.DigestHour {
			continue
		}
		first, err := h.once(ctx, fmt.Sprintf("digest/%s/%s", a.ID, now.Format(time.DateOnly)), 48*time.Hour)
		if err != nil {
			return err
		}
		if !first {
			continue
		}
		subject, text, err := h.Digest(ctx, a.Language, settings, now)
		if err != nil {
			return err
		}
		if err := h.mail.SendDigest(ctx, a.Email, subject, text); err != nil {
			h.log.WarnContext(ctx, "host digest not sent", "admin", a.ID, "err", err)
		}
	}
	return nil
}

// Digest writes the day's summary in lang.
func (h *Host) Digest(ctx context.Context, lang string, settings guest.Settings, now time.Time) (subject, text string, err error) {
	answers, err := h.st.AnswersAfter(ctx, now.Add(-24*time.Hour))
	if err != nil {
		return "", "", err
	}
	coming, declined := 0, 0
	for _, g := range answers {
		switch g.Status {
		case guest.StatusComing:
			coming++
		case guest.StatusDeclined:
			declined++
		}
	}
	var lines []string
	add := func(id string, vars map[string]any) { lines = append(lines, h.text(lang, id, vars)) }
	add("host.digest.answers", map[string]any{"Count": len(answers), "Coming": coming, "Declined": declined})
	silent, total, err := h.st.ListGuests(ctx, store.GuestQuery{Status: guest.StatusPending, Limit: maxDigestNames})
	if err != nil {
		return "", "", err
	}
	add("host.digest.silent", map[string]any{"Count": int(total)})
	for _, g := range silent {
		lines = append(lines, "  - "+strings.TrimSpace(g.FirstName+" "+g.LastName))
	}
	if int(total) > len(silent) {
		add("host.digest.more", map[string]any{"Count": int(total) - len(silent)})
	}
	levels, err := h.StockEstimate(ctx)
	if err != nil {
		return "", "", err
	}
	low := 0
	for _, s := range levels {
		if !s.Low() {
			continue
		}
		low++
		if s.Out {
			add("host.digest.out", map[string]any{"Name": s.Name})
		} else {
			add("host.digest.low", map[string]any{"Name": s.Name, "Minutes": s.MinutesLeft})
		}
	}
	if low == 0 {
		add("host.digest.stockFine", nil)
	}
	jobs, err := h.st.CountJobsByStatus(ctx, "")
	if err != nil {
		return "", "", err
	}
	add("host.digest.deadJobs", map[string]any{"Count": int(jobs[store.JobDead])})
	subject = h.text(lang, "host.digest.subject", map[string]any{"Event": settings.EventName, "Date": now.Format(time.DateOnly)})
	return subject, strings.Join(lines, "\n") + "\n", nil
}
