package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// appKeyOf is the public app's key, which the test client sends like the
// guest pages do.
func appKeyOf(t testing.TB, st *store.Store) string {
	t.Helper()
	k, err := st.AppKey(context.Background())
	if err != nil {
		t.Fatalf("app key: %v", err)
	}
	return k.Key
}

// seedMenu loads the starter menu straight into the store, before the
// server has read (and cached) the menu.
func seedMenu(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	sections, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range sections {
		if err := st.SaveSection(ctx, sec); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range drinks {
		if _, err := st.SeedDrink(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
}

func newKey() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// barEnv is a test server with the starter menu, a guest, a bartender
// and an admin.
type barEnv struct {
	*testEnv
	guest, bartender, admin guest.Guest
	gTok, bTok, aTok        string
}

func newBarEnv(t testing.TB, tweak ...func(*Deps)) *barEnv {
	t.Helper()
	return barEnvOf(newTestEnv(t, tweak...))
}

// barEnvOf seeds the menu and the bar's people into e.
func barEnvOf(e *testEnv) *barEnv {
	t := e.t
	t.Helper()
	seedMenu(t, e.store)
	b := &barEnv{testEnv: e}
	b.guest = e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Guest"})
	b.bartender = e.addGuest(guest.Guest{FirstName: "Bea", LastName: "Bar", Role: guest.RoleBartender})
	b.admin = e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	b.gTok, b.bTok, b.aTok = e.tokenFor(b.guest), e.tokenFor(b.bartender), e.tokenFor(b.admin)
	return b
}

// order places items for the token's guest with a fresh key and checks
// the status.
func (e *barEnv) order(tok string, want int, items ...order.ItemInput) orderView {
	e.t.Helper()
	status, body := e.do("POST", "/api/orders", tok, order.Request{Items: items}, "Idempotency-Key", newKey())
	if status != want {
		e.t.Fatalf("place order: %d, want %d: %s", status, want, body)
	}
	var v orderView
	if status < 300 {
		decodeInto(e.t, body, &v)
	}
	return v
}

func (e *barEnv) move(id, action string, want int) order.Order {
	e.t.Helper()
	status, body := e.do("POST", "/api/bar/orders/"+id+"/"+action, e.bTok, map[string]string{"reason": "test"})
	if status != want {
		e.t.Fatalf("%s %s: %d, want %d: %s", action, id, status, want, body)
	}
	var o order.Order
	if status < 300 {
		decodeInto(e.t, body, &o)
	}
	return o
}

func one(drinkID string) order.ItemInput { return order.ItemInput{DrinkID: drinkID, Qty: 1} }

// events records what a hub delivers on a topic, as any instance's
// listener would see it.
type events struct {
	mu  sync.Mutex
	all []hub.Event
	h   *hub.Hub
	top string
}

func listen(t testing.TB, h *hub.Hub, topic string) *events {
	ev := &events{h: h, top: topic}
	h.OnEvent(topic, func(e hub.Event) {
		ev.mu.Lock()
		ev.all = append(ev.all, e)
		ev.mu.Unlock()
	})
	return ev
}

// settle publishes a marker and waits for it: events on one topic arrive
// in order, so everything published before it has then been seen.
func (ev *events) settle(t testing.TB) {
	t.Helper()
	marker := newKey()
	if err := ev.h.Publish(context.Background(), ev.top, "test.marker", marker); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ev.mu.Lock()
		for _, e := range ev.all {
			var m string
			if e.Event == "test.marker" && json.Unmarshal(e.Data, &m) == nil && m == marker {
				ev.mu.Unlock()
				return
			}
		}
		ev.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("events on %s did not arrive within 10s", ev.top)
}

// named returns the events called name, after settling.
func (ev *events) named(t testing.TB, name string) []hub.Event {
	t.Helper()
	ev.settle(t)
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var out []hub.Event
	for _, e := range ev.all {
		if e.Event == name {
			out = append(out, e)
		}
	}
	return out
}

// waitFor waits for an event called name whose data satisfies ok, for
// events published off the request's path.
func (ev *events) waitFor(t testing.TB, name string, ok func([]byte) bool) hub.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ev.mu.Lock()
		for _, e := range ev.all {
			if e.Event == name && ok(e.Data) {
				ev.mu.Unlock()
				return e
			}
		}
		ev.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s on %s within 10s", name, ev.top)
	return hub.Event{}
}

func guestNamed(first string, role ...guest.Role) guest.Guest {
	g := guest.Guest{FirstName: first}
	if len(role) > 0 {
		g.Role = role[0]
	}
	return g
}

func eventOrder(t testing.TB, e hub.Event) order.Order {
	t.Helper()
	var o order.Order
	if err := json.Unmarshal(e.Data, &o); err != nil {
		t.Fatalf("event data %s: %v", e.Data, err)
	}
	return o
}

// withHeader adds header pairs to e.do calls that want the response too.
func (e *barEnv) doHeaders(method, path, token string, body any, header ...string) (int, http.Header, []byte) {
	e.t.Helper()
	resp := e.doResp(method, path, token, body, header...)
	defer resp.Body.Close()
	b := make([]byte, 0, 1024)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	return resp.StatusCode, resp.Header, b
}
