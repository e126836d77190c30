package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
)

// TestPresenceCountsPhonesOnEveryInstance is the host's "0 phones and
// tablets connected" while phones were connected: the count came from the
// sockets on the instance the desk asked, on the "guests" topic only, so a
// phone on another instance, or on the menu page (its own topic and the
// menu), was missed. It is now the guests connected anywhere, whatever
// they follow, and it follows them leaving.
func TestPresenceCountsPhonesOnEveryInstance(t *testing.T) {
	c := newCluster(t, 2, 0, nil)
	a, b := c[0], c[1]
	admin := a.addGuest(guest.Guest{FirstName: "Hal", Role: guest.RoleAdmin})
	ada := a.addGuest(guest.Guest{FirstName: "Ada", Role: guest.RoleGuest})
	adminTok, adaTok := a.tokenFor(admin), a.tokenFor(ada)

	phone, _ := b.dial(b.ticket(adaTok))
	for _, topic := range []string{live.TopicMenu, live.GuestTopic(ada.ID)} {
		if got := subscribe(t, phone, topic); got != "subscribed" {
			t.Fatalf("subscribe %s: %s", topic, got)
		}
	}
	waitGuestsConnected(t, a, adminTok, 1)
	waitGuestsConnected(t, b, adminTok, 1)

	phone.CloseNow()
	waitGuestsConnected(t, a, adminTok, 0)
}

// waitGuestsConnected asks e for the presence until it counts want guests,
// failing after a generous while: a change is announced within half a
// second.
func waitGuestsConnected(t *testing.T, e *testEnv, token string, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, body := e.do("GET", "/api/admin/presence", token, nil)
		if status != http.StatusOK {
			t.Fatalf("presence: %d %s", status, body)
		}
		var p struct {
			People map[string]int `json:"people"`
		}
		decodeInto(t, body, &p)
		if p.People["guest"] == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("presence on %s counts %d guests (%s), want %d", e.srv.URL, p.People["guest"], body, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
