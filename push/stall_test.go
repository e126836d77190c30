package push_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/push/pushtest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// TestStalledGuestsDoNotDelayReady is the attack of issue 21 against the
// default sender: guests whose devices hang (here ten guests with ten
// devices each, every request held open until the sender gives up; each
// guest notified four times, as four recommendations would) and then
// another guest's "your drink is ready". Ada's notification must arrive
// within a second, and before any hung request has ended: it did not wait
// for a sender to be freed by the timeout. The stalled guests never held
// more than their share of the senders (two each).
func TestStalledGuestsDoNotDelayReady(t *testing.T) {
	const stalledGuests, devicesEach, notificationsEach, share = 10, store.MaxPushDevices, 4, 2
	ctx := context.Background()
	st := storetest.New(t)
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	keys, err := st.VAPIDKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	svc.VAPIDKey = keys.Public

	subscribe := func(guestID string, d *pushtest.Device) {
		t.Helper()
		k := d.Subscription()["keys"].(map[string]string)
		if err := st.SavePushDevice(ctx, guestID, store.PushDevice{Endpoint: d.Endpoint, P256dh: k["p256dh"], Auth: k["auth"], CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	began := time.Now()
	var stalled []string
	for g := range stalledGuests {
		id := fmt.Sprintf("mallory-%d", g)
		stalled = append(stalled, id)
		for range devicesEach {
			d := svc.NewDevice()
			d.Stall()
			subscribe(id, d)
		}
	}
	phone := svc.NewDevice()
	subscribe("ada", phone)
	t.Logf("%d devices stored in %s", stalledGuests*devicesEach+1, time.Since(began).Round(time.Millisecond))

	// The defaults a server runs with, but for the policy that lets the
	// sender reach the test service.
	reg := prometheus.NewRegistry()
	s := push.New(st, push.Config{Keys: keys, Contact: "host@party.test", Policy: svc.Policy(), RootCAs: svc.RootCAs()}, quiet, reg)
	run(t, s)
	for range notificationsEach {
		for _, id := range stalled {
			s.Notify(id, push.Notification{Kind: "recommendation.ready", Title: "The bartender has picked drinks for you"})
		}
	}
	// Wait until every stalled guest holds its share of the senders.
	deadline := time.Now().Add(20 * time.Second)
	for {
		held, _, _ := svc.Held()
		if held >= stalledGuests*share {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests held after 20s, want %d", held, stalledGuests*share)
		}
		time.Sleep(5 * time.Millisecond)
	}

	start := time.Now()
	s.Notify("ada", push.Notification{Kind: "order.ready", Title: "Your drink is ready"})
	if _, err := phone.Wait(1, time.Second); err != nil {
		t.Fatalf("ada's ready behind stalled guests: %v", err)
	}
	t.Logf("ada's ready arrived %s after it was queued, behind %d hung requests", time.Since(start).Round(time.Millisecond), stalledGuests*share)
	held, most, released := svc.Held()
	if released != 0 {
		t.Errorf("%d hung requests had ended when ada's arrived: it waited for the timeout", released)
	}
	if most > stalledGuests*share || held != stalledGuests*share {
		t.Errorf("stalled guests held %d senders at most, %d now; want %d (%d each)", most, held, stalledGuests*share, share)
	}
	if errs := svc.Errors(); len(errs) > 0 {
		t.Fatalf("push service saw protocol errors: %v", errs)
	}
}
