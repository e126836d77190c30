package api

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/barhub/barhub/guest"
)

// concurrentAnswers has Ada and Bob, one couple, answer at the same moment,
// each "I am coming, the other is not", and returns both replies and the
// couple's statuses afterwards. withVersion sends the groupVersion each of
// them read first, as the guest page does.
func concurrentAnswers(t *testing.T, e *testEnv, withVersion bool) (status [2]int, body [2][]byte, final [2]guest.Status) {
	t.Helper()
	members := e.addHousehold(person("Ada", 1), person("Bob", 1))
	tokens := [2]string{e.tokenFor(members[0]), e.tokenFor(members[1])}
	bodies := [2]map[string]any{}
	for i := range members {
		bodies[i] = map[string]any{"status": "coming", "numGuests": 1, "notComing": []string{members[1-i].ID}}
		if withVersion {
			st, b := e.do("GET", "/api/rsvp", tokens[i], nil)
			var v rsvpView
			decodeInto(t, b, &v)
			if st != http.StatusOK || v.GroupVersion == "" {
				t.Fatalf("GET /api/rsvp: %d %s", st, b)
			}
			bodies[i]["groupVersion"] = v.GroupVersion
		}
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			status[i], body[i] = e.do("PUT", "/api/rsvp", tokens[i], bodies[i])
		}()
	}
	close(start)
	wg.Wait()
	for i, m := range members {
		g, err := e.store.GuestByID(context.Background(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		final[i] = g.Status
	}
	return status, body, final
}

// TestConcurrentFamilyAnswers is the reproduction of two members of one
// family answering at the same moment, each "coming, the other is not".
// Before answers were serialised per group, both got 200 and most trials
// ended with both declined: a state nobody asked for.
func TestConcurrentFamilyAnswers(t *testing.T) {
	e := newTestEnv(t)
	C, D := guest.StatusComing, guest.StatusDeclined

	t.Run("without groupVersion the last answer wins", func(t *testing.T) {
		for trial := range 60 {
			status, body, final := concurrentAnswers(t, e, false)
			if status[0] != http.StatusOK || status[1] != http.StatusOK {
				t.Fatalf("trial %d: %d %s / %d %s", trial, status[0], body[0], status[1], body[1])
			}
			if final != [2]guest.Status{C, D} && final != [2]guest.Status{D, C} {
				t.Fatalf("trial %d: Ada %s, Bob %s: neither answer", trial, final[0], final[1])
			}
		}
	})

	// The compare-and-set is the same turn-taking plus a check, so fewer
	// trials show it.
	t.Run("with groupVersion the second learns the group changed", func(t *testing.T) {
		for trial := range 30 {
			status, body, final := concurrentAnswers(t, e, true)
			won := -1
			for i := range status {
				if status[i] == http.StatusOK {
					won = i
				}
			}
			if won < 0 || status[1-won] != http.StatusConflict {
				t.Fatalf("trial %d: want one 200 and one 409: %d %s / %d %s", trial, status[0], body[0], status[1], body[1])
			}
			want := [2]guest.Status{D, D}
			want[won] = C
			if final != want {
				t.Fatalf("trial %d: %d won, but Ada is %s and Bob %s", trial, won, final[0], final[1])
			}
			lost := body[1-won]
			if code := errorCode(t, lost); code != guest.CodeGroupChanged {
				t.Fatalf("trial %d: the loser got %s: %s", trial, code, lost)
			}
			// The 409 carries the group as it is now, so the page can show it.
			var eb struct {
				Error struct {
					Details rsvpView `json:"details"`
				} `json:"error"`
			}
			decodeInto(t, lost, &eb)
			cur := eb.Error.Details
			if len(cur.Group) != 2 || cur.GroupVersion == "" || cur.Guest.Status != final[1-won] {
				t.Fatalf("trial %d: 409 details = %s", trial, lost)
			}
		}
	})
}

// TestRSVPGroupVersion checks the compare-and-set alone: an answer with
// the version of the group as read is applied; the same version again,
// after the group changed, is refused with the current state, and an
// answer with no status (dietary only) ignores the version.
func TestRSVPGroupVersion(t *testing.T) {
	e := newTestEnv(t)
	members := e.addHousehold(person("Ada", 1), person("Bob", 1))
	ada, bob := e.tokenFor(members[0]), e.tokenFor(members[1])
	_, b := e.do("GET", "/api/rsvp", ada, nil)
	var v rsvpView
	decodeInto(t, b, &v)
	seen := v.GroupVersion

	status, b := e.do("PUT", "/api/rsvp", bob, map[string]any{"status": "declined", "groupVersion": seen})
	if status != http.StatusOK {
		t.Fatalf("first answer: %d %s", status, b)
	}
	decodeInto(t, b, &v)
	if v.GroupVersion == seen {
		t.Fatalf("the version did not move with the answer: %s", b)
	}
	status, b = e.do("PUT", "/api/rsvp", ada, map[string]any{"status": "coming", "groupVersion": seen})
	if status != http.StatusConflict || errorCode(t, b) != guest.CodeGroupChanged {
		t.Fatalf("stale version: %d %s", status, b)
	}
	status, b = e.do("PUT", "/api/rsvp", ada, map[string]any{"dietary": "no nuts", "groupVersion": seen})
	if status != http.StatusOK {
		t.Fatalf("dietary answer with a stale version: %d %s", status, b)
	}
	decodeInto(t, b, &v)
	status, b = e.do("PUT", "/api/rsvp", ada, map[string]any{"status": "coming", "numGuests": 1, "notComing": []string{members[1].ID}, "groupVersion": v.GroupVersion})
	if status != http.StatusOK {
		t.Fatalf("answer with the current version: %d %s", status, b)
	}
}
