package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
)

// brokerWait bounds how long a change made on one instance may take to
// reach the other through the hub's broker. It is shorter than the
// session cache's TTL (10s), so passing proves the broker carried it.
const brokerWait = 5 * time.Second

// signIn signs g in through the real login route on e.
func (e *testEnv) signIn(g guest.Guest) string {
	e.t.Helper()
	status, body := e.do("POST", "/api/auth/login", "", map[string]string{"code": g.Code, "lastName": g.LastName})
	if status != http.StatusOK {
		e.t.Fatalf("sign in %s: %d %s", g.Name(), status, body)
	}
	var res loginResponse
	decodeInto(e.t, body, &res)
	return res.Token
}

// eventually repeats method path on e until it answers want, or fails.
func (e *testEnv) eventually(method, path, token string, want int) []byte {
	e.t.Helper()
	deadline := time.Now().Add(brokerWait)
	for {
		status, body := e.do(method, path, token, nil)
		if status == want {
			return body
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s %s on %s: still %d after %s, want %d: %s", method, path, e.srv.URL, status, brokerWait, want, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ticket asks e for a WebSocket ticket with token.
func (e *testEnv) ticket(token string) string {
	e.t.Helper()
	status, body := e.do("POST", "/api/ws/ticket", token, nil)
	if status != http.StatusOK {
		e.t.Fatalf("ticket: %d %s", status, body)
	}
	var tr ticketResponse
	decodeInto(e.t, body, &tr)
	return tr.Ticket
}

// dial opens a socket on e with ticket; the answer's status when refused.
func (e *testEnv) dial(ticket string) (*websocket.Conn, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/ws?ticket=" + ticket
	ws, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		if resp == nil {
			e.t.Fatalf("dial: %v", err)
		}
		return nil, resp.StatusCode
	}
	e.t.Cleanup(func() { ws.CloseNow() })
	return ws, http.StatusSwitchingProtocols
}

type wsMessage struct {
	Type  string `json:"type"`
	Topic string `json:"topic"`
	Code  string `json:"code"`
}

// subscribe asks for topic and returns the answer: "subscribed" or the
// error's code.
func subscribe(t *testing.T, ws *websocket.Conn, topic string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	msg, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": topic})
	if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("subscribe %s: %v", topic, err)
		}
		var m wsMessage
		json.Unmarshal(b, &m)
		switch {
		case m.Type == "subscribed" && m.Topic == topic:
			return m.Type
		case m.Type == "error":
			return m.Code
		}
	}
}

// closedWith reads ws until the server closes it and returns the code.
func closedWith(t *testing.T, ws *websocket.Conn) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), brokerWait)
	defer cancel()
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("socket still open after %s", brokerWait)
			}
			return websocket.CloseStatus(err)
		}
	}
}

// TestRevokedAdminLosesAccessOnEveryInstance is the back door: a co-host
// signed in on A is demoted, then deleted, through B. Her old token acts
// as a guest (403 on admin routes) and then not at all (401), on both
// instances; on B, which made the change, at once.
func TestRevokedAdminLosesAccessOnEveryInstance(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	a, b := envs[0], envs[1]
	host := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	cohost := a.addGuest(guest.Guest{FirstName: "Co", LastName: "Host", Role: guest.RoleAdmin})
	tok := a.signIn(cohost)
	newGuest := map[string]string{"firstName": "Back", "lastName": "Door", "role": "admin"}
	for _, e := range envs {
		if status, body := e.do("POST", "/api/admin/guests", tok, newGuest); status != http.StatusCreated {
			t.Fatalf("as admin on %s: %d %s", e.srv.URL, status, body)
		}
	}
	ws, _ := a.dial(a.ticket(tok))
	if got := subscribe(t, ws, live.TopicAdmin); got != "subscribed" {
		t.Fatalf("admin topic as admin: %s", got)
	}

	if status, body := b.do("PUT", "/api/admin/guests/"+cohost.ID, host, map[string]string{"role": "guest"}); status != http.StatusOK {
		t.Fatalf("demote: %d %s", status, body)
	}
	// B made the change: no window at all.
	if status, body := b.do("POST", "/api/admin/guests", tok, newGuest); status != http.StatusForbidden {
		t.Fatalf("demoted, on B: %d %s, want 403", status, body)
	}
	a.eventually("GET", "/api/admin/stats", tok, http.StatusForbidden)
	if status, body := a.do("POST", "/api/admin/guests", tok, newGuest); status != http.StatusForbidden {
		t.Fatalf("demoted, on A: %d %s, want 403", status, body)
	}
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("admin socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	// Still a guest: the token works for what guests may do.
	for _, e := range envs {
		if status, body := e.do("GET", "/api/me", tok, nil); status != http.StatusOK {
			t.Fatalf("demoted guest's /api/me on %s: %d %s", e.srv.URL, status, body)
		}
	}
	// A fresh ticket opens a socket as the guest she now is.
	ws, _ = a.dial(a.ticket(tok))
	if got := subscribe(t, ws, live.TopicAdmin); got != "forbidden" {
		t.Errorf("admin topic after demotion: %s, want forbidden", got)
	}

	if status, body := b.do("DELETE", "/api/admin/guests/"+cohost.ID, host, nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", status, body)
	}
	status, body := b.do("POST", "/api/admin/guests", tok, newGuest)
	if status != http.StatusUnauthorized || errorCode(t, body) != "session_ended" {
		t.Fatalf("deleted, on B: %d %s, want 401 session_ended", status, body)
	}
	a.eventually("POST", "/api/admin/guests", tok, http.StatusUnauthorized)
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("guest socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	for _, e := range envs {
		if status, _ := e.do("POST", "/api/ws/ticket", tok, nil); status != http.StatusUnauthorized {
			t.Errorf("ticket for a deleted guest on %s: %d, want 401", e.srv.URL, status)
		}
	}
}

// TestDemotedBartenderLosesTheBar: the queue, stock, door, and the bar
// topic end with the role, on the instance she is on, while a ticket
// issued before the change opens only a guest's socket.
func TestDemotedBartenderLosesTheBar(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	a, b := envs[0], envs[1]
	host := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	bob := a.addGuest(guest.Guest{FirstName: "Bob", LastName: "Barkeep", Role: guest.RoleBartender})
	tok := a.signIn(bob)
	bar := []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/bar/queue", nil},
		{"GET", "/api/bar/stock", nil},
		{"PUT", "/api/bar/stock/lime", map[string]bool{"inStock": true}},
		{"GET", "/api/door/lookup?q=Host", nil},
		{"GET", "/api/door/stats", nil},
		{"POST", "/api/door/checkin", map[string]string{"code": "nope"}},
	}
	for _, r := range bar {
		if status, body := a.do(r.method, r.path, tok, r.body); status == http.StatusForbidden || status == http.StatusUnauthorized {
			t.Fatalf("%s %s as bartender: %d %s", r.method, r.path, status, body)
		}
	}
	ws, _ := a.dial(a.ticket(tok))
	if got := subscribe(t, ws, live.TopicBar); got != "subscribed" {
		t.Fatalf("bar topic as bartender: %s", got)
	}
	spare := a.ticket(tok) // issued before the change, used after it

	if status, body := b.do("PUT", "/api/admin/guests/"+bob.ID, host, map[string]string{"role": "guest"}); status != http.StatusOK {
		t.Fatalf("demote: %d %s", status, body)
	}
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("bar socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	a.eventually("GET", "/api/bar/queue", tok, http.StatusForbidden)
	for _, e := range envs {
		for _, r := range bar {
			if status, body := e.do(r.method, r.path, tok, r.body); status != http.StatusForbidden {
				t.Errorf("%s %s after demotion on %s: %d %s, want 403", r.method, r.path, e.srv.URL, status, body)
			}
		}
	}
	ws, status := b.dial(spare)
	if status != http.StatusSwitchingProtocols {
		t.Fatalf("the spare ticket: %d, want a guest's socket", status)
	}
	if got := subscribe(t, ws, live.TopicBar); got != "forbidden" {
		t.Errorf("bar topic with a ticket issued before the demotion: %s, want forbidden", got)
	}
}

// TestNewCodeEndsOldSessions: regenerating a code through B ends the
// sessions signed in with the old one, and their unused tickets, on both
// instances; a sign-in with the new code works everywhere.
func TestNewCodeEndsOldSessions(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	a, b := envs[0], envs[1]
	host := a.tokenFor(a.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	carol := a.addGuest(guest.Guest{FirstName: "Carol", LastName: "Lost-Phone"})
	old := a.signIn(carol)
	ws, _ := a.dial(a.ticket(old))
	spare := a.ticket(old)
	for _, e := range envs {
		if status, body := e.do("GET", "/api/orders", old, nil); status != http.StatusOK {
			t.Fatalf("orders on %s: %d %s", e.srv.URL, status, body)
		}
	}

	status, body := b.do("POST", "/api/admin/guests/"+carol.ID+"/code", host, nil)
	if status != http.StatusOK {
		t.Fatalf("new code: %d %s", status, body)
	}
	var cv codeView
	decodeInto(t, body, &cv)
	if status, body := b.do("GET", "/api/orders", old, nil); status != http.StatusUnauthorized || errorCode(t, body) != "session_ended" {
		t.Errorf("old session on B: %d %s, want 401 session_ended", status, body)
	}
	a.eventually("GET", "/api/orders", old, http.StatusUnauthorized)
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	if _, status := b.dial(spare); status != http.StatusUnauthorized {
		t.Errorf("a ticket issued before the new code: %d, want 401", status)
	}

	carol.Code = cv.Code
	fresh := a.signIn(carol)
	for _, e := range envs {
		if status, body := e.do("GET", "/api/orders", fresh, nil); status != http.StatusOK {
			t.Errorf("new session on %s: %d %s", e.srv.URL, status, body)
		}
		if status, _ := e.do("GET", "/api/orders", old, nil); status != http.StatusUnauthorized {
			t.Errorf("old session on %s after the new sign-in: %d, want 401", e.srv.URL, status)
		}
	}
}

// TestSignOutEverywhere: for oneself and, by the host, for a guest; both
// end every token and socket on both instances and are in the audit log.
func TestSignOutEverywhere(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	a, b := envs[0], envs[1]
	hostGuest := a.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	host := a.signIn(hostGuest)
	dana := a.addGuest(guest.Guest{FirstName: "Dana", LastName: "Phone"})
	phone, laptop := a.signIn(dana), b.signIn(dana)
	ws, _ := a.dial(a.ticket(phone))

	// Dana, on her laptop (B), signs out everywhere.
	if status, body := b.do("POST", "/api/auth/signout-everywhere", laptop, nil); status != http.StatusNoContent {
		t.Fatalf("sign out everywhere: %d %s", status, body)
	}
	if status, _ := b.do("GET", "/api/rsvp", laptop, nil); status != http.StatusUnauthorized {
		t.Errorf("the laptop's own token on B: %d, want 401", status)
	}
	a.eventually("GET", "/api/rsvp", phone, http.StatusUnauthorized)
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("phone's socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}

	// She signs in again; the host signs her out through B.
	again := a.signIn(dana)
	ws, _ = a.dial(a.ticket(again))
	if status, body := b.do("POST", "/api/admin/guests/"+dana.ID+"/signout", host, nil); status != http.StatusNoContent {
		t.Fatalf("host signs Dana out: %d %s", status, body)
	}
	a.eventually("GET", "/api/rsvp", again, http.StatusUnauthorized)
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("socket on A closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	// Her code still works, and the host's own session never ended.
	if status, _ := a.do("GET", "/api/rsvp", a.signIn(dana), nil); status != http.StatusOK {
		t.Errorf("a new sign-in: %d", status)
	}
	if status, body := b.do("POST", "/api/admin/guests/"+hostGuest.ID+"/signout", host, nil); status != http.StatusNoContent {
		t.Fatalf("host signs herself out: %d %s", status, body)
	}
	if status, _ := b.do("GET", "/api/admin/stats", host, nil); status != http.StatusUnauthorized {
		t.Errorf("host after signing herself out: %d, want 401", status)
	}
	if status, body := b.do("POST", "/api/admin/guests/000000000000000000000000/signout", a.signIn(hostGuest), nil); status != http.StatusNotFound {
		t.Errorf("sign out a guest who does not exist: %d %s, want 404", status, body)
	}

	log, raw := a.auditLog(a.signIn(hostGuest), "?action=guest.signout")
	if len(log.Entries) != 2 || log.Entries[1].Subject != dana.ID || log.Entries[1].ActorID != hostGuest.ID {
		t.Errorf("guest.signout entries: %s", raw)
	}
	log, raw = a.auditLog(a.signIn(hostGuest), "?action=auth.signout_everywhere")
	if len(log.Entries) != 1 || log.Entries[0].Subject != dana.ID || log.Entries[0].ActorID != dana.ID {
		t.Errorf("auth.signout_everywhere entries: %s", raw)
	}
}

// TestTokensFromBeforeSessionVersions: a token signed without the sv claim
// (as every token was before session versions) counts as version 0 and
// works until the version moves.
func TestTokensFromBeforeSessionVersions(t *testing.T) {
	e := newTestEnv(t)
	host := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	g := e.addGuest(guest.Guest{FirstName: "Early", LastName: "Bird"})
	tok := e.tokenFor(g)
	payload, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(payload), `"sv"`) {
		t.Fatalf("a version-0 token carries sv: %s", payload)
	}
	if status, body := e.do("GET", "/api/me", tok, nil); status != http.StatusOK {
		t.Fatalf("old token: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/admin/guests/"+g.ID+"/signout", host, nil); status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/me", tok, nil); status != http.StatusUnauthorized {
		t.Errorf("old token after the version moved: %d, want 401", status)
	}
}

// TestRevokedTokenRefusedThroughVerifyCache: a token the server has
// verified many times (so Keys.Verify answers it from its cache) is
// refused tickets as soon as its holder signs out everywhere; a ticket it
// took before is refused at the upgrade, and its socket is closed.
func TestRevokedTokenRefusedThroughVerifyCache(t *testing.T) {
	e := newTestEnv(t)
	dana := e.addGuest(guest.Guest{FirstName: "Dana", LastName: "Phone"})
	token := e.signIn(dana)
	for range 3 { // verified once, then from the cache
		e.ticket(token)
	}
	ws, _ := e.dial(e.ticket(token))
	if got := subscribe(t, ws, "guests"); got != "subscribed" {
		t.Fatalf("subscribe: %s", got)
	}
	unused := e.ticket(token)

	if status, body := e.do("POST", "/api/auth/signout-everywhere", token, nil); status != http.StatusNoContent {
		t.Fatalf("sign out everywhere: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/ws/ticket", token, nil); status != http.StatusUnauthorized {
		t.Errorf("ticket after sign-out: %d %s, want 401", status, body)
	}
	if _, status := e.dial(unused); status == http.StatusSwitchingProtocols {
		t.Error("a ticket taken before the sign-out opened a socket")
	}
	if code := closedWith(t, ws); code != hub.StatusSessionEnded {
		t.Errorf("socket closed with %d, want %d", code, hub.StatusSessionEnded)
	}
	// A new sign-in works at once.
	e.ticket(e.signIn(dana))
}
