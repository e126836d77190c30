// Package live is the vocabulary of barhub's live protocol
// (docs/PROTOCOL.md): its topics, who may hear each, the names of the
// events published on them and the payloads more than one package reads.
// The hub carries events without knowing any of it; publishers, readers
// and the code that builds the hub all take it from here.
package live

import (
	"strings"

	"github.com/barhub/barhub/guest"
)

// The fixed topics; each guest also has a private one (GuestTopic).
const (
	// TopicGuests carries the host's announcements to everyone and the
	// event's changed details.
	TopicGuests = "guests"
	// TopicBar carries the order queue and arrivals at the door.
	TopicBar = "bar"
	// TopicAdmin carries the host's dashboard: RSVPs, stats, activity,
	// alerts, arrivals at the door.
	TopicAdmin = "admin"
	// TopicMenu carries menu and stock changes.
	TopicMenu = "menu"
	// TopicBoard carries the pick-up board's view of the orders: first
	// name, last initial, drinks and status, nothing else.
	TopicBoard = "board"

	guestTopicPrefix = "guest:"
	maxGuestIDLen    = 64

	// eventTopicPrefix starts the topics of every event but the first
	// (InEvent).
	eventTopicPrefix = "e:"
)

// InEvent returns topic as event's. The installation's first event, ""
// here as in tokens, keeps the names the protocol always had, so its
// clients and the tokens signed before there were events go on working;
// every other event's topics are "e:{event}:{topic}", so one event's
// sockets never hear another's and an instance's broker follows only the
// events its sockets hold (docs/EVENTS.md).
func InEvent(event, topic string) string {
	if event == "" {
		return topic
	}
	return eventTopicPrefix + event + ":" + topic
}

// EventOf splits topic into its event ("" for the first) and its name
// within that event; ok is false when it names an event malformed.
func EventOf(topic string) (event, name string, ok bool) {
	rest, scoped := strings.CutPrefix(topic, eventTopicPrefix)
	if !scoped {
		return "", topic, true
	}
	event, name, ok = strings.Cut(rest, ":")
	if !ok || !validGuestID(event) {
		return "", "", false
	}
	return event, name, true
}

// GuestTopic returns the private topic of one guest: their orders,
// recommendations and personal messages.
func GuestTopic(guestID string) string { return guestTopicPrefix + guestID }

// GuestOf returns the guest whose private topic topic is, and false when
// it is not a guest's topic.
func GuestOf(topic string) (guestID string, ok bool) {
	id, ok := strings.CutPrefix(topic, guestTopicPrefix)
	if !ok || !validGuestID(id) {
		return "", false
	}
	return id, true
}

// Exists reports whether topic is one of the protocol's topics, in any
// event.
func Exists(topic string) bool {
	_, name, ok := EventOf(topic)
	return ok && existsInEvent(name)
}

func existsInEvent(topic string) bool {
	switch topic {
	case TopicGuests, TopicBar, TopicAdmin, TopicMenu, TopicBoard:
		return true
	}
	_, ok := GuestOf(topic)
	return ok
}

// validGuestID keeps guest ids in topics to characters that are safe in
// Redis keys, log lines and the broker's framing without any escaping.
func validGuestID(id string) bool {
	if id == "" || len(id) > maxGuestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// MayConnect reports whether someone with role may open a live
// connection at all.
func MayConnect(role guest.Role) bool {
	switch role {
	case guest.RoleGuest, guest.RoleBartender, guest.RoleAdmin, guest.RoleBoard:
		return true
	}
	return false
}

// MayHear reports whether the person (or board) guestID, signed in to
// event with role, may subscribe to topic. Nobody hears another event's
// topics. Within the event the host hears everything; a guest only their
// own private topic besides the shared ones; a board only the board.
func MayHear(role guest.Role, guestID, event, topic string) bool {
	in, topic, ok := EventOf(topic)
	if !ok || in != event || !existsInEvent(topic) {
		return false
	}
	switch role {
	case guest.RoleAdmin:
		return true
	case guest.RoleBartender:
		return topic == TopicBar || topic == TopicGuests || topic == TopicMenu || topic == TopicBoard
	case guest.RoleBoard:
		return topic == TopicBoard
	case guest.RoleGuest:
		return topic == TopicGuests || topic == TopicMenu || (guestID != "" && topic == GuestTopic(guestID))
	}
	return false
}
