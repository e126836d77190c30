package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// barClient calls the API as a guest's phone or the bar's tablet does:
// with a sign-in and, for the menu and orders, the public app's key.
type barClient struct {
	t     testing.TB
	base  string
	token string
	key   string
}

func (c barClient) call(method, path string, body any, out any, header ...string) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.key != "" {
		req.Header.Set("X-Api-Key", c.key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

// barParty is a running barhub with the starter menu, a guest and a
// bartender, all signed in.
type barParty struct {
	s                  *testServer
	admin              rsvpClient
	guest, bartender   barClient
	guestID, guestCode string
	bartenderCode      string
	guestLast, barLast string
	appKey             string
}

// startBarParty seeds the starter menu with "barhub seed menu", starts
// barhub on the same data and creates the people through the admin API.
func startBarParty(t *testing.T, env map[string]string) *barParty {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	getenv := func(k string) string {
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return env[k]
	}
	if err := run(context.Background(), []string{"barhub", "seed", "menu", "--data", dir}, getenv, &out); err != nil {
		t.Fatalf("seed menu: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "37 drinks (37 new, 0 updated)") {
		t.Fatalf("seed menu said: %s", out.String())
	}
	s := startServer(t, dir, env)
	p := &barParty{s: s, admin: signInAdmin(t, s), guestLast: "Lovelace", barLast: "Barista"}
	var g, b e2eGuest
	if status := p.admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Ada", "lastName": p.guestLast, "expectedGuests": 1}, &g); status != 201 {
		t.Fatalf("create guest: %d", status)
	}
	if status := p.admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bea", "lastName": p.barLast, "expectedGuests": 1, "role": "bartender"}, &b); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	p.guestID, p.guestCode, p.bartenderCode = g.ID, g.Code, b.Code
	_, body := get(t, s.URL+"/api/app-key")
	var k struct{ Key string }
	if err := json.Unmarshal([]byte(body), &k); err != nil || k.Key == "" {
		t.Fatalf("app key: %s", body)
	}
	p.appKey = k.Key
	status, lr := login(t, s.URL, g.Code, p.guestLast)
	if status != 200 {
		t.Fatalf("guest login: %d", status)
	}
	p.guest = barClient{t: t, base: s.URL, token: lr.Token, key: k.Key}
	status, lr = login(t, s.URL, b.Code, p.barLast)
	if status != 200 {
		t.Fatalf("bartender login: %d", status)
	}
	p.bartender = barClient{t: t, base: s.URL, token: lr.Token}
	return p
}

type e2eOrder struct {
	ID       string `json:"id"`
	GuestID  string `json:"guestId"`
	Status   string `json:"status"`
	Version  int    `json:"version"`
	Position int    `json:"position"`
	Items    []struct {
		DrinkID string `json:"drinkId"`
		Name    string `json:"name"`
		Qty     int    `json:"qty"`
		Notes   string `json:"notes"`
	} `json:"items"`
}

func forOrder(id, status string) func(json.RawMessage) bool {
	return func(b json.RawMessage) bool {
		var o e2eOrder
		return json.Unmarshal(b, &o) == nil && o.ID == id && o.Status == status
	}
}

// TestOrderReadyReachesThePhone is flow 6 through the binary: a guest
// orders over HTTP, the bar starts and readies it over HTTP, and the
// guest's own WebSocket (opened with a ticket, as the phone does) receives
// order.ready for that order. Once with the in-process hub, once with
// Redis as the backplane.
func TestOrderReadyReachesThePhone(t *testing.T) {
	redisURL := testRedisURL(t)
	var b [6]byte
	rand.Read(b[:])
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"in-process hub", nil},
		{"redis", map[string]string{"REDIS_URL": redisURL, "BARHUB_REDIS_PREFIX": "test-e2e-" + hex.EncodeToString(b[:])}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startBarParty(t, tc.env)
			phone := dialLive(t, rsvpClient{t: t, base: p.s.URL, token: p.guest.token}, "guest:"+p.guestID, "menu")
			tablet := dialLive(t, rsvpClient{t: t, base: p.s.URL, token: p.bartender.token}, "bar")

			body := map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 2, "notes": "extra lime"}}}
			var o, again e2eOrder
			if status := p.guest.call("POST", "/api/orders", body, &o, "Idempotency-Key", "phone-tap-1"); status != 201 || o.Status != "queued" || o.Position != 1 {
				t.Fatalf("place order: %d %+v", status, o)
			}
			// The phone lost the answer and retries: the same order.
			if status := p.guest.call("POST", "/api/orders", body, &again, "Idempotency-Key", "phone-tap-1"); status != 200 || again.ID != o.ID {
				t.Fatalf("retry: %d %+v", status, again)
			}
			tablet.next("order.placed", forOrder(o.ID, "queued"))

			for _, action := range []string{"start", "ready"} {
				var moved e2eOrder
				if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/"+action, nil, &moved); status != 200 {
					t.Fatalf("%s: %d", action, status)
				}
			}
			ev := phone.next("order.ready", forOrder(o.ID, "ready"))
			var ready e2eOrder
			json.Unmarshal(ev.Data, &ready)
			if ready.GuestID != p.guestID || len(ready.Items) != 1 || ready.Items[0].Name != "Mojito" || ready.Items[0].Qty != 2 || ready.Items[0].Notes != "extra lime" {
				t.Errorf("order.ready data %s", ev.Data)
			}
			tablet.next("order.ready", forOrder(o.ID, "ready"))

			// A second press of "ready" is a conflict, not a second event.
			if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/ready", nil, nil); status != 409 {
				t.Errorf("second ready: %d", status)
			}
			if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/serve", nil, nil); status != 200 {
				t.Errorf("serve: %d", status)
			}
			phone.next("order.served", forOrder(o.ID, "served"))

			// Stock: mint out, the phone hears the menu change, the mojito
			// cannot be ordered, naming the mint; mint back and it can.
			if status := p.bartender.call("PUT", "/api/bar/stock/mint", map[string]bool{"inStock": false}, nil); status != 200 {
				t.Fatalf("mint out: %d", status)
			}
			phone.next("menu.changed", nil)
			var refused struct {
				Error struct{ Code, Message string }
			}
			if status := p.guest.call("POST", "/api/orders", body, &refused, "Idempotency-Key", "phone-tap-2"); status != 409 || !strings.Contains(refused.Error.Message, "out of mint") {
				t.Errorf("mojito without mint: %d %+v", status, refused)
			}
			p.bartender.call("PUT", "/api/bar/stock/mint", map[string]bool{"inStock": true}, nil)
			if status := p.guest.call("POST", "/api/orders", body, nil, "Idempotency-Key", "phone-tap-2"); status != 201 {
				t.Errorf("mojito with mint back: %d", status)
			}
		})
	}
}

// TestSeedWhileServing is the README's way to a menu: the server runs
// (a phone has already read the empty menu, so it is cached), and "barhub
// seed menu" on the same data loads the starter menu. The running server
// shows it within seconds, with no Redis and no restart.
func TestSeedWhileServing(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	_, body := get(t, s.URL+"/api/app-key")
	var k struct{ Key string }
	if err := json.Unmarshal([]byte(body), &k); err != nil || k.Key == "" {
		t.Fatalf("app key: %s", body)
	}
	guest := barClient{t: t, base: s.URL, key: k.Key}
	drinks := func() int {
		var page struct{ Drinks []struct{ ID string } }
		if status := guest.call("GET", "/api/drinks", nil, &page); status != 200 {
			t.Fatalf("GET /api/drinks: %d", status)
		}
		return len(page.Drinks)
	}
	if n := drinks(); n != 0 {
		t.Fatalf("%d drinks before seeding", n)
	}
	getenv := func(k string) string {
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return ""
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"barhub", "seed", "menu", "--data", dir}, getenv, &out); err != nil {
		t.Fatalf("seed menu: %v\n%s", err, out.String())
	}
	deadline := time.Now().Add(10 * time.Second)
	for drinks() != 37 {
		if time.Now().After(deadline) {
			t.Fatalf("the running server still shows %d drinks", drinks())
		}
		time.Sleep(100 * time.Millisecond)
	}
	var sections struct{ Sections []struct{ ID string } }
	if status := guest.call("GET", "/api/sections", nil, &sections); status != 200 || len(sections.Sections) != 4 {
		t.Errorf("GET /api/sections: %d, %d sections, want the starter menu's 4", status, len(sections.Sections))
	}
}

// orderThrough places the guest's order under the idempotency key and moves it
// through the bar's actions ("start", "ready", …), failing the test on any refusal.
func (p *barParty) orderThrough(t *testing.T, order map[string]any, key string, actions ...string) e2eOrder {
	t.Helper()
	var o e2eOrder
	if status := p.guest.call("POST", "/api/orders", order, &o, "Idempotency-Key", key); status != 201 {
		t.Fatalf("order: %d", status)
	}
	for _, a := range actions {
		if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/"+a, nil, nil); status != 200 {
			t.Fatalf("%s: %d", a, status)
		}
	}
	return o
}

// ordersInEveryState leaves three of the guest's orders as the bar shows them: one
// queued, one in the making, one ready (one, two and three mojitos, "no ice"), and
// returns their ids in that order.
func (p *barParty) ordersInEveryState(t *testing.T, keyPrefix string) []string {
	t.Helper()
	var ids []string
	for i, action := range []string{"", "start", "ready"} {
		order := map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": i + 1, "notes": "no ice"}}}
		ids = append(ids, p.orderThrough(t, order, keyPrefix+action, []string{"start", "ready"}[:i]...).ID)
	}
	return ids
}

// openBoard makes a pick-up board named "TV" and returns its link's fragment, the
// part after /board#.
func (p *barParty) openBoard(t *testing.T) string {
	t.Helper()
	var board struct{ Link string }
	if status := p.bartender.call("POST", "/api/bar/boards", map[string]string{"name": "TV"}, &board); status != 200 && status != 201 {
		t.Fatalf("board: %d", status)
	}
	_, fragment, _ := strings.Cut(board.Link, "/board#")
	return fragment
}
