package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/text"
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

type announcement struct {
	Text   string    `json:"text"`
	From   string    `json:"from"`
	At     time.Time `json:"at"`
	SentAt int64     `json:"sentAt,omitempty"`
	// Push tells the push sender to notify devices too.
	Push bool `json:"push,omitempty"`
}

// maxAnnouncement bounds an announcement, in characters.
const maxAnnouncement = 500

// handleAnnounce publishes the host's message ("cake in the garden in 5
// minutes") to every guest's page, or to one guest.
func (s *Server) handleAnnounce(w http.ResponseWriter, r *http.Request) {
	var req announcementRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	// Every guest's phone shows it: barhub's text rule, over lines.
	msg, err := text.Rule{Max: maxAnnouncement, Lines: true, Required: true}.Clean(req.Text)
	switch {
	case errors.Is(err, text.ErrEmpty):
		s.fail(w, r, errBadRequest("missing_text", "write the announcement in \"text\""))
		return
	case errors.Is(err, text.ErrTooLong):
		s.fail(w, r, errBadRequest("too_long", fmt.Sprintf("keep announcements under %d characters", maxAnnouncement)))
		return
	case err != nil:
		s.fail(w, r, errBadRequest("invalid_text", "the announcement "+err.Error()))
		return
	}
	req.Text = msg
	ids, err := announcementGuests(req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	a := announcement{Text: req.Text, From: identity(r.Context()).Name, At: time.Now().UTC(), SentAt: req.SentAt, Push: req.Push}
	if ids == nil {
		if err := s.publish.Publish(r.Context(), live.TopicGuests, live.EventAnnouncement, a); err != nil {
			s.fail(w, r, err)
			return
		}
		audit.SetSubject(r.Context(), live.TopicGuests) // who heard it; the words stay out of the log
		writeJSON(w, http.StatusAccepted, map[string]any{"topic": live.TopicGuests, "guests": 0, "announcement": a})
		return
	}
	out := make([]hub.Outgoing, len(ids))
	for i, id := range ids {
		out[i] = hub.Outgoing{Topic: live.GuestTopic(id), Event: live.EventAnnouncement, Data: a}
	}
	if err := s.publish.PublishMany(r.Context(), out); err != nil {
		s.fail(w, r, err)
		return
	}
	res := map[string]any{"guests": len(ids), "announcement": a}
	if len(ids) == 1 {
		res["topic"] = out[0].Topic
		audit.SetSubject(r.Context(), out[0].Topic)
	} else {
		audit.SetSubject(r.Context(), fmt.Sprintf("%d guests", len(ids)))
	}
	writeJSON(w, http.StatusAccepted, res)
}

// maxAnnouncementGuests bounds one request's list; a larger crowd is
// everyone ("guests") or several requests.
const maxAnnouncementGuests = 10000

// announcementGuests returns the guests a request names, without repeats
// and in the order given, or nil for everyone.
func announcementGuests(req announcementRequest) ([]string, error) {
	if req.GuestID != "" && len(req.GuestIDs) > 0 {
		return nil, errBadRequest("invalid_guest_id", "give guestId or guestIds, not both")
	}
	list := req.GuestIDs
	if req.GuestID != "" {
		list = []string{req.GuestID}
	}
	if req.GuestIDs != nil && len(req.GuestIDs) == 0 {
		return nil, errBadRequest("invalid_guest_id", "guestIds is empty; leave it out to announce to everyone")
	}
	if len(list) > maxAnnouncementGuests {
		return nil, errBadRequest("too_many_guests", fmt.Sprintf("at most %d guestIds in one announcement; announce to everyone, or send several", maxAnnouncementGuests))
	}
	if len(list) == 0 {
		return nil, nil
	}
	seen := make(map[string]bool, len(list))
	ids := make([]string, 0, len(list))
	for i, id := range list {
		if !guest.ValidID(id) {
			return nil, errBadRequest("invalid_guest_id", fmt.Sprintf("guest id number %d is not a guest id", i+1))
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// handlePresence reports connected sockets per topic.
func (s *Server) handlePresence(w http.ResponseWriter, r *http.Request) {
	p := map[string]int{}
	if s.presence != nil {
		p = s.presence()
	}
	writeJSON(w, http.StatusOK, map[string]any{"topics": p})
}
