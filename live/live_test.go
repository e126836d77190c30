package live

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
)

func TestExists(t *testing.T) {
	for topic, want := range map[string]bool{
		"guests": true, "bar": true, "admin": true, "menu": true, "board": true,
		"guest:665f1c2e9b1e8a0012345678": true, "guest:a-b_c.d": true,
		"guest:" + strings.Repeat("x", 64): true,
		"guest:":                           false, "guest:a b": false, "guest:a\nb": false, "guest:a{b}": false, "Guests": false, "": false,
		"guest:" + string(make([]byte, 65)): false, "guest:" + strings.Repeat("x", 65): false,
		"control:sessions": false,
	} {
		if got := Exists(topic); got != want {
			t.Errorf("Exists(%q) = %v, want %v", topic, got, want)
		}
	}
}

func TestGuestOf(t *testing.T) {
	if id, ok := GuestOf(GuestTopic("g1")); !ok || id != "g1" {
		t.Errorf("GuestOf(%q) = %q, %v; want g1", GuestTopic("g1"), id, ok)
	}
	for _, topic := range []string{TopicGuests, TopicAdmin, "guest:", "guest:a b", "guests:g1"} {
		if id, ok := GuestOf(topic); ok {
			t.Errorf("GuestOf(%q) = %q, want no guest", topic, id)
		}
	}
}

func TestMayHear(t *testing.T) {
	const me, other = "g1", "g2"
	topics := []string{TopicGuests, TopicMenu, TopicBar, TopicAdmin, TopicBoard, GuestTopic(me), GuestTopic(other), "nope", "guest:"}
	// Per role, the topics it hears; every other topic is refused.
	for _, tt := range []struct {
		role  guest.Role
		hears []string
	}{
		{guest.RoleGuest, []string{TopicGuests, TopicMenu, GuestTopic(me)}},
		{guest.RoleBartender, []string{TopicGuests, TopicMenu, TopicBar, TopicBoard}},
		{guest.RoleAdmin, []string{TopicGuests, TopicMenu, TopicBar, TopicAdmin, TopicBoard, GuestTopic(me), GuestTopic(other)}},
		{guest.RoleBoard, []string{TopicBoard}},
		{"", nil},
		{"superuser", nil},
	} {
		for _, topic := range topics {
			want := false
			for _, h := range tt.hears {
				want = want || h == topic
			}
			for _, event := range []string{"", "6b11aa00ff00ee00dd00cc00"} {
				if got := MayHear(tt.role, me, event, InEvent(event, topic)); got != want {
					t.Errorf("MayHear(%q, %q, %q, %q) = %v, want %v", tt.role, me, event, InEvent(event, topic), got, want)
				}
			}
		}
	}
	// A guest with no id has no private topic to hear.
	if MayHear(guest.RoleGuest, "", "", "guest:") {
		t.Error("a guest without an id may hear guest:")
	}
}

// TestMayHearOnlyOwnEvent: whatever the role, a socket of one event hears
// none of another event's topics, the first event's included.
func TestMayHearOnlyOwnEvent(t *testing.T) {
	const mine, other = "6b11aa00ff00ee00dd00cc00", "7c22bb11ee11dd11cc11bb11"
	for _, role := range []guest.Role{guest.RoleGuest, guest.RoleBartender, guest.RoleAdmin, guest.RoleBoard} {
		for _, topic := range []string{TopicGuests, TopicMenu, TopicBar, TopicAdmin, TopicBoard, GuestTopic("g1")} {
			for _, tt := range []struct{ socket, topicEvent string }{
				{mine, other}, {mine, ""}, {"", mine},
			} {
				if MayHear(role, "g1", tt.socket, InEvent(tt.topicEvent, topic)) {
					t.Errorf("a %s of event %q may hear %q", role, tt.socket, InEvent(tt.topicEvent, topic))
				}
			}
		}
	}
}

func TestEventOf(t *testing.T) {
	for _, tt := range []struct {
		topic, event, name string
		ok                 bool
	}{
		{"bar", "", "bar", true},
		{"guest:g1", "", "guest:g1", true},
		{"e:6b11:bar", "6b11", "bar", true},
		{"e:6b11:guest:g1", "6b11", "guest:g1", true},
		{"e:6b11", "", "", false},
		{"e::bar", "", "", false},
		{"e:a b:bar", "", "", false},
	} {
		event, name, ok := EventOf(tt.topic)
		if event != tt.event || name != tt.name || ok != tt.ok {
			t.Errorf("EventOf(%q) = %q, %q, %v; want %q, %q, %v", tt.topic, event, name, ok, tt.event, tt.name, tt.ok)
		}
		if tt.ok && InEvent(event, name) != tt.topic {
			t.Errorf("InEvent(%q, %q) = %q, want %q", event, name, InEvent(event, name), tt.topic)
		}
	}
	for topic, want := range map[string]bool{"e:6b11:bar": true, "e:6b11:guest:g1": true, "e:6b11:nope": false, "e:6b11:e:7c22:bar": false, "e:6b11": false} {
		if Exists(topic) != want {
			t.Errorf("Exists(%q) = %v, want %v", topic, !want, want)
		}
	}
}

func TestMayConnect(t *testing.T) {
	for role, want := range map[guest.Role]bool{
		guest.RoleGuest: true, guest.RoleBartender: true, guest.RoleAdmin: true, guest.RoleBoard: true,
		"": false, "superuser": false,
	} {
		if got := MayConnect(role); got != want {
			t.Errorf("MayConnect(%q) = %v, want %v", role, got, want)
		}
	}
}

func TestOrderEvent(t *testing.T) {
	want := map[order.Status]string{
		order.Queued: "order.placed", order.Preparing: "order.preparing", order.Ready: "order.ready",
		order.Served: "order.served", order.Cancelled: "order.cancelled",
	}
	for s, ev := range want {
		if got := OrderEvent(s); got != ev {
			t.Errorf("OrderEvent(%s) = %s, want %s", s, got, ev)
		}
	}
}
