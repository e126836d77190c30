package api

import (
	"testing"

	"github.com/barhub/barhub/order"
)

// Every order gets the night's next number; a retry of the same order
// keeps its number and takes none.
func TestOrderTicketNumbers(t *testing.T) {
	e := newBarEnv(t)
	first := e.order(e.gTok, 201, order.ItemInput{DrinkID: "negroni", Qty: 1})
	second := e.order(e.gTok, 201, order.ItemInput{DrinkID: "mojito", Qty: 2})
	if first.Ticket != 1 || second.Ticket != 2 {
		t.Fatalf("tickets %d and %d, want 1 and 2", first.Ticket, second.Ticket)
	}
	body := order.Request{Items: []order.ItemInput{{DrinkID: "daiquiri", Qty: 1}}}
	key := newKey()
	status, raw := e.do("POST", "/api/orders", e.gTok, body, "Idempotency-Key", key)
	var third, replay orderView
	decodeInto(t, raw, &third)
	status2, raw2 := e.do("POST", "/api/orders", e.gTok, body, "Idempotency-Key", key)
	decodeInto(t, raw2, &replay)
	if status != 201 || status2 >= 300 || third.Ticket != 3 || replay.Ticket != 3 || replay.ID != third.ID {
		t.Fatalf("third %d %s; replay %d %s", status, raw, status2, raw2)
	}
	// The bar's queue carries them.
	_, raw = e.do("GET", "/api/bar/queue", e.bTok, nil)
	var q barQueueResponse
	decodeInto(t, raw, &q)
	seen := map[int]bool{}
	for _, o := range q.Orders {
		seen[o.Ticket] = true
	}
	if len(q.Orders) != 3 || !seen[1] || !seen[2] || !seen[3] {
		t.Errorf("queue %s, want tickets 1, 2, 3", raw)
	}
}
