package api

import (
	"net/http"
	"time"

	"github.com/barhub/barhub/event"
)

// eventListing is one event of GET /api/admin/events.
type eventListing struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	StartsAt *time.Time   `json:"startsAt"`
	Timezone string       `json:"timezone"`
	Location string       `json:"location"`
	Status   event.Status `json:"status"`
	// Current marks the event this server serves: today each server
	// serves the event of the database it was started on (docs/EVENTS.md).
	Current bool `json:"current"`
}

type eventsPage struct {
	Events []eventListing `json:"events"`
}

// handleListEvents gives the host the installation's events, upcoming
// first (the soonest first), then past ones (the most recent first).
func (s *Server) handleListEvents(w http.ResponseWriter, r *http.Request) {
	events, err := s.store.Events(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	current := s.store.DB().Name()
	page := eventsPage{Events: make([]eventListing, 0, len(events))}
	for _, e := range events {
		page.Events = append(page.Events, eventListing{
			ID: e.ID, Name: e.Name, StartsAt: e.StartsAt, Timezone: e.Timezone, Location: e.Location,
			Status: e.Status, Current: e.Database == current,
		})
	}
	writeJSON(w, http.StatusOK, page)
}
