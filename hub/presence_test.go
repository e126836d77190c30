package hub

import (
	"maps"
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
			e.hubs[1].OnPeopleChanged(func(_ string, p map[string]int) { changed <- p })

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

// TestPeopleByScope is each event's "phones connected": the people of
// one scope are counted in that scope alone, on every instance, and one
// person connected in two scopes is counted in each with the role they
// hold there.
func TestPeopleByScope(t *testing.T) {
	for name, brokers := range map[string]brokerPair{"memory": memoryBrokers, "redis": redisBrokers} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, brokers, 100, Config{PresenceInterval: 50 * time.Millisecond})
			type change struct {
				scope  string
				people map[string]int
			}
			changed := make(chan change, 16)
			// A change is reported by the instance where it happened.
			for _, h := range e.hubs {
				h.OnPeopleChanged(func(scope string, p map[string]int) { changed <- change{scope, p} })
			}

			adaB := guest1
			adaB.Scope, adaB.Role = "b", roleAdmin
			boB := guest2
			boB.Scope = "b"
			e.dial(1, guest1)
			hostB := e.dial(1, adaB)
			phoneB := e.dial(0, boB)
			want := map[string]map[string]int{
				"":  {roleGuest: 1},
				"b": {roleGuest: 1, roleAdmin: 1},
				"c": {},
			}
			for i := range e.hubs {
				waitPeopleIn(t, e.hubs[i], want)
			}
			if got := e.hubs[0].People(); !maps.Equal(got, map[string]int{roleGuest: 2, roleAdmin: 1}) {
				t.Errorf("people over every scope = %v", got)
			}
			timeout := time.After(5 * time.Second)
			for got := false; !got; {
				select {
				case c := <-changed:
					got = c.scope == "b" && maps.Equal(c.people, want["b"])
				case <-timeout:
					t.Fatalf("no change reported in b with %v", want["b"])
				}
			}

			hostB.ws.CloseNow()
			phoneB.ws.CloseNow()
			want["b"] = map[string]int{}
			for i := range e.hubs {
				waitPeopleIn(t, e.hubs[i], want)
			}
			timeout = time.After(5 * time.Second)
			for got := false; !got; {
				select {
				case c := <-changed:
					if c.scope != "b" && !maps.Equal(c.people, want[c.scope]) {
						t.Fatalf("people leaving b reported as %v in %q", c.people, c.scope)
					}
					got = c.scope == "b" && len(c.people) == 0
				case <-timeout:
					t.Fatal("nobody left in b was not reported")
				}
			}
		})
	}
}

// An instance that knows no scopes announces its people alone: they are
// the scope "".
func TestPeopleFromInstanceWithoutScopes(t *testing.T) {
	h := New(testRules(Config{}), NewMemoryBroker(1), nil, nil)
	h.heardPresence(Event{Topic: topicPresence, Data: []byte(`{"instance":"older","people":{"guest":2}}`)})
	if got := h.PeopleIn(""); !maps.Equal(got, map[string]int{roleGuest: 2}) {
		t.Errorf(`PeopleIn("") = %v, want 2 guests`, got)
	}
	if got := h.PeopleIn("b"); len(got) != 0 {
		t.Errorf(`PeopleIn("b") = %v, want nobody`, got)
	}
}

// waitPeopleIn waits until h counts want in each scope.
func waitPeopleIn(t *testing.T, h *Hub, want map[string]map[string]int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok := true
		for scope, people := range want {
			if !maps.Equal(h.PeopleIn(scope), people) {
				ok = false
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			for scope, people := range want {
				t.Errorf("people in %q = %v, want %v", scope, h.PeopleIn(scope), people)
			}
			t.FailNow()
		}
		time.Sleep(10 * time.Millisecond)
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
