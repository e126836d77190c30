package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// MailConfig says whether barhub can send e-mail, for the send buttons.
type MailConfig struct {
	// Configured is true when --smtp-url and --mail-from are set.
	Configured bool
	// From and Server (password hidden) are shown to the host.
	From   string
	Server string
	// Rate is messages per second per worker process.
	Rate float64
}

// mailSetup is what the send buttons say when e-mail is not set up.
const mailSetup = "E-mail is not set up: start barhub with --smtp-url smtp://user:password@smtp.example.com:587 and --mail-from party@example.com (docs/INVITATIONS.md). Until then, copy each guest's link, share it, or print the cards."

type mailView struct {
	Configured bool    `json:"configured"`
	From       string  `json:"from,omitempty"`
	Server     string  `json:"server,omitempty"`
	Rate       float64 `json:"rate,omitempty"`
	Setup      string  `json:"setup,omitempty"`
}

func (s *Server) handleMailStatus(w http.ResponseWriter, r *http.Request) {
	v := mailView{Configured: s.mail.Configured}
	if s.mail.Configured {
		v.From, v.Server, v.Rate = s.mail.From, s.mail.Server, s.mail.Rate
	} else {
		v.Setup = mailSetup
	}
	writeJSON(w, http.StatusOK, v)
}

// sendInput is POST /api/admin/invitations/send.
type sendInput struct {
	// How: email queues one durable job per guest; link, share and print
	// record that the host passed the invitation on that way.
	How string `json:"how"`
	// GuestIDs names the guests; empty means every guest (staff only
	// with Staff).
	GuestIDs []string `json:"guestIds"`
	Staff    bool     `json:"staff"`
}

type skipped struct {
	GuestID string `json:"guestId"`
	Name    string `json:"name"`
	Reason  string `json:"reason"`
}

type sendResult struct {
	Queued   int       `json:"queued"`
	Recorded int       `json:"recorded"`
	Skipped  []skipped `json:"skipped"`
}

// maxSendIDs bounds one request's guest list.
const maxSendIDs = 20000

func (s *Server) handleSendInvitations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var in sendInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	switch in.How {
	case guest.InviteEmail, guest.InviteLink, guest.InviteShare, guest.InvitePrint:
	default:
		s.fail(w, r, errUnprocessable("invalid_how", "how must be email, link, share or print"))
		return
	}
	if len(in.GuestIDs) > maxSendIDs {
		s.fail(w, r, errUnprocessable("too_many", fmt.Sprintf("at most %d guests at once", maxSendIDs)))
		return
	}
	if in.How == guest.InviteEmail && !s.mail.Configured {
		s.fail(w, r, errConflict("mail_not_configured", mailSetup))
		return
	}
	guests, err := s.guestsToInvite(ctx, in)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res := sendResult{Skipped: []skipped{}}
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, g := range guests {
		if !g.Counted() && !in.Staff && len(in.GuestIDs) == 0 {
			continue
		}
		if in.How != guest.InviteEmail {
			if err := s.store.SetInvite(ctx, g.ID, guest.Invite{How: in.How, At: now, Status: guest.InviteDone}); err != nil {
				s.fail(w, r, err)
				return
			}
			res.Recorded++
			continue
		}
		if g.Email == "" {
			res.Skipped = append(res.Skipped, skipped{g.ID, g.Name(), "no_email"})
			continue
		}
		queued, err := s.queueMail(ctx, g, invite.InvitationMailing(g.Code), invite.KindInvitation, s.requestLanguage(r))
		if errors.Is(err, store.ErrConflict) {
			res.Skipped = append(res.Skipped, skipped{g.ID, g.Name(), "already_sent"})
			continue
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if err := s.store.SetInvite(ctx, g.ID, guest.Invite{How: guest.InviteEmail, At: now, Status: guest.InviteQueued}); err != nil {
			s.log.WarnContext(ctx, "mark invitation queued", "guest", g.ID, "err", err)
		}
		if s.ai.JobQueued != nil {
			s.ai.JobQueued(queued)
		}
		res.Queued++
	}
	audit.Note(ctx, "how", in.How)
	audit.Note(ctx, "queued", res.Queued)
	audit.Note(ctx, "recorded", res.Recorded)
	if s.publish != nil && (res.Queued > 0 || res.Recorded > 0) {
		if err := s.publish.Publish(ctx, live.TopicAdmin, live.EventInviteUpdated, map[string]any{"how": in.How, "queued": res.Queued, "recorded": res.Recorded}); err != nil {
			s.log.WarnContext(ctx, "publish invite.updated", "err", err)
		}
	}
	status := http.StatusOK
	if res.Queued > 0 {
		status = http.StatusAccepted
	}
	writeJSON(w, status, res)
}

func (s *Server) guestsToInvite(ctx context.Context, in sendInput) ([]guest.Guest, error) {
	if len(in.GuestIDs) == 0 {
		return s.store.AllGuests(ctx)
	}
	out := make([]guest.Guest, 0, len(in.GuestIDs))
	seen := map[string]bool{}
	for _, id := range in.GuestIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		g, err := s.store.GuestByID(ctx, id)
		if err != nil {
			return nil, storeError(err, "guest "+id)
		}
		out = append(out, g)
	}
	return out, nil
}

// queueMail reserves g's message of mailing (ErrConflict: already has it)
// and queues the durable job that sends it.
func (s *Server) queueMail(ctx context.Context, g guest.Guest, mailing, kind, lang string) (store.Job, error) {
	return invite.Queue(ctx, s.store, g, mailing, kind, lang)
}

// requestLanguage is the language the request's page shows
// (Accept-Language matched to a language barhub speaks), or "" when it
// does not say. E-mails to a guest who has never signed in go in the
// host's language, the one they sent or scheduled them in.
func (s *Server) requestLanguage(r *http.Request) string {
	al := r.Header.Get("Accept-Language")
	if al == "" {
		return ""
	}
	return s.locale.Match(al).String()
}
