package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
)

// placeOn places one negroni for tok on e and returns the order's id.
func placeOn(t *testing.T, e *testEnv, tok, key string) string {
	t.Helper()
	status, raw := e.do("POST", "/api/orders", tok, `{"items":[{"drinkId":"negroni"}]}`, "Idempotency-Key", key)
	if status != 201 {
		t.Fatalf("place %s on %s: %d %s", key, e.srv.URL, status, raw)
	}
	var o struct{ ID string }
	decodeInto(t, raw, &o)
	return o.ID
}

// positionOn is the queue position e gives order id in its guest's list.
func positionOn(t *testing.T, e *testEnv, tok, id string) int {
	t.Helper()
	status, raw := e.do("GET", "/api/orders", tok, nil)
	if status != 200 {
		t.Fatalf("my orders on %s: %d %s", e.srv.URL, status, raw)
	}
	var resp struct {
		Orders []struct {
			ID       string
			Position int
		}
	}
	decodeInto(t, raw, &resp)
	for _, o := range resp.Orders {
		if o.ID == id {
			return o.Position
		}
	}
	t.Fatalf("order %s missing from its guest's list on %s", id, e.srv.URL)
	return 0
}

// waitPosition polls until e gives order id the position want; the view
// behind it is kept by events or corrections that take a moment.
func waitPosition(t *testing.T, e *testEnv, tok, id string, want int, why string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := positionOn(t, e, tok, id)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: position %d on %s, want %d", why, got, e.srv.URL, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func barMove(t *testing.T, e *testEnv, tok, id, action string) {
	t.Helper()
	if status, raw := e.do("POST", "/api/bar/orders/"+id+"/"+action, tok, map[string]string{"reason": "out of limes"}); status != 200 {
		t.Fatalf("%s %s on %s: %d %s", action, id, e.srv.URL, status, raw)
	}
}

// TestClusterOrderViewFollowsOtherInstance: two instances on one
// database and one Redis. Orders placed and moved on B reach A's order
// view through B's events: a guest on A sees their place in the queue
// change with B's writes.
func TestClusterOrderViewFollowsOtherInstance(t *testing.T) {
	// No correction from the store during the test: only events move it.
	c := newCluster(t, 2, 0, func(b *BarConfig) { b.OrderViewRefresh = time.Hour })
	a, b := c[0], c[1]
	bar := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender}))
	x := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Xia"}))
	y := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Yan"}))
	z := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Zoe"}))

	first := placeOn(t, a, z, "z-1") // builds A's view
	yID := placeOn(t, b, y, "y-1")
	xID := placeOn(t, a, x, "x-1")
	waitPosition(t, a, x, xID, 3, "after B placed an order ahead")
	barMove(t, b, bar, yID, "cancel")
	waitPosition(t, a, x, xID, 2, "after B cancelled the order ahead")
	barMove(t, b, bar, first, "start")
	barMove(t, b, bar, first, "ready")
	waitPosition(t, a, x, xID, 1, "after B readied the first order")
}

// dropPublisher loses every event, as a broker that drops messages would.
type dropPublisher struct{}

func (dropPublisher) Publish(context.Context, string, string, any) error { return nil }
func (dropPublisher) PublishMany(context.Context, []hub.Outgoing) error  { return nil }

// TestClusterOrderViewRepairsLostEvents: B's order events never reach A
// (B publishes nothing). A's view is repaired by its correction from the
// store: the order B placed ahead appears, and goes when B cancels it.
func TestClusterOrderViewRepairsLostEvents(t *testing.T) {
	c := newCluster(t, 2, 0, func(b *BarConfig) { b.OrderViewRefresh = 100 * time.Millisecond })
	a := c[0]
	deps := c[1].deps
	deps.Publish = dropPublisher{}
	srv := httptest.NewServer(New(deps))
	t.Cleanup(srv.Close)
	b := *c[1]
	b.srv = srv

	bar := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender}))
	x := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Xia"}))
	y := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Yan"}))
	z := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Zoe"}))

	placeOn(t, a, z, "z-1")
	yID := placeOn(t, &b, y, "y-1")
	xID := placeOn(t, a, x, "x-1")
	waitPosition(t, a, x, xID, 3, "an order placed on B, its event lost")
	barMove(t, &b, bar, yID, "cancel")
	waitPosition(t, a, x, xID, 2, "an order cancelled on B, its event lost")
}

// TestClusterOpenOrderLimitAfterOtherInstanceMoves: the limit is exact
// straight after another instance's write, before any event can have
// arrived: it does not trust the view for what is still open.
func TestClusterOpenOrderLimitAfterOtherInstanceMoves(t *testing.T) {
	c := newCluster(t, 2, 0, func(b *BarConfig) { b.MaxOpenOrders = 1 })
	a, b := c[0], c[1]
	bar := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Bea", Role: guest.RoleBartender}))
	g := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Ada"}))
	for round := range 3 {
		id := placeOn(t, b, g, fmt.Sprintf("b-%d", round))
		status, raw := a.do("POST", "/api/orders", g, `{"items":[{"drinkId":"negroni"}]}`, "Idempotency-Key", fmt.Sprintf("a-%d", round))
		if status != 409 || errorCode(t, raw) != "open_order_limit" {
			t.Fatalf("round %d: a second open order on A right after B placed one: %d %s", round, status, raw)
		}
		// Ready on B: no longer open, so A lets the next one through at once.
		barMove(t, b, bar, id, "start")
		barMove(t, b, bar, id, "ready")
		next := placeOn(t, a, g, fmt.Sprintf("a-next-%d", round))
		barMove(t, a, bar, next, "cancel")
		barMove(t, b, bar, id, "serve")
	}
}
