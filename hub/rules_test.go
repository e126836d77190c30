package hub

import (
	"strings"
	"testing"
)

// The hub's tests play a party with these roles and topics; the
// application's own live in package live, which the hub does not import.
const (
	roleGuest     = "guest"
	roleBartender = "bartender"
	roleAdmin     = "admin"
	roleBoard     = "board"

	topicGuests = "guests"
	topicBar    = "bar"
	topicAdmin  = "admin"
	topicMenu   = "menu"
	topicBoard  = "board"
)

func guestTopic(id string) string { return "guest:" + id }

// testKnownTopic knows the fixed topics and guest topics of ids up to 64
// characters.
func testKnownTopic(topic string) bool {
	switch topic {
	case topicGuests, topicBar, topicAdmin, topicMenu, topicBoard:
		return true
	}
	id, ok := strings.CutPrefix(topic, "guest:")
	return ok && validID(id)
}

// testAuthorize: the host hears everything, the bar the shared topics, a
// guest their own topic besides guests and menu, a board the board.
func testAuthorize(id Identity, topic string) error {
	ok := false
	switch id.Role {
	case roleAdmin:
		ok = true
	case roleBartender:
		ok = topic == topicBar || topic == topicGuests || topic == topicMenu || topic == topicBoard
	case roleBoard:
		ok = topic == topicBoard
	case roleGuest:
		ok = topic == topicGuests || topic == topicMenu || (id.ID != "" && topic == guestTopic(id.ID))
	}
	if !ok {
		return ErrForbidden
	}
	return nil
}

func testAdmit(id Identity) error {
	switch id.Role {
	case roleGuest, roleBartender, roleAdmin, roleBoard:
		return nil
	}
	return ErrForbidden
}

// testRules fills in the rules cfg leaves unset.
func testRules(cfg Config) Config {
	if cfg.KnownTopic == nil {
		cfg.KnownTopic = testKnownTopic
	}
	if cfg.Authorize == nil {
		cfg.Authorize = testAuthorize
	}
	if cfg.Admit == nil {
		cfg.Admit = testAdmit
	}
	return cfg
}

// The hub refuses topics unsafe to carry, and its own, whatever the
// application's rules say.
func TestKnownTopic(t *testing.T) {
	h := New(Config{KnownTopic: func(string) bool { return true }}, NewMemoryBroker(1), nil, nil)
	for topic, want := range map[string]bool{
		"guests": true, "guest:a-b_c.d": true, strings.Repeat("x", maxTopicLen): true,
		"": false, "a b": false, "a{b}": false, "a\nb": false, "a\x00b": false, topicSessions: false,
		strings.Repeat("x", maxTopicLen+1): false,
	} {
		if got := h.knownTopic(topic); got != want {
			t.Errorf("knownTopic(%q) = %v, want %v", topic, got, want)
		}
	}
	if New(Config{}, NewMemoryBroker(1), nil, nil).knownTopic("guests") {
		t.Error("a hub without rules knows a topic")
	}
}
