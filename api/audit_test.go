package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
)

// auditedPaths outside /api/admin/: the bar's stock switches, the door,
// "sign out everywhere" and the guests' answers.
var auditedPaths = []string{"/api/rsvp", "/api/bar/stock/{ingredient}", "/api/bar/drinks/{id}/stock", "/api/door/checkin", "/api/door/checkin/{id}/undo", "/api/door/walkins", "/api/auth/signout-everywhere", "/api/bar/boards", "/api/bar/boards/{id}",
	"/api/register", "/api/register/{token}/accept", "/api/register/{token}/confirm", "/api/register/{token}/cancel"}

func audited(method, path string) bool {
	return mutating(method) && (strings.HasPrefix(path, "/api/admin/") || slices.Contains(auditedPaths, path))
}

// TestEveryAuditedRouteHasAnAction walks the router: every mutating admin
// or stock route has an action in auditActions and the recordAudit
// middleware, no other route has the middleware's entry written for it,
// and the table names no route that does not exist.
func TestEveryAuditedRouteHasAnAction(t *testing.T) {
	e := newTestEnv(t)
	// A method value's code pointer is the same whatever the receiver.
	recorder := reflect.ValueOf((&Server{}).recordAudit).Pointer()
	seen := map[string]bool{}
	err := chi.Walk(New(e.deps).(chi.Routes), func(method, route string, _ http.Handler, mws ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/")
		name := method + " " + route
		hasRecorder := slices.ContainsFunc(mws, func(mw func(http.Handler) http.Handler) bool {
			return reflect.ValueOf(mw).Pointer() == recorder
		})
		if !audited(method, route) {
			if hasRecorder && mutating(method) {
				t.Errorf("%s is audited but not an admin or stock route; add it to auditedPaths", name)
			}
			return nil
		}
		seen[name] = true
		if auditActions[name] == "" {
			t.Errorf("%s has no audit action: add it to auditActions (api/audit.go)", name)
		}
		if !hasRecorder {
			t.Errorf("%s does not go through recordAudit", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]string{}
	for route, action := range auditActions {
		if !seen[route] {
			t.Errorf("auditActions names %s, which is not an audited route", route)
		}
		if !audit.ValidAction(action) {
			t.Errorf("%s: action %q is not a valid action name", route, action)
		}
		if other, dup := actions[action]; dup {
			t.Errorf("action %q is used by %s and %s", action, route, other)
		}
		actions[action] = route
	}
	if len(seen) < len(auditActions) {
		t.Errorf("walked %d audited routes, the table has %d", len(seen), len(auditActions))
	}
}

// TestEveryActionHasAnArea: the desk's log filters by area, so an action
// outside every area could only be found under "Every change".
func TestEveryActionHasAnArea(t *testing.T) {
	for route, action := range auditActions {
		if audit.AreaOf(action) == "" {
			t.Errorf("%s: action %q is in no area of audit.Areas", route, action)
		}
	}
	if audit.AreaOf(auditUnmapped) == "" {
		t.Errorf("%q is in no area", auditUnmapped)
	}
	if got := audit.AreaOf("door.check_in"); got != "door" {
		t.Errorf("door.check_in is in area %q", got)
	}
	if got := audit.AreaOf("drink_stock.set"); got != "bar" {
		t.Errorf("drink_stock.set is in area %q, want bar (not the menu's drink)", got)
	}
}

// auditEntry is an entry as the API answers it.
type auditEntry struct {
	ID        string         `json:"id"`
	At        string         `json:"at"`
	ActorID   string         `json:"actorId"`
	ActorName string         `json:"actorName"`
	Role      string         `json:"role"`
	Action    string         `json:"action"`
	Subject   string         `json:"subject"`
	Status    int            `json:"status"`
	Details   map[string]any `json:"details"`
}

type auditResponse struct {
	Entries []auditEntry `json:"entries"`
	Total   int          `json:"total"`
	Limit   int          `json:"limit"`
	Page    int          `json:"page"`
	Pages   int          `json:"pages"`
}

func (e *testEnv) auditLog(tok, query string) (auditResponse, []byte) {
	e.t.Helper()
	status, body := e.do("GET", "/api/admin/audit"+query, tok, nil)
	if status != http.StatusOK {
		e.t.Fatalf("GET /api/admin/audit%s: %d %s", query, status, body)
	}
	var out auditResponse
	decodeInto(e.t, body, &out)
	return out, body
}

// want is an expected entry: details compared as JSON values.
type wantEntry struct {
	action, subject string
	status          int
	details         map[string]any
}

func checkEntries(t *testing.T, got []auditEntry, want []wantEntry, actorID, actorName, role string) {
	t.Helper()
	if len(got) != len(want) {
		var names []string
		for _, g := range got {
			names = append(names, g.Action)
		}
		t.Fatalf("%d entries %v, want %d", len(got), names, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Action != w.action || g.Subject != w.subject || g.Status != w.status {
			t.Errorf("entry %d: %s %q %d, want %s %q %d", i, g.Action, g.Subject, g.Status, w.action, w.subject, w.status)
		}
		if g.ActorID != actorID || g.ActorName != actorName || g.Role != role {
			t.Errorf("entry %d (%s): actor %s %q %s, want %s %q %s", i, g.Action, g.ActorID, g.ActorName, g.Role, actorID, actorName, role)
		}
		if !reflect.DeepEqual(g.Details, w.details) {
			t.Errorf("entry %d (%s): details %#v, want %#v", i, g.Action, g.Details, w.details)
		}
		if g.ID == "" || g.At == "" || !strings.HasPrefix(g.ID, strings.NewReplacer("-", "", ":", "").Replace(g.At[:19])) {
			t.Errorf("entry %d (%s): id %q does not start with its time %q", i, g.Action, g.ID, g.At)
		}
	}
}

// TestAuditRecordsAdminActions performs what a host does on the desk and
// reads the log back: one entry per change, newest first, with who, what,
// which guest and the import's counts, and never a code or a token.
func TestAuditRecordsAdminActions(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	host := e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(host)
	secrets := []string{host.Code, tok, e.appKey}

	// Add a guest.
	status, body := e.do("POST", "/api/admin/guests", tok, map[string]any{"firstName": "Cy", "lastName": "Day", "expectedGuests": 2})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	var cy guest.Guest
	decodeInto(t, body, &cy)
	secrets = append(secrets, cy.Code)

	// A check of an import changes nothing and is not recorded; the
	// import itself updates Cy, adds two guests and refuses a row.
	csv := "id,firstName,lastName,dietary\n" +
		cy.ID + ",Cy,Day,vegan\n" +
		",Dee,Eve,\n" +
		",Fay,Gee,\n" +
		",OnlyFirst,,\n"
	if status, body := e.do("POST", "/api/admin/guests/import?dryRun=true", tok, csv, "Content-Type", "text/csv"); status != http.StatusOK {
		t.Fatalf("import check: %d %s", status, body)
	}
	status, body = e.do("POST", "/api/admin/guests/import", tok, csv, "Content-Type", "text/csv")
	var rep importReport
	decodeInto(t, body, &rep)
	if status != http.StatusOK || rep.Created != 2 || rep.Updated != 1 || rep.Refused != 1 {
		t.Fatalf("import: %d %s", status, body)
	}
	dee := rep.Rows[1].ID

	// A new code for Cy, new settings, Cy is coming, Dee is taken off.
	var newCode codeView
	status, body = e.do("POST", "/api/admin/guests/"+cy.ID+"/code", tok, nil)
	decodeInto(t, body, &newCode)
	if status != http.StatusOK || newCode.Code == "" || newCode.Code == cy.Code {
		t.Fatalf("new code: %d %s", status, body)
	}
	secrets = append(secrets, newCode.Code)
	if status, body := e.do("PUT", "/api/admin/settings", tok, map[string]string{"eventName": "Garden party", "timezone": "Europe/Stockholm"}); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/admin/guests/"+cy.ID, tok, map[string]any{"status": "coming", "expectedGuests": 2}); status != http.StatusOK {
		t.Fatalf("update: %d %s", status, body)
	}
	if status, body := e.do("DELETE", "/api/admin/guests/"+dee, tok, nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", status, body)
	}
	// Switching the guests' app off and on with a new key.
	if status, body := e.do("PUT", "/api/admin/app-key", tok, map[string]any{"enabled": true, "rotate": true}); status != http.StatusOK {
		t.Fatalf("app key: %d %s", status, body)
	}
	k, err := e.store.AppKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, k.Key)
	e.appKey = k.Key

	// A guest's own answer is recorded too, with the guest as the actor
	// (the desk's "Latest answers" reads it back after a reload).
	cyNow, err := e.store.GuestByID(ctx, cy.ID) // the new code ended Cy's sessions
	if err != nil {
		t.Fatal(err)
	}
	cyTok := e.tokenFor(cyNow)
	secrets = append(secrets, cyTok)
	if status, body := e.do("PUT", "/api/rsvp", cyTok, map[string]any{"status": "coming", "numGuests": 2}); status != http.StatusOK {
		t.Fatalf("rsvp: %d %s", status, body)
	}

	everything, raw := e.auditLog(tok, "")
	if everything.Total != 8 || everything.Entries[0].Action != "rsvp.answer" || everything.Entries[0].ActorID != cy.ID || everything.Entries[0].Subject != cy.ID ||
		everything.Entries[0].Details["status"] != "coming" || everything.Entries[0].Details["numGuests"] != 2.0 || everything.Entries[0].Details["name"] != "Cy Day" {
		t.Errorf("the guest's answer in the log: %s", raw)
	}
	log, _ := e.auditLog(tok, "?actorId="+host.ID)
	checkEntries(t, log.Entries, []wantEntry{
		{"appkey.set", "", 200, map[string]any{"enabled": true, "rotated": true}},
		{"guest.delete", dee, 204, map[string]any{"name": "Dee Eve"}},
		{"guest.update", cy.ID, 200, map[string]any{"name": "Cy Day", "changed": []any{"status"}, "status": "coming"}},
		{"settings.update", "", 200, map[string]any{"changed": []any{"eventName", "timezone"}}},
		{"guest.code", cy.ID, 200, map[string]any{"name": "Cy Day"}},
		{"guest.import", "", 200, map[string]any{"created": 2.0, "updated": 1.0, "refused": 1.0}},
		{"guest.create", cy.ID, 201, map[string]any{"name": "Cy Day"}},
	}, host.ID, "Hosta Host", "admin")
	if log.Total != 7 || log.Page != 1 || log.Pages != 1 || log.Limit != 50 {
		t.Errorf("page: total %d, page %d of %d, limit %d; want 7, 1 of 1, 50", log.Total, log.Page, log.Pages, log.Limit)
	}

	// No code, token or key anywhere in the log, whatever the filter.
	all, err := e.store.AllGuests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range all {
		secrets = append(secrets, g.Code)
	}
	for _, s := range secrets {
		if s == "" {
			t.Fatal("a secret to look for is empty")
		}
		if strings.Contains(string(raw), s) {
			t.Errorf("the audit log holds the secret %q: %s", s, raw)
		}
	}

	// Filters and pages.
	for _, tc := range []struct {
		query   string
		actions []string
		total   int
		pages   int
	}{
		{"?action=guest", []string{"guest.delete", "guest.update", "guest.code", "guest.import", "guest.create"}, 5, 1},
		{"?action=guest.code", []string{"guest.code"}, 1, 1},
		{"?action=settings.update", []string{"settings.update"}, 1, 1},
		{"?action=drink", nil, 0, 0},
		{"?actorId=" + host.ID + "&limit=3", []string{"appkey.set", "guest.delete", "guest.update"}, 7, 3},
		{"?limit=3&page=3", []string{"guest.import", "guest.create"}, 8, 3},
		{"?limit=3&page=4", nil, 8, 3},
		{"?actorId=" + cy.ID, []string{"rsvp.answer"}, 1, 1},
		{"?area=rsvp", []string{"rsvp.answer"}, 1, 1},
		{"?area=guests", []string{"guest.delete", "guest.update", "guest.code", "guest.import", "guest.create"}, 5, 1},
		{"?area=system", []string{"appkey.set"}, 1, 1},
		{"?area=event&action=settings", []string{"settings.update"}, 1, 1},
		{"?area=door", nil, 0, 0},
		{"?area=guests&action=settings", nil, 0, 0},
		{"?since=" + log.Entries[2].At + "&until=" + log.Entries[0].At, []string{"guest.delete", "guest.update"}, 2, 1},
		{"?until=2000-01-01T00:00:00Z", nil, 0, 0},
	} {
		got, _ := e.auditLog(tok, tc.query)
		var actions []string
		for _, g := range got.Entries {
			actions = append(actions, g.Action)
		}
		if !slices.Equal(actions, tc.actions) || got.Total != tc.total || got.Pages != tc.pages {
			t.Errorf("%s: %v (total %d, pages %d), want %v (total %d, pages %d)", tc.query, actions, got.Total, got.Pages, tc.actions, tc.total, tc.pages)
		}
	}

	// Each write was counted.
	if status, body := e.do("GET", "/metrics", "", nil); status != 200 || !strings.Contains(string(body), "barhub_audit_written_total 8\n") || !strings.Contains(string(body), "barhub_audit_write_errors_total 0\n") {
		t.Errorf("metrics: %d, want barhub_audit_written_total 8 and no errors in:\n%s", status, grepLines(string(body), "barhub_audit"))
	}
}

func grepLines(s, substr string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, substr) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// TestAuditRecordsTheBar: the bar's stock switches are recorded with the
// bartender as the actor and the ingredient's key as the subject.
func TestAuditRecordsTheBar(t *testing.T) {
	e := newTestEnv(t)
	seedMenu(t, e.store)
	host := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	barkeep := e.addGuest(guest.Guest{FirstName: "Bo", LastName: "Bar", Role: guest.RoleBartender})
	tok := e.tokenFor(barkeep)

	status, body := e.do("PUT", "/api/bar/stock/Lime%20%20Juice", tok, map[string]bool{"inStock": false})
	if status != http.StatusOK {
		t.Fatalf("stock: %d %s", status, body)
	}
	var stock ingredientStockResponse
	decodeInto(t, body, &stock)
	if len(stock.Drinks) == 0 {
		t.Fatalf("no drink needs lime juice: %s", body)
	}
	drink := stock.Drinks[0]
	if status, body := e.do("PUT", "/api/bar/drinks/"+drink+"/stock", tok, map[string]bool{"inStock": false}); status != http.StatusOK {
		t.Fatalf("drink stock: %d %s", status, body)
	}
	d, err := e.store.DrinkByID(context.Background(), drink)
	if err != nil {
		t.Fatal(err)
	}
	// Reading the queue is not a change.
	if status, body := e.do("GET", "/api/bar/queue", tok, nil); status != http.StatusOK {
		t.Fatalf("queue: %d %s", status, body)
	}
	log, _ := e.auditLog(host, "")
	checkEntries(t, log.Entries, []wantEntry{
		{"drink_stock.set", drink, 200, map[string]any{"name": d.Name, "inStock": false}},
		{"stock.set", "lime juice", 200, map[string]any{"inStock": false, "drinks": float64(len(stock.Drinks))}},
	}, barkeep.ID, "Bo Bar", "bartender")
	// The bar cannot read the log.
	if status, _ := e.do("GET", "/api/admin/audit", tok, nil); status != http.StatusForbidden {
		t.Errorf("bartender reading the log: %d, want 403", status)
	}
}

// TestAuditFailedActionsRecordNothing: a refused or failed change is
// answered as before and leaves no entry.
func TestAuditFailedActionsRecordNothing(t *testing.T) {
	e := newTestEnv(t)
	host := e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(host)
	guestTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Gus", LastName: "Guest"}))
	for _, tc := range []struct {
		method, path, token string
		body                any
		want                int
	}{
		{"POST", "/api/admin/guests", tok, map[string]any{"firstName": "Cy"}, 422},
		{"POST", "/api/admin/guests", tok, "{", 400},
		{"POST", "/api/admin/guests", guestTok, map[string]any{"firstName": "Cy", "lastName": "Day"}, 403},
		{"POST", "/api/admin/guests", "", map[string]any{"firstName": "Cy", "lastName": "Day"}, 401},
		{"PUT", "/api/admin/guests/000000000000000000000000", tok, map[string]any{"status": "coming"}, 404},
		{"DELETE", "/api/admin/guests/" + host.ID, tok, nil, 409},
		{"POST", "/api/admin/guests/000000000000000000000000/code", tok, nil, 404},
		{"POST", "/api/admin/guests/import", tok, "", 400},
		{"PUT", "/api/admin/settings", tok, map[string]string{"eventName": "Garden party", "timezone": "Mars/Olympus"}, 422},
		{"DELETE", "/api/admin/drinks/nope", tok, nil, 404},
		{"PUT", "/api/admin/app-key", tok, map[string]any{}, 400},
		{"POST", "/api/admin/announcements", tok, map[string]string{"text": " "}, 400},
		{"PUT", "/api/bar/stock/lime", tok, map[string]any{}, 400},
	} {
		if status, body := e.do(tc.method, tc.path, tc.token, tc.body); status != tc.want {
			t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, status, body, tc.want)
		}
	}
	if log, raw := e.auditLog(tok, ""); log.Total != 0 || len(log.Entries) != 0 || log.Pages != 0 {
		t.Errorf("failed actions were recorded: %s", raw)
	}
}

// TestAuditQueryErrors: every bad parameter is a 400 that says which.
func TestAuditQueryErrors(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	for _, tc := range []struct{ query, mention string }{
		{"action=Guest", "action"},
		{"action=guest.*", "action"},
		{"action=" + strings.Repeat("a", 65), "action"},
		{"actorId=a%20b", "actorId"},
		{"since=yesterday", "since"},
		{"since=2030-06-12", "since"},
		{"until=2030-06-12T18:00:00", "until"},
		{"since=0001-01-01T00:00:00Z", "since"},
		{"until=2030-06-12T18:00:00Z&since=2030-06-13T18:00:00Z", "until"},
		{"limit=0", "limit"},
		{"limit=501", "limit"},
		{"limit=x", "limit"},
		{"page=0", "page"},
		{"page=-1", "page"},
		{"page=1.5", "page"},
		{"area=kitchen", "area"},
		{"area=Door", "area"},
	} {
		status, body := e.do("GET", "/api/admin/audit?"+tc.query, tok, nil)
		if status != http.StatusBadRequest || errorCode(t, body) != "invalid_query" || !strings.Contains(string(body), tc.mention) {
			t.Errorf("?%s: %d %s, want 400 invalid_query naming %s", tc.query, status, body, tc.mention)
		}
	}
	// Good ones, for contrast.
	for _, q := range []string{"", "action=guest", "action=drink_stock.set", "since=2030-06-12T18:00:00%2B02:00", "until=2030-06-12T18:00:00.5Z", "limit=500&page=3", "area=door"} {
		if status, body := e.do("GET", "/api/admin/audit?"+q, tok, nil); status != http.StatusOK {
			t.Errorf("?%s: %d %s", q, status, body)
		}
	}
}

// TestAuditActionsAreDocumented: the OpenAPI enum of actions is the table's.
func TestAuditActionsAreDocumented(t *testing.T) {
	_, root := loadOpenAPI(t)
	enum, ok := resolveOpenAPIRef(root, "#/components/schemas/AuditEntry/properties/action/enum")
	if !ok {
		t.Fatal("api/openapi.json has no AuditEntry action enum")
	}
	var documented []string
	for _, v := range enum.([]any) {
		documented = append(documented, v.(string))
	}
	want := append([]string{auditUnmapped}, systemActions...)
	for _, action := range auditActions {
		want = append(want, action)
	}
	slices.Sort(documented)
	slices.Sort(want)
	if !slices.Equal(documented, want) {
		t.Errorf("documented actions %v, want %v", documented, want)
	}
}

// A burst of admin actions at once (here 40 personal announcements) is
// written together, and every one of them is in the log when its
// request answers.
func TestAuditBurst(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			body := map[string]string{"text": "your table is " + strconv.Itoa(i), "guestId": fmt.Sprintf("g%02d", i)}
			if status, raw := e.do("POST", "/api/admin/announcements", tok, body); status != 202 {
				t.Errorf("announcement %d: %d %s", i, status, raw)
			}
		})
	}
	wg.Wait()
	var log auditPage
	status, raw := e.do("GET", "/api/admin/audit?action=announcement&limit=100", tok, nil)
	decodeInto(t, raw, &log)
	seen := map[string]bool{}
	for _, en := range log.Entries {
		seen[en.Subject] = true
	}
	if status != 200 || log.Total != 40 || len(seen) != 40 {
		t.Errorf("audit log: %d, %d entries for %d guests, want 40 each", status, log.Total, len(seen))
	}
}
