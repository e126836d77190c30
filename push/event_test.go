package push_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store/storetest"
)

// TestNotificationSaysItsEvent: with more than one event, a guest of two
// must know which bar calls. The title starts with the event's name and
// the payload carries its id, so the app opens that event; with one event
// (no name) nothing changes.
func TestNotificationSaysItsEvent(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, id, eventName, title, event string
	}{
		{"one event", "", "", "Your drink is ready (#7)", ""},
		{"several", "6b11aa00ff00ee00dd00cc00", "Wedding", "Wedding · Your drink is ready (#7)", "6b11aa00ff00ee00dd00cc00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := storetest.New(t)
			svc, keys := pushService(t, st)
			event := func(context.Context) (string, string) { return tc.id, tc.eventName }
			s := push.New(st, push.Config{Keys: keys, Contact: "host@party.test", Policy: svc.Policy(), RootCAs: svc.RootCAs(), Event: event}, quiet, prometheus.NewRegistry())
			run(t, s)
			g := guest.Guest{FirstName: "Ada", LastName: "Two"}
			if err := st.InsertGuest(ctx, &g); err != nil {
				t.Fatal(err)
			}
			phone := subscribePhone(t, st, svc, g.ID)
			ready := map[string]any{"id": "o1", "guestId": g.ID, "status": "ready", "ticket": 7, "items": []map[string]any{{"name": "Mojito", "qty": 1}}}
			if err := push.Forward(nopPublisher{}, s).Publish(ctx, "guest:"+g.ID, "order.ready", ready); err != nil {
				t.Fatal(err)
			}
			msgs, err := phone.Wait(1, 20*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var n push.Notification
			if err := json.Unmarshal(msgs[0].Payload, &n); err != nil {
				t.Fatal(err)
			}
			if n.Title != tc.title || n.Event != tc.event {
				t.Errorf("the phone shows %q for event %q, want %q for %q", n.Title, n.Event, tc.title, tc.event)
			}
		})
	}
}
