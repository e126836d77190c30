package hub

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// topicPresence carries each instance's count of the people connected to
// it, so that every instance can tell how many are connected in all. Like
// topicSessions it is the hub's own: no socket or publisher reaches it.
const topicPresence = "control:presence"

const eventPresence = "presence"

// presenceSnapshot is one instance's count of connected people by role.
type presenceSnapshot struct {
	Instance string `json:"instance"`
	// People is the count over every scope, as instances that did not
	// know scopes announced and read it.
	People map[string]int `json:"people"`
	// Scopes is the count in each scope (Identity.Scope); a snapshot
	// without it came from such an instance, whose people are all of
	// the scope "".
	Scopes map[string]map[string]int `json:"scopes,omitempty"`
}

// peerPresence is the latest snapshot heard from another instance, by
// scope.
type peerPresence struct {
	scopes map[string]map[string]int
	at     time.Time
}

// member is one identity in one scope: a person connected to two scopes
// is counted in each, with the role they hold there.
type member struct{ scope, id string }

// membership is a member's role and open sockets on this instance.
type membership struct {
	role    string
	sockets int
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
// open on this instance, by scope and role.
func (h *Hub) localPeople() map[string]map[string]int {
	h.socketsMu.Lock()
	defer h.socketsMu.Unlock()
	p := make(map[string]map[string]int)
	for m, ms := range h.present {
		if p[m.scope] == nil {
			p[m.scope] = make(map[string]int)
		}
		p[m.scope][ms.role]++
	}
	return p
}

// census returns the people connected on every instance sharing this
// hub's broker, by scope and role: this instance's own count as it is
// now, plus the latest each other instance announced. An instance is
// announced within Config.PresenceInterval of a change, and forgotten
// when it has been silent for three PresenceHeartbeats (stopped without
// saying so).
func (h *Hub) census() map[string]map[string]int {
	p := h.localPeople()
	h.presenceMu.Lock()
	defer h.presenceMu.Unlock()
	stale := time.Now().Add(-3 * h.cfg.PresenceHeartbeat)
	for inst, peer := range h.peers {
		if peer.at.Before(stale) {
			delete(h.peers, inst)
			continue
		}
		for scope, people := range peer.scopes {
			for role, n := range people {
				if n == 0 {
					continue
				}
				if p[scope] == nil {
					p[scope] = make(map[string]int)
				}
				p[scope][role] += n
			}
		}
	}
	return p
}

// People returns the number of people with a live connection, by role
// (Identity.Role), on every instance sharing this hub's broker, over
// every scope: one person connected in two scopes counts in each. See
// PeopleIn for one scope's.
func (h *Hub) People() map[string]int {
	p := make(map[string]int)
	for _, people := range h.census() {
		for role, n := range people {
			p[role] += n
		}
	}
	return p
}

// PeopleIn returns the number of people connected in scope
// (Identity.Scope), by role, on every instance sharing this hub's broker.
func (h *Hub) PeopleIn(scope string) map[string]int {
	p := h.census()[scope]
	if p == nil {
		p = make(map[string]int)
	}
	return p
}

// OnPeopleChanged registers fn to be called with a scope and PeopleIn
// that scope whenever a change of the people connected to it on this
// instance has reached every instance (each change anywhere is reported
// once, by the instance where it happened). Calls come one at a time, in
// order; fn should return quickly.
func (h *Hub) OnPeopleChanged(fn func(scope string, people map[string]int)) {
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
		if s.Scopes == nil && len(s.People) > 0 {
			s.Scopes = map[string]map[string]int{"": s.People}
		}
		h.presenceMu.Lock()
		h.peers[s.Instance] = peerPresence{scopes: s.Scopes, at: time.Now()}
		h.presenceMu.Unlock()
		return
	}
	// Our own snapshot came back: every instance has it now.
	now := h.census()
	h.presenceMu.Lock()
	var changed []string
	for scope := range mapsUnion(now, h.notified) {
		if !maps.Equal(now[scope], h.notified[scope]) {
			changed = append(changed, scope)
		}
	}
	h.notified = now
	fns := h.presenceFns
	h.presenceMu.Unlock()
	slices.Sort(changed)
	for _, scope := range changed {
		for _, fn := range fns {
			p := maps.Clone(now[scope])
			if p == nil {
				p = make(map[string]int)
			}
			fn(scope, p)
		}
	}
}

// mapsUnion is the set of keys of a and b.
func mapsUnion[V any](a, b map[string]V) map[string]struct{} {
	u := make(map[string]struct{}, len(a)+len(b))
	for k := range a {
		u[k] = struct{}{}
	}
	for k := range b {
		u[k] = struct{}{}
	}
	return u
}

// runPresence announces this instance's count to the others: at most once
// per PresenceInterval after a change, and every PresenceHeartbeat while
// anyone is connected so the others know the instance is still up. On
// stop it announces nobody, so the others forget it at once.
func (h *Hub) runPresence(stop <-chan struct{}) {
	tick := time.NewTicker(h.cfg.PresenceHeartbeat)
	defer tick.Stop()
	var last map[string]map[string]int
	for {
		select {
		case <-stop:
			if len(last) > 0 {
				h.publishPresence(nil)
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
				h.publishPresence(nil)
			}
			return
		case <-time.After(h.cfg.PresenceInterval):
		}
	}
}

func (h *Hub) publishPresence(scopes map[string]map[string]int) {
	total := make(map[string]int)
	for _, people := range scopes {
		for role, n := range people {
			total[role] += n
		}
	}
	raw, err := json.Marshal(presenceSnapshot{Instance: h.instance, People: total, Scopes: scopes})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.PublishTimeout)
	defer cancel()
	if _, err := h.broker.Publish(ctx, Event{Topic: topicPresence, Event: eventPresence, Time: time.Now(), Data: raw}); err != nil {
		h.log.Warn("announce presence", "err", err)
	}
}
