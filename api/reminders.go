package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/store"
)

// Reminders the host schedules (docs/INVITATIONS.md): they go out from
// the durable job queue (invite.Scheduler), each guest getting each once.

type reminderRecipient struct {
	GuestID string     `json:"guestId"`
	Name    string     `json:"name"`
	Status  string     `json:"status"`
	SentAt  *time.Time `json:"sentAt,omitempty"`
	Error   string     `json:"error,omitempty"`
}

type reminderView struct {
	store.Reminder
	// DueAt is when it goes out with the event's dates now; null while
	// the date it hangs on is not set.
	DueAt *time.Time `json:"dueAt"`
	// Sent lists who got it (or are getting it) and how that went.
	Sent []reminderRecipient `json:"sent"`
}

func (s *Server) handleListReminders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rs, err := s.store.Reminders(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	names := map[string]string{}
	if len(rs) > 0 {
		guests, err := s.store.AllGuests(ctx)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, g := range guests {
			names[g.ID] = g.Name()
		}
	}
	out := make([]reminderView, 0, len(rs))
	for _, rem := range rs {
		v := reminderView{Reminder: rem, Sent: []reminderRecipient{}}
		if due, ok := invite.Due(rem, st); ok {
			v.DueAt = &due
		}
		ds, err := s.store.Deliveries(ctx, invite.ReminderMailing(rem.ID))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, d := range ds {
			v.Sent = append(v.Sent, reminderRecipient{GuestID: d.GuestID, Name: names[d.GuestID], Status: d.Status, SentAt: d.SentAt, Error: d.LastError})
		}
		out = append(out, v)
	}
	writeJSON(w, http.StatusOK, map[string]any{"reminders": out})
}

// reminderInput is POST /api/admin/reminders.
type reminderInput struct {
	Kind       string `json:"kind"`
	DaysBefore int    `json:"daysBefore"`
}

func (s *Server) handleCreateReminder(w http.ResponseWriter, r *http.Request) {
	var in reminderInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	switch {
	case in.Kind != invite.KindUnanswered && in.Kind != invite.KindMorning:
		s.fail(w, r, errUnprocessable("invalid_kind", "kind must be unanswered (before the answer deadline, to those who have not answered) or morning (the morning of the party, to those coming)"))
		return
	case in.Kind == invite.KindUnanswered && (in.DaysBefore < 0 || in.DaysBefore > 60):
		s.fail(w, r, errUnprocessable("invalid_days", "daysBefore must be between 0 and 60"))
		return
	case in.Kind == invite.KindMorning && in.DaysBefore != 0:
		s.fail(w, r, errUnprocessable("invalid_days", "a morning reminder goes on the day: leave daysBefore out"))
		return
	case !s.mail.Configured:
		s.fail(w, r, errConflict("mail_not_configured", mailSetup))
		return
	}
	rem := store.Reminder{Kind: in.Kind, DaysBefore: in.DaysBefore, CreatedBy: identity(r.Context()).GuestID, Lang: s.requestLanguage(r)}
	if err := s.store.InsertReminder(r.Context(), &rem); err != nil {
		s.fail(w, r, err)
		return
	}
	audit.SetSubject(r.Context(), "reminder:"+rem.ID)
	audit.Note(r.Context(), "kind", rem.Kind)
	writeJSON(w, http.StatusCreated, rem)
}

func (s *Server) handleDeleteReminder(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteReminder(r.Context(), chi.URLParam(r, "id")); err != nil {
		s.fail(w, r, storeError(err, "that reminder"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
