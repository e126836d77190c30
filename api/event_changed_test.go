package api

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/guest"
)

// The host's new event details reach a guest's open page at once, as
// event.changed on "guests" carrying what GET /api/rsvp calls "event"; a
// refused change sends nothing.
func TestSettingsChangeReachesGuests(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	ada := e.addGuest(guest.Guest{FirstName: "Ada"})
	ws, status := e.dial(e.ticket(e.tokenFor(ada)))
	if ws == nil {
		t.Fatalf("dial: %d", status)
	}
	if got := subscribe(t, ws, "guests"); got != "subscribed" {
		t.Fatalf("subscribe guests: %s", got)
	}

	tok := e.tokenFor(admin)
	if status, raw := e.do("PUT", "/api/admin/settings", tok, map[string]string{"eventName": "Garden party", "timezone": "Mars/Olympus"}); status != 422 {
		t.Fatalf("bad time zone: %d %s", status, raw)
	}
	if status, raw := e.do("PUT", "/api/admin/settings", tok, map[string]string{
		"eventName": "Garden party", "eventDate": "2030-06-19T18:00", "location": "Storgatan 1, Lund",
		"dressCode": "Flowers", "info": "Bring a jumper", "timezone": "Europe/Stockholm",
	}); status != 200 {
		t.Fatalf("save settings: %d %s", status, raw)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var changes []guest.Details
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v (so far %+v)", err, changes)
		}
		var m struct {
			Type  string          `json:"type"`
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		json.Unmarshal(b, &m)
		if m.Type == "event" && m.Event == "event.changed" {
			var d guest.Details
			if err := json.Unmarshal(m.Data, &d); err != nil {
				t.Fatalf("event.changed data %s: %v", m.Data, err)
			}
			changes = append(changes, d)
		}
		// The server answers the ping after the publish the request waited for;
		// a late event would still be caught by the length check below.
		if m.Type == "pong" && len(changes) > 0 {
			break
		}
		if m.Type == "pong" {
			if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(changes) != 1 {
		t.Fatalf("%d event.changed, want 1 (the refused change sends none): %+v", len(changes), changes)
	}
	d := changes[0]
	if d.EventName != "Garden party" || d.Location != "Storgatan 1, Lund" || d.DressCode != "Flowers" || d.Info != "Bring a jumper" || d.Timezone != "Europe/Stockholm" {
		t.Errorf("event.changed carries %+v", d)
	}
	if d.EventDate == nil || d.EventDate.Format(time.RFC3339) != "2030-06-19T18:00:00+02:00" {
		t.Errorf("event date %v, want 18:00 in Stockholm", d.EventDate)
	}
}
