package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// e2eEvent is an event as the API lists it.
type e2eEvent struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Current  bool   `json:"current"`
	StartsAt *time.Time
}

type e2eEvents struct {
	Events []e2eEvent `json:"events"`
}

// switchTo trades c's token for one of event id and returns the client
// signed in there.
func switchTo(t *testing.T, c barClient, id string) barClient {
	t.Helper()
	var sw struct {
		Token string   `json:"token"`
		Role  string   `json:"role"`
		Event e2eEvent `json:"event"`
	}
	if status := c.call("POST", "/api/auth/switch", map[string]string{"event": id}, &sw); status != 200 || sw.Event.ID != id || !sw.Event.Current {
		t.Fatalf("switch to %s: %d %+v", id, status, sw)
	}
	c.token = sw.Token
	return c
}

// TestWeddingWeekend is the many-events flow through the binary, on the
// embedded database and on two instances over Redis: the host makes the
// wedding from the rehearsal dinner's guest list; a guest signs in once,
// sees both, answers each on its own, and orders at the wedding's bar;
// the rehearsal's bartender sees none of the wedding's queue, on HTTP or
// on the live socket, and the wedding's hears it at once.
func TestWeddingWeekend(t *testing.T) {
	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	var b [6]byte
	rand.Read(b[:])
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"one instance", nil},
		{"two instances over redis", map[string]string{"REDIS_URL": redisURL, "BARHUB_REDIS_PREFIX": "test-events-" + hex.EncodeToString(b[:])}},
	} {
		if tc.env != nil {
			tc.env["MONGODB_URI"] = startDB(t)
		}
		t.Run(tc.name, func(t *testing.T) {
			p := startBarParty(t, tc.env)
			admin := barClient{t: t, base: p.s.URL, token: p.admin.token}
			tomorrow := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Hour)
			if status := admin.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Rehearsal dinner", "timezone": "UTC",
				"eventDate": tomorrow.Format(time.RFC3339), "dressCode": "Smart casual"}, nil); status != 200 {
				t.Fatalf("settings: %d", status)
			}
			// Ada answers the rehearsal before the wedding exists.
			if status := p.guest.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 1}, nil); status != 200 {
				t.Fatalf("rehearsal RSVP: %d", status)
			}
			var wedding e2eEvent
			if status := admin.call("POST", "/api/admin/events", map[string]any{"name": "Wedding", "startsAt": tomorrow.Add(24 * time.Hour),
				"guests": true, "menu": true, "settings": true}, &wedding); status != 201 || wedding.Name != "Wedding" || wedding.ID == "" {
				t.Fatalf("new event: %d %+v", status, wedding)
			}
			var list e2eEvents
			admin.call("GET", "/api/admin/events", nil, &list)
			if len(list.Events) != 2 || list.Events[0].Name != "Rehearsal dinner" || list.Events[1].Name != "Wedding" || !list.Events[0].Current {
				t.Fatalf("the host's events: %+v", list.Events)
			}

			second := p.s
			if tc.env != nil {
				// A second instance on the same database and Redis: a
				// token of either event works on either instance, and
				// the sockets below are on the first.
				second = startServer(t, "", tc.env)
			}

			// One sign-in: Ada's code opens the next event, the rehearsal,
			// and she sees both.
			status, lr := login(t, second.URL, p.guestCode, p.guestLast)
			if status != 200 {
				t.Fatalf("guest sign-in: %d", status)
			}
			ada := barClient{t: t, base: second.URL, token: lr.Token, key: p.appKey}
			var mine e2eEvents
			if status := ada.call("GET", "/api/me/events", nil, &mine); status != 200 || len(mine.Events) != 2 || !mine.Events[0].Current || mine.Events[1].ID != wedding.ID {
				t.Fatalf("Ada's events: %d %+v", status, mine.Events)
			}
			var rsvp struct {
				Guest struct{ Status string } `json:"guest"`
				Event struct {
					EventName string `json:"eventName"`
					DressCode string `json:"dressCode"`
				} `json:"event"`
			}
			ada.call("GET", "/api/rsvp", nil, &rsvp)
			if rsvp.Guest.Status != "coming" || rsvp.Event.EventName != "Rehearsal dinner" {
				t.Fatalf("rehearsal RSVP as read: %+v", rsvp)
			}
			adaWed := switchTo(t, ada, wedding.ID)
			adaWed.call("GET", "/api/rsvp", nil, &rsvp)
			if rsvp.Guest.Status != "pending" || rsvp.Event.EventName != "Wedding" || rsvp.Event.DressCode != "Smart casual" {
				t.Fatalf("wedding RSVP before answering (answers reset, settings kept): %+v", rsvp)
			}
			if status := adaWed.call("PUT", "/api/rsvp", map[string]any{"status": "declined"}, nil); status != 200 {
				t.Fatalf("wedding RSVP: %d", status)
			}
			ada.call("GET", "/api/rsvp", nil, &rsvp)
			if rsvp.Guest.Status != "coming" {
				t.Fatalf("the wedding's answer changed the rehearsal's: %+v", rsvp)
			}
			adaWed.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 1}, nil)

			// Bea tends the rehearsal's bar and the wedding's.
			status, lr = login(t, second.URL, p.bartenderCode, p.barLast)
			if status != 200 || lr.Role != "bartender" {
				t.Fatalf("bartender sign-in: %d %+v", status, lr)
			}
			beaRehearsal := barClient{t: t, base: second.URL, token: lr.Token}
			beaWedding := switchTo(t, beaRehearsal, wedding.ID)
			rehearsalTablet := dialLive(t, rsvpClient{t: t, base: p.s.URL, token: beaRehearsal.token}, "bar")
			weddingTablet := dialLive(t, rsvpClient{t: t, base: p.s.URL, token: beaWedding.token}, "e:"+wedding.ID+":bar")
			adaPhone := dialLive(t, rsvpClient{t: t, base: p.s.URL, token: adaWed.token}, "e:"+wedding.ID+":guest:"+p.guestID)

			var o e2eOrder
			if status := adaWed.call("POST", "/api/orders", map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 1}}}, &o, "Idempotency-Key", "wedding-1"); status != 201 {
				t.Fatalf("order at the wedding: %d", status)
			}
			weddingTablet.next("order.placed", forOrder(o.ID, "queued"))
			var queue struct {
				Orders []e2eOrder `json:"orders"`
			}
			beaRehearsal.call("GET", "/api/bar/queue", nil, &queue)
			for _, q := range queue.Orders {
				if q.ID == o.ID {
					t.Fatalf("the rehearsal's queue holds the wedding's order %s", o.ID)
				}
			}
			if status := beaRehearsal.call("POST", "/api/bar/orders/"+o.ID+"/start", nil, nil); status != 404 {
				t.Errorf("the rehearsal's bartender starting the wedding's order: %d, want 404", status)
			}
			beaWedding.call("GET", "/api/bar/queue", nil, &queue)
			if len(queue.Orders) != 1 || queue.Orders[0].ID != o.ID {
				t.Fatalf("the wedding's queue: %+v", queue.Orders)
			}
			for _, action := range []string{"start", "ready"} {
				if status := beaWedding.call("POST", "/api/bar/orders/"+o.ID+"/"+action, nil, nil); status != 200 {
					t.Fatalf("%s at the wedding: %d", action, status)
				}
			}
			adaPhone.next("order.ready", forOrder(o.ID, "ready"))
			// The rehearsal's tablet heard nothing of it: an order of its
			// own, placed after, is the next thing it hears.
			var own e2eOrder
			if status := ada.call("POST", "/api/orders", map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 1}}}, &own, "Idempotency-Key", "rehearsal-1"); status != 201 {
				t.Fatalf("order at the rehearsal: %d", status)
			}
			ev := rehearsalTablet.next("order.placed", nil)
			if !strings.Contains(string(ev.Data), own.ID) {
				t.Fatalf("the rehearsal's tablet heard %s first, want its own order %s", ev.Data, own.ID)
			}

			// A socket of the rehearsal may not listen to the wedding's bar.
			if code := subscribeRefusal(t, rsvpClient{t: t, base: second.URL, token: beaRehearsal.token}, "e:"+wedding.ID+":bar"); code != "forbidden" {
				t.Errorf("the rehearsal's bartender subscribing to the wedding's bar: %q, want forbidden", code)
			}
		})
	}
}

// subscribeRefusal subscribes to topic on a new socket and returns the
// error code the hub answers, "" when it subscribes.
func subscribeRefusal(t *testing.T, c rsvpClient, topic string) string {
	t.Helper()
	var tk struct{ Ticket string }
	if status := c.call("POST", "/api/ws/ticket", nil, &tk); status != 200 {
		t.Fatalf("ticket: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer ws.CloseNow()
	msg, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": topic})
	if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m struct{ Type, Code string }
		json.Unmarshal(b, &m)
		switch m.Type {
		case "subscribed":
			return ""
		case "error":
			return m.Code
		}
	}
}
