package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// views is the order view kept by this process's own moves only, as a
// single instance without a hub keeps it.
type views struct {
	st   *store.Store
	once sync.Once
	v    *order.View
	err  error
}

func (w *views) View(ctx context.Context) (*order.View, error) {
	w.once.Do(func() {
		w.v = order.NewView()
		orders, err := w.st.BarQueue(ctx)
		w.err = err
		w.v.Correct(orders, time.Now())
	})
	return w.v, w.err
}

func (w *views) Apply(o order.Order) {
	if v, err := w.View(context.Background()); err == nil {
		v.Apply(o)
	}
}

func (w *views) Corrected(orders []order.Order, started time.Time) {
	if v, err := w.View(context.Background()); err == nil {
		v.Correct(orders, started)
	}
}

// published records the live events sent.
type published struct {
	mu     sync.Mutex
	events []string
}

func (p *published) Publish(_ context.Context, topic, event string, _ any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, topic+" "+event)
	return nil
}

func (p *published) count(topicEvent string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, e := range p.events {
		if e == topicEvent {
			n++
		}
	}
	return n
}

// kit is the menu, ordering and the bar on a fresh store with the
// starter menu.
type kit struct {
	st     *store.Store
	menu   *app.Menu
	bar    *app.Bar
	orders *app.Orders
	events *published
}

func newKit(t *testing.T, limits app.OrderLimits) *kit {
	t.Helper()
	st := storetest.New(t)
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
	log := slog.New(slog.DiscardHandler)
	pub := &published{}
	v := &views{st: st}
	m := app.NewMenu(app.MenuDeps{Store: st, Publish: pub, Logger: log})
	b := app.NewBar(app.BarDeps{Store: st, Views: v, Publish: pub, Logger: log})
	o := app.NewOrders(app.OrdersDeps{Store: st, Menu: m, Bar: b, Views: v, Limits: limits, Logger: log})
	return &kit{st: st, menu: m, bar: b, orders: o, events: pub}
}

func (k *kit) guest(t *testing.T, g guest.Guest) app.Who {
	t.Helper()
	if g.LastName == "" {
		g.LastName = "Guest"
	}
	if err := k.st.CreateGuest(context.Background(), &g); err != nil {
		t.Fatal(err)
	}
	return app.Who{GuestID: g.ID, Name: g.FirstName + " " + g.LastName}
}

func request(items ...order.ItemInput) order.Request {
	req, err := order.Request{Items: items}.Normalize()
	if err != nil {
		panic(err)
	}
	return req
}

func item(drinkID string, qty int) order.ItemInput {
	return order.ItemInput{DrinkID: drinkID, Qty: qty}
}

// appError returns err as an *app.Error, failing the test otherwise.
func appError(t *testing.T, err error) *app.Error {
	t.Helper()
	var e *app.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *app.Error", err, err)
	}
	return e
}

func TestPlaceIsIdempotent(t *testing.T) {
	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	ada := k.guest(t, guest.Guest{FirstName: "Ada"})
	first, replayed, err := k.orders.Place(ctx, ada, request(item("negroni", 1)), "key-1")
	if err != nil || replayed {
		t.Fatalf("place: %v (replayed %v)", err, replayed)
	}
	if first.Ticket != 1 || first.Status != order.Queued || first.Version != 1 || first.GuestName != "Ada Guest" {
		t.Errorf("placed %+v", first)
	}
	again, replayed, err := k.orders.Place(ctx, ada, request(item("negroni", 1)), "key-1")
	if err != nil || !replayed || again.ID != first.ID {
		t.Fatalf("retry: %v, replayed %v, id %s want %s", err, replayed, again.ID, first.ID)
	}
	_, _, err = k.orders.Place(ctx, ada, request(item("mojito", 1)), "key-1")
	if e := appError(t, err); e.Kind != app.Unprocessable || e.Code != "idempotency_key_reused" {
		t.Errorf("same key, other order: %v", err)
	}
	if n := k.events.count(live.TopicBar + " order.placed"); n != 1 {
		t.Errorf("%d order.placed events on the bar, want 1", n)
	}
	views, err := k.orders.Mine(ctx, ada.GuestID)
	if err != nil || len(views) != 1 || views[0].Position != 1 || views[0].EstimateSeconds == nil {
		t.Fatalf("mine: %v %+v", err, views)
	}
}

func TestPlaceRefusals(t *testing.T) {
	k := newKit(t, app.OrderLimits{MaxOpenOrders: 2, DrinksPerHour: 4})
	ctx := context.Background()
	ada := k.guest(t, guest.Guest{FirstName: "Ada"})
	eve := k.guest(t, guest.Guest{FirstName: "Eve", Dietary: guest.Dietary{Text: "Allergic to egg"}})
	big := k.guest(t, guest.Guest{FirstName: "Big"})
	sip := k.guest(t, guest.Guest{FirstName: "Sip"})
	for i, key := range []string{"a", "b"} {
		if _, _, err := k.orders.Place(ctx, ada, request(item("virgin-mojito", 1)), key); err != nil {
			t.Fatalf("order %d: %v", i, err)
		}
	}
	// Negroni 1.9 each: two fit in 4, a third does not.
	if _, _, err := k.orders.Place(ctx, sip, request(item("negroni", 2)), "n1"); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		who  app.Who
		req  order.Request
		kind app.Kind
		code string
		is   error
		msg  string
	}{
		{"open-order limit", ada, request(item("virgin-mojito", 1)), app.LimitReached, "open_order_limit", app.ErrLimitReached, "you already have 2 orders waiting"},
		{"pace", sip, request(item("negroni", 1)), app.TooMany, "pace_yourself", app.ErrTooMany, "about 3.8 standard drinks in the last hour"},
		{"one order over the pace", big, request(item("old-fashioned", 2)), app.Unprocessable, "pace_yourself", app.ErrUnprocessable, "order fewer at a time"},
		{"allergen not confirmed", eve, request(item("whiskey-sour", 1), item("daiquiri", 1)), app.Unprocessable, "allergen_confirmation_required", app.ErrAllergenConfirmation, "Whiskey Sour contains eggs"},
		{"unknown drink", big, request(item("no-such-drink", 1)), app.Unprocessable, "unknown_drink", app.ErrUnprocessable, `there is no drink "no-such-drink"`},
		{"unknown person", big, request(order.ItemInput{DrinkID: "negroni", Qty: 1, For: "+3"}), app.Unprocessable, "unknown_person", app.ErrUnprocessable, "is not someone on your invitation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := k.orders.Place(ctx, tt.who, tt.req, "refused-"+tt.name)
			e := appError(t, err)
			if e.Kind != tt.kind || e.Code != tt.code || !errors.Is(err, tt.is) || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("got %v (kind %d), want kind %d code %s with %q", err, e.Kind, tt.kind, tt.code, tt.msg)
			}
			if tt.kind == app.TooMany && (e.RetryAfter <= 0 || e.RetryAfter > time.Hour) {
				t.Errorf("RetryAfter %v, want within the hour", e.RetryAfter)
			}
		})
	}

	// Confirming the allergen places the order, with the key the refusal
	// left free.
	req := request(item("whiskey-sour", 1), item("daiquiri", 1))
	req.ConfirmAllergens = true
	o, _, err := k.orders.Place(ctx, eve, req, "refused-allergen not confirmed")
	if err != nil || strings.Join(o.AllergensConfirmed, ",") != "eggs" {
		t.Errorf("confirmed: %v %+v", err, o.AllergensConfirmed)
	}
	// A ready order no longer counts toward the limit.
	mine, err := k.orders.Mine(ctx, ada.GuestID)
	if err != nil {
		t.Fatal(err)
	}
	bea := app.Who{GuestID: "bartender", Name: "Bea Bar"}
	for _, a := range []order.Action{order.Start, order.MarkReady} {
		if _, err := k.bar.Move(ctx, bea, mine[0].ID, a, "", 0); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if _, _, err := k.orders.Place(ctx, ada, request(item("virgin-mojito", 1)), "c"); err != nil {
		t.Errorf("after one is ready: %v", err)
	}
}

func TestMovesAndVersions(t *testing.T) {
	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	ada := k.guest(t, guest.Guest{FirstName: "Ada"})
	bea := app.Who{GuestID: "bartender", Name: "Bea Bar"}
	o, _, err := k.orders.Place(ctx, ada, request(item("negroni", 1)), "k")
	if err != nil {
		t.Fatal(err)
	}
	edited, err := k.orders.Edit(ctx, ada, o.ID, request(item("boulevardier", 2)), 1)
	if err != nil || edited.Version != 2 || edited.Items[0].Name != "Boulevardier" {
		t.Fatalf("edit: %v %+v", err, edited)
	}
	// A screen that showed version 1 is behind.
	_, err = k.orders.Edit(ctx, ada, o.ID, request(item("negroni", 1)), 1)
	if e := appError(t, err); e.Code != "order_changed" || !errors.Is(err, app.ErrConflict) {
		t.Errorf("stale edit: %v", err)
	}
	_, err = k.bar.Move(ctx, bea, o.ID, order.Start, "", 1)
	if e := appError(t, err); e.Code != "order_changed" || !strings.Contains(e.Message, "(now queued)") {
		t.Errorf("stale move: %v", err)
	}
	started, err := k.bar.Move(ctx, bea, o.ID, order.Start, "", 2)
	if err != nil || started.Status != order.Preparing || started.StartedAt == nil || started.Version != 3 {
		t.Fatalf("start: %v %+v", err, started)
	}
	// Too late for the guest to change their mind.
	_, err = k.orders.Cancel(ctx, ada, o.ID, "")
	if e := appError(t, err); e.Code != "illegal_transition" || e.Kind != app.Conflict {
		t.Errorf("cancel while preparing: %v", err)
	}
	_, err = k.bar.Move(ctx, bea, o.ID, order.Serve, "", 0)
	if e := appError(t, err); e.Code != "illegal_transition" {
		t.Errorf("serve before ready: %v", err)
	}
	_, err = k.orders.Own(ctx, "someone-else", o.ID)
	if e := appError(t, err); e.Kind != app.NotFound {
		t.Errorf("someone else's order: %v", err)
	}
	_, err = k.bar.Move(ctx, bea, "no-such-order", order.Start, "", 0)
	if e := appError(t, err); e.Kind != app.NotFound || e.Message != "there is no such order" {
		t.Errorf("no such order: %v", err)
	}

	// Two bartenders pressing the same button at once: one move.
	var wg sync.WaitGroup
	results := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := k.bar.Move(ctx, bea, o.ID, order.MarkReady, "", 0)
			results <- err
		}()
	}
	wg.Wait()
	close(results)
	ok, conflicts := 0, 0
	for err := range results {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, app.ErrConflict):
			conflicts++
		default:
			t.Errorf("ready: %v", err)
		}
	}
	if ok != 1 || conflicts != 3 {
		t.Errorf("%d moves and %d conflicts, want 1 and 3", ok, conflicts)
	}
	q, err := k.bar.Queue(ctx)
	if err != nil || len(q.Orders) != 1 || q.Counts.Ready != 1 || q.Counts.Open != 1 {
		t.Errorf("queue: %v %+v", err, q)
	}
}

func TestCancelByTheGuest(t *testing.T) {
	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	ada := k.guest(t, guest.Guest{FirstName: "Ada"})
	o, _, err := k.orders.Place(ctx, ada, request(item("negroni", 1)), "k")
	if err != nil {
		t.Fatal(err)
	}
	c, err := k.orders.Cancel(ctx, ada, o.ID, "")
	last := c.History[len(c.History)-1]
	if err != nil || c.Status != order.Cancelled || last.Reason != "cancelled by the guest" || last.ActorName != "Ada Guest" {
		t.Fatalf("cancel: %v %+v", err, c)
	}
	if n := k.events.count(live.TopicBar + " order.cancelled"); n != 1 {
		t.Errorf("%d order.cancelled events, want 1", n)
	}
}

func newPrefix() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
