package hub

import (
	"context"
	"encoding/json"
	"maps"
	"time"
)

// topicPresence carries each instance's count of the people connected to
// it, so that every instance can tell how many are connected in all. Like
// topicSessions it is the hub's own: no socket or publisher reaches it.
const topicPresence = "control:presence"

const eventPresence = "presence"

// presenceSnapshot is one instance's count of connected people by role.
type presenceSnapshot struct {
	Instance string         `json:"instance"`
	People   map[string]int `json:"people"`
}

// peerPresence is the latest snapshot heard from another instance.
type peerPresence struct {
	people map[string]int
	at     time.Time
}

// presenceChanged wakes the presence loop: someone connected here for the
// first time, or closed their last socket here.
func (h *Hub) presenceChanged() {
	select {
	case h.presenceKick <- struct{}{}:
	default:
	}
}

// localPeople counts the people (identities, not sockets) with a socket
// open on this instance, by role.
func (h *Hub) localPeople() map[string]int {
	h.socketsMu.Lock()
	defer h.socketsMu.Unlock()
	p := make(map[string]int)
	for _, role := range h.roles {
		p[role]++
	}
	return p
}

// People returns the number of people with a live connection, by role
// (Identity.Role), on every instance sharing this hub's broker: this
// instance's own count as it is now, plus the latest each other instance
// announced. An instance is announced within Config.PresenceInterval of a
// change, and forgotten when it has been silent for three
// PresenceHeartbeats (stopped without saying so).
func (h *Hub) People() map[string]int {
	p := h.localPeople()
	h.presenceMu.Lock()
	defer h.presenceMu.Unlock()
	stale := time.Now().Add(-3 * h.cfg.PresenceHeartbeat)
	for inst, peer := range h.peers {
		if peer.at.Before(stale) {
			delete(h.peers, inst)
			continue
		}
		for role, n := range peer.people {
			p[role] += n
		}
	}
	for role, n := range p {
		if n == 0 {
			delete(p, role)
		}
	}
	return p
}

// OnPeopleChanged registers fn to be called with People whenever a change
// of the people connected to this instance has reached every instance
// (each change anywhere is reported once, by the instance where it
// happened). Calls come one at a time, in order; fn should return quickly.
func (h *Hub) OnPeopleChanged(fn func(people map[string]int)) {
	h.presenceMu.Lock()
	h.presenceFns = append(h.presenceFns, fn)
	h.presenceMu.Unlock()
}

// heardPresence records a snapshot from the broker.
func (h *Hub) heardPresence(ev Event) {
	var s presenceSnapshot
	if err := json.Unmarshal(ev.Data, &s); err != nil || s.Instance == "" {
		h.log.Error("decode presence", "err", err)
		return
	}
	if s.Instance != h.instance {
		h.presenceMu.Lock()
		h.peers[s.Instance] = peerPresence{people: s.People, at: time.Now()}
		h.presenceMu.Unlock()
		return
	}
	// Our own snapshot came back: every instance has it now.
	p := h.People()
	h.presenceMu.Lock()
	if maps.Equal(p, h.notified) {
		h.presenceMu.Unlock()
		return
	}
	h.notified = p
	fns := h.presenceFns
	h.presenceMu.Unlock()
	for _, fn := range fns {
		fn(maps.Clone(p))
	}
}

// runPresence announces this instance's count to the others: at most once
// per PresenceInterval after a change, and every PresenceHeartbeat while
// anyone is connected so the others know the instance is still up. On
// stop it announces nobody, so the others forget it at once.
func (h *Hub) runPresence(stop <-chan struct{}) {
	tick := time.NewTicker(h.cfg.PresenceHeartbeat)
	defer tick.Stop()
	var last map[string]int
	for {
		select {
		case <-stop:
			if len(last) > 0 {
				h.publishPresence(map[string]int{})
			}
			return
		case <-h.presenceKick:
		case <-tick.C:
		}
		p := h.localPeople()
		if len(p) == 0 && len(last) == 0 {
			continue
		}
		h.publishPresence(p)
		last = p
		select {
		case <-stop:
			if len(last) > 0 {
				h.publishPresence(map[string]int{})
			}
			return
		case <-time.After(h.cfg.PresenceInterval):
		}
	}
}

func (h *Hub) publishPresence(people map[string]int) {
	raw, err := json.Marshal(presenceSnapshot{Instance: h.instance, People: people})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.PublishTimeout)
	defer cancel()
	if _, err := h.broker.Publish(ctx, Event{Topic: topicPresence, Event: eventPresence, Time: time.Now(), Data: raw}); err != nil {
		h.log.Warn("announce presence", "err", err)
	}
}
