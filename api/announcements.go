package api

import (
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/barhub/barhub/api/audit"
	"github.com/barhub/barhub/api/guest"
	"github.com/barhub/barhub/api/text"
)

type announcementRequest struct {
	Text string `json:"text"`
	// GuestID sends the message to one guest's topic instead of everyone.
	GuestID string `json:"guestId,omitempty"`
	// Push also sends it as a notification to the devices of the guests
	// who allowed them, for pages that are closed (docs/PUSH.md).
	Push bool `json:"push,omitempty"`
	// SentAt (Unix nanoseconds) is echoed so a client can measure delivery
	// latency; the load tool uses it.
	SentAt int64 `json:"sentAt,omitempty"`
}

type announcement struct {
	Text   string    `json:"text"`
	From   string    `json:"from"`
	At     time.Time `json:"at"`
	SentAt int64     `json:"sentAt,omitempty"`
	// Push tells the push sender to notify devices too.
	Push bool `json:"push,omitempty"`
}

// handleAnnounce publishes the host's message ("cake in the garden in 5
// minutes") to every guest's page, or to one guest.
func (s *Server) handleAnnounce(w http.ResponseWriter, r *http.Request) {
	var req announcementRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	req.Text = strings.TrimSpace(req.Text)
	if req.Text == "" {
		s.fail(w, r, errBadRequest("missing_text", "write the announcement in \"text\""))
		return
	}
	if err := text.Lines(req.Text); err != nil {
		s.fail(w, r, errBadRequest("invalid_text", "the announcement "+err.Error()))
		return
	}
	if utf8.RuneCountInString(req.Text) > 500 {
		s.fail(w, r, errBadRequest("too_long", "keep announcements under 500 characters"))
		return
	}
	topic := "guests"
	if req.GuestID != "" {
		if !guest.ValidID(req.GuestID) {
			s.fail(w, r, errBadRequest("invalid_guest_id", "guestId is not a guest id"))
			return
		}
		topic = "guest:" + req.GuestID
	}
	a := announcement{Text: req.Text, From: identity(r.Context()).Name, At: time.Now().UTC(), SentAt: req.SentAt, Push: req.Push}
	if err := s.publish.Publish(r.Context(), topic, "announcement", a); err != nil {
		s.fail(w, r, err)
		return
	}
	audit.SetSubject(r.Context(), topic) // who heard it; the words stay out of the log
	writeJSON(w, http.StatusAccepted, map[string]any{"topic": topic, "announcement": a})
}

// handlePresence reports connected sockets per topic.
func (s *Server) handlePresence(w http.ResponseWriter, r *http.Request) {
	p := map[string]int{}
	if s.presence != nil {
		p = s.presence()
	}
	writeJSON(w, http.StatusOK, map[string]any{"topics": p})
}
