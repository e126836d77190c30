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
			if got := MayHear(tt.role, me, topic); got != want {
				t.Errorf("MayHear(%q, %q, %q) = %v, want %v", tt.role, me, topic, got, want)
			}
		}
	}
	// A guest with no id has no private topic to hear.
	if MayHear(guest.RoleGuest, "", "guest:") {
		t.Error("a guest without an id may hear guest:")
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
