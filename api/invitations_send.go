package api

import (
	"context"
	"net/http"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
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
const mailSetup = app.MailSetup

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
	// Again e-mails guests who were already e-mailed this code (the first
	// message lost, or its link wrong).
	Again bool `json:"again"`
	// Anyway passes the links on even when no phone can open them.
	Anyway bool `json:"anyway"`
}

func (s *Server) handleSendInvitations(w http.ResponseWriter, r *http.Request) {
	var in sendInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if s.refuseUnreachable(w, r, in.Anyway) {
		return
	}
	res, err := s.guests.invitations.Send(r.Context(), app.SendRequest{How: in.How, GuestIDs: in.GuestIDs, Staff: in.Staff, Again: in.Again}, s.requestLanguage(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	status := http.StatusOK
	if res.Queued > 0 {
		status = http.StatusAccepted
	}
	writeJSON(w, status, res)
}

// mailQueue queues e-mails as durable jobs in the store (app.MailQueue).
type mailQueue struct{ st *store.Store }

func (q mailQueue) Queue(ctx context.Context, g guest.Guest, mailing, kind, lang string) (store.Job, error) {
	return invite.Queue(ctx, q.st, g, mailing, kind, lang)
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
