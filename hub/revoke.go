package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/coder/websocket"
)

// StatusSessionEnded closes the sockets of someone whose access changed
// (deleted, role changed, new code, signed out everywhere). The apps take
// it to the sign-in screen, as they do an API 401.
const StatusSessionEnded websocket.StatusCode = 4001

// topicSessions carries "this guest's access changed" between instances.
// The hub keeps it from sockets and publishers whatever the application's
// rules say (knownTopic); only in-process listeners (OnSessionsEnded)
// hear it.
const topicSessions = "control:sessions"

const (
	eventSessionsEnded = "sessions.ended"
	// eventSessionsUnknown is never published: the hub makes it up for its
	// own listeners when the broker's delivery was interrupted and an
	// ended session may have been missed.
	eventSessionsUnknown = "sessions.unknown"
)

type sessionsEnded struct {
	GuestID string `json:"guestId"`
}

// EndSessions tells every instance, this one included, that guestID's
// access changed: each closes that guest's sockets with
// StatusSessionEnded and calls its OnSessionsEnded listeners.
func (h *Hub) EndSessions(ctx context.Context, guestID string) error {
	if !validID(guestID) {
		return fmt.Errorf("end sessions: invalid guest id %q", guestID)
	}
	raw, err := json.Marshal(sessionsEnded{GuestID: guestID})
	if err != nil {
		return fmt.Errorf("end sessions of %s: %w", guestID, err)
	}
	if _, err := h.broker.Publish(ctx, Event{Topic: topicSessions, Event: eventSessionsEnded, Time: time.Now(), Data: raw}); err != nil {
		return fmt.Errorf("end sessions of %s: %w", guestID, err)
	}
	return nil
}

// OnSessionsEnded registers fn for every EndSessions on any instance, with
// the guest's id, after this hub has closed that guest's sockets. fn gets
// "" when the broker's delivery was interrupted and such news may have
// been lost: forget everything. Calls come one at a time, in order.
func (h *Hub) OnSessionsEnded(fn func(guestID string)) {
	h.OnEvent(topicSessions, func(ev Event) {
		if ev.Event == eventSessionsUnknown {
			fn("")
			return
		}
		var d sessionsEnded
		if err := json.Unmarshal(ev.Data, &d); err != nil || d.GuestID == "" {
			h.log.Error("decode ended session", "err", err)
			return
		}
		h.CloseGuest(d.GuestID, StatusSessionEnded, "session ended")
		fn(d.GuestID)
	})
}

// sessionsInterrupted tells the OnSessionsEnded listeners that ended
// sessions may have been missed. dispatch calls it when the broker's
// delivery was interrupted, before the catch-up re-reads the history.
func (h *Hub) sessionsInterrupted() {
	h.lmu.RLock()
	_, ok := h.listeners[topicSessions]
	h.lmu.RUnlock()
	if !ok {
		return
	}
	wire, err := json.Marshal(Event{Topic: topicSessions, Event: eventSessionsUnknown, Time: time.Now()})
	if err != nil {
		return
	}
	h.listenQ <- Message{Topic: topicSessions, Wire: wire}
}

// CloseGuest closes every socket of guestID on this instance with code and
// reason, and drops its subscriptions at once so not one more event is
// queued to it. It returns how many sockets it closed.
func (h *Hub) CloseGuest(guestID string, code websocket.StatusCode, reason string) int {
	n := 0
	for _, s := range h.shards {
		s.mu.Lock()
		for c := range s.conns {
			if c.id.ID != guestID {
				continue
			}
			if c.kill(code, reason) {
				n++
			}
			s.removeConnLocked(c)
		}
		s.mu.Unlock()
	}
	return n
}
