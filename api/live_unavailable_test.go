package api

import (
	"encoding/json"
	"net"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
)

// An announcement while Redis, which carries live events between
// instances, cannot be reached answers 503 with Retry-After, not 500.
func TestAnnouncementWhileRedisIsDown(t *testing.T) {
	// A port nothing listens on: a Redis that is down.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	live := hub.New(liveRules(hub.Config{}), hub.NewRedisBroker(rdb, "barhub-test-down", 10), nil, nil)
	e := newTestEnv(t, func(d *Deps) { d.Publish = live })

	admin := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	resp := e.doResp("POST", "/api/admin/announcements", e.tokenFor(admin), map[string]string{"text": "Cake in the garden"})
	defer resp.Body.Close()
	var body struct {
		Error struct{ Code, Message string }
	}
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 503 || body.Error.Code != "live_unavailable" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("got %d %+v (Retry-After %q), want 503 live_unavailable with Retry-After", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
}
