package main

import (
	"encoding/json"
	"maps"
	"testing"
	"time"
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

// TestPresenceIsEachEventsOwn: the desk of each event counts the people
// connected to that event alone, as it asks (GET /api/admin/presence) and
// as it hears (presence.changed on its admin topic), on one instance and
// on two over Redis. A guest's phone in the second event does not show on
// the first's desk, nor hers in the first on the second's.
func TestPresenceIsEachEventsOwn(t *testing.T) {
	for _, tc := range oneAndTwoInstances(t, "test-presence-") {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, "", tc.env)
			host := signInAdmin(t, s)
			mia := addFamily(t, host, "Holm", "", "Mia")[0]
			var second checkedEvent
			if status := host.call("POST", "/api/admin/events", map[string]any{"name": "Second", "guests": true}, &second); status != 201 {
				t.Fatalf("new event: %d", status)
			}
			other := s
			if tc.env != nil {
				// Started once the event is made, so it knows it at once.
				other = startServer(t, "", tc.env)
			}
			hostA := barClient{t: t, base: s.URL, token: host.token}
			hostB := switchTo(t, hostA, second.ID)
			deskA := dialLive(t, rsvpClient{t: t, base: s.URL, token: hostA.token}, "admin")
			deskB := dialLive(t, rsvpClient{t: t, base: s.URL, token: hostB.token}, "e:"+second.ID+":admin")

			status, lr := login(t, other.URL, mia.Code, "holm")
			if status != 200 {
				t.Fatalf("guest login: %d", status)
			}
			mias := barClient{t: t, base: other.URL, token: lr.Token}
			var list e2eEvents
			hostA.call("GET", "/api/admin/events", nil, &list)
			var first string
			for _, e := range list.Events {
				if e.Current {
					first = e.ID
				}
			}
			miaA, miaB := switchTo(t, mias, first), switchTo(t, mias, second.ID)

			phoneB := dialLive(t, rsvpClient{t: t, base: other.URL, token: miaB.token}, "e:"+second.ID+":menu", "e:"+second.ID+":guest:"+mia.ID)
			deskB.next("presence.changed", guestsConnected(1))
			presence := func(host barClient) (people, topics map[string]int) {
				t.Helper()
				var p struct {
					People map[string]int `json:"people"`
					Topics map[string]int `json:"topics"`
				}
				if status := host.call("GET", "/api/admin/presence", nil, &p); status != 200 {
					t.Fatalf("presence: %d", status)
				}
				return p.People, p.Topics
			}
			for _, base := range []string{s.URL, other.URL} {
				hostA.base, hostB.base = base, base
				// Each instance announces its count within half a second.
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					people, _ := presence(hostB)
					if people["guest"] == 1 && people["admin"] == 1 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("the second event's desk on %s counts %v, want Mia and its host", base, people)
					}
				}
				if people, _ := presence(hostA); people["guest"] != 0 || people["admin"] != 1 {
					t.Errorf("the first event's desk on %s counts %v with Mia connected to the second only, want its host alone", base, people)
				}
			}
			// This instance's sockets by topic, named as the event names them.
			hostA.base, hostB.base = other.URL, other.URL
			wantA, wantB := map[string]int{}, map[string]int{"menu": 1, "guest:" + mia.ID: 1}
			if other == s {
				wantA["admin"], wantB["admin"] = 1, 1 // the desks
			}
			if _, topics := presence(hostB); !maps.Equal(topics, wantB) {
				t.Errorf("the second event's topics on the phone's instance: %v, want %v", topics, wantB)
			}
			if _, topics := presence(hostA); !maps.Equal(topics, wantA) {
				t.Errorf("the first event's topics on the phone's instance: %v, want %v", topics, wantA)
			}

			phoneA := dialLive(t, rsvpClient{t: t, base: other.URL, token: miaA.token}, "menu")
			deskA.next("presence.changed", guestsConnected(1))
			phoneB.ws.CloseNow()
			deskB.next("presence.changed", guestsConnected(0))
			hostA.base, hostB.base = s.URL, s.URL
			if people, _ := presence(hostA); people["guest"] != 1 {
				t.Errorf("the first event's desk counts %d guests, want Mia's phone there", people["guest"])
			}
			phoneA.ws.CloseNow()
			deskA.next("presence.changed", guestsConnected(0))
		})
	}
}
