package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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

// What the application's rules answer reaches the client as the
// protocol's codes.
func TestApplicationRules(t *testing.T) {
	errNoSuchGuest := fmt.Errorf("no guest g9: %w", ErrUnknownTopic)
	e := newEnv(t, memoryBrokers, 100, Config{
		Authorize: func(id Identity, topic string) error {
			switch topic {
			case guestTopic("g9"):
				return errNoSuchGuest
			case topicBar:
				return errors.New("not tonight")
			}
			return testAuthorize(id, topic)
		},
		Admit: func(id Identity) error {
			if id.ID == "banned" {
				return ErrForbidden
			}
			return nil
		},
	})
	c := e.dial(0, admin)
	for topic, code := range map[string]string{guestTopic("g9"): "unknown_topic", topicBar: "forbidden", "nope": "unknown_topic"} {
		c.send(map[string]string{"type": "subscribe", "topic": topic})
		if m := c.read(); m.Type != "error" || m.Code != code || m.Topic != topic {
			t.Errorf("subscribe to %s: got %+v, want %s", topic, m, code)
		}
	}
	if m := c.subscribe(topicAdmin, nil); m.Type != "subscribed" {
		t.Errorf("subscribe to admin: got %+v", m)
	}

	req, _ := http.NewRequest(http.MethodGet, e.wsURL(0, e.tickets.issue(Identity{ID: "banned", Role: roleAdmin})), nil)
	req.URL.Scheme = "http"
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct{ Code string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusForbidden || body.Error.Code != "forbidden" {
		t.Errorf("refused by Admit: got %d %q (%v), want 403 forbidden", resp.StatusCode, body.Error.Code, err)
	}
	if err := e.hubs[0].Publish(context.Background(), "nope", "x", nil); !errors.Is(err, ErrUnknownTopic) {
		t.Errorf("publish on an unknown topic: %v, want ErrUnknownTopic", err)
	}
}
