package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// eventDataCollections are the collections a request can read or change
// in an event's database. Left out are the instance's health probe and
// the maintenance's own bookkeeping (claims, the stats summary), which
// the event's own sweeps rewrite while the test runs.
var eventDataCollections = []string{
	"audit", "boards", "codes", "deliveries", "drinks", "events", "guestchanges", "guestorders",
	"guests", "hostprefs", "idempotency", "images", "jobs", "orderarchive", "orders", "pushsubs",
	"recommendations", "registrations", "reminders", "secrets", "sections", "settings", "stock", "versions",
}

// TestEveryRouteAcrossEventsOnTwoInstances is the authorisation matrix
// across events on a deployment's shape: two barhub instances on one
// database server and Redis. Every route of the API (as its OpenAPI
// document lists them) is called as every role of a second event (host,
// guest, bartender, pick-up board) with the ids of the first event's own
// guest, order and drink, through either instance in turn. No answer may
// hold them, and the first event's data must be unchanged to the byte.
func TestEveryRouteAcrossEventsOnTwoInstances(t *testing.T) {
	redisURL := testRedisURL(t)
	env := map[string]string{"MONGODB_URI": startDB(t), "REDIS_URL": redisURL, "BARHUB_REDIS_PREFIX": "test-matrix-" + storetest.DatabaseName()}
	p := startBarParty(t, env)
	other := startServer(t, "", env)
	admin := barClient{t: t, base: p.s.URL, token: p.admin.token}

	var second checkedEvent
	if status := admin.call("POST", "/api/admin/events", map[string]any{"name": "Bravo night", "guests": true, "menu": true}, &second); status != 201 {
		t.Fatalf("new event: %d", status)
	}
	// The first event's own: a guest, an order and a drink the second
	// event never had.
	var only e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Alphaonly", "lastName": "Secret", "expectedGuests": 1}, &only); status != 201 {
		t.Fatalf("a guest of the first event alone: %d", status)
	}
	var drink struct{ ID string }
	if status := admin.call("POST", "/api/admin/drinks", newDrink("Alphasour"), &drink); status != 201 {
		t.Fatalf("a drink of the first event alone: %d", status)
	}
	var order e2eOrder
	if status := p.guest.call("POST", "/api/orders", map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 1}}}, &order, "Idempotency-Key", "alpha-1"); status != 201 {
		t.Fatalf("an order in the first event: %d", status)
	}
	secrets := []string{only.ID, only.Code, "Alphaonly", drink.ID, "Alphasour", order.ID}

	// The second event's people: the same host, guest and bartender,
	// switched there, and a pick-up board of its own.
	hostB := switchTo(t, admin, second.ID)
	guestB := switchTo(t, p.guest, second.ID)
	barB := switchTo(t, p.bartender, second.ID)
	var board struct{ Link string }
	if status := barB.call("POST", "/api/bar/boards", map[string]string{"name": "Bravo TV"}, &board); status != 201 && status != 200 {
		t.Fatalf("a board of the second event: %d", status)
	}
	_, key, _ := strings.Cut(board.Link, "#key=")
	var boardLogin struct{ Token string }
	if status := barB.call("POST", "/api/board/login", map[string]string{"key": key}, &boardLogin); status != 200 {
		t.Fatalf("the second event's board signs in: %d", status)
	}
	tokens := map[string]string{"host": hostB.token, "guest": guestB.token, "bartender": barB.token, "board": boardLogin.Token}

	// The installation's keys made on first use exist before the count,
	// and the first event's own requests above are all written: the
	// sign-in times its activity recorder writes within a second.
	get(t, p.s.URL+"/api/register/challenge")
	first := openEventStore(t, env["MONGODB_URI"])
	before := settledFingerprint(t, first)
	instances := []string{p.s.URL, other.URL}
	calls := 0
	for _, route := range documentedRoutes(t, p.s.URL) {
		method, pattern, _ := strings.Cut(route, " ")
		if pattern == "/ws" || pattern == "/api/auth/signout-everywhere" {
			continue // the socket is TestWeddingWeekend's; signing out would end the tokens
		}
		for _, id := range []string{only.ID, order.ID, drink.ID} {
			path := strings.NewReplacer("{id}", id, "{action}", "start", "{ingredient}", "lime",
				"{name}", id+".jpg", "{file}", id+".png", "{token}", id).Replace(pattern)
			for who, tok := range tokens {
				c := barClient{t: t, base: instances[calls%2], token: tok, key: p.appKey}
				calls++
				status, body := c.raw(method, path, map[string]any{})
				if status >= 500 {
					t.Errorf("%s %s as the second event's %s: %d %s", method, path, who, status, body)
				}
				for _, s := range secrets {
					if bytes.Contains(body, []byte(s)) {
						t.Errorf("%s %s as the second event's %s: the answer holds %q of the first event: %.300s", method, path, who, s, body)
					}
				}
			}
		}
	}
	// Whatever the second event's requests wrote is written by now.
	after := settledFingerprint(t, first)
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("the first event's %s changed under the second event's requests", name)
		}
	}
	t.Logf("%d calls over two instances", calls)
}

// raw sends a request and returns the status and body as they came.
func (c barClient) raw(method, path string, body any) (int, []byte) {
	c.t.Helper()
	j, _ := json.Marshal(body)
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(j))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("X-Api-Key", c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// documentedRoutes lists "METHOD /path" for every operation of the
// served OpenAPI document, which the API's own test keeps equal to its
// router.
func documentedRoutes(t *testing.T, base string) []string {
	t.Helper()
	_, body := get(t, base+"/api/openapi.json")
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	var routes []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if slices.Contains([]string{"get", "put", "post", "patch", "delete"}, method) {
				routes = append(routes, strings.ToUpper(method)+" "+path)
			}
		}
	}
	sort.Strings(routes)
	if len(routes) < 100 {
		t.Fatalf("the OpenAPI document lists %d routes", len(routes))
	}
	return routes
}

// openEventStore opens the first event's database (the installation's,
// "barhub") on uri, as a reader.
func openEventStore(t *testing.T, uri string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), store.Config{URI: uri}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return st
}

// settledFingerprint is the event's fingerprint once it holds still for
// longer than the activity recorder waits to write.
func settledFingerprint(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	prev := storetest.Fingerprint(t, st, eventDataCollections...)
	for range 20 {
		time.Sleep(1500 * time.Millisecond)
		next := storetest.Fingerprint(t, st, eventDataCollections...)
		if maps.Equal(prev, next) {
			return next
		}
		prev = next
	}
	t.Fatal("the first event's data kept changing before the test")
	return nil
}
