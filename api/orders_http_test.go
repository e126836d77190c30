package api

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

func countOrders(t *testing.T, e *barEnv, guestID string) int {
	t.Helper()
	orders, err := e.store.OrdersByGuest(context.Background(), guestID, 100)
	if err != nil {
		t.Fatal(err)
	}
	return len(orders)
}

func TestPlaceOrder(t *testing.T) {
	e := newBarEnv(t)
	barEvents := listen(t, e.hub, live.TopicBar)
	guestEvents := listen(t, e.hub, live.GuestTopic(e.guest.ID))

	body := map[string]any{"items": []map[string]any{{"drinkId": "negroni", "qty": 2, "notes": "  one without ice "}, {"drinkId": "virgin-mojito"}}}
	status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, body, "Idempotency-Key", "k-1")
	var v orderView
	decodeInto(t, raw, &v)
	if status != 201 || v.Status != order.Queued || v.Version != 1 || v.GuestID != e.guest.ID || v.GuestName != "Ada Guest" ||
		len(v.Items) != 2 || v.Items[0].Name != "Negroni" || v.Items[0].Qty != 2 || v.Items[0].Notes != "one without ice" || v.Items[1].Qty != 1 ||
		v.Position != 1 || v.EstimateSeconds == nil || *v.EstimateSeconds != 120 || v.EstimatedReadyAt == nil || hdr.Get("Idempotent-Replayed") != "" {
		t.Fatalf("placed %d: %s", status, raw)
	}
	if len(v.History) != 1 || v.History[0].To != order.Queued || v.History[0].ActorID != e.guest.ID || v.History[0].At.IsZero() {
		t.Errorf("history %+v", v.History)
	}
	for _, ev := range []*events{barEvents, guestEvents} {
		placed := ev.named(t, "order.placed")
		if len(placed) != 1 || eventOrder(t, placed[0]).ID != v.ID {
			t.Errorf("%s: %d order.placed events", ev.top, len(placed))
		}
	}

	// Another guest's order is not found; the owner's is.
	other := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Oz"}))
	if status, body := e.do("GET", "/api/orders/"+v.ID, other, nil); status != 404 || errorCode(t, body) != "not_found" {
		t.Errorf("someone else's order: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/orders/"+v.ID, e.bTok, nil); status != 404 {
		t.Errorf("the bartender's own-orders route shows a guest's order: %d", status)
	}
	if status, _ := e.do("GET", "/api/orders/"+v.ID, e.gTok, nil); status != 200 {
		t.Errorf("own order: %d", status)
	}
	status, raw = e.do("GET", "/api/orders", other, nil)
	if status != 200 || string(raw) != "{\"orders\":[]}\n" {
		t.Errorf("other guest's list: %d %s", status, raw)
	}

	for _, tt := range []struct {
		name   string
		key    string
		body   any
		status int
		code   string
	}{
		{"no key", "", body, 400, "idempotency_key_required"},
		{"bad key", "has space", body, 400, "idempotency_key_required"},
		{"no items", newKey(), map[string]any{"items": []any{}}, 400, "no_items"},
		{"unknown drink", newKey(), map[string]any{"items": []any{one("nope")}}, 422, "unknown_drink"},
		{"six", newKey(), map[string]any{"items": []any{map[string]any{"drinkId": "negroni", "qty": 6}}}, 400, "invalid_quantity"},
		{"malformed", newKey(), `{"items": [`, 400, "malformed_json"},
		{"wrong type", newKey(), `{"items": {"drinkId": "x"}}`, 400, "invalid_field"},
	} {
		status, raw := e.do("POST", "/api/orders", e.gTok, tt.body, "Idempotency-Key", tt.key)
		if status != tt.status || errorCode(t, raw) != tt.code {
			t.Errorf("%s: %d %s, want %d %s", tt.name, status, raw, tt.status, tt.code)
		}
	}
	if n := countOrders(t, e, e.guest.ID); n != 1 {
		t.Errorf("%d orders stored, want 1", n)
	}
}

func TestIdempotencySequential(t *testing.T) {
	e := newBarEnv(t)
	body := map[string]any{"items": []any{one("daiquiri")}}
	status, raw := e.do("POST", "/api/orders", e.gTok, body, "Idempotency-Key", "same")
	var first orderView
	decodeInto(t, raw, &first)
	if status != 201 {
		t.Fatalf("first: %d %s", status, raw)
	}
	for range 3 {
		status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, body, "Idempotency-Key", "same")
		var again orderView
		decodeInto(t, raw, &again)
		if status != 200 || again.ID != first.ID || hdr.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry: %d id %s (first %s)", status, again.ID, first.ID)
		}
	}
	// The same key with another body is refused.
	status, raw = e.do("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("mojito")}}, "Idempotency-Key", "same")
	if status != 422 || errorCode(t, raw) != "idempotency_key_reused" {
		t.Errorf("other body: %d %s", status, raw)
	}
	// Keys are per guest: another guest's "same" is a new order.
	other := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Oz"}))
	if status, _ := e.do("POST", "/api/orders", other, body, "Idempotency-Key", "same"); status != 201 {
		t.Errorf("other guest, same key: %d", status)
	}
	if n := countOrders(t, e, e.guest.ID); n != 1 {
		t.Errorf("%d orders, want 1", n)
	}
	// A refused attempt frees its key, so the corrected retry works.
	e.do("PUT", "/api/bar/stock/lime%20juice", e.bTok, map[string]bool{"inStock": false})
	retry := map[string]any{"items": []any{one("margarita")}}
	if status, raw := e.do("POST", "/api/orders", e.gTok, retry, "Idempotency-Key", "later"); status != 409 {
		t.Fatalf("margarita without lime: %d %s", status, raw)
	}
	e.do("PUT", "/api/bar/stock/lime%20juice", e.bTok, map[string]bool{"inStock": true})
	if status, raw := e.do("POST", "/api/orders", e.gTok, retry, "Idempotency-Key", "later"); status != 201 {
		t.Errorf("same key after the refusal: %d %s", status, raw)
	}
}

// TestIdempotencyConcurrent sends twenty retries of one order at once:
// exactly one order exists afterwards and every answer names it.
func TestIdempotencyConcurrent(t *testing.T) {
	e := newBarEnv(t)
	barEvents := listen(t, e.hub, live.TopicBar)
	body := map[string]any{"items": []any{one("paloma")}}
	for range 3 {
		id := retryAtOnce(t, []*testEnv{e.testEnv}, e.gTok, body, newKey(), 20)
		e.move(id, "start", 200) // keep under the open-order limit
	}
	if n := countOrders(t, e, e.guest.ID); n != 3 {
		t.Errorf("%d orders after 3 rounds of 20 retries, want 3", n)
	}
	if n := len(barEvents.named(t, "order.placed")); n != 3 {
		t.Errorf("%d order.placed events, want 3", n)
	}
}

// retryAtOnce sends n copies of one order with one Idempotency-Key at
// once, copy i to envs[i%len(envs)] (one instance, or several sharing a
// database), and fails unless exactly one answer says created and every
// answer names the same order, whose id it returns.
func retryAtOnce(t *testing.T, envs []*testEnv, tok string, body any, key string, n int) string {
	t.Helper()
	statuses := make([]int, n)
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		e := envs[i%len(envs)]
		wg.Go(func() {
			status, raw := e.do("POST", "/api/orders", tok, body, "Idempotency-Key", key)
			var v orderView
			if status < 300 {
				decodeInto(t, raw, &v)
			}
			statuses[i], ids[i] = status, v.ID
		})
	}
	wg.Wait()
	created := 0
	for i, status := range statuses {
		switch status {
		case 201:
			created++
		case 200:
		default:
			t.Errorf("retry %d: %d", i, status)
		}
		if ids[i] != ids[0] {
			t.Errorf("answers name orders %s and %s", ids[0], ids[i])
		}
	}
	if created != 1 {
		t.Errorf("%d answers said created, want 1", created)
	}
	return ids[0]
}

func TestOpenOrderLimit(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Bar.MaxOpenOrders = 2 })
	a := e.order(e.gTok, 201, one("negroni"))
	e.order(e.gTok, 201, one("mojito"))
	status, raw := e.do("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("paloma")}}, "Idempotency-Key", newKey())
	if status != 409 || errorCode(t, raw) != "open_order_limit" || !strings.Contains(string(raw), "2 orders waiting") {
		t.Fatalf("third open order: %d %s", status, raw)
	}
	// Ready orders no longer count.
	e.move(a.ID, "start", 200)
	e.move(a.ID, "ready", 200)
	e.order(e.gTok, 201, one("paloma"))

	// Concurrent placements with different keys still respect it.
	g := e.addGuest(guest.Guest{FirstName: "Quick"})
	tok := e.tokenFor(g)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.do("POST", "/api/orders", tok, map[string]any{"items": []any{one("daiquiri")}}, "Idempotency-Key", newKey())
		}()
	}
	wg.Wait()
	if n := countOrders(t, e, g.ID); n != 2 {
		t.Errorf("%d orders from 6 concurrent taps, want the limit of 2", n)
	}
}

func TestEditAndCancelWhileQueued(t *testing.T) {
	e := newBarEnv(t)
	barEvents := listen(t, e.hub, live.TopicBar)
	v := e.order(e.gTok, 201, one("negroni"))

	status, raw := e.do("PATCH", "/api/orders/"+v.ID, e.gTok, map[string]any{"items": []any{map[string]any{"drinkId": "boulevardier", "qty": 2}}, "version": 1})
	var edited orderView
	decodeInto(t, raw, &edited)
	if status != 200 || edited.Version != 2 || len(edited.Items) != 1 || edited.Items[0].Name != "Boulevardier" || edited.Items[0].Qty != 2 ||
		len(edited.History) != 2 || edited.History[1].Reason != "items changed" || edited.Position != 1 {
		t.Fatalf("edit %d: %s", status, raw)
	}
	if status, raw := e.do("PATCH", "/api/orders/"+v.ID, e.gTok, map[string]any{"items": []any{one("negroni")}, "version": 1}); status != 409 || errorCode(t, raw) != "order_changed" {
		t.Errorf("edit from a stale screen: %d %s", status, raw)
	}
	other := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Oz"}))
	if status, _ := e.do("PATCH", "/api/orders/"+v.ID, other, map[string]any{"items": []any{one("negroni")}}); status != 404 {
		t.Errorf("someone else's edit: %d", status)
	}
	if status, _ := e.do("POST", "/api/orders/"+v.ID+"/cancel", other, nil); status != 404 {
		t.Errorf("someone else's cancel: %d", status)
	}

	status, raw = e.do("POST", "/api/orders/"+v.ID+"/cancel", e.gTok, nil)
	var cancelled orderView
	decodeInto(t, raw, &cancelled)
	last := cancelled.History[len(cancelled.History)-1]
	if status != 200 || cancelled.Status != order.Cancelled || cancelled.Version != 3 || last.From != order.Queued || last.Reason != "cancelled by the guest" {
		t.Fatalf("cancel %d: %s", status, raw)
	}
	if status, raw := e.do("POST", "/api/orders/"+v.ID+"/cancel", e.gTok, nil); status != 409 || errorCode(t, raw) != "illegal_transition" {
		t.Errorf("cancel twice: %d %s", status, raw)
	}

	// Once the bar has started, the guest can neither edit nor cancel.
	w := e.order(e.gTok, 201, one("mojito"))
	e.move(w.ID, "start", 200)
	if status, raw := e.do("POST", "/api/orders/"+w.ID+"/cancel", e.gTok, map[string]string{"reason": "nul\x00"}); status != 400 || errorCode(t, raw) != "invalid_reason" {
		t.Errorf("cancel with a NUL in the reason: %d %s", status, raw)
	}
	status, raw = e.do("POST", "/api/orders/"+w.ID+"/cancel", e.gTok, map[string]string{"reason": "changed my mind"})
	if status != 409 || !strings.Contains(string(raw), "ask the bartender") {
		t.Errorf("cancel while preparing: %d %s", status, raw)
	}
	if status, raw := e.do("PATCH", "/api/orders/"+w.ID, e.gTok, map[string]any{"items": []any{one("negroni")}}); status != 409 || errorCode(t, raw) != "illegal_transition" {
		t.Errorf("edit while preparing: %d %s", status, raw)
	}
	if n := len(barEvents.named(t, "order.updated")); n != 1 {
		t.Errorf("%d order.updated events, want 1", n)
	}
	if n := len(barEvents.named(t, "order.cancelled")); n != 1 {
		t.Errorf("%d order.cancelled events, want 1", n)
	}
}

func TestAllergenConfirmation(t *testing.T) {
	e := newBarEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Eve", Dietary: guest.Dietary{Text: "Allergic to egg"}})
	tok := e.tokenFor(g)
	key := newKey()
	status, raw := e.do("POST", "/api/orders", tok, map[string]any{"items": []any{one("whiskey-sour"), one("daiquiri")}}, "Idempotency-Key", key)
	if status != 422 || errorCode(t, raw) != "allergen_confirmation_required" ||
		!strings.Contains(string(raw), "Whiskey Sour contains eggs") || !strings.Contains(string(raw), `"allergens":["eggs"]`) {
		t.Fatalf("unconfirmed: %d %s", status, raw)
	}
	// Confirming with the same key works: the refusal freed it.
	status, raw = e.do("POST", "/api/orders", tok, map[string]any{"items": []any{one("whiskey-sour"), one("daiquiri")}, "confirmAllergens": true}, "Idempotency-Key", key)
	var v orderView
	decodeInto(t, raw, &v)
	if status != 201 || strings.Join(v.AllergensConfirmed, ",") != "eggs" {
		t.Errorf("confirmed: %d %s", status, raw)
	}
	// Drinks without a match need nothing.
	e.order(tok, 201, one("negroni"))
}

func TestPaceCap(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Bar.DrinksPerHour = 4 })
	// Negroni 1.9 each: two fit in 4, a third does not.
	e.order(e.gTok, 201, order.ItemInput{DrinkID: "negroni", Qty: 2})
	status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("negroni")}}, "Idempotency-Key", newKey())
	if status != 429 || errorCode(t, raw) != "pace_yourself" || !strings.Contains(string(raw), "about 3.8 standard drinks in the last hour") ||
		!strings.Contains(string(raw), "something alcohol-free") || hdr.Get("Retry-After") == "" {
		t.Fatalf("over the cap: %d %s (Retry-After %q)", status, raw, hdr.Get("Retry-After"))
	}
	// Alcohol-free always goes through.
	e.order(e.gTok, 201, one("virgin-mojito"))
	// One order above the cap on its own gets its own message.
	g := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Big"}))
	status, raw = e.do("POST", "/api/orders", g, map[string]any{"items": []any{map[string]any{"drinkId": "old-fashioned", "qty": 2}}}, "Idempotency-Key", newKey())
	if status != 422 || errorCode(t, raw) != "pace_yourself" || !strings.Contains(string(raw), "order fewer at a time") {
		t.Errorf("one big order: %d %s", status, raw)
	}
	// Cancelled orders do not count.
	e2 := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Cal"}))
	c := e.order(e2, 201, order.ItemInput{DrinkID: "negroni", Qty: 2})
	e.do("POST", "/api/orders/"+c.ID+"/cancel", e2, nil)
	e.order(e2, 201, order.ItemInput{DrinkID: "negroni", Qty: 2})
}

func TestPaceCapOffByDefault(t *testing.T) {
	e := newBarEnv(t)
	for range 3 {
		e.order(e.gTok, 201, order.ItemInput{DrinkID: "old-fashioned", Qty: 5})
	}
}

func TestQueuePositionAndEstimate(t *testing.T) {
	e := newBarEnv(t)
	// Measured preparation times: 60 s and 100 s → median 80 s.
	ctx := context.Background()
	for i, d := range []time.Duration{60 * time.Second, 100 * time.Second} {
		started := time.Now().Add(-time.Hour).UTC().Truncate(time.Millisecond)
		if err := e.store.RecordPrepTime(ctx, "past"+string(rune('a'+i)), started, started.Add(d)); err != nil {
			t.Fatal(err)
		}
	}
	others := make([]string, 3)
	for i := range others {
		others[i] = e.tokenFor(e.addGuest(guest.Guest{FirstName: "O" + string(rune('a'+i))}))
	}
	a := e.order(others[0], 201, one("negroni"))
	e.order(others[1], 201, one("mojito"))
	e.order(others[2], 201, one("paloma"))
	mine := e.order(e.gTok, 201, one("daiquiri"))
	if mine.Position != 4 || *mine.EstimateSeconds != 320 {
		t.Errorf("4th in the queue: position %d estimate %v s, want 4 and 320", mine.Position, *mine.EstimateSeconds)
	}
	e.move(a.ID, "start", 200)
	_, raw := e.do("GET", "/api/orders", e.gTok, nil)
	var list ordersResponse
	decodeInto(t, raw, &list)
	// One preparing, two queued ahead: three rounds of 80 s.
	if len(list.Orders) != 1 || list.Orders[0].Position != 4 || *list.Orders[0].EstimateSeconds != 240 {
		t.Errorf("after one started: %s", raw)
	}
	e.move(a.ID, "ready", 200)
	_, raw = e.do("GET", "/api/orders/"+a.ID, others[0], nil)
	var ready orderView
	decodeInto(t, raw, &ready)
	if ready.Status != order.Ready || ready.Position != 0 || ready.EstimateSeconds != nil {
		t.Errorf("a ready order has no place in the queue: %s", raw)
	}
	_, raw = e.do("GET", "/api/bar/queue", e.bTok, nil)
	var q barQueueResponse
	decodeInto(t, raw, &q)
	// a's own preparation (seconds here) is too short to count as a sample.
	if len(q.Orders) != 4 || q.Orders[0].ID != a.ID || q.Counts.Queued != 3 || q.Counts.Ready != 1 || q.Counts.Served != 0 || q.TypicalPrepSeconds != 80 {
		t.Errorf("bar queue: %d orders, counts %+v, typical %d s", len(q.Orders), q.Counts, q.TypicalPrepSeconds)
	}
}

// TestIdempotencyBeforeDerivedIDs: an order placed before order ids came
// from their keys has an idempotency record instead; a retry of it (a
// phone retrying across an upgrade) still gets that order, not a second.
func TestIdempotencyBeforeDerivedIDs(t *testing.T) {
	ctx := context.Background()
	e := newBarEnv(t)
	body := order.Request{Items: []order.ItemInput{one("daiquiri")}}
	req, err := body.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	old := order.Order{ID: store.NewID(), GuestID: e.guest.ID, GuestName: "Ada", Items: []order.Item{{DrinkID: "daiquiri", Name: "Daiquiri", Qty: 1}},
		Status: order.Queued, Version: 1, IdempotencyKey: "old-key", CreatedAt: now, UpdatedAt: now}
	if err := e.store.CreateOrder(ctx, &old); err != nil {
		t.Fatal(err)
	}
	rec := store.IdempotencyRecord{ID: store.IdempotencyID(e.guest.ID, "old-key"), GuestID: e.guest.ID, BodyHash: req.Hash(), OrderID: old.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := e.store.ReserveIdempotencyKey(ctx, rec); err != nil {
		t.Fatal(err)
	}
	status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, body, "Idempotency-Key", "old-key")
	var v orderView
	decodeInto(t, raw, &v)
	if status != 200 || v.ID != old.ID || hdr.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry of an order placed with a record: %d %s, want 200 and order %s", status, raw, old.ID)
	}
	if status, raw := e.do("POST", "/api/orders", e.gTok, order.Request{Items: []order.ItemInput{one("mojito")}}, "Idempotency-Key", "old-key"); status != 422 || errorCode(t, raw) != "idempotency_key_reused" {
		t.Errorf("the old key with another order: %d %s", status, raw)
	}
	if n := countOrders(t, e, e.guest.ID); n != 1 {
		t.Errorf("%d orders, want 1", n)
	}
}
