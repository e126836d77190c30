package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func testRedis(t testing.TB) *redis.Client {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("REDIS_URL: %v", err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("redis at %s: %v", url, err)
	}
	return rdb
}

// newCluster starts n API instances the way a scaled deployment runs
// them: one database, one Redis, and on each instance its own hub on a
// Redis broker. Every test gets its own Redis key prefix. eventDelay
// holds up each menu event on every instance before the API hears it, as
// a loaded Redis or hub would.
func newCluster(t testing.TB, n int, eventDelay time.Duration, tweak func(*BarConfig)) []*testEnv {
	t.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	st := storetest.New(t)
	seedMenu(t, st)
	keys, err := auth.NewKeys(ctx, st, auth.KeysConfig{TokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	rdb := testRedis(t)
	var b [6]byte
	rand.Read(b[:])
	prefix := "test-cluster-" + hex.EncodeToString(b[:])
	tickets, err := auth.OpenTickets(ctx, st, rdb, prefix, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	envs := make([]*testEnv, n)
	for i := range envs {
		if i > 0 {
			// Every further instance has its own connection to the same
			// database, its keys and tickets read from it, as a deployment's
			// instances do: nothing in memory is shared.
			st, err = store.Open(ctx, store.Config{URI: storetest.URI(t), Database: st.DB().Name()}, logger)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close(context.Background()) })
			if keys, err = auth.NewKeys(ctx, st, auth.KeysConfig{TokenTTL: time.Hour}); err != nil {
				t.Fatal(err)
			}
			if tickets, err = auth.OpenTickets(ctx, st, rdb, prefix, 30*time.Second); err != nil {
				t.Fatal(err)
			}
		}
		sessions := auth.NewSessions(st, auth.SessionsConfig{})
		h := hub.New(liveRules(hub.Config{}), hub.NewRedisBroker(rdb, prefix, 100), testTickets{tickets, sessions}, logger)
		if err := h.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if eventDelay > 0 {
			// Listeners run in order of registration: this one goes first.
			h.OnEvent(live.TopicMenu, func(hub.Event) { time.Sleep(eventDelay) })
		}
		bar := BarConfig{ImageDir: t.TempDir(), Redis: rdb, RedisPrefix: prefix, Events: h}
		if tweak != nil {
			tweak(&bar)
		}
		// The sweeps and the order view's corrections, as barhub runs them.
		maint := jobs.NewMaintenance(logger)
		mctx, stopMaint := context.WithCancel(context.Background())
		maintDone := make(chan struct{})
		go func() { defer close(maintDone); maint.Run(mctx) }()
		t.Cleanup(func() { stopMaint(); <-maintDone })
		d := Deps{
			// The menu is read without signing in here, as in newTestEnv.
			Config: Config{MaxBodyBytes: 1 << 20, PublicMenu: true}, Logger: logger, Store: st, Keys: keys, Tickets: tickets,
			Publish: h, Live: h, Presence: h.Presence, People: h.People, Bar: bar,
			Sessions: sessions, SessionBus: h, Maintenance: maint,
		}
		srv := httptest.NewServer(New(d))
		t.Cleanup(func() {
			srv.Close()
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			h.Shutdown(sctx)
		})
		envs[i] = &testEnv{t: t, srv: srv, store: st, keys: keys, hub: h, deps: d, logger: logger, appKey: appKeyOf(t, st)}
	}
	return envs
}

func drinkOn(t testing.TB, e *testEnv, id string) drinkView {
	t.Helper()
	status, raw := e.do("GET", "/api/drinks/"+id, "", nil)
	if status != 200 {
		t.Fatalf("GET %s on %s: %d %s", id, e.srv.URL, status, raw)
	}
	var d drinkView
	decodeInto(t, raw, &d)
	return d
}

// TestCacheInvalidationAcrossInstances writes on one instance and reads
// on the other straight after the write answers: never the old menu. The
// menu.changed events are held up, so freshness cannot come from them:
// it comes from the shared version each read checks.
func TestCacheInvalidationAcrossInstances(t *testing.T) {
	c := newCluster(t, 2, 100*time.Millisecond, nil)
	a, b := c[0], c[1]
	bartender := a.addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender})
	admin := a.addGuest(guest.Guest{FirstName: "Hal", Role: guest.RoleAdmin})
	bTok, aTok := a.tokenFor(bartender), a.tokenFor(admin)
	bEvents := listen(t, b.hub, live.TopicMenu)

	// Both instances have the menu cached.
	for _, e := range c {
		if d := drinkOn(t, e, "mojito"); !d.Available {
			t.Fatal("mojito unavailable at start")
		}
	}
	for i := range 20 {
		writer, reader := c[i%2], c[(i+1)%2]
		inStock := i%2 == 1
		status, raw := writer.do("PUT", "/api/bar/stock/mint", bTok, map[string]bool{"inStock": inStock})
		if status != 200 {
			t.Fatalf("round %d: stock on %s: %d %s", i, writer.srv.URL, status, raw)
		}
		if d := drinkOn(t, reader, "mojito"); d.Available != inStock {
			t.Fatalf("round %d: the other instance still says mojito available=%v after mint inStock=%v", i, d.Available, inStock)
		}
	}
	// An edit on B, read on A at once; lists and ETags follow too.
	resp := a.doResp("GET", "/api/drinks?section=classics", "", nil)
	resp.Body.Close()
	oldTag := resp.Header.Get("ETag")
	edit := validDrink()
	edit["name"], edit["section"], edit["abv"] = "Negroni Sbagliato", "classics", 12
	if status, raw := b.do("PUT", "/api/admin/drinks/negroni", aTok, edit); status != 200 {
		t.Fatalf("edit on B: %d %s", status, raw)
	}
	if d := drinkOn(t, a, "negroni"); d.Name != "Negroni Sbagliato" {
		t.Errorf("A serves %q after the edit on B", d.Name)
	}
	resp = a.doResp("GET", "/api/drinks?section=classics", "", nil, "If-None-Match", oldTag)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == oldTag {
		t.Errorf("A answered %d with the old ETag after the edit on B", resp.StatusCode)
	}
	// B heard every change A made, through Redis.
	if n := len(bEvents.named(t, "menu.changed")); n != 21 {
		t.Errorf("B's listener saw %d menu.changed, want 21", n)
	}
}

// TestClusterRateLimitAndKillSwitch: the budget is shared through Redis,
// and the kill switch thrown on one instance reaches the other.
func TestClusterRateLimitAndKillSwitch(t *testing.T) {
	c := newCluster(t, 2, 0, func(b *BarConfig) { b.RateBrowse = 0.01 })
	a, b := c[0], c[1]
	admin := a.addGuest(guest.Guest{FirstName: "Hal", Role: guest.RoleAdmin})
	aTok := a.tokenFor(admin)
	g := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Ada"}))

	// One read per 100 s per client, counted in Redis: the read on A uses
	// the budget, so B refuses the next one and A the one after.
	var statuses []int
	for _, e := range []*testEnv{a, b, a} {
		status, _ := e.do("GET", "/api/sections", g, nil)
		statuses = append(statuses, status)
	}
	if statuses[0] != 200 || statuses[1] != 429 || statuses[2] != 429 {
		t.Errorf("three reads across two instances at one per 100 s: %v, want 200 429 429", statuses)
	}

	if status, raw := a.do("PUT", "/api/admin/app-key", aTok, map[string]bool{"enabled": false}); status != 200 {
		t.Fatalf("switch off on A: %d %s", status, raw)
	}
	if status, _ := a.do("GET", "/api/orders", g, nil); status != 503 {
		t.Errorf("A right after switching off: %d", status)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, _ := b.do("GET", "/api/orders", g, nil)
		if status == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B still serves the switched-off app: %d", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClusterOpenOrderLimit: one guest taps "order" ten times at once
// with ten different keys, the taps spread over two instances. The open-
// order limit holds across them: exactly the limit is placed, the rest
// are refused with a clear 409.
func TestClusterOpenOrderLimit(t *testing.T) {
	c := newCluster(t, 2, 0, func(b *BarConfig) { b.MaxOpenOrders = 2 })
	g := c[0].tokenFor(c[0].addGuest(guest.Guest{FirstName: "Ada"}))
	statuses := make(chan int, 10)
	var wg sync.WaitGroup
	for i := range 10 {
		e := c[i%2]
		wg.Go(func() {
			status, raw := e.do("POST", "/api/orders", g, `{"items":[{"drinkId":"negroni"}]}`, "Idempotency-Key", fmt.Sprintf("tap-%d", i))
			if status != 201 && (status != 409 || errorCode(t, raw) != "open_order_limit") {
				t.Errorf("tap %d: %d %s", i, status, raw)
			}
			statuses <- status
		})
	}
	wg.Wait()
	close(statuses)
	placed := 0
	for s := range statuses {
		if s == 201 {
			placed++
		}
	}
	if placed != 2 {
		t.Errorf("%d orders placed across two instances, want the limit of 2", placed)
	}
}

// TestClusterIdempotency: a phone's retries of one order land on two
// instances at once, and again after the bar (on the other instance) has
// served it and it has left the open orders: one order exists, and every
// answer names it.
func TestClusterIdempotency(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t, 2, 0, nil)
	ada := c[0].addGuest(guest.Guest{FirstName: "Ada"})
	g := c[0].tokenFor(ada)
	bar := c[1].tokenFor(c[0].addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender}))
	body := `{"items":[{"drinkId":"negroni"}]}`

	id := retryAtOnce(t, c, g, body, "tap", 20)
	for _, action := range []string{"start", "ready", "serve"} {
		if status, raw := c[1].do("POST", "/api/bar/orders/"+id+"/"+action, bar, nil); status != 200 {
			t.Fatalf("%s on the other instance: %d %s", action, status, raw)
		}
	}
	for _, e := range c {
		status, raw := e.do("POST", "/api/orders", g, body, "Idempotency-Key", "tap")
		var v orderView
		decodeInto(t, raw, &v)
		if status != 200 || v.ID != id || v.Status != "served" {
			t.Errorf("a retry after the order was served: %d %s, want 200 and the served order %s", status, raw, id)
		}
	}
	if status, raw := c[1].do("POST", "/api/orders", g, `{"items":[{"drinkId":"mojito"}]}`, "Idempotency-Key", "tap"); status != 422 || errorCode(t, raw) != "idempotency_key_reused" {
		t.Errorf("the key with another order: %d %s", status, raw)
	}
	_, total, err := c[0].store.ListOrders(ctx, store.OrderFilter{GuestID: ada.ID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 {
		t.Errorf("%d orders stored (open and archived), want 1", total)
	}
}

// TestClusterMoveRace: two bartenders on two instances press the same
// button at once, many times: each time exactly one move goes through and
// the other is a 409.
func TestClusterMoveRace(t *testing.T) {
	c := newCluster(t, 2, 0, nil)
	g := c[0].tokenFor(c[0].addGuest(guest.Guest{FirstName: "Ada"}))
	bar := c[0].tokenFor(c[0].addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender}))
	for round := range 5 {
		status, raw := c[round%2].do("POST", "/api/orders", g, `{"items":[{"drinkId":"negroni"}]}`, "Idempotency-Key", fmt.Sprintf("race-%d", round))
		if status != 201 {
			t.Fatalf("place: %d %s", status, raw)
		}
		var v orderView
		decodeInto(t, raw, &v)
		for _, action := range []string{"start", "ready", "serve"} {
			statuses := make([]int, 4)
			var wg sync.WaitGroup
			for i := range statuses {
				wg.Go(func() {
					s, raw := c[i%2].do("POST", "/api/bar/orders/"+v.ID+"/"+action, bar, nil)
					if s != 200 && s != 409 {
						t.Errorf("%s: %d %s", action, s, raw)
					}
					statuses[i] = s
				})
			}
			wg.Wait()
			if n := slices.Index(statuses, 200); n < 0 || slices.Index(statuses[n+1:], 200) >= 0 {
				t.Fatalf("round %d, %s pressed four times on two instances: %v, want exactly one 200", round, action, statuses)
			}
		}
	}
}
