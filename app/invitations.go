package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// MailSetup is what the send buttons say when e-mail is not set up.
const MailSetup = "E-mail is not set up: start barhub with --smtp-url smtp://user:password@smtp.example.com:587 and --mail-from party@example.com (docs/INVITATIONS.md). Until then, copy each guest's link, share it, or print the cards."

// MaxSendIDs bounds one sending's guest list.
const MaxSendIDs = 20000

// InvitationStore is what passing invitations on reads and writes.
type InvitationStore interface {
	Settings(ctx context.Context) (guest.Settings, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	AllGuests(ctx context.Context) ([]guest.Guest, error)
	SetInvite(ctx context.Context, id string, inv guest.Invite) error
}

// MailQueue queues e-mails to guests as durable jobs.
type MailQueue interface {
	// Queue reserves g's message of mailing and queues the job that sends
	// it, in lang if g has never signed in; store.ErrConflict (wrapped)
	// means g already has this mailing.
	Queue(ctx context.Context, g guest.Guest, mailing, kind, lang string) (store.Job, error)
}

// InvitationsDeps are what Invitations needs.
type InvitationsDeps struct {
	Store InvitationStore
	// Mail queues e-mailed invitations; nil means e-mail is not set up.
	Mail MailQueue
	// JobQueued hears of every job queued, to start it soon; nil does
	// nothing.
	JobQueued func(store.Job)
	// Publish tells the host's desk; nil tells nobody.
	Publish Publisher
	Log     *slog.Logger
}

// Invitations are the host passing invitations on: by e-mail (one durable
// job per guest), or recording that they shared a link or printed a card.
type Invitations struct {
	d InvitationsDeps
}

// NewInvitations returns the invitations use case.
func NewInvitations(d InvitationsDeps) *Invitations {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Invitations{d: d}
}

// MailConfigured reports whether invitations can be e-mailed.
func (u *Invitations) MailConfigured() bool { return u.d.Mail != nil }

// Cards are the guests to print invitation cards for and the event they
// invite to.
type Cards struct {
	Guests   []guest.Guest
	Settings guest.Settings
}

// Cards returns guestID's card, or with guestID empty every counted
// guest's (staff too withStaff).
func (u *Invitations) Cards(ctx context.Context, guestID string, withStaff bool) (Cards, error) {
	var c Cards
	if guestID != "" {
		g, err := u.d.Store.GuestByID(ctx, guestID)
		if err != nil {
			return c, inviteeError(err, "that guest")
		}
		c.Guests = []guest.Guest{g}
	} else {
		all, err := u.d.Store.AllGuests(ctx)
		if err != nil {
			return c, fmt.Errorf("read guests: %w", err)
		}
		for _, g := range all {
			if g.Counted() || withStaff {
				c.Guests = append(c.Guests, g)
			}
		}
	}
	st, err := u.d.Store.Settings(ctx)
	if err != nil {
		return c, fmt.Errorf("read settings: %w", err)
	}
	c.Settings = st
	return c, nil
}

// SendRequest says how to pass invitations on, and to whom.
type SendRequest struct {
	// How: guest.InviteEmail queues one durable job per guest; link,
	// share and print record that the host passed the invitation on that
	// way.
	How string
	// GuestIDs names the guests; empty means every counted guest (staff
	// too with Staff).
	GuestIDs []string
	Staff    bool
	// Again e-mails guests who already had this code's invitation: a
	// mailing of its own, so the first one does not stand in the way.
	Again bool
}

// Skipped is a guest an e-mail was not queued for, and why.
type Skipped struct {
	GuestID string `json:"guestId"`
	Name    string `json:"name"`
	Reason  string `json:"reason"`
}

// SendResult counts what a sending did.
type SendResult struct {
	Queued   int       `json:"queued"`
	Recorded int       `json:"recorded"`
	Skipped  []Skipped `json:"skipped"`
}

// Send passes invitations on as req says; e-mails go in lang to guests
// who have never signed in (the host's language).
func (u *Invitations) Send(ctx context.Context, req SendRequest, lang string) (SendResult, error) {
	switch req.How {
	case guest.InviteEmail, guest.InviteLink, guest.InviteShare, guest.InvitePrint:
	default:
		return SendResult{}, NewError(Unprocessable, "invalid_how", "how must be email, link, share or print")
	}
	if len(req.GuestIDs) > MaxSendIDs {
		return SendResult{}, NewError(Unprocessable, "too_many", fmt.Sprintf("at most %d guests at once", MaxSendIDs))
	}
	if req.How == guest.InviteEmail && u.d.Mail == nil {
		return SendResult{}, NewError(Conflict, "mail_not_configured", MailSetup)
	}
	guests, err := u.guestsToInvite(ctx, req)
	if err != nil {
		return SendResult{}, err
	}
	res := SendResult{Skipped: []Skipped{}}
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, g := range guests {
		if !g.Counted() && !req.Staff && len(req.GuestIDs) == 0 {
			continue
		}
		if req.How != guest.InviteEmail {
			if err := u.d.Store.SetInvite(ctx, g.ID, guest.Invite{How: req.How, At: now, Status: guest.InviteDone}); err != nil {
				return SendResult{}, fmt.Errorf("record invitation of %s: %w", g.ID, err)
			}
			res.Recorded++
			continue
		}
		if g.Email == "" {
			res.Skipped = append(res.Skipped, Skipped{g.ID, g.Name(), "no_email"})
			continue
		}
		mailing := invite.InvitationMailing(g.Code)
		if req.Again {
			mailing += "/again/" + strconv.FormatInt(now.UnixMilli(), 10)
		}
		queued, err := u.d.Mail.Queue(ctx, g, mailing, invite.KindInvitation, lang)
		if errors.Is(err, store.ErrConflict) {
			res.Skipped = append(res.Skipped, Skipped{g.ID, g.Name(), "already_sent"})
			continue
		}
		if err != nil {
			return SendResult{}, fmt.Errorf("queue invitation of %s: %w", g.ID, err)
		}
		if err := u.d.Store.SetInvite(ctx, g.ID, guest.Invite{How: guest.InviteEmail, At: now, Status: guest.InviteQueued}); err != nil {
			u.d.Log.WarnContext(ctx, "mark invitation queued", "guest", g.ID, "err", err)
		}
		if u.d.JobQueued != nil {
			u.d.JobQueued(queued)
		}
		res.Queued++
	}
	audit.Note(ctx, "how", req.How)
	audit.Note(ctx, "queued", res.Queued)
	audit.Note(ctx, "recorded", res.Recorded)
	if u.d.Publish != nil && (res.Queued > 0 || res.Recorded > 0) {
		if err := u.d.Publish.Publish(ctx, live.TopicAdmin, live.EventInviteUpdated, map[string]any{"how": req.How, "queued": res.Queued, "recorded": res.Recorded}); err != nil {
			u.d.Log.WarnContext(ctx, "publish invite.updated", "err", err)
		}
	}
	return res, nil
}

func (u *Invitations) guestsToInvite(ctx context.Context, req SendRequest) ([]guest.Guest, error) {
	if len(req.GuestIDs) == 0 {
		all, err := u.d.Store.AllGuests(ctx)
		if err != nil {
			return nil, fmt.Errorf("read guests: %w", err)
		}
		return all, nil
	}
	out := make([]guest.Guest, 0, len(req.GuestIDs))
	seen := map[string]bool{}
	for _, id := range req.GuestIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		g, err := u.d.Store.GuestByID(ctx, id)
		if err != nil {
			return nil, inviteeError(err, "guest "+id)
		}
		out = append(out, g)
	}
	return out, nil
}

// inviteeError is the store's ErrNotFound as a NotFound naming what, and any
// other error with what for context.
func inviteeError(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return NewError(NotFound, "not_found", what+" does not exist")
	}
	return fmt.Errorf("read %s: %w", what, err)
}
