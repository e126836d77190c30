package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestPublicMenuSwitch: with the public menu off (the default), a stranger
// holding the app key reads nothing of the menu, while a signed-in guest
// reads it all; the host's switch turns it on and off live, wins over the
// flag, and stays as it is when the settings form leaves it out.
func TestPublicMenuSwitch(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Config.PublicMenu = false })
	event := func() eventView {
		t.Helper()
		status, body := e.do("GET", "/api/event", "", nil)
		var v eventView
		decodeInto(t, body, &v)
		if status != 200 {
			t.Fatalf("event %d: %s", status, body)
		}
		return v
	}
	refused := func(path string) {
		t.Helper()
		status, body := e.do("GET", path, "", nil)
		if status != http.StatusUnauthorized || errorCode(t, body) != "menu_private" || bytes.Contains(body, []byte("negroni")) || bytes.Contains(body, []byte("Classics")) {
			t.Errorf("stranger GET %s: %d %s, want 401 menu_private naming no drink", path, status, body)
		}
	}
	if event().PublicMenu {
		t.Fatal("public menu on by default")
	}
	for _, path := range []string{"/api/sections", "/api/drinks", "/api/drinks?q=negroni", "/api/drinks/negroni"} {
		refused(path)
		if status, body := e.do("GET", path, e.gTok, nil); status != 200 {
			t.Errorf("guest GET %s: %d %s", path, status, body)
		}
	}
	settings := func(body map[string]any) settingsView {
		t.Helper()
		status, raw := e.do("PUT", "/api/admin/settings", e.aTok, body)
		var v settingsView
		decodeInto(t, raw, &v)
		if status != 200 {
			t.Fatalf("settings %d: %s", status, raw)
		}
		return v
	}
	if v := settings(map[string]any{"eventName": "Garden party", "publicMenu": true}); !v.PublicMenu || v.PublicMenuDefault || !v.PublicMenuSet {
		t.Errorf("switched on: %+v", v)
	}
	if !event().PublicMenu {
		t.Error("event says the menu is private after the host made it public")
	}
	status, body := e.do("GET", "/api/drinks?q=negroni", "", nil)
	var list drinksBody
	decodeInto(t, body, &list)
	if status != 200 || list.Count != 2 || list.Drinks[1].ID != "negroni" { // and the Boulevardier, "the Negroni's cousin"
		t.Errorf("stranger reads the public menu: %d %s", status, body)
	}
	// The event's details saved without the switch leave it on.
	if v := settings(map[string]any{"eventName": "Garden party", "location": "The garden"}); !v.PublicMenu {
		t.Errorf("saving the details turned the public menu off: %+v", v)
	}
	// Off again: refused at once on this instance.
	settings(map[string]any{"eventName": "Garden party", "publicMenu": false})
	refused("/api/drinks")
	// Without the app key the menu is refused as before, switch or not.
	if status, body := e.do("GET", "/api/drinks", e.gTok, nil, appKeyHeader, "wrong"); status != http.StatusForbidden {
		t.Errorf("wrong key: %d %s", status, body)
	}
}

// TestPublicMenuFlagIsTheDefault: --public-menu opens the menu until the
// host's switch says otherwise.
func TestPublicMenuFlagIsTheDefault(t *testing.T) {
	e := newBarEnv(t) // the test env starts with --public-menu
	if status, body := e.do("GET", "/api/sections", "", nil); status != 200 {
		t.Fatalf("flag on: %d %s", status, body)
	}
	status, raw := e.do("GET", "/api/admin/settings", e.aTok, nil)
	var v settingsView
	decodeInto(t, raw, &v)
	if status != 200 || !v.PublicMenu || !v.PublicMenuDefault || v.PublicMenuSet {
		t.Errorf("settings %d %s", status, raw)
	}
	if status, raw := e.do("PUT", "/api/admin/settings", e.aTok, map[string]any{"eventName": "Private", "publicMenu": false}); status != 200 {
		t.Fatalf("switch off: %d %s", status, raw)
	}
	if status, body := e.do("GET", "/api/sections", "", nil); status != http.StatusUnauthorized {
		t.Errorf("the host's switch did not win over the flag: %d %s", status, body)
	}
}

// TestMenuPoster: the poster carries the event's name, a QR code of the
// public menu's address on the public URL, and its text in the host's
// language; it says on screen when the public menu is off.
func TestMenuPoster(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Config.PublicMenu = false })
	if status, raw := e.do("PUT", "/api/admin/settings", e.aTok, map[string]any{"eventName": "Midsommar"}); status != 200 {
		t.Fatalf("settings: %d %s", status, raw)
	}
	status, body := e.do("GET", "/api/admin/poster", e.aTok, nil, "Accept-Language", "sv")
	page := string(body)
	for _, want := range []string{`<html lang="sv">`, "<h1>Midsommar</h1>", "http://party.test/menu", "<svg", "Skanna med mobilens kamera", `class="no-print warning"`} {
		if !strings.Contains(page, want) {
			t.Errorf("poster lacks %q:\n%s", want, page)
		}
	}
	if status != 200 {
		t.Fatalf("poster %d", status)
	}
	e.do("PUT", "/api/admin/settings", e.aTok, map[string]any{"eventName": "Midsommar", "publicMenu": true})
	_, body = e.do("GET", "/api/admin/poster", e.aTok, nil)
	if page := string(body); strings.Contains(page, "no-print warning") || !strings.Contains(page, "Scan with your phone") {
		t.Errorf("poster with the menu public:\n%s", page)
	}
	if status, _ := e.do("GET", "/api/admin/poster", e.gTok, nil); status != http.StatusForbidden {
		t.Errorf("a guest printed the poster: %d", status)
	}
}

// TestWalkInHTTP: the door adds a walk-in with a key, gets their code,
// link and QR, and a second sending of the same key adds nobody; the
// walk-in signs in with that code on their own phone and orders; the
// host's figures and the CSV export count them as a walk-in.
func TestWalkInHTTP(t *testing.T) {
	e := newBarEnv(t)
	body := map[string]string{"firstName": "Nora", "lastName": "Lind", "groupOf": e.guest.ID, "needs": "no nuts"}
	status, raw := e.do("POST", "/api/door/walkins", e.bTok, body, "Idempotency-Key", "door-1")
	var res walkInResponse
	decodeInto(t, raw, &res)
	if status != http.StatusCreated || !res.Admitted || !res.Created || len(res.Code) != 8 ||
		res.Link != "http://party.test/login?code="+res.Code || !strings.HasPrefix(res.QR, "data:image/svg+xml;base64,") {
		t.Fatalf("walk-in %d: %s", status, raw)
	}
	if strings.Contains(res.Guest.FirstName, " ") || res.Guest.Source != "walk-in" || len(res.Group) != 1 || res.Group[0].ID != e.guest.ID {
		t.Errorf("walk-in card %+v", res)
	}
	status, raw = e.do("POST", "/api/door/walkins", e.bTok, body, "Idempotency-Key", "door-1")
	var again walkInResponse
	decodeInto(t, raw, &again)
	if status != http.StatusOK || again.Created || again.Code != res.Code || again.Guest.ID != res.Guest.ID {
		t.Errorf("sent again %d: %s", status, raw)
	}
	if status, raw := e.do("POST", "/api/door/walkins", e.bTok, body); status != http.StatusBadRequest || errorCode(t, raw) != "idempotency_key_required" {
		t.Errorf("without a key: %d %s", status, raw)
	}
	if status, raw := e.do("POST", "/api/door/walkins", e.gTok, body, "Idempotency-Key", "door-2"); status != http.StatusForbidden {
		t.Errorf("a guest added a walk-in: %d %s", status, raw)
	}

	// Nora signs in on her own phone with the code and orders.
	status, raw = e.do("POST", "/api/auth/login", "", map[string]string{"code": res.Code, "lastName": "lind"})
	var login loginResponse
	decodeInto(t, raw, &login)
	if status != 200 || login.Token == "" {
		t.Fatalf("walk-in signs in: %d %s", status, raw)
	}
	order := map[string]any{"items": []map[string]any{{"drinkId": "virgin-mojito", "qty": 1}}}
	if status, raw := e.do("POST", "/api/orders", login.Token, order, "Idempotency-Key", "nora-1"); status != http.StatusCreated {
		t.Errorf("walk-in orders: %d %s", status, raw)
	}

	status, raw = e.do("GET", "/api/admin/stats", e.aTok, nil)
	var stats struct{ WalkIns, CheckedIn, Coming int }
	decodeInto(t, raw, &stats)
	if status != 200 || stats.WalkIns != 1 || stats.CheckedIn != 1 || stats.Coming != 1 {
		t.Errorf("stats %d: %s", status, raw)
	}
	resp := e.doResp("GET", "/api/admin/guests.csv", e.aTok, nil)
	defer resp.Body.Close()
	var csv bytes.Buffer
	csv.ReadFrom(resp.Body)
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), ",source") {
		t.Fatalf("CSV header %q lacks source", lines[0])
	}
	walkIns := 0
	for _, l := range lines[1:] {
		if strings.HasSuffix(strings.TrimSpace(l), `"walk-in"`) || strings.HasSuffix(strings.TrimSpace(l), ",walk-in") {
			walkIns++
			if !strings.Contains(l, "Nora") {
				t.Errorf("walk-in row %q", l)
			}
		}
	}
	if walkIns != 1 {
		t.Errorf("%d walk-in rows in the CSV:\n%s", walkIns, csv.String())
	}
}

// FuzzParseWalkIn feeds arbitrary bodies to the walk-in decoder: it
// answers a walk-in with both names, or a 4xx *apiError, never a panic.
func FuzzParseWalkIn(f *testing.F) {
	for _, seed := range []string{
		`{"firstName":"Nora","lastName":"Lind"}`, `{"firstName":"Nora","lastName":"Lind","groupOf":"665f00000000000000000000","needs":"no nuts"}`,
		`{"firstName":" ","lastName":"Lind"}`, `{"firstName":"Nora","lastName":"Lind","groupOf":"a b"}`, `{"firstName":"Nora\u202e","lastName":"x"}`,
		`{"firstName":1}`, `[]`, `null`, `{`, ``, `{"firstName":"a","lastName":"b","extra":1}`, "\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := fuzzRequest(body)
		r.Header.Set("Idempotency-Key", "fuzz-1")
		req, err := parseWalkIn(r)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if req.FirstName == "" || req.LastName == "" || req.Key != "fuzz-1" {
			t.Fatalf("accepted %+v", req)
		}
		if req.GroupOf != "" && strings.ContainsAny(req.GroupOf, " /") {
			t.Fatalf("accepted groupOf %q", req.GroupOf)
		}
		if _, err := json.Marshal(req); err != nil {
			t.Fatal(err)
		}
	})
}
