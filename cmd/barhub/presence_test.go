package main

import (
	"encoding/json"
	"testing"
)

// TestDeskHearsPhonesConnectAndLeave: the host's desk is told on admin,
// as it happens, that a guest's phone connected (on the menu page, which
// does not follow "guests") and that it left, rather than finding out at
// its next poll.
func TestDeskHearsPhonesConnectAndLeave(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	mia := addFamily(t, admin, "Holm", "", "Mia")[0]
	status, lr := login(t, s.URL, mia.Code, "holm")
	if status != 200 {
		t.Fatalf("guest login: %d", status)
	}
	desk := dialLive(t, admin, "admin")

	phone := dialLive(t, rsvpClient{t: t, base: s.URL, token: lr.Token}, "menu", "guest:"+mia.ID)
	desk.next("presence.changed", guestsConnected(1))
	phone.ws.CloseNow()
	desk.next("presence.changed", guestsConnected(0))
}

func guestsConnected(n int) func(json.RawMessage) bool {
	return func(b json.RawMessage) bool {
		var p struct {
			People map[string]int `json:"people"`
		}
		return json.Unmarshal(b, &p) == nil && p.People["guest"] == n
	}
}
