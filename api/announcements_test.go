package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/guest"
)

// guestSocket opens a socket for g on e and subscribes it to its own topic.
func guestSocket(t *testing.T, e *testEnv, g guest.Guest) *websocket.Conn {
	t.Helper()
	ws, status := e.dial(e.ticket(e.tokenFor(g)))
	if ws == nil {
		t.Fatalf("dial as %s: %d", g.Name(), status)
	}
	if got := subscribe(t, ws, "guest:"+g.ID); got != "subscribed" {
		t.Fatalf("subscribe guest:%s: %s", g.ID, got)
	}
	return ws
}

// announcements reads ws until a pong and returns the texts of the
// announcements before it: everything the socket had been sent.
func announcements(t *testing.T, ws *websocket.Conn) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v (so far %v)", err, got)
		}
		var m struct {
			Type  string `json:"type"`
			Event string `json:"event"`
			Data  struct {
				Text string `json:"text"`
			} `json:"data"`
		}
		json.Unmarshal(b, &m)
		switch {
		case m.Type == "pong":
			return got
		case m.Type == "event" && m.Event == "announcement":
			got = append(got, m.Data.Text)
		}
	}
}

// One request with many guestIds reaches each of them once (a repeat is
// sent once), nobody else, and leaves one audit entry; the one-guest and
// everyone forms keep working.
func TestAnnouncementToManyGuests(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	a, b, c := e.addGuest(guest.Guest{FirstName: "Ada"}), e.addGuest(guest.Guest{FirstName: "Bo"}), e.addGuest(guest.Guest{FirstName: "Cy"})
	wa, wb, wc := guestSocket(t, e, a), guestSocket(t, e, b), guestSocket(t, e, c)

	status, raw := e.do("POST", "/api/admin/announcements", tok, map[string]any{"text": "Your table is ready", "guestIds": []string{a.ID, b.ID, a.ID}})
	var res struct {
		Guests int    `json:"guests"`
		Topic  string `json:"topic"`
	}
	decodeInto(t, raw, &res)
	if status != 202 || res.Guests != 2 || res.Topic != "" {
		t.Fatalf("announce to a list: %d %s, want 202 for 2 guests", status, raw)
	}
	if status, raw := e.do("POST", "/api/admin/announcements", tok, map[string]any{"text": "Only you", "guestId": c.ID}); status != 202 || !strings.Contains(string(raw), `"topic":"guest:`+c.ID+`"`) {
		t.Fatalf("announce to one guest: %d %s", status, raw)
	}
	for _, tc := range []struct {
		ws   *websocket.Conn
		name string
		want string
	}{{wa, "Ada", "Your table is ready"}, {wb, "Bo", "Your table is ready"}, {wc, "Cy", "Only you"}} {
		if got := announcements(t, tc.ws); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s got %q, want [%q]", tc.name, got, tc.want)
		}
	}

	var log auditPage
	_, raw = e.do("GET", "/api/admin/audit?action=announcement&limit=100", tok, nil)
	decodeInto(t, raw, &log)
	subjects := map[string]int{}
	for _, en := range log.Entries {
		subjects[en.Subject]++
	}
	if log.Total != 2 || subjects["2 guests"] != 1 || subjects["guest:"+c.ID] != 1 {
		t.Fatalf("audit log: %d entries %v, want one for the list and one for the guest", log.Total, subjects)
	}
}

func TestAnnouncementGuestListRefused(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	many := make([]string, maxAnnouncementGuests+1)
	for i := range many {
		many[i] = fmt.Sprintf("g%05d", i)
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"both forms", map[string]any{"text": "hi", "guestId": "g1", "guestIds": []string{"g2"}}, "invalid_guest_id"},
		{"empty list", map[string]any{"text": "hi", "guestIds": []string{}}, "invalid_guest_id"},
		{"bad id in the list", map[string]any{"text": "hi", "guestIds": []string{"g1", "no spaces please"}}, "invalid_guest_id"},
		{"too many", map[string]any{"text": "hi", "guestIds": many}, "too_many_guests"},
		{"not a list", map[string]any{"text": "hi", "guestIds": "g1"}, "invalid_field"},
	} {
		status, raw := e.do("POST", "/api/admin/announcements", tok, tc.body)
		if status != 400 || errorCode(t, raw) != tc.code {
			t.Errorf("%s: %d %s, want 400 %s", tc.name, status, raw, tc.code)
		}
	}
}

// Through Redis the list is one pipelined publish; guests on another
// instance get it.
func TestAnnouncementToManyGuestsAcrossInstances(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	admin := envs[0].addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	var ids []string
	var socks []*websocket.Conn
	for i := range 5 {
		g := envs[0].addGuest(guest.Guest{FirstName: fmt.Sprintf("G%d", i)})
		ids = append(ids, g.ID)
		socks = append(socks, guestSocket(t, envs[1], g))
	}
	if status, raw := envs[0].do("POST", "/api/admin/announcements", envs[0].tokenFor(admin), map[string]any{"text": "Last call", "guestIds": ids}); status != 202 {
		t.Fatalf("announce: %d %s", status, raw)
	}
	for i, ws := range socks {
		ctx, cancel := context.WithTimeout(context.Background(), brokerWait)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("guest %d: %v", i, err)
			}
			if strings.Contains(string(b), `"Last call"`) {
				break
			}
		}
		cancel()
	}
}
