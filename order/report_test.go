package order

import (
	"reflect"
	"testing"
	"time"
)

// night makes an order with its history: placed at 0, then each step
// min minutes after 20:00 UTC by actor.
func night(id, guestID, guestName string, items []Item, steps ...any) Order {
	base := time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)
	o := Order{ID: id, GuestID: guestID, GuestName: guestName, Items: items, Status: Queued, CreatedAt: base}
	o.History = []Transition{{To: Queued, At: base, ActorID: guestID, ActorName: guestName}}
	for i := 0; i+2 < len(steps); i += 3 {
		to, minutes, actor := steps[i].(Status), steps[i+1].(int), steps[i+2].(string)
		tr := Transition{From: o.Status, To: to, At: base.Add(time.Duration(minutes) * time.Minute), ActorID: "id-" + actor, ActorName: actor}
		if to == Cancelled {
			tr.Reason = "out of mint"
		}
		o.History = append(o.History, tr)
		o.Status = to
	}
	return o
}

func TestTimesOf(t *testing.T) {
	o := night("o1", "g1", "Ann", []Item{{DrinkID: "mojito", Name: "Mojito", Qty: 1}},
		Preparing, 2, "Bo", Ready, 5, "Bo", Preparing, 6, "Cy", Ready, 9, "Cy", Served, 12, "Cy")
	tm := TimesOf(o)
	at := func(m int) time.Time { return time.Date(2026, 12, 5, 20, m, 0, 0, time.UTC) }
	if !tm.Placed.Equal(at(0)) || !tm.Started.Equal(at(2)) || !tm.Ready.Equal(at(9)) || !tm.Served.Equal(at(12)) || tm.Cancelled != nil {
		t.Errorf("times %+v", tm)
	}
	// The recalled drink was made again by Cy: Cy made it.
	if tm.MadeBy != "Cy" || tm.MadeByID != "id-Cy" {
		t.Errorf("made by %q (%q), want Cy", tm.MadeBy, tm.MadeByID)
	}
	if p, ok := tm.Prep(); !ok || p != 7*time.Minute {
		t.Errorf("prep %v %v, want 7m", p, ok)
	}
	c := TimesOf(night("o2", "g1", "Ann", nil, Preparing, 1, "Bo", Cancelled, 3, "Bo"))
	if c.Cancelled == nil || c.CancelledBy != "Bo" || c.Reason != "out of mint" || c.MadeBy != "Bo" {
		t.Errorf("cancelled %+v", c)
	}
	if _, ok := c.Prep(); ok {
		t.Error("a cancelled order has no preparation time")
	}
}

func TestSummarise(t *testing.T) {
	mojito := func(n int) Item { return Item{DrinkID: "mojito", Name: "Mojito", Qty: n} }
	spritz := func(n int) Item { return Item{DrinkID: "spritz", Name: "Spritz", Qty: n} }
	orders := []Order{
		// Served at 20:10, 20:40, 21:05, 22:30 (UTC): prep 2, 4, 6, 10 min.
		night("a", "g1", "Ann", []Item{mojito(2)}, Preparing, 5, "Bo", Ready, 7, "Bo", Served, 10, "Bo"),
		night("b", "g2", "Bea", []Item{mojito(1), spritz(1)}, Preparing, 30, "Bo", Ready, 34, "Bo", Served, 40, "Bo"),
		night("c", "g1", "Ann", []Item{spritz(1)}, Preparing, 55, "Cy", Ready, 61, "Cy", Served, 65, "Cy"),
		night("d", "g3", "Cid", []Item{mojito(1)}, Preparing, 140, "Cy", Ready, 150, "Cy", Served, 150, "Cy"),
		night("e", "g3", "Cid", []Item{spritz(3)}, Cancelled, 1, "Bo"),
		night("f", "g2", "Bea", []Item{mojito(1)}, Preparing, 160, "Bo"),
	}
	r := Summarise(orders, time.UTC, false)
	if r.Orders != 6 || r.Served != 6 || r.Cancelled != 3 {
		t.Errorf("orders %d served %d cancelled %d, want 6 6 3", r.Orders, r.Served, r.Cancelled)
	}
	h := func(hour, n int) HourCount {
		return HourCount{Hour: time.Date(2026, 12, 5, hour, 0, 0, 0, time.UTC), Glasses: n}
	}
	// 22:00 has its own row; 21:00 holds c alone; 20:00 holds a and b.
	if want := []HourCount{h(20, 4), h(21, 1), h(22, 1)}; !reflect.DeepEqual(r.PerHour, want) {
		t.Errorf("per hour %+v, want %+v", r.PerHour, want)
	}
	// Mojito: a (2 min), b (4), d (10) → p50 4 min, p90 10 min.
	// Spritz: b (4), c (6) → p50 4 min, p90 6 min.
	want := []DrinkCount{
		{DrinkID: "mojito", Name: "Mojito", Glasses: 4, Timed: 3, PrepP50: 240, PrepP90: 600},
		{DrinkID: "spritz", Name: "Spritz", Glasses: 2, Timed: 2, PrepP50: 240, PrepP90: 360},
	}
	if !reflect.DeepEqual(r.PerDrink, want) {
		t.Errorf("per drink %+v, want %+v", r.PerDrink, want)
	}
	wantGuests := []GuestCount{{GuestID: "g1", Name: "Ann", Glasses: 3}, {GuestID: "g2", Name: "Bea", Glasses: 2}, {GuestID: "g3", Name: "Cid", Glasses: 1}}
	if !reflect.DeepEqual(r.PerGuest, wantGuests) {
		t.Errorf("per guest %+v, want %+v", r.PerGuest, wantGuests)
	}

	anon := Summarise(orders, time.UTC, true)
	if !anon.Anonymous || len(anon.PerGuest) != 3 || anon.PerGuest[0] != (GuestCount{Glasses: 3}) {
		t.Errorf("anonymous per guest %+v: no names, no ids, same counts", anon.PerGuest)
	}

	// In Stockholm (UTC+1) the same night is 21:00–23:00.
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	if got := Summarise(orders, sthlm, false).PerHour; len(got) != 3 || got[0].Hour.In(sthlm).Hour() != 21 || got[0].Glasses != 4 {
		t.Errorf("per hour in Stockholm %+v", got)
	}
}

func TestPercentile(t *testing.T) {
	for _, c := range []struct {
		in      []float64
		p, want float64
	}{
		{nil, 50, 0},
		{[]float64{7}, 90, 7},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 50, 5},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90, 9},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 90, 10},
	} {
		if got := Percentile(c.in, c.p); got != c.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.in, c.p, got, c.want)
		}
	}
}
