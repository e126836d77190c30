package hub

import (
	"testing"
	"time"
)

// TestPeopleAcrossInstances is the host's "phones connected" count: a
// guest whose phone is connected to one instance is counted by every
// instance within moments, and uncounted as soon as they leave, however
// many sockets they hold.
func TestPeopleAcrossInstances(t *testing.T) {
	for name, brokers := range map[string]brokerPair{"memory": memoryBrokers, "redis": redisBrokers} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, brokers, 100, Config{PresenceInterval: 50 * time.Millisecond})
			changed := make(chan map[string]int, 16)
			e.hubs[1].OnPeopleChanged(func(p map[string]int) { changed <- p })

			phone := e.dial(1, guest1)
			tablet := e.dial(1, guest1)
			e.dial(0, admin)
			waitPeople(t, e.hubs[0], roleGuest, 1)
			waitPeople(t, e.hubs[1], roleGuest, 1)
			if got := e.hubs[0].People()[roleAdmin]; got != 1 {
				t.Fatalf("admins on instance 0 = %d, want 1", got)
			}
			waitChange(t, changed, roleGuest, 1)

			phone.ws.CloseNow()
			tablet.ws.CloseNow()
			waitPeople(t, e.hubs[0], roleGuest, 0)
			waitChange(t, changed, roleGuest, 0)
		})
	}
}

// waitPeople waits until h counts want people with role, failing after
// a generous while (the count is announced within PresenceInterval).
func waitPeople(t *testing.T, h *Hub, role string, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := h.People()[role]
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s people = %d, want %d", role, got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitChange(t *testing.T, changed <-chan map[string]int, role string, want int) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case p := <-changed:
			if p[role] == want {
				return
			}
		case <-timeout:
			t.Fatalf("no change reported with %d %s", want, role)
		}
	}
}
