package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/locale"
)

// doorCheckIn posts a check-in and decodes a 200 answer.
func (e *testEnv) doorCheckIn(tok string, body any) (int, checkInView, []byte) {
	e.t.Helper()
	status, raw := e.do("POST", "/api/door/checkin", tok, body)
	var v checkInView
	if status == http.StatusOK {
		decodeInto(e.t, raw, &v)
	}
	return status, v, raw
}

func warningCodes(v checkInView) []string {
	var out []string
	for _, w := range v.Warnings {
		out = append(out, w.Code)
	}
	return out
}

func TestDoorCheckIn(t *testing.T) {
	e := newTestEnv(t)
	staff := e.addGuest(guest.Guest{FirstName: "Sam", LastName: "Door", Role: guest.RoleBartender})
	tok := e.tokenFor(staff)
	adminTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace", Status: guest.StatusComing, ExpectedGuests: 3,
		Dietary: guest.Dietary{Text: "no nuts", Tags: []string{"nuts"}}})

	// By the code as typed, lower case with a dash.
	status, v, raw := e.doorCheckIn(tok, map[string]string{"code": strings.ToLower(ada.Code[:4] + "-" + ada.Code[4:])})
	if status != http.StatusOK || !v.Admitted || v.AlreadyCheckedIn || v.Level != guest.LevelOK || v.Heads != 3 {
		t.Fatalf("first scan: %d %s", status, raw)
	}
	if v.Message != "Welcome, Ada Lovelace — party of 3" || v.Guest.ID != ada.ID || v.Guest.CheckedInAt == nil ||
		v.Guest.CheckedInBy != "Sam Door" || v.Guest.ArrivedHeads != 3 {
		t.Errorf("first scan: %s", raw)
	}
	if got := strings.Join(warningCodes(v), ","); got != guest.WarnDietary {
		t.Errorf("warnings %s, want the dietary note only", got)
	}
	if v.Arrived.CheckedIn != 1 || v.Arrived.CheckedInHeads != 3 {
		t.Errorf("arrived %+v, want 1 guest, 3 heads", v.Arrived)
	}
	if bytes.Contains(raw, []byte(ada.Code)) {
		t.Errorf("the answer shows the guest's code: %s", raw)
	}

	// Again, by the whole scanned invitation link: counted once.
	link := invitationLink("http://party.test", ada.Code)
	status, v, raw = e.doorCheckIn(tok, map[string]string{"code": link})
	if status != http.StatusOK || v.Admitted || !v.AlreadyCheckedIn || v.Level != guest.LevelStop || v.Heads != 3 {
		t.Fatalf("second scan: %d %s", status, raw)
	}
	if !strings.Contains(v.Warnings[0].Message, "by Sam Door") || v.Message != "Already in: Ada Lovelace — party of 3" {
		t.Errorf("second scan does not say who let them in: %s", raw)
	}
	if v.Arrived.CheckedIn != 1 || v.Arrived.CheckedInHeads != 3 {
		t.Errorf("arrived after the second scan %+v, want 1, 3", v.Arrived)
	}
	var st statsView
	status, raw = e.do("GET", "/api/admin/stats?recount=true", adminTok, nil)
	decodeInto(t, raw, &st)
	if status != http.StatusOK || st.CheckedIn != 1 || st.CheckedInHeads != 3 {
		t.Errorf("admin stats: %d %s", status, raw)
	}
	var ds doorStats
	status, raw = e.do("GET", "/api/door/stats", tok, nil)
	decodeInto(t, raw, &ds)
	if status != http.StatusOK || ds.CheckedIn != 1 || ds.CheckedInHeads != 3 {
		t.Errorf("door stats: %d %s", status, raw)
	}

	// Undo, then undo again.
	status, raw = e.do("POST", "/api/door/checkin/"+ada.ID+"/undo", tok, nil)
	var u undoView
	decodeInto(t, raw, &u)
	if status != http.StatusOK || u.Guest.CheckedInAt != nil || u.Arrived.CheckedIn != 0 || u.Arrived.CheckedInHeads != 0 {
		t.Errorf("undo: %d %s", status, raw)
	}
	status, raw = e.do("POST", "/api/door/checkin/"+ada.ID+"/undo", tok, nil)
	if status != http.StatusConflict || errorCode(t, raw) != "not_checked_in" {
		t.Errorf("second undo: %d %s", status, raw)
	}
	// And in again, this time with two people.
	status, v, raw = e.doorCheckIn(tok, map[string]any{"code": ada.Code, "heads": 2})
	if status != http.StatusOK || !v.Admitted || v.Heads != 2 || v.Arrived.CheckedInHeads != 2 {
		t.Errorf("after undo: %d %s", status, raw)
	}

	// The audit log has who let whom in, and the undo; the second scan and
	// the refused undo changed nothing and are not in it.
	var log auditPage
	status, raw = e.do("GET", "/api/admin/audit?action=door", adminTok, nil)
	decodeInto(t, raw, &log)
	var got []string
	for _, en := range log.Entries {
		if en.Subject != ada.ID || en.ActorName != "Sam Door" || en.Details["name"] != "Ada Lovelace" {
			t.Errorf("audit entry %+v", en)
		}
		got = append(got, fmt.Sprintf("%s %v", en.Action, en.Details["heads"]))
	}
	if status != http.StatusOK || strings.Join(got, ", ") != "door.check_in 2, door.undo <nil>, door.check_in 3" {
		t.Errorf("audit log, newest first: %d %q", status, got)
	}
}

func TestDoorWarnings(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	members := e.addHousehold(
		guest.Guest{FirstName: "Bob", LastName: "Byron", Status: guest.StatusComing},
		guest.Guest{FirstName: "Dee", LastName: "Byron", Status: guest.StatusDeclined},
		guest.Guest{FirstName: "Pat", LastName: "Byron"},
	)
	bob, dee, pat := members[0], members[1], members[2]

	// Declined: an amber card asks "let in anyway?"; nobody is counted.
	status, v, raw := e.doorCheckIn(tok, map[string]string{"code": dee.Code})
	if status != http.StatusOK || v.Admitted || !v.Confirm || v.Level != guest.LevelWarn || v.Guest.CheckedInAt != nil || v.Arrived.CheckedIn != 0 {
		t.Fatalf("declined: %d %s", status, raw)
	}
	if got := strings.Join(warningCodes(v), ","); got != "declined,group" {
		t.Errorf("declined warnings %s", got)
	}
	if len(v.Group) != 2 || v.GroupSize != 2 || v.GroupIn != 0 {
		t.Errorf("declined: group %d (%d of %d in)", len(v.Group), v.GroupIn, v.GroupSize)
	}

	// Bob comes in; then Pat, who never answered: the amber card asks
	// first and counts nobody; "let in anyway" lets Pat in, told Bob is
	// already here.
	if status, v, raw = e.doorCheckIn(tok, map[string]string{"code": bob.Code}); status != http.StatusOK || !v.Admitted || v.Level != guest.LevelOK {
		t.Fatalf("bob: %d %s", status, raw)
	}
	status, v, raw = e.doorCheckIn(tok, map[string]string{"code": pat.Code})
	if status != http.StatusOK || v.Admitted || !v.Confirm || v.Level != guest.LevelWarn || v.Arrived.CheckedIn != 1 || v.Guest.CheckedInAt != nil {
		t.Fatalf("pat asked: %d %s", status, raw)
	}
	status, v, raw = e.doorCheckIn(tok, map[string]any{"code": pat.Code, "force": true})
	if status != http.StatusOK || !v.Admitted || v.Confirm || v.Level != guest.LevelWarn || v.GroupIn != 1 || v.GroupSize != 2 || v.Arrived.CheckedIn != 2 {
		t.Fatalf("pat: %d %s", status, raw)
	}
	if got := strings.Join(warningCodes(v), ","); got != "not_answered,group" || !strings.Contains(v.Warnings[1].Message, "1 of 2 in the group already here: Bob") {
		t.Errorf("pat warnings: %s", raw)
	}

	// Dee after all, let in by the door person's choice, found by name.
	status, raw = e.do("GET", "/api/door/lookup?q="+url.QueryEscape("dee"), tok, nil)
	var found lookupView
	decodeInto(t, raw, &found)
	if status != http.StatusOK || found.Total != 1 || len(found.Guests) != 1 || found.Guests[0].ID != dee.ID {
		t.Fatalf("lookup dee: %d %s", status, raw)
	}
	status, v, raw = e.doorCheckIn(tok, map[string]any{"guestId": dee.ID, "force": true})
	if status != http.StatusOK || !v.Admitted || v.Level != guest.LevelWarn || v.Arrived.CheckedIn != 3 || v.Arrived.CheckedInHeads != 3 {
		t.Errorf("dee forced: %d %s", status, raw)
	}
}

func TestDoorBadInput(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace"})
	for _, tc := range []struct {
		name   string
		method string
		path   string
		body   any
		status int
		code   string
	}{
		{"unknown code", "POST", "/api/door/checkin", `{"code":"ABCDEFGH"}`, 404, "unknown_code"},
		{"unknown code in a link", "POST", "/api/door/checkin", `{"code":"https://party.test/login?code=ABCDEFGH"}`, 404, "unknown_code"},
		{"not a code", "POST", "/api/door/checkin", `{"code":"WIFI:S:garden;;"}`, 422, "invalid_code"},
		{"a link without a code", "POST", "/api/door/checkin", `{"code":"https://party.test/login"}`, 422, "invalid_code"},
		{"nothing", "POST", "/api/door/checkin", `{}`, 400, "missing_code"},
		{"empty body", "POST", "/api/door/checkin", "", 400, "malformed_json"},
		{"not JSON", "POST", "/api/door/checkin", `code=ABCDEFGH`, 400, "malformed_json"},
		{"code of the wrong type", "POST", "/api/door/checkin", `{"code":12345678}`, 400, "invalid_field"},
		{"code and id", "POST", "/api/door/checkin", `{"code":"` + ada.Code + `","guestId":"` + ada.ID + `"}`, 400, "invalid_field"},
		{"bad id", "POST", "/api/door/checkin", `{"guestId":"../x"}`, 400, "invalid_field"},
		{"unknown id", "POST", "/api/door/checkin", `{"guestId":"000000000000000000000000"}`, 404, "not_found"},
		{"no heads", "POST", "/api/door/checkin", `{"code":"` + ada.Code + `","heads":0}`, 400, "invalid_field"},
		{"too many heads", "POST", "/api/door/checkin", `{"code":"` + ada.Code + `","heads":51}`, 400, "invalid_field"},
		{"too long", "POST", "/api/door/checkin", `{"code":"` + strings.Repeat("A", guest.MaxScanLength+1) + `"}`, 400, "too_long"},
		{"undo of nobody", "POST", "/api/door/checkin/000000000000000000000000/undo", nil, 404, "not_found"},
		{"undo of a bad id", "POST", "/api/door/checkin/a.b/undo", nil, 404, "not_found"},
		{"undo of a guest not in", "POST", "/api/door/checkin/" + ada.ID + "/undo", nil, 409, "not_checked_in"},
		{"lookup without q", "GET", "/api/door/lookup", nil, 400, "invalid_query"},
		{"lookup of one letter", "GET", "/api/door/lookup?q=a", nil, 400, "invalid_query"},
		{"lookup too long", "GET", "/api/door/lookup?q=" + strings.Repeat("a", 101), nil, 400, "invalid_query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, raw := e.do(tc.method, tc.path, tok, tc.body)
			if status != tc.status || errorCode(t, raw) != tc.code {
				t.Errorf("%d %s, want %d %s", status, raw, tc.status, tc.code)
			}
		})
	}
	// The unknown code's message is one a door person can act on.
	_, raw := e.do("POST", "/api/door/checkin", tok, `{"code":"abcd efgh"}`)
	if !strings.Contains(string(raw), "no invitation has the code ABCDEFGH") || !strings.Contains(string(raw), "find the guest by name") {
		t.Errorf("unknown code message: %s", raw)
	}
}

func TestDoorIsForStaff(t *testing.T) {
	e := newTestEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Gus", LastName: "Guest", Status: guest.StatusComing})
	for _, tc := range []struct {
		tok    string
		status int
	}{
		{"", http.StatusUnauthorized},
		{e.tokenFor(g), http.StatusForbidden},
	} {
		for _, r := range []struct{ method, path string }{
			{"POST", "/api/door/checkin"}, {"POST", "/api/door/checkin/" + g.ID + "/undo"},
			{"GET", "/api/door/lookup?q=gus"}, {"GET", "/api/door/stats"},
		} {
			status, raw := e.do(r.method, r.path, tc.tok, map[string]string{"code": g.Code})
			if status != tc.status {
				t.Errorf("%s %s: %d %s, want %d", r.method, r.path, status, raw, tc.status)
			}
		}
	}
	// A guest cannot check themselves in with their own code.
	if got, _ := e.store.GuestByID(t.Context(), g.ID); got.CheckedIn() {
		t.Error("a guest checked themselves in")
	}
}

func TestDoorLookupNeverMatchesOrShowsCodes(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Åberg"})
	e.addGuest(guest.Guest{FirstName: "Adam", LastName: "Smith"})
	for _, tc := range []struct {
		q    string
		want int
	}{{"aberg", 1}, {"ÅBERG", 1}, {"ad", 2}, {ada.Code, 0}, {"zz", 0}} {
		status, raw := e.do("GET", "/api/door/lookup?q="+url.QueryEscape(tc.q), tok, nil)
		var v lookupView
		decodeInto(t, raw, &v)
		if status != http.StatusOK || len(v.Guests) != tc.want || v.Total != int64(tc.want) {
			t.Errorf("q=%s: %d %s, want %d guests", tc.q, status, raw, tc.want)
		}
		if bytes.Contains(raw, []byte(`"code"`)) {
			t.Errorf("q=%s shows codes: %s", tc.q, raw)
		}
	}
}

// Twenty scans of one code at the same moment (door tablets, a double
// tap): one check-in, counted once.
func TestDoorConcurrentScansCountOnce(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace", Status: guest.StatusComing, ExpectedGuests: 2})
	const scans = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted, already := 0, 0
	for range scans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, v, raw := e.doorCheckIn(tok, map[string]string{"code": ada.Code})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case status != http.StatusOK:
				t.Errorf("%d %s", status, raw)
			case v.Admitted && !v.AlreadyCheckedIn:
				admitted++
			case v.AlreadyCheckedIn && !v.Admitted:
				already++
			default:
				t.Errorf("neither admitted nor already in: %s", raw)
			}
		}()
	}
	wg.Wait()
	if admitted != 1 || already != scans-1 {
		t.Errorf("%d admitted, %d already in; want 1 and %d", admitted, already, scans-1)
	}
	st, err := e.store.RecountStats(t.Context())
	if err != nil || st.CheckedIn != 1 || st.CheckedInHeads != 2 {
		t.Errorf("counted %d guests, %d heads (%v); want 1, 2", st.CheckedIn, st.CheckedInHeads, err)
	}
}

func TestDoorThrottlesUnknownCodes(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) { d.DoorThrottle = auth.NewThrottle(3, time.Hour) })
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace", Status: guest.StatusComing})
	// Typos that are not codes at all do not count.
	for range 5 {
		if status, raw := e.do("POST", "/api/door/checkin", tok, `{"code":"nope"}`); status != http.StatusUnprocessableEntity {
			t.Fatalf("not a code: %d %s", status, raw)
		}
	}
	for i := range 3 {
		if status, raw := e.do("POST", "/api/door/checkin", tok, map[string]string{"code": "ABCDEFG" + strconv.Itoa(2+i)}); status != http.StatusNotFound {
			t.Fatalf("guess %d: %d %s", i, status, raw)
		}
	}
	// Used up: even a right code waits, so guesses cannot be told apart.
	resp := e.doResp("POST", "/api/door/checkin", tok, map[string]string{"code": ada.Code})
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || errorCode(t, raw) != "too_many_attempts" || resp.Header.Get("Retry-After") == "" {
		t.Errorf("after 3 unknown codes: %d %s (Retry-After %q)", resp.StatusCode, raw, resp.Header.Get("Retry-After"))
	}
	// The name search still works for the guest in front of the door.
	if status, raw := e.do("GET", "/api/door/lookup?q=lovelace", tok, nil); status != http.StatusOK {
		t.Errorf("lookup while throttled: %d %s", status, raw)
	}
}

func TestDoorPublishesLive(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Sam", LastName: "Door", Role: guest.RoleBartender}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace", Status: guest.StatusComing, ExpectedGuests: 3})
	adminCh := e.adminEvents()
	barCh := make(chan hub.Event, 64)
	e.hub.OnEvent(live.TopicBar, func(ev hub.Event) { barCh <- ev })

	if status, _, raw := e.doorCheckIn(tok, map[string]string{"code": ada.Code}); status != http.StatusOK {
		t.Fatalf("%d %s", status, raw)
	}
	// A second scan publishes nothing.
	e.doorCheckIn(tok, map[string]string{"code": ada.Code})
	e.do("POST", "/api/door/checkin/"+ada.ID+"/undo", tok, nil)

	collect := func(ch <-chan hub.Event, n int) []hub.Event {
		var out []hub.Event
		timeout := time.After(10 * time.Second)
		for len(out) < n {
			select {
			case ev := <-ch:
				out = append(out, ev)
			case <-timeout:
				t.Fatalf("events so far %d, want %d", len(out), n)
			}
		}
		return out
	}
	var names []string
	for _, ev := range collect(adminCh, 4) {
		names = append(names, ev.Event)
		if ev.Event == live.EventCheckedIn {
			var d doorEvent
			json.Unmarshal([]byte(ev.Data), &d)
			if d.Guest.ID != ada.ID || d.ByName != "Sam Door" || d.Arrived.CheckedIn != 1 || d.Arrived.CheckedInHeads != 3 {
				t.Errorf("guest.checked_in = %s", ev.Data)
			}
		}
		if ev.Event == "stats.updated" {
			var s statsView
			json.Unmarshal([]byte(ev.Data), &s)
			if s.CheckedIn > 1 {
				t.Errorf("stats.updated = %s", ev.Data)
			}
		}
	}
	if got := strings.Join(names, ","); got != "guest.checked_in,stats.updated,guest.check_in_undone,stats.updated" {
		t.Errorf("admin events: %s", got)
	}
	bar := collect(barCh, 2)
	if bar[0].Event != live.EventCheckedIn || bar[1].Event != live.EventCheckInUndone {
		t.Errorf("bar events: %s, %s", bar[0].Event, bar[1].Event)
	}
	select {
	case ev := <-adminCh:
		t.Errorf("unexpected event %s", ev.Event)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestDoorMatchesOpenAPI checks the door's real answers against
// api/openapi.json, as TestOpenAPIResponsesMatch does for the rest.
func TestDoorMatchesOpenAPI(t *testing.T) {
	_, root := loadOpenAPI(t)
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Sam", LastName: "Door", Role: guest.RoleBartender}))
	members := e.addHousehold(
		guest.Guest{FirstName: "Ada", LastName: "Lovelace", Status: guest.StatusComing, ExpectedGuests: 2, Dietary: guest.Dietary{Text: "vegan", Tags: []string{"vegan"}}},
		guest.Guest{FirstName: "Dee", LastName: "Lovelace", Status: guest.StatusDeclined},
	)
	check := func(method, pattern, path string, body any) {
		t.Helper()
		resp := e.doResp(method, path, tok, body)
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		name := method + " " + pattern
		doc, ok := resolveOpenAPIRef(root, "#/paths/"+strings.ReplaceAll(pattern, "/", "~1")+"/"+strings.ToLower(method)+"/responses/"+strconv.Itoa(resp.StatusCode))
		if !ok {
			t.Errorf("%s answered %d, which api/openapi.json does not document: %s", name, resp.StatusCode, raw)
			return
		}
		r, _ := derefOpenAPI(root, doc)
		content, _ := r.(map[string]any)["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v: %s", name, err, raw)
		}
		for _, p := range checkOpenAPISchema(root, media["schema"], v, "body") {
			t.Errorf("%s %d: %s", name, resp.StatusCode, p)
		}
	}
	check("GET", "/api/door/stats", "/api/door/stats", nil)
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{"code": members[0].Code})
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{"code": members[0].Code})
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{"code": members[1].Code})
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{"code": "ABCDEFGH"})
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{"code": "?"})
	check("POST", "/api/door/checkin", "/api/door/checkin", map[string]string{})
	check("GET", "/api/door/lookup", "/api/door/lookup?q=love", nil)
	check("GET", "/api/door/lookup", "/api/door/lookup?q=", nil)
	check("POST", "/api/door/checkin/{id}/undo", "/api/door/checkin/"+members[0].ID+"/undo", nil)
	check("POST", "/api/door/checkin/{id}/undo", "/api/door/checkin/"+members[0].ID+"/undo", nil)
	check("POST", "/api/door/checkin/{id}/undo", "/api/door/checkin/000000000000000000000000/undo", nil)
	check("GET", "/api/admin/stats", "/api/admin/stats", nil) // 403 for a bartender
	check("GET", "/api/me", "/api/me", nil)
}

// FuzzParseCheckIn feeds arbitrary bodies to the check-in decoder: it
// must answer a request with a well-formed code or id, or a 4xx
// *apiError, never panic or anything else.
func FuzzParseCheckIn(f *testing.F) {
	for _, seed := range []string{
		`{"code":"ABCD2345"}`, `{"code":"abcd-2345","heads":3}`, `{"code":"https://party.test/login?code=ABCD2345"}`,
		`{"guestId":"665f00000000000000000000","force":true}`, `{"code":"x","guestId":"y"}`, `{"heads":-1,"code":"ABCD2345"}`,
		`{"code":1}`, `[]`, `null`, `{`, ``, `{"code":"a"} {}`, "\x00\xff", `{"code":"%zz?code=ABCD2345"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseCheckIn(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		switch {
		case req.Code != "" && req.GuestID != "", req.Code == "" && req.GuestID == "":
			t.Fatalf("accepted %+v: want exactly one of code and guestId", req)
		case req.Code != "" && !guest.ValidCode(req.Code):
			t.Fatalf("accepted code %q", req.Code)
		case req.GuestID != "" && !guest.ValidID(req.GuestID):
			t.Fatalf("accepted guestId %q", req.GuestID)
		case req.Heads != nil && (*req.Heads < 1 || *req.Heads > guest.MaxPartySize):
			t.Fatalf("accepted heads %d", *req.Heads)
		}
	})
}

// TestDoorWarningsTranslated: the door's notes come in the language the
// door's page asks for. Every note DecideArrival writes has its message in
// Swedish and Portuguese with all its placeholders filled; over HTTP, a
// Swedish door gets Swedish notes and a door without a language English.
func TestDoorWarningsTranslated(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 6, 19, 20, 0, 0, 0, time.UTC)
	nuts := guest.NormalizeDietary(guest.Dietary{Text: "nut allergy, something odd"})
	drinks := []diet.Drink{{Name: "Mai Tai", Allergens: []string{"nuts"}}}
	self := guest.Guest{ID: "g1", FirstName: "Pat", LastName: "Byron", ExpectedGuests: 1, Dietary: nuts}
	in := self
	in.CheckedInAt, in.CheckedInBy, in.ArrivedHeads = &at, "Bea", 1
	group := []guest.Guest{self, {ID: "g2", FirstName: "Bob", Status: guest.StatusComing, CheckedInAt: &at}, {ID: "g3", FirstName: "Al", Status: guest.StatusComing}}
	declined := self
	declined.Status = guest.StatusDeclined
	seen := map[string]bool{}
	for _, a := range []guest.Arrival{
		guest.DecideArrival(self, group, guest.ArrivalOptions{Heads: 3, Drinks: drinks}),
		guest.DecideArrival(self, group[:2], guest.ArrivalOptions{Heads: 3, Force: true}),
		guest.DecideArrival(declined, []guest.Guest{self, group[2]}, guest.ArrivalOptions{}),
		guest.DecideArrival(declined, nil, guest.ArrivalOptions{Force: true}),
		guest.DecideArrival(in, nil, guest.ArrivalOptions{}),
		guest.DecideArrival(guest.Guest{FirstName: "Al", Status: guest.StatusComing, CheckedInAt: &at, ArrivedHeads: 2}, []guest.Guest{{ID: "x", FirstName: "Cy"}}, guest.ArrivalOptions{}),
	} {
		for _, w := range a.Warnings {
			seen[w.Key] = true
			for _, lang := range []string{"sv", "pt-BR"} {
				text, ok := cat.Text(cat.Match(lang), w.Key, w.Vars)
				if !ok || text == w.Message || strings.Contains(text, "<no value>") {
					t.Errorf("%s in %s: %q (ok %v) for %q", w.Key, lang, text, ok, w.Message)
				}
			}
		}
	}
	for _, key := range []string{"door.warn.already_checked_in", "door.warn.already_checked_in_by", "door.warn.declined.ask", "door.warn.declined.in",
		"door.warn.not_answered.ask", "door.warn.not_answered.in", "door.warn.more_than_invited.ask", "door.warn.more_than_invited.in",
		"door.warn.dietary", "door.warn.dietary_not", "door.warn.dietary_review", "door.warn.group_here", "door.warn.group_tocome", "door.warn.group_here_tocome"} {
		if !seen[key] {
			t.Errorf("no arrival above writes %s", key)
		}
	}

	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	members := e.addHousehold(
		guest.Guest{FirstName: "Bob", LastName: "Byron", Status: guest.StatusComing},
		guest.Guest{FirstName: "Pat", LastName: "Byron"},
	)
	if status, _, raw := e.doorCheckIn(tok, map[string]string{"code": members[0].Code}); status != http.StatusOK {
		t.Fatalf("bob: %d %s", status, raw)
	}
	status, raw := e.do("POST", "/api/door/checkin", tok, map[string]string{"code": members[1].Code}, "Accept-Language", "sv-SE,sv;q=0.9")
	var v checkInView
	decodeInto(t, raw, &v)
	if status != http.StatusOK || len(v.Warnings) != 2 ||
		v.Warnings[0].Message != "Pat Byron svarade aldrig på OSA, så värden räknar inte med hen: släppa in ändå?" ||
		v.Warnings[1].Message != "1 av 1 i sällskapet är redan här: Bob" {
		t.Errorf("Swedish door: %d %s", status, raw)
	}
	if _, v, raw := e.doorCheckIn(tok, map[string]string{"code": members[1].Code}); len(v.Warnings) == 0 || !strings.HasPrefix(v.Warnings[0].Message, "Pat Byron never answered the RSVP") {
		t.Errorf("English door: %s", raw)
	}
}
