package api

import (
	"fmt"
	"testing"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store/storetest"
)

// A guest's long night on the embedded database, where only the newest
// part of each guest's order list stays in memory: the guest still sees
// every order, served ones included, newest first; a retry of a key whose
// order was served long ago answers with that order and places nothing;
// the open-order limit still counts the orders waiting.
func TestLongNightEmbedded(t *testing.T) {
	st := storetest.SingleProcess(t, "")
	e := barEnvOf(newTestEnvOn(t, st, func(d *Deps) { d.Bar.MaxOpenOrders = 2 }))
	const n = 40
	ids := make([]string, n)
	for i := range n {
		status, raw := e.do("POST", "/api/orders", e.gTok, order.Request{Items: []order.ItemInput{one("daiquiri")}}, "Idempotency-Key", fmt.Sprintf("night-%02d", i))
		var v orderView
		decodeInto(t, raw, &v)
		if status != 201 {
			t.Fatalf("order %d: %d %s", i, status, raw)
		}
		ids[i] = v.ID
		for _, action := range []string{"start", "ready", "serve"} {
			e.move(v.ID, action, 200)
		}
	}
	// The first order's key again, forty served orders later.
	status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, order.Request{Items: []order.ItemInput{one("daiquiri")}}, "Idempotency-Key", "night-00")
	var again orderView
	decodeInto(t, raw, &again)
	if status != 200 || again.ID != ids[0] || again.Status != order.Served || hdr.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the first key again: %d %s %s (replayed %q), want 200, %s, served", status, again.ID, again.Status, hdr.Get("Idempotent-Replayed"), ids[0])
	}
	// ... and with another order: refused, as for a recent key.
	status, raw = e.do("POST", "/api/orders", e.gTok, order.Request{Items: []order.ItemInput{one("negroni")}}, "Idempotency-Key", "night-01")
	if status != 422 || errorCode(t, raw) != "idempotency_key_reused" {
		t.Errorf("the second key with another order: %d %s", status, raw)
	}
	status, raw = e.do("GET", "/api/orders", e.gTok, nil)
	var mine ordersResponse
	decodeInto(t, raw, &mine)
	if status != 200 || len(mine.Orders) != n {
		t.Fatalf("my orders: %d, %d listed, want %d", status, len(mine.Orders), n)
	}
	for i, o := range mine.Orders {
		if want := ids[n-1-i]; o.ID != want || o.Status != order.Served {
			t.Fatalf("my orders[%d] = %s %s, want %s served", i, o.ID, o.Status, want)
		}
	}
	// Two waiting is the limit; the served night does not count.
	e.order(e.gTok, 201, one("daiquiri"))
	e.order(e.gTok, 201, one("daiquiri"))
	if status, raw := e.do("POST", "/api/orders", e.gTok, order.Request{Items: []order.ItemInput{one("daiquiri")}}, "Idempotency-Key", newKey()); status != 409 || errorCode(t, raw) != "open_order_limit" {
		t.Errorf("a third order waiting: %d %s, want 409 open_order_limit", status, raw)
	}
}
