package api

import (
	"net/http"

	"github.com/barhub/barhub/app"
)

type announcementRequest struct {
	Text string `json:"text"`
	// GuestID sends the message to one guest's topic instead of everyone.
	GuestID string `json:"guestId,omitempty"`
	// GuestIDs sends it to each of these guests' topics: one request, one
	// audit entry and one exchange with the broker for the whole list.
	GuestIDs []string `json:"guestIds,omitempty"`
	// Push also sends it as a notification to the devices of the guests
	// who allowed them, for pages that are closed (docs/PUSH.md).
	Push bool `json:"push,omitempty"`
	// SentAt (Unix nanoseconds) is echoed so a client can measure delivery
	// latency; the load tool uses it.
	SentAt int64 `json:"sentAt,omitempty"`
}

// handleAnnounce publishes the host's message ("cake in the garden in 5
// minutes") to every guest's page, or to one guest (app.Announcements).
func (s *Server) handleAnnounce(w http.ResponseWriter, r *http.Request) {
	var req announcementRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.guests.announcements.Announce(r.Context(), identity(r.Context()).Name, app.AnnouncementRequest{
		Text: req.Text, GuestID: req.GuestID, GuestIDs: req.GuestIDs, Push: req.Push, SentAt: req.SentAt,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body := map[string]any{"guests": res.Guests, "announcement": res.Announcement}
	if res.Topic != "" {
		body["topic"] = res.Topic
	}
	writeJSON(w, http.StatusAccepted, body)
}

// handlePresence reports the people connected to this event on every
// instance, by role, and this instance's sockets per topic of the event.
func (s *Server) handlePresence(w http.ResponseWriter, r *http.Request) {
	p, people := map[string]int{}, map[string]int{}
	if s.presence != nil {
		p = s.presence()
	}
	if s.people != nil {
		people = s.people()
	}
	writeJSON(w, http.StatusOK, map[string]any{"topics": p, "people": people})
}
