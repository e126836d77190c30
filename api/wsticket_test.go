package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
)

// awayFromMinuteEnd keeps a test of per-minute counts inside one minute.
func awayFromMinuteEnd() {
	if s := time.Now().Second(); s >= 50 {
		time.Sleep(time.Duration(61-s) * time.Second)
	}
}

// A guest may take WSTicketsPerMinute WebSocket tickets a minute; one more
// is a 429 with Retry-After and a clear JSON error, while other guests
// are not affected.
func TestWSTicketsPerMinute(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) { d.Config.WSTicketsPerMinute = 3 })
	a := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Ada"}))
	b := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Bo"}))
	awayFromMinuteEnd()
	for i := 0; i < 3; i++ {
		if status, raw := e.do("POST", "/api/ws/ticket", a, nil); status != 200 {
			t.Fatalf("ticket %d: %d %s", i+1, status, raw)
		}
	}
	resp := e.doResp("POST", "/api/ws/ticket", a, nil)
	defer resp.Body.Close()
	var body errorBody
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 429 || body.Error.Code != "too_many_tickets" || body.Error.Message == "" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth ticket: %d %+v (Retry-After %q), want 429 too_many_tickets with Retry-After", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	if status, raw := e.do("POST", "/api/ws/ticket", b, nil); status != 200 {
		t.Fatalf("another guest's ticket: %d %s", status, raw)
	}
}

// With Redis the count is one for every instance.
func TestWSTicketsPerMinuteAcrossInstances(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	tok := envs[0].tokenFor(envs[0].addGuest(guest.Guest{FirstName: "Ada"}))
	awayFromMinuteEnd()
	for i := 0; i < 30; i++ {
		if status, raw := envs[i%2].do("POST", "/api/ws/ticket", tok, nil); status != 200 {
			t.Fatalf("ticket %d: %d %s", i+1, status, raw)
		}
	}
	for i, e := range envs {
		if status, raw := e.do("POST", "/api/ws/ticket", tok, nil); status != 429 {
			t.Fatalf("ticket %d, on instance %d: %d %s, want 429", 31+i, i, status, raw)
		}
	}
}
