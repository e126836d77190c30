package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/text"
)

func TestAdminGuestLifecycle(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)

	status, body := e.do("POST", "/api/admin/guests", tok, map[string]any{"firstName": "Ada", "lastName": "Lovelace", "expectedGuests": 2, "groupId": "byron", "role": "guest"})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	var ada guest.Guest
	decodeInto(t, body, &ada)
	if ada.ID == "" || !guest.ValidCode(ada.Code) || ada.ExpectedGuests != 2 || ada.GroupID != "byron" || ada.Status != guest.StatusPending {
		t.Fatalf("created = %s", body)
	}
	for _, bad := range []struct {
		body any
		want int
	}{
		{map[string]any{"firstName": "No last name"}, 422},
		{map[string]any{"firstName": "A", "lastName": "B", "expectedGuests": 0}, 422},
		{map[string]any{"firstName": "A", "lastName": "B", "role": "king"}, 422},
		{map[string]any{"firstName": "A", "lastName": "B", "groupId": "spaces are bad"}, 422},
		{map[string]any{"firstName": "A", "lastName": "B", "code": "ABCDEFGH"}, 422},
		{`{"firstName": 5}`, 400},
	} {
		if status, body := e.do("POST", "/api/admin/guests", tok, bad.body); status != bad.want {
			t.Errorf("create %v: %d %s, want %d", bad.body, status, body, bad.want)
		}
	}

	status, body = e.do("POST", "/api/admin/guests", tok, map[string]any{"firstName": "Bob", "lastName": "Byron"})
	var bob guest.Guest
	decodeInto(t, body, &bob)

	// Bob joins Ada's group: one update of his own document.
	status, body = e.do("PUT", "/api/admin/guests/"+bob.ID, tok, map[string]any{"groupId": "byron"})
	if status != http.StatusOK {
		t.Fatalf("join: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/admin/groups", tok, nil)
	var groups struct {
		Groups []groupView `json:"groups"`
	}
	decodeInto(t, body, &groups)
	if status != 200 || len(groups.Groups) != 1 || groups.Groups[0].ID != "byron" || len(groups.Groups[0].Members) != 2 || groups.Groups[0].ExpectedTotal != 3 {
		t.Errorf("groups: %d %s", status, body)
	}
	// The host sets the expected count and answers for Ada.
	status, body = e.do("PUT", "/api/admin/guests/"+ada.ID, tok, map[string]any{"expectedGuests": 3, "status": "coming", "dietary": map[string]any{"text": "vegan"}})
	if status != http.StatusOK {
		t.Fatalf("edit: %d %s", status, body)
	}
	decodeInto(t, body, &ada)
	if ada.NumGuests != 3 || ada.RSVPBy != admin.ID || !slices.Equal(ada.Dietary.Tags, []string{"vegan"}) {
		t.Errorf("edited = %s", body)
	}
	// Bob leaves.
	if status, body := e.do("PUT", "/api/admin/guests/"+bob.ID, tok, map[string]any{"groupId": ""}); status != 200 || !strings.Contains(string(body), `"groupId":null`) {
		t.Errorf("leave: %d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/admin/guests/"+bob.ID, tok, map[string]any{}); status != 400 {
		t.Errorf("empty edit: %d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/admin/guests/"+admin.ID, tok, map[string]any{"role": "guest"}); status != 409 {
		t.Errorf("demoting myself: %d %s", status, body)
	}
	if status, _ := e.do("PUT", "/api/admin/guests/nobody", tok, map[string]any{"firstName": "X"}); status != 404 {
		t.Errorf("edit of unknown guest: %d", status)
	}

	status, body = e.do("POST", "/api/admin/guests/"+bob.ID+"/code", tok, nil)
	var cv codeView
	decodeInto(t, body, &cv)
	if status != 200 || cv.Code == bob.Code || cv.Guest.Code != cv.Code {
		t.Errorf("new code: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/auth/login", "", map[string]string{"code": bob.Code, "lastName": "Byron"}); status != 401 {
		t.Errorf("old code still signs in: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/auth/login", "", map[string]string{"code": cv.Code, "lastName": "byron"}); status != 200 {
		t.Errorf("new code does not sign in: %d %s", status, body)
	}

	status, body = e.do("GET", "/api/admin/stats", tok, nil)
	var st statsView
	decodeInto(t, body, &st)
	// The host is staff: not one of the guests.
	want := guest.Counts{Invited: 2, Expected: 4, Pending: 1, Coming: 1, ComingHeads: 3, NeverLoggedIn: 2, WithAllergies: 1, Staff: 1}
	if status != 200 || st.Counts != want || st.Answered != 1 {
		t.Errorf("stats: %d %s\nwant %+v", status, body, want)
	}

	if status, _ := e.do("DELETE", "/api/admin/guests/"+admin.ID, tok, nil); status != 409 {
		t.Errorf("deleting myself: %d", status)
	}
	if status, body := e.do("DELETE", "/api/admin/guests/"+bob.ID, tok, nil); status != 204 {
		t.Errorf("delete: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/admin/guests/"+bob.ID, tok, nil); status != 404 {
		t.Errorf("deleted guest: %d", status)
	}
	status, body = e.do("GET", "/api/admin/stats?recount=true&timeline=true", tok, nil)
	decodeInto(t, body, &st)
	if status != 200 || st.Invited != 1 || len(st.Timeline) != 1 || st.Timeline[0].TotalHeads != 3 {
		t.Errorf("recount with timeline: %d %s", status, body)
	}
}

func TestAdminGuestList(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	for i := range 23 {
		g := guest.Guest{FirstName: fmt.Sprintf("G%02d", i), LastName: "Zed", Dietary: guest.Dietary{Text: map[bool]string{true: "gluten"}[i%5 == 0]}}
		if i%3 == 0 {
			g.Status = guest.StatusComing
		}
		if err := e.store.InsertGuest(context.Background(), &g); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		query      string
		total      int64
		first      string
		count      int
		page       int
		pages      int
		wantStatus int
	}{
		{"", 24, "Party", 24, 1, 1, 200},
		{"?limit=10&page=3", 24, "G19", 4, 3, 3, 200},
		{"?limit=10&offset=5&sort=firstName", 24, "G05", 10, 1, 3, 200},
		{"?sort=-firstName&limit=1", 24, "Party", 1, 1, 24, 200},
		{"?sort=firstName&order=desc&limit=1", 24, "Party", 1, 1, 24, 200},
		{"?status=coming", 8, "G00", 8, 1, 1, 200},
		{"?status=coming&hasDietary=true", 2, "G00", 2, 1, 1, 200},
		{"?neverLoggedIn=true&q=g1&sort=firstName", 10, "G10", 10, 1, 1, 200},
		{"?q=ZED&limit=5", 23, "G00", 5, 1, 5, 200},
		{"?status=maybe", 0, "", 0, 0, 0, 400},
		{"?sort=shoeSize", 0, "", 0, 0, 0, 400},
		{"?limit=0", 0, "", 0, 0, 0, 400},
		{"?limit=501", 0, "", 0, 0, 0, 400},
		{"?hasDietary=perhaps", 0, "", 0, 0, 0, 400},
		{"?groupId=no%20spaces", 0, "", 0, 0, 0, 400},
	}
	for _, tt := range tests {
		status, body := e.do("GET", "/api/admin/guests"+tt.query, tok, nil)
		if status != tt.wantStatus {
			t.Errorf("%s: %d %s", tt.query, status, body)
			continue
		}
		if status != 200 {
			errorCode(t, body)
			continue
		}
		var p guestPage
		decodeInto(t, body, &p)
		first := ""
		if len(p.Guests) > 0 {
			first = p.Guests[0].FirstName
		}
		if p.Total != tt.total || first != tt.first || len(p.Guests) != tt.count || p.Page != tt.page || p.Pages != tt.pages {
			t.Errorf("%s: total %d first %q count %d page %d/%d; want %d %q %d %d/%d",
				tt.query, p.Total, first, len(p.Guests), p.Page, p.Pages, tt.total, tt.first, tt.count, tt.page, tt.pages)
		}
	}
}

func TestDietaryReport(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	for _, g := range []guest.Guest{
		{FirstName: "Ada", LastName: "A", Status: guest.StatusComing, ExpectedGuests: 2, Dietary: guest.Dietary{Text: "nuts and gluten"}},
		{FirstName: "Bea", LastName: "B", Status: guest.StatusComing, Dietary: guest.Dietary{Text: "no nuts"}},
		{FirstName: "Cid", LastName: "C", Status: guest.StatusPending, Dietary: guest.Dietary{Text: "coriander"}},
		{FirstName: "Dan", LastName: "D", Status: guest.StatusDeclined, Dietary: guest.Dietary{Text: "vegan"}},
		{FirstName: "Eve", LastName: "E", Status: guest.StatusComing},
	} {
		if err := e.store.InsertGuest(context.Background(), &g); err != nil {
			t.Fatal(err)
		}
	}
	status, body := e.do("GET", "/api/admin/reports/dietary", e.tokenFor(admin), nil)
	var r dietaryReport
	decodeInto(t, body, &r)
	// Ada's +1 said nothing of nuts: two people need them, not three.
	if status != 200 || r.Guests != 2 || len(r.Tags) != 2 || r.Tags[0].Tag != "nuts" || r.Tags[0].Guests != 2 || r.Tags[0].People != 2 ||
		r.Tags[1].Tag != "gluten" || r.Tags[1].Entries[0].FirstName != "Ada" || r.Tags[1].Entries[0].Text != "nuts and gluten" {
		t.Errorf("coming: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/admin/reports/dietary?status=all", e.tokenFor(admin), nil)
	decodeInto(t, body, &r)
	// Words barhub did not understand are never a silent "other": they
	// come first, as needing the host's eyes.
	if status != 200 || r.Guests != 3 || r.Tags[0].Tag != guest.NeedReview || r.Tags[0].Entries[0].FirstName != "Cid" ||
		!slices.Equal(r.Tags[0].Entries[0].Unclear, []string{"coriander"}) || slices.ContainsFunc(r.Tags, func(t guest.DietaryTag) bool { return t.Tag == "other" }) {
		t.Errorf("all: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/admin/reports/dietary?status=hungry", e.tokenFor(admin), nil); status != 400 {
		t.Errorf("bad status: %d", status)
	}
}

func TestImportGuests(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	csv := "First Name,Last Name,Expected,Group,Dietary,Status\n" +
		"Ada,Lovelace,2,byron,no nuts,\n" + // 2: created
		"Bob,Byron,1,byron,,coming\n" + // 3: created
		"ada,LOVELACE,1,,,\n" + // 4: the same guest as row 2
		"Cy,,1,,,\n" + // 5: no last name
		"Dee,Dee,lots,,,\n" + // 6: not a number
		"Party,Host,1,,,\n" + // 7: already invited
		"Eve,Ek,1,,,maybe\n" + // 8: bad status
		"Fay,Fo,1,,,declined,extra\n" + // 9: too many fields
		"Gus,Gro,3,,vegan,\n" // 10: created
	status, body := e.do("POST", "/api/admin/guests/import", tok, csv, "Content-Type", "text/csv")
	if status != 200 {
		t.Fatalf("import: %d %s", status, body)
	}
	var rep importReport
	decodeInto(t, body, &rep)
	want := []struct {
		row    int
		status string
		reason string
	}{
		{2, rowCreated, ""}, {3, rowCreated, ""}, {4, rowRefused, "same guest as row 2"}, {5, rowRefused, "lastName"},
		{6, rowRefused, "expectedGuests"}, {7, rowRefused, "already invited"}, {8, rowRefused, "status"},
		{9, rowRefused, "fields"}, {10, rowCreated, ""},
	}
	if len(rep.Rows) != len(want) || rep.Created != 3 || rep.Updated != 0 || rep.Refused != 6 {
		t.Fatalf("report: %s", body)
	}
	for i, w := range want {
		r := rep.Rows[i]
		if r.Row != w.row || r.Status != w.status || !strings.Contains(r.Reason, w.reason) || (w.status == rowCreated) != (r.ID != "") {
			t.Errorf("row %d: %+v, want %+v", w.row, r, w)
		}
	}
	status, body = e.do("GET", "/api/admin/stats", tok, nil)
	var st statsView
	decodeInto(t, body, &st)
	// The host is staff: three imported guests and one added before.
	if st.Invited != 3 || st.Coming != 1 || st.Expected != 6 || st.Pending != 2 {
		t.Errorf("stats after import: %s", body)
	}

	// A JSON body with dryRun changes nothing.
	status, body = e.do("POST", "/api/admin/guests/import", tok, map[string]any{"csv": "firstName,lastName\nNew,Person\n", "dryRun": true})
	decodeInto(t, body, &rep)
	if status != 200 || !rep.DryRun || rep.Created != 1 {
		t.Errorf("dry run: %d %s", status, body)
	}
	if n, _ := e.store.CountGuests(context.Background(), nil); n != 4 {
		t.Errorf("dry run created guests: %d", n)
	}
	for _, bad := range []struct {
		body string
		ct   string
		want int
	}{
		{"", "text/csv", 400},
		{"just,some,words\n1,2,3\n", "text/csv", 422},
		{`{"csv": 5}`, "application/json", 400},
	} {
		if status, body := e.do("POST", "/api/admin/guests/import", tok, bad.body, "Content-Type", bad.ct); status != bad.want {
			t.Errorf("import %q: %d %s, want %d", bad.body, status, body, bad.want)
		}
	}
}

// Reproduction: the import report's reasons were English on a Swedish
// or Portuguese admin page. They follow Accept-Language now, and each
// refused row names its reason with a code that is the same in every
// language; the column names stay as the CSV header has them.
func TestImportReasonsInTheHostsLanguage(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	csv := "First Name,Last Name,Expected,Group,Dietary,Status\n" +
		"Ada,Lovelace,2,byron,no nuts,\n" + // 2: created
		"ada,LOVELACE,1,,,\n" + // 3: the same guest as row 2
		"Cy,,1,,,\n" + // 4: no last name
		"Dee,Dee,lots,,,\n" + // 5: not a number
		"Dee,Dee,99,,,\n" + // 6: out of range
		"Party,Host,1,,,\n" + // 7: already invited
		"Eve,Ek,1,,,maybe\n" + // 8: bad status
		"Fay,Fo,1,,,declined,extra\n" // 9: too many fields
	codes := []string{"", "duplicate_row", "empty", "not_a_number", "out_of_range", "already_invited", "invalid_status", "field_count"}
	for _, tc := range []struct {
		header string
		want   []string
	}{
		{"", []string{"", "the same guest as row 2", "lastName: is empty", `expectedGuests: "lots" is not a whole number`, "expectedGuests: 99 is not between 1 and 50",
			"Party Host is already invited (id " + admin.ID + "); add the id column to update them", `status: "maybe" is not a status; use pending, coming or declined`,
			"this row has 7 fields but the header has 6; check for a stray comma or quote"}},
		{"sv-SE,sv;q=0.9", []string{"", "samma gäst som på rad 2", "lastName: är tomt", `expectedGuests: "lots" är inget heltal`, "expectedGuests: 99 ligger inte mellan 1 och 50",
			"Party Host är redan inbjuden (id " + admin.ID + "); lägg till kolumnen id för att uppdatera gästen", `status: "maybe" är ingen status; skriv pending, coming eller declined`,
			"raden har 7 fält men rubrikraden har 6; leta efter ett kommatecken eller citattecken för mycket"}},
		{"pt-BR", []string{"", "o mesmo convidado da linha 2", "lastName: está vazio", `expectedGuests: "lots" não é um número inteiro`, "expectedGuests: 99 não está entre 1 e 50",
			"Party Host já está convidado (id " + admin.ID + "); adicione a coluna id para atualizar o cadastro", `status: "maybe" não é um status; use pending, coming ou declined`,
			"esta linha tem 7 campos, mas o cabeçalho tem 6; procure uma vírgula ou aspas sobrando"}},
	} {
		hdr := []string{"Content-Type", "text/csv"}
		if tc.header != "" {
			hdr = append(hdr, "Accept-Language", tc.header)
		}
		status, body := e.do("POST", "/api/admin/guests/import?dryRun=true", tok, csv, hdr...)
		if status != 200 {
			t.Fatalf("%q: import: %d %s", tc.header, status, body)
		}
		var rep struct {
			Rows []struct {
				Row            int
				Status, Reason string
				ReasonCode     string `json:"reasonCode"`
			}
		}
		decodeInto(t, body, &rep)
		if len(rep.Rows) != len(tc.want) {
			t.Fatalf("%q: report %s", tc.header, body)
		}
		for i, r := range rep.Rows {
			if r.Reason != tc.want[i] || r.ReasonCode != codes[i] {
				t.Errorf("%q: row %d: reason %q (%s), want %q (%s)", tc.header, r.Row, r.Reason, r.ReasonCode, tc.want[i], codes[i])
			}
		}
	}
}

// TestImportReasonCodesTranslated fails when a reason code of the import
// (the CSV reader's and the import's own) has no message in the server's
// catalogues, which every language shares (go test ./locale/).
func TestImportReasonCodesTranslated(t *testing.T) {
	en, err := locale.Messages("en")
	if err != nil {
		t.Fatal(err)
	}
	def := regexp.MustCompile(`(?m)^\s+(?:Row|reason)[A-Z]\w*\s+= "([a-z_]+)"$`)
	n := 0
	for _, file := range []string{"../guest/csv.go", "admin_csv.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range def.FindAllStringSubmatch(string(src), -1) {
			n++
			if _, ok := en["import.reason."+m[1]]; !ok {
				t.Errorf("%s: reason code %q has no import.reason.%s in locale/messages", file, m[1], m[1])
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d reason codes; the pattern no longer matches the source", n)
	}
}

// Export then import: into the same party nothing changes; into an empty
// one every guest comes back with the same id and code.
func TestExportImportRoundTrip(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	members := e.addHousehold(person("Mia", 3), person("Leo", 1))
	if status, body := e.do("PUT", "/api/rsvp", e.tokenFor(members[0]), map[string]any{
		"status": "coming", "numGuests": 3, "notComing": []string{members[1].ID}, "dietary": "=1+1 gluten", "tastes": map[string]any{"likes": []string{"sour"}},
	}); status != 200 {
		t.Fatalf("rsvp: %d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/admin/guests/"+members[1].ID, tok, map[string]any{"email": "leo@example.com"}); status != 200 {
		t.Fatalf("e-mail: %d %s", status, body)
	}
	resp := e.doResp("GET", "/api/admin/guests.csv", tok, nil)
	exported, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %d %v", resp.StatusCode, resp.Header)
	}
	if bytes.Count(exported, []byte("\n")) != 4 || !bytes.Contains(exported, []byte("'=1+1 gluten")) {
		t.Errorf("export:\n%s", exported)
	}

	status, body := e.do("POST", "/api/admin/guests/import", tok, exported, "Content-Type", "text/csv")
	var rep importReport
	decodeInto(t, body, &rep)
	if status != 200 || rep.Updated != 3 || rep.Created != 0 || rep.Refused != 0 {
		t.Fatalf("re-import: %d %s", status, body)
	}
	for _, r := range rep.Rows {
		if len(r.Changes) != 0 {
			t.Errorf("row %d changed %v", r.Row, r.Changes)
		}
	}

	fresh := newTestEnv(t)
	host := fresh.addGuest(guest.Guest{FirstName: "Other", LastName: "Admin", Role: guest.RoleAdmin})
	status, body = fresh.do("POST", "/api/admin/guests/import", fresh.tokenFor(host), exported, "Content-Type", "text/csv")
	decodeInto(t, body, &rep)
	if status != 200 || rep.Created != 3 || rep.Refused != 0 {
		t.Fatalf("import into an empty party: %d %s", status, body)
	}
	for _, m := range append(members, admin) {
		got, err := fresh.store.GuestByCode(context.Background(), m.Code)
		if err != nil || got.ID != m.ID {
			t.Errorf("%s not back with code and id: %v %+v", m.FirstName, err, got)
		}
	}
	if leo, _ := fresh.store.GuestByID(context.Background(), members[1].ID); leo.Email != "leo@example.com" {
		t.Errorf("leo's e-mail after the round trip: %q", leo.Email)
	}
	// A list with e-mail addresses updates them; a bad one is refused.
	status, body = fresh.do("POST", "/api/admin/guests/import", fresh.tokenFor(host),
		"id,E-mail\n"+members[0].ID+",mia@example.com\n"+members[1].ID+",leo at example\n", "Content-Type", "text/csv")
	decodeInto(t, body, &rep)
	if status != 200 || rep.Updated != 1 || rep.Refused != 1 || !slices.Equal(rep.Rows[0].Changes, []string{"email"}) || !strings.Contains(rep.Rows[1].Reason, "e-mail") {
		t.Errorf("import of e-mail addresses: %d %s", status, body)
	}
	if mia, _ := fresh.store.GuestByID(context.Background(), members[0].ID); mia.Email != "mia@example.com" {
		t.Errorf("mia's e-mail after import: %q", mia.Email)
	}
	if status, body := fresh.do("PUT", "/api/admin/guests/"+members[0].ID, fresh.tokenFor(host), map[string]any{"email": ""}); status != 200 {
		t.Fatalf("clear e-mail: %d %s", status, body)
	}
	mia, _ := fresh.store.GuestByID(context.Background(), members[0].ID)
	if mia.Status != guest.StatusComing || mia.Heads() != 3 || mia.GroupID != members[0].GroupID || mia.Dietary.Text != "=1+1 gluten" ||
		!slices.Equal(mia.Dietary.Tags, []string{"gluten"}) || !slices.Equal(mia.Tastes.Likes, []string{"sour"}) || mia.RSVPDate == nil {
		t.Errorf("mia after round trip = %+v", mia)
	}
	again := fresh.do
	if status, body := again("GET", "/api/admin/guests.csv", fresh.tokenFor(host), nil); status != 200 || !bytes.Equal(stripTimes(body), stripTimes(exported)) {
		t.Errorf("second export differs:\n%s\nfirst:\n%s", body, exported)
	}
}

// stripTimes drops the createdAt column (the last but one, before
// source), which an import sets anew, and the row of the admin who
// differs between the two parties.
func stripTimes(csv []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(csv), "\n") {
		if strings.Contains(line, `"Admin",`) || strings.Contains(line, `,"Host",`) {
			continue
		}
		if i := strings.LastIndex(line, ","); i > 0 {
			if j := strings.LastIndex(line[:i], ","); j > 0 {
				line = line[:j] + line[i:]
			}
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

func TestInvitations(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	members := e.addHousehold(person("Mia", 3), person("<script>", 1))
	resp := e.doResp("GET", "/api/admin/invitations", e.tokenFor(admin), nil)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	html := string(page)
	if n := strings.Count(html, `<article class="card"`); n != 2 {
		t.Errorf("%d cards, want 2: the host's own code is not an invitation", n)
	}
	if strings.Contains(html, admin.Code) {
		t.Error("the host's admin code was printed as an invitation")
	}
	status, withStaff := e.do("GET", "/api/admin/invitations?staff=true", e.tokenFor(admin), nil)
	if n := strings.Count(string(withStaff), `<article class="card"`); status != 200 || n != 3 {
		t.Errorf("?staff=true: %d, %d cards, want 3", status, n)
	}
	link := "http://party.test/login?code=" + members[0].Code
	if !strings.Contains(html, link) || !strings.Contains(html, "<svg") || !strings.Contains(html, "and 2 more") {
		t.Errorf("card of Mia lacks the link, the QR code or her children:\n%s", html)
	}
	if strings.Contains(html, "<script>") {
		t.Error("a name was not escaped")
	}
	status, body := e.do("GET", "/api/admin/invitations?guest="+members[0].ID, e.tokenFor(admin), nil)
	if status != 200 || strings.Count(string(body), `<article class="card"`) != 1 {
		t.Errorf("one guest: %d", status)
	}
	if status, _ := e.do("GET", "/api/admin/invitations?guest=nobody", e.tokenFor(admin), nil); status != 404 {
		t.Errorf("unknown guest: %d", status)
	}

	// A Swedish host prints: the page and the cards of guests who never
	// signed in are in Swedish; a guest whose page was in Portuguese gets
	// a Portuguese card.
	e.addGuest(guest.Guest{FirstName: "João", LastName: "Silva", Language: "pt-BR"})
	status, body = e.do("GET", "/api/admin/invitations", e.tokenFor(admin), nil, "Accept-Language", "sv-SE")
	sv := string(body)
	mia := sv[strings.Index(sv, members[0].ID):]
	joao := sv[strings.Index(sv, "João"):]
	if status != 200 || !strings.Contains(sv, `<html lang="sv">`) || !strings.Contains(sv, "3 kort. Skriv ut sidan") ||
		!strings.Contains(mia[:strings.Index(mia, "</article>")], "Du är inbjuden till") ||
		!strings.Contains(joao[:strings.Index(joao, "</article>")], "Seu código:") {
		t.Errorf("Swedish print: %d\n%s", status, sv)
	}
}

// The SVG has one square per dark module of the library's bitmap, inside
// a viewBox of the bitmap's size (quiet zone included).
func TestQRCodeSVG(t *testing.T) {
	const link = "http://party.test/login?code=ABCDEFGH"
	svg, err := qrSVG(link)
	if err != nil {
		t.Fatal(err)
	}
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	bits := q.Bitmap()
	dark := 0
	for _, row := range bits {
		for _, on := range row {
			if on {
				dark++
			}
		}
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg") || !strings.HasSuffix(s, "</svg>") || !strings.Contains(s, fmt.Sprintf(`viewBox="0 0 %d %d"`, len(bits), len(bits))) {
		t.Errorf("svg = %.200s…", s)
	}
	if got := strings.Count(s, "h1v1h-1z"); got != dark || dark < 200 {
		t.Errorf("%d squares for %d dark modules", got, dark)
	}
}

func FuzzParseRSVP(f *testing.F) {
	f.Add(`{"status":"coming","numGuests":2}`)
	f.Add(`{"status":"coming","numGuests":1,"notComing":["abc"],"confirm":true}`)
	f.Add(`{"status":"declined","scope":"group","dietary":"nuts"}`)
	f.Add(`{"dietary":{"text":"x","tags":["a"]},"tastes":{"likes":["sour"],"alcoholFree":true}}`)
	f.Add(`{"numGuests":"two"}`)
	f.Add(`[]`)
	f.Add(`{"companions":[{"name":"Olle","dietary":"designated driver"}],"members":[{"id":"abc","dietary":{"text":"nötallergi"}}]}`)
	f.Add(`{"members":[{"id":"abc","companions":[{"dietary":{"tags":["nuts"]}},{}]}]}`)
	f.Add(`{"members":[{"id":"../x"}]}`)
	f.Add(`{"dietary":{"text":"x","allergy":"y"}}`)
	f.Add(`{"companions":[{"name":"\u202eBOB","dietary":"nuts\u0000"}]}`)
	f.Add(`{"companions":[{"name":"A\u030asa\u200e","dietary":{"text":"\u3164","tags":["\u200b"]}}]}`)
	f.Add(`{"dietary":{"text":"sinywi pombe","tags":["alcohol-free"],"answered":["sinywi pombe"]}}`)
	f.Add(`{"companions":[{"dietary":{"text":"x","answered":["a","b","c","d","e","f","g","h","i","j","k","l","m"]}}]}`)
	f.Add(`{"dietary":{"answered":"x"}}`)
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("PUT", "/api/rsvp", strings.NewReader(body))
		a, err := parseRSVP(r)
		if err != nil {
			if ae, ok := err.(*apiError); !ok || ae.Status < 400 || ae.Status >= 500 || ae.Message == "" {
				t.Fatalf("error %v is not a 4xx with a message", err)
			}
			return
		}
		for _, id := range a.NotComing {
			if !guest.ValidID(id) {
				t.Fatalf("accepted id %q", id)
			}
		}
		// What is accepted is typed text as the rule keeps it.
		needs := func(d *guest.Dietary) {
			if d == nil {
				return
			}
			if utf8.RuneCountInString(d.Text) > guest.MaxDietaryText {
				t.Fatal("accepted an over-long dietary text")
			}
			if len(d.Answered) > maxAnswered {
				t.Fatalf("accepted %d answered words", len(d.Answered))
			}
			if err := text.Lines(d.Text); d.Text != "" && err != nil {
				t.Fatalf("accepted dietary words %+q: %v", d.Text, err)
			}
			for _, tag := range d.Tags {
				if err := text.Line(tag); err != nil {
					t.Fatalf("accepted a tag %+q: %v", tag, err)
				}
			}
		}
		people := func(cs *[]guest.Companion) {
			if cs == nil {
				return
			}
			for _, c := range *cs {
				if err := text.Line(c.Name); c.Name != "" && err != nil {
					t.Fatalf("accepted a +1 named %+q: %v", c.Name, err)
				}
				needs(&c.Dietary)
			}
		}
		needs(a.Dietary)
		people(a.Companions)
		for _, m := range a.Members {
			needs(m.Dietary)
			people(m.Companions)
		}
		// Whatever was accepted, the rules answer without panicking.
		me := guest.Guest{ID: "me", ExpectedGuests: 1, GroupID: "g"}
		guest.Decide(a, me, []guest.Guest{me, {ID: "abc", ExpectedGuests: 2, GroupID: "g"}})
	})
}

// The reproduction: served with --addr 0.0.0.0:8080, every card read
// http://0.0.0.0:8080/login?code=…, which no phone opens, and nothing
// said so. Now the admin page is told, with this machine's addresses to
// pick from, and the pick is what the cards print. (With one network
// address, that one is the default: TestPublicURLPrecedence.)
func TestPublicURLCheckAndPick(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) {
		d.Config.PublicURL, d.Config.ListenAddr = "http://0.0.0.0:8080", "0.0.0.0:8080"
		d.Config.LANAddrs = func() []netip.Addr {
			return []netip.Addr{netip.MustParseAddr("192.168.1.23"), netip.MustParseAddr("10.0.0.4")}
		}
	})
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron"})
	var rep publicURLView
	status, body := e.do("GET", "/api/admin/public-url", tok, nil)
	decodeInto(t, body, &rep)
	if status != 200 || rep.Reachable || rep.Level != "warning" || rep.Source != "listen" || len(rep.Suggestions) != 2 || rep.Suggestions[0] != "http://192.168.1.23:8080" {
		t.Fatalf("check: %d %s", status, body)
	}
	for _, bad := range []string{"0.0.0.0", "ftp://192.168.1.23", "http://192.168.1.23:8080/?x=1", "http://user:pw@host"} {
		if status, body := e.do("PUT", "/api/admin/public-url", tok, map[string]string{"url": bad}); status != 422 {
			t.Errorf("PUT %q: %d %s", bad, status, body)
		}
	}
	status, body = e.do("PUT", "/api/admin/public-url", tok, map[string]string{"url": rep.Suggestions[0] + "/"})
	decodeInto(t, body, &rep)
	if status != 200 || !rep.Reachable || rep.URL != "http://192.168.1.23:8080" || rep.Chosen != rep.URL || rep.Source != "picked" || rep.Configured != "" {
		t.Fatalf("pick: %d %s", status, body)
	}
	status, page := e.do("GET", "/api/admin/invitations?guest="+ada.ID, tok, nil)
	if status != 200 || !strings.Contains(string(page), "http://192.168.1.23:8080/login?code="+ada.Code) || strings.Contains(string(page), "0.0.0.0") {
		t.Fatalf("the card does not use the picked address: %d %s", status, page)
	}
	// Back to the configured one, printed only when the host insists.
	e.do("PUT", "/api/admin/public-url", tok, map[string]string{"url": ""})
	status, page = e.do("GET", "/api/admin/invitations?anyway=true&guest="+ada.ID, tok, nil)
	if !strings.Contains(string(page), "http://0.0.0.0:8080/login") {
		t.Fatalf("cleared pick still used: %d", status)
	}
}

func TestGuestEmail(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	tok := e.tokenFor(admin)
	status, body := e.do("POST", "/api/admin/guests", tok, map[string]any{"firstName": "Ada", "lastName": "Byron", "email": "ada@example.com"})
	var ada guest.Guest
	decodeInto(t, body, &ada)
	if status != 201 || ada.Email != "ada@example.com" {
		t.Fatalf("create with email: %d %s", status, body)
	}
	for _, bad := range []string{"ada", "Ada <ada@example.com>", "a@b.c\r\nBcc: x@y.z", "a@b.c, d@e.f"} {
		if status, body := e.do("PUT", "/api/admin/guests/"+ada.ID, tok, map[string]any{"email": bad}); status != 422 || !strings.Contains(string(body), "email") {
			t.Errorf("email %q: %d %s", bad, status, body)
		}
	}
	status, body = e.do("PUT", "/api/admin/guests/"+ada.ID, tok, map[string]any{"email": ""})
	decodeInto(t, body, &ada)
	if status != 200 || ada.Email != "" {
		t.Fatalf("clear email: %d %s", status, body)
	}
}
