package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/barhub/barhub/live"
)

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace":        "Ada L.",
		"Mary Ann van Houten": "Mary Ann van H.",
		"Cher":                "Cher",
		"":                    "Guest",
		"Åsa östberg":         "Åsa Ö.",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBoardLink: the bar makes a board link; the board signs in with it,
// sees the orders as first name and last initial, hears them change live,
// may call nothing else, and stops working the moment the link is revoked.
func TestBoardLink(t *testing.T) {
	e := newBarEnv(t)
	boardEvents := listen(t, e.hub, live.TopicBoard)

	status, raw := e.do("POST", "/api/bar/boards", e.bTok, map[string]string{"name": "TV by the bar"})
	if status != 201 {
		t.Fatalf("create board: %d %s", status, raw)
	}
	var made boardLink
	decodeInto(t, raw, &made)
	_, key, ok := strings.Cut(made.Link, "/board#key=")
	if !ok || made.Name != "TV by the bar" || !strings.HasPrefix(made.Link, "http://party.test/") {
		t.Fatalf("board link %+v", made)
	}
	// The list never shows the secret again.
	if _, raw := e.do("GET", "/api/bar/boards", e.bTok, nil); strings.Contains(string(raw), key) || !strings.Contains(string(raw), made.ID) {
		t.Errorf("board list: %s", raw)
	}

	status, raw = e.do("POST", "/api/board/login", "", map[string]string{"key": key})
	if status != 200 {
		t.Fatalf("board login: %d %s", status, raw)
	}
	var login boardLoginResponse
	decodeInto(t, raw, &login)
	tok := login.Token

	v := e.order(e.gTok, 201, one("negroni"))
	e.move(v.ID, "start", 200)
	status, raw = e.do("GET", "/api/board", tok, nil)
	var b boardResponse
	decodeInto(t, raw, &b)
	if status != 200 || len(b.Orders) != 1 || b.Orders[0].Name != "Ada G." || b.Orders[0].Status != "preparing" || b.Orders[0].Items[0].Name != "Negroni" {
		t.Fatalf("board: %d %s", status, raw)
	}
	if strings.Contains(string(raw), e.guest.ID) {
		t.Errorf("the board shows the guest's id: %s", raw)
	}
	e.move(v.ID, "ready", 200)
	got := boardEvents.waitFor(t, live.EventBoardOrder, func(d []byte) bool {
		var o boardOrder
		return json.Unmarshal(d, &o) == nil && o.ID == v.ID && o.Status == "ready" && o.ReadyAt != nil
	})
	if strings.Contains(string(got.Data), e.guest.ID) {
		t.Errorf("the board's event carries the guest's id: %s", got.Data)
	}

	// A board sees nothing else.
	for _, route := range [][2]string{{"GET", "/api/me"}, {"GET", "/api/orders"}, {"GET", "/api/rsvp"}, {"POST", "/api/ws/ticket"}, {"GET", "/api/bar/queue"}, {"GET", "/api/admin/guests"}} {
		if status, raw := e.do(route[0], route[1], tok, nil); status != http.StatusForbidden {
			t.Errorf("board token on %s %s: %d %s, want 403", route[0], route[1], status, raw)
		}
	}
	if status, raw := e.do("POST", "/api/board/ws/ticket", tok, nil); status != 200 {
		t.Errorf("board ticket: %d %s", status, raw)
	}

	// Revoked: the token and the link stop working.
	if status, raw := e.do("DELETE", "/api/bar/boards/"+made.ID, e.bTok, nil); status != 204 {
		t.Fatalf("revoke: %d %s", status, raw)
	}
	if status, raw := e.do("GET", "/api/board", tok, nil); status != 401 || errorCode(t, raw) != "session_ended" {
		t.Errorf("board after revoke: %d %s", status, raw)
	}
	if status, raw := e.do("POST", "/api/board/login", "", map[string]string{"key": key}); status != 401 || errorCode(t, raw) != "board_revoked" {
		t.Errorf("login after revoke: %d %s", status, raw)
	}
	if status, raw := e.do("DELETE", "/api/bar/boards/"+made.ID, e.bTok, nil); status != 404 {
		t.Errorf("revoke twice: %d %s", status, raw)
	}
}

func TestBoardInput(t *testing.T) {
	e := newBarEnv(t)
	for _, tt := range []struct {
		method, path, tok string
		body              any
		status            int
		code              string
	}{
		{"POST", "/api/board/login", "", map[string]string{"key": "nope"}, 400, "invalid_key"},
		{"POST", "/api/board/login", "", map[string]string{"key": "brd_0011223344556677.x"}, 401, "board_revoked"},
		{"POST", "/api/board/login", "", map[string]string{"key": "gst_1.secret"}, 400, "invalid_key"},
		{"POST", "/api/board/login", "", map[string]any{"key": "a", "extra": 1}, 400, "unknown_field"},
		{"POST", "/api/bar/boards", e.bTok, map[string]string{"name": "TV\u202e"}, 400, "invalid_name"},
		{"POST", "/api/bar/boards", e.bTok, map[string]string{"name": strings.Repeat("x", 61)}, 400, "invalid_name"},
		{"POST", "/api/bar/boards", e.gTok, nil, 403, "forbidden"},
		{"DELETE", "/api/bar/boards/gst_1", e.bTok, nil, 404, "not_found"},
	} {
		status, raw := e.do(tt.method, tt.path, tt.tok, tt.body)
		if status != tt.status || errorCode(t, raw) != tt.code {
			t.Errorf("%s %s %v: %d %s, want %d %s", tt.method, tt.path, tt.body, status, raw, tt.status, tt.code)
		}
	}
	// An empty body makes a board with the default name.
	if status, raw := e.do("POST", "/api/bar/boards", e.aTok, nil); status != 201 || !strings.Contains(string(raw), "Pick-up board") {
		t.Errorf("default board: %d %s", status, raw)
	}
}

// FuzzParseBoardLogin: any body is a board id and secret or a 4xx, never
// a panic.
func FuzzParseBoardLogin(f *testing.F) {
	for _, seed := range []string{`{"key":"brd_0011.abcd"}`, `{"key":"."}`, `{"key":"brd_.x"}`, `{"key":1}`, `{}`, `{`, ``, `{"key":"brd_a\u0000.b"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		id, secret, err := parseBoardLogin(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if !strings.HasPrefix(id, "brd_") || secret == "" || len(secret) > 64 || strings.Contains(id, ".") {
			t.Fatalf("accepted id %q secret %q", id, secret)
		}
	})
}
