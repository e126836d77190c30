package store_test

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// nightOrders stores a small night: six orders, four of them served
// (three archived the way the bar archives them, one left among the open
// ones as after a crash between the two writes), one cancelled, one queued.
func nightOrders(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	item := func(id string, n int) order.Item { return order.Item{DrinkID: id, Name: id, Qty: n} }
	at := func(m int) *time.Time { v := t0.Add(time.Duration(m) * time.Minute); return &v }
	type row struct {
		id, guest, bartender string
		items                []order.Item
		status               order.Status
		servedAt             *time.Time
	}
	for i, r := range []row{
		{"n1", "ann", "bo", []order.Item{item("mojito", 2)}, order.Served, at(10)},
		{"n2", "bea", "bo", []order.Item{item("mojito", 1), item("spritz", 1)}, order.Served, at(70)},
		{"n3", "ann", "cy", []order.Item{item("spritz", 3)}, order.Served, at(95)},
		{"n4", "cid", "cy", []order.Item{item("negroni", 1)}, order.Cancelled, nil},
		{"n5", "bea", "", []order.Item{item("mojito", 1)}, order.Queued, nil},
	} {
		created := t0.Add(time.Duration(i) * time.Minute)
		o := order.Order{ID: r.id, GuestID: r.guest, GuestName: r.guest, Items: r.items, Status: order.Queued, Version: 1,
			CreatedAt: created, UpdatedAt: created,
			History: []order.Transition{{To: order.Queued, At: created, ActorID: r.guest}}}
		if err := s.CreateOrder(ctx, &o); err != nil {
			t.Fatal(err)
		}
		if r.status == order.Queued {
			continue
		}
		next := o
		next.Status, next.Version, next.ServedAt = r.status, 2, r.servedAt
		next.History = append(slices.Clone(o.History), order.Transition{From: order.Queued, To: r.status, At: created, ActorID: r.bartender})
		if err := s.ReplaceOrder(ctx, next, 1); err != nil {
			t.Fatal(err)
		}
	}
	// Served, still open: archived copy missing.
	o := order.Order{ID: "n6", GuestID: "cid", GuestName: "cid", Items: []order.Item{item("negroni", 2)}, Status: order.Served, Version: 3,
		CreatedAt: t0.Add(6 * time.Minute), UpdatedAt: t0.Add(6 * time.Minute), ServedAt: at(100),
		History: []order.Transition{{To: order.Served, At: t0, ActorID: "bo"}}}
	if err := s.CreateOrder(ctx, &o); err != nil {
		t.Fatal(err)
	}
}

func TestServedGlasses(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	nightOrders(t, s)
	all, err := s.ServedGlasses(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// The cancelled negroni and the queued mojito count for nothing.
	if want := map[string]int{"mojito": 3, "spritz": 4, "negroni": 2}; !reflect.DeepEqual(all, want) {
		t.Errorf("served %v, want %v", all, want)
	}
	// Since 21:00: n2 (21:10), n3 (21:35), n6 (21:40).
	hour, err := s.ServedGlasses(ctx, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"mojito": 1, "spritz": 4, "negroni": 2}; !reflect.DeepEqual(hour, want) {
		t.Errorf("served since 21:00 %v, want %v", hour, want)
	}
}

func TestReportOrdersAndFilters(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	nightOrders(t, s)
	orders, more, err := s.ReportOrders(ctx)
	if err != nil || more {
		t.Fatal(err, more)
	}
	var ids []string
	for _, o := range orders {
		ids = append(ids, o.ID)
	}
	if want := []string{"n6", "n5", "n4", "n3", "n2", "n1"}; !slices.Equal(ids, want) {
		t.Errorf("report orders %v, want %v (newest first)", ids, want)
	}
	for _, c := range []struct {
		f    store.OrderFilter
		want []string
	}{
		{store.OrderFilter{DrinkID: "mojito"}, []string{"n5", "n2", "n1"}},
		{store.OrderFilter{ActorID: "cy"}, []string{"n4", "n3"}},
		{store.OrderFilter{ActorID: "bo", Status: order.Served}, []string{"n6", "n2", "n1"}},
		{store.OrderFilter{GuestID: "bea", DrinkID: "spritz"}, []string{"n2"}},
	} {
		c.f.Limit = 50
		list, total, err := s.ListOrders(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range list {
			got = append(got, o.ID)
		}
		if !slices.Equal(got, c.want) || total != len(c.want) {
			t.Errorf("%+v: %v (total %d), want %v", c.f, got, total, c.want)
		}
	}
}
