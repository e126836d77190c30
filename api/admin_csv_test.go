package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/safecsv/safecsvtest"
)

// TestImportInChunksReportsEveryRow: an import of several chunks of new
// guests, with refused rows and updates among them, reports each row as
// one applied after the other would be — including rows that name a new
// guest of an earlier row by its code or its name — and both instances'
// guest lists show every new guest at once. Run again, the same file adds
// nobody.
func TestImportInChunksReportsEveryRow(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	e := envs[0]
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	old := e.addGuest(guest.Guest{FirstName: "Old", LastName: "Friend"})
	tok := e.tokenFor(admin)
	for _, env := range envs { // both guest lists are read before: the import must reach them
		if status, body := env.do("GET", "/api/admin/guests?limit=5", tok, nil); status != 200 {
			t.Fatalf("list: %d %s", status, body)
		}
	}
	newCode := guest.NewCode()
	rows := make([]string, 260)
	for i := range rows {
		rows[i] = fmt.Sprintf(",,Imp%d,Row%d,", i, i)
	}
	type want struct {
		status, reasonCode string
	}
	special := map[int]struct {
		row  string
		want want
	}{
		10:  {",,Cy,,", want{rowRefused, guest.RowEmpty}},
		50:  {",,Imp5,Row5,", want{rowRefused, reasonDuplicateRow}},
		120: {",,Old,Friend,", want{rowRefused, reasonAlreadyInvited}},
		130: {"," + old.Code + ",Old,Friend,coming", want{rowUpdated, ""}},
		140: {"new-id-1," + newCode + ",Nia,New,", want{rowCreated, ""}},
		200: {"," + newCode + ",Nia,New,coming", want{rowUpdated, ""}}, // the guest of row 140
		210: {",,Nia,New,", want{rowRefused, reasonAlreadyInvited}},
		220: {"other-id," + old.Code + ",Zed,Zee,", want{rowRefused, reasonTaken}},
	}
	for i, s := range special {
		rows[i] = s.row
	}
	csv := "id,code,firstName,lastName,status\n" + strings.Join(rows, "\n") + "\n"
	status, body := e.do("POST", "/api/admin/guests/import", tok, csv, "Content-Type", "text/csv")
	if status != 200 {
		t.Fatalf("import: %d %s", status, body)
	}
	var rep importReport
	decodeInto(t, body, &rep)
	if len(rep.Rows) != len(rows) {
		t.Fatalf("%d rows reported of %d", len(rep.Rows), len(rows))
	}
	created := 0
	for i, r := range rep.Rows {
		w := want{rowCreated, ""}
		if s, ok := special[i]; ok {
			w = s.want
		}
		if r.Row != i+2 || r.Status != w.status || !strings.Contains(w.reasonCode, r.ReasonCode) {
			t.Errorf("row %d (%s): %+v, want %+v", i+2, rows[i], r, w)
		}
		if r.Status == rowCreated {
			created++
			if r.ID == "" {
				t.Errorf("row %d created without an id", r.Row)
			}
		}
	}
	if rep.Created != created || created != len(rows)-7 || rep.Updated != 2 || rep.Refused != 5 {
		t.Errorf("created %d (%d rows), updated %d, refused %d", rep.Created, created, rep.Updated, rep.Refused)
	}
	if r := rep.Rows[200]; r.ID != "new-id-1" || strings.Join(r.Changes, ",") != "status" {
		t.Errorf("row 202 updated %+v, want new-id-1's status", r)
	}
	if r := rep.Rows[210]; !strings.Contains(r.Reason, "new-id-1") {
		t.Errorf("row 212: %+v, want already invited as new-id-1", r)
	}
	ctx := context.Background()
	if g, err := e.store.GuestByCode(ctx, newCode); err != nil || g.ID != "new-id-1" || g.Status != guest.StatusComing {
		t.Errorf("Nia New: %+v %v", g, err)
	}
	if g, err := e.store.GuestByCode(ctx, old.Code); err != nil || g.ID != old.ID || g.Status != guest.StatusComing {
		t.Errorf("Old Friend: %+v %v", g, err)
	}
	for i, env := range envs {
		status, body := env.do("GET", "/api/admin/guests?q=imp&limit=500", tok, nil)
		var page struct {
			Guests []guest.Guest `json:"guests"`
			Total  int           `json:"total"`
		}
		decodeInto(t, body, &page)
		if status != 200 || page.Total != created-1 || len(page.Guests) != created-1 { // Nia is no Imp
			t.Errorf("instance %d lists %d (total %d) of the %d imported: %d", i, len(page.Guests), page.Total, created-1, status)
		}
	}
	var st statsView
	_, body = e.do("GET", "/api/admin/stats", tok, nil)
	decodeInto(t, body, &st)
	if st.Invited != created+1 || st.Coming != 2 {
		t.Errorf("stats: %s, want %d invited, 2 coming", body, created+1)
	}

	// The same file again: nobody new, nothing changed.
	status, body = e.do("POST", "/api/admin/guests/import", tok, csv, "Content-Type", "text/csv")
	decodeInto(t, body, &rep)
	if status != 200 || rep.Created != 0 {
		t.Errorf("second run: %d, %d created", status, rep.Created)
	}
	if n, err := e.store.CountGuests(ctx, nil); err != nil || int(n) != created+2 {
		t.Errorf("%d guests after the second run (%v), want %d", n, err, created+2)
	}
}

// TestExportsCannotRun: guests and the host put the issue's payloads where
// the API lets them (names, dietary text, tastes, drink and ingredient
// names); neither the guest list (every sign-in code is in it) nor the
// shopping list then has a cell that starts a formula, opened with commas,
// semicolons, tabs or bars, quotes honoured or not. The guest list
// imported again changes nobody: the import reads back what the export
// wrote.
func TestExportsCannotRun(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	issue := `nuts;=cmd|' /C calc'!A0;`
	var names, diets, drinks int
	crlf := map[string]bool{} // guests whose dietary text has a CR LF
	for i, p := range safecsvtest.Payloads() {
		// The payload where the API takes it; a field it refuses
		// (a control character in a name) gets plain text instead.
		body := map[string]any{"firstName": p.Text, "lastName": fmt.Sprintf("P%d", i), "status": "coming", "expectedGuests": 2, "extraGuests": -1,
			"dietary": p.Text, "tastes": map[string]any{"likes": []string{p.Text, "sour"}}}
		status, raw := e.do("POST", "/api/admin/guests", tok, body)
		if status == http.StatusBadRequest || status == http.StatusUnprocessableEntity {
			body["firstName"] = fmt.Sprintf("Guest%d", i)
			status, raw = e.do("POST", "/api/admin/guests", tok, body)
		} else {
			names++
		}
		if status == http.StatusBadRequest || status == http.StatusUnprocessableEntity {
			delete(body, "dietary")
			status, raw = e.do("POST", "/api/admin/guests", tok, body)
		} else {
			diets++
		}
		if status != http.StatusCreated {
			t.Fatalf("%s: create: %d %s", p.Name, status, raw)
		}
		var g guest.Guest
		decodeInto(t, raw, &g)
		if strings.Contains(g.Dietary.Text, "\r\n") {
			crlf[g.ID] = true
		}
		if p.Text == issue && !strings.Contains(g.Dietary.Text, "=cmd|") {
			t.Errorf("the issue's dietary text was not kept: %q", g.Dietary.Text)
		}

		status, raw = e.do("POST", "/api/admin/drinks", tok, map[string]any{"name": fmt.Sprintf("%s %d", p.Text, i), "section": "Payloads", "abv": 10,
			"ingredients": []map[string]any{{"name": fmt.Sprintf("%s %d", p.Text, i), "amount": 30, "unit": "ml"}, {"name": "Gin", "amount": 20, "unit": "ml"}}})
		switch status {
		case http.StatusCreated:
			drinks++
		case http.StatusBadRequest, http.StatusUnprocessableEntity:
		default:
			t.Fatalf("%s: drink: %d %s", p.Name, status, raw)
		}
	}
	// Most payloads are printable text every field takes; the table must
	// reach the files, or this test proves nothing.
	if n := len(safecsvtest.Payloads()); names < n/2 || diets < n/2 || drinks < n/2 {
		t.Fatalf("of %d payloads the API took %d names, %d dietary texts, %d drinks", n, names, diets, drinks)
	}
	t.Logf("the API took %d names, %d dietary texts (%d with a CR LF), %d drinks", names, diets, len(crlf), drinks)

	export := func(path string) []byte {
		t.Helper()
		resp := e.doResp("GET", path, tok, nil)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
		return b
	}
	guests := export("/api/admin/guests.csv")
	shopping := export("/api/admin/reports/shopping.csv")
	for name, file := range map[string][]byte{"guests.csv": guests, "shopping.csv": shopping} {
		if !bytes.Contains(file, []byte(`'=cmd|`)) {
			t.Errorf("%s holds no neutralised payload:\n%s", name, file)
		}
		for _, f := range safecsvtest.Formulas(file) {
			t.Errorf("%s: formula in %s", name, f)
		}
	}

	status, raw := e.do("POST", "/api/admin/guests/import", tok, guests, "Content-Type", "text/csv")
	var rep importReport
	decodeInto(t, raw, &rep)
	if n := len(safecsvtest.Payloads()) + 1; status != http.StatusOK || rep.Updated != n || rep.Created != 0 || rep.Refused != 0 {
		t.Fatalf("re-import: %d, %d updated (want %d), %d created, %d refused: %s", status, rep.Updated, n, rep.Created, rep.Refused, raw)
	}
	for _, r := range rep.Rows {
		// Go's CSV reader reads a CR LF inside a cell as LF: such a
		// text comes back with LF, the one change an import makes.
		if want := map[bool]string{true: "dietary"}[crlf[r.ID]]; strings.Join(r.Changes, ",") != want {
			t.Errorf("row %d (%s) changed %v, want %q", r.Row, r.Name, r.Changes, want)
		}
	}
}

// TestImportUnderTheTextRule: an imported file is typed text like the
// guest desk's: names and dietary words are kept NFC, trimmed and without
// direction marks, and a cell with a control character, an override or
// nothing visible refuses its row, naming the column. The dietary column
// used to be kept as it was.
func TestImportUnderTheTextRule(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}))
	csv := "firstName,lastName,dietary\n" +
		"A\u030asa\u200e,O\u0308berg,no\u200b nuts\n" + // kept as Åsa Öberg, "no nuts"
		"Bo,Berg,\"nuts\x1b[2J\"\n" + // an escape in the words
		"Cy,Berg,\"\u202estun\"\n" + // an override
		"Di,\u3164,\n" + // a last name of nothing visible
		"Ed,Berg,\"nuts\nand shellfish\"\n" // words over two lines: fine
	status, body := e.do("POST", "/api/admin/guests/import", tok, csv, "Content-Type", "text/csv")
	if status != 200 {
		t.Fatalf("import: %d %s", status, body)
	}
	var rep importReport
	decodeInto(t, body, &rep)
	want := []struct{ status, code, column string }{
		{rowCreated, "", ""}, {rowRefused, guest.RowBadText, "dietary"}, {rowRefused, guest.RowBadText, "dietary"},
		{rowRefused, guest.RowBadText, "lastName"}, {rowCreated, "", ""},
	}
	if len(rep.Rows) != len(want) {
		t.Fatalf("%d rows reported: %s", len(rep.Rows), body)
	}
	for i, w := range want {
		r := rep.Rows[i]
		if r.Status != w.status || r.ReasonCode != w.code || !strings.Contains(r.Reason, w.column) {
			t.Errorf("row %d: %s %s %q, want %s %s naming %s", i+1, r.Status, r.ReasonCode, r.Reason, w.status, w.code, w.column)
		}
	}
	g, err := e.store.GuestByID(context.Background(), rep.Rows[0].ID)
	if err != nil || g.FirstName != "Åsa" || g.LastName != "Öberg" || g.Dietary.Text != "no nuts" || !slices.Contains(g.Dietary.Tags, "nuts") {
		t.Errorf("row 1 kept as %+q %+q %+v, %v", g.FirstName, g.LastName, g.Dietary, err)
	}
	ed, err := e.store.GuestByID(context.Background(), rep.Rows[4].ID)
	if err != nil || ed.Dietary.Text != "nuts\nand shellfish" {
		t.Errorf("row 5 kept as %+v, %v", ed.Dietary, err)
	}
}
