package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
)

// TestDeskFiguresFollowEveryChange walks every write that moves a figure
// on the host's dashboard (issue: a guest's dietary answer left "coming
// with dietary needs 0" until a reload). After each one the admin topic
// must carry stats.updated with the figures a full count of the guests
// gives, and the figure the step moved.
func TestDeskFiguresFollowEveryChange(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	hostG := e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin})
	host := e.tokenFor(hostG)
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace"})
	bo := e.addGuest(guest.Guest{FirstName: "Bo", LastName: "Berg", Status: guest.StatusComing, ExpectedGuests: 2})
	fam := e.addHousehold(person("Cy", 1), person("Dee", 1))
	// The summary exists before the first change, as on a running party.
	if status, body := e.do("GET", "/api/admin/stats", host, nil); status != http.StatusOK {
		t.Fatalf("stats: %d %s", status, body)
	}
	events := e.adminEvents()

	var last statsView
	step := func(what string, do func(), want func(s statsView) bool) {
		t.Helper()
		// What earlier steps published is not this step's answer.
		for drained := false; !drained; {
			select {
			case <-events:
			case <-time.After(50 * time.Millisecond):
				drained = true
			}
		}
		do()
		counted, err := e.store.CountGuestStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		timeout := time.After(5 * time.Second)
		var seen []string
		for {
			select {
			case ev := <-events:
				if ev.Event != "stats.updated" {
					continue
				}
				seen = append(seen, string(ev.Data))
				var s statsView
				if err := json.Unmarshal([]byte(ev.Data), &s); err != nil {
					t.Fatal(err)
				}
				if s.Counts == counted && want(s) {
					last = s
					return
				}
			case <-timeout:
				t.Fatalf("%s: the desk was not given the new figures %+v; stats.updated so far: %v", what, counted, seen)
			}
		}
	}
	expect := func(status int, body []byte, want int) {
		t.Helper()
		if status != want {
			t.Fatalf("%d %s, want %d", status, body, want)
		}
	}
	do := func(method, path, tok string, body any, want int) func() {
		return func() {
			t.Helper()
			status, raw := e.do(method, path, tok, body)
			expect(status, raw, want)
		}
	}

	step("a guest answers coming", do("PUT", "/api/rsvp", e.tokenFor(ada), map[string]any{"status": "coming", "numGuests": 1}, 200),
		func(s statsView) bool { return s.Coming == 2 && s.WithAllergies == 0 })
	step("the guest's own dietary answer", do("PUT", "/api/rsvp", e.tokenFor(ada), map[string]any{"dietary": "nut allergy"}, 200),
		func(s statsView) bool { return s.WithAllergies == 1 })
	step("a +1's dietary answer", do("PUT", "/api/rsvp", e.tokenFor(bo), map[string]any{"companions": []any{map[string]any{"name": "Kim", "dietary": "vegan"}}}, 200),
		func(s statsView) bool { return s.WithAllergies == 2 })
	step("a family answers, then a member's needs from another member", func() {
		do("PUT", "/api/rsvp", e.tokenFor(fam[0]), map[string]any{"status": "coming", "numGuests": 2}, 200)()
		do("PUT", "/api/rsvp", e.tokenFor(fam[0]), map[string]any{"members": []any{map[string]any{"id": fam[1].ID, "dietary": "gluten free"}}}, 200)()
	}, func(s statsView) bool { return s.Coming == 4 && s.WithAllergies == 3 })
	step("the host clears a need on review", do("PUT", "/api/admin/guests/"+ada.ID+"/dietary", host, map[string]any{"tags": []string{}}, 200),
		func(s statsView) bool { return s.WithAllergies == 2 })
	var eve guest.Guest
	step("the host adds a guest", func() {
		status, raw := e.do("POST", "/api/admin/guests", host, map[string]any{"firstName": "Eve", "lastName": "Eng"})
		expect(status, raw, 201)
		decodeInto(t, raw, &eve)
	}, func(s statsView) bool { return s.Invited == 5 && s.Staff == 1 })
	step("the host makes them a bartender", do("PUT", "/api/admin/guests/"+eve.ID, host, map[string]any{"role": "bartender"}, 200),
		func(s statsView) bool { return s.Invited == 4 && s.Staff == 2 })
	step("who is also attending", do("PUT", "/api/admin/guests/"+eve.ID, host, map[string]any{"attending": true, "status": "coming"}, 200),
		func(s statsView) bool { return s.Invited == 5 && s.Staff == 1 && s.Coming == 5 })
	step("the host moves them to a group", do("PUT", "/api/admin/guests/"+eve.ID, host, map[string]any{"groupId": "berg"}, 200),
		func(s statsView) bool { return s.Invited == 5 })
	step("the host edits an answer", do("PUT", "/api/admin/guests/"+bo.ID, host, map[string]any{"status": "declined"}, 200),
		func(s statsView) bool { return s.Declined == 1 && s.WithAllergies == 1 })
	step("the door lets a guest in", do("POST", "/api/door/checkin", e.tokenFor(eve), map[string]string{"code": ada.Code}, 200),
		func(s statsView) bool { return s.CheckedIn == 1 })
	step("the door takes it back", do("POST", "/api/door/checkin/"+ada.ID+"/undo", e.tokenFor(eve), nil, 200),
		func(s statsView) bool { return s.CheckedIn == 0 })
	step("a CSV import", func() {
		status, raw := e.do("POST", "/api/admin/guests/import", host, "firstName,lastName,status\nFay,Gee,coming\nGus,Hay,\n", "Content-Type", "text/csv")
		expect(status, raw, 200)
	}, func(s statsView) bool { return s.Invited == 7 && s.Coming == 5 })
	step("the host deletes a guest", do("DELETE", "/api/admin/guests/"+fam[1].ID, host, nil, 204),
		func(s statsView) bool { return s.Invited == 6 && s.WithAllergies == 0 })
	if last.Version == 0 {
		t.Error("the figures carry no version for the desk to order them by")
	}
}

// TestLatestAnswersSurviveAReload: the desk's "Latest answers" come from
// the store, so a page opened after the answers (or reloaded) lists them
// (issue: empty after a reload).
func TestLatestAnswersSurviveAReload(t *testing.T) {
	e := newTestEnv(t)
	host := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace"})
	bo := e.addGuest(guest.Guest{FirstName: "Bo", LastName: "Berg"})
	if status, body := e.do("PUT", "/api/rsvp", e.tokenFor(ada), map[string]any{"status": "coming", "numGuests": 1}); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/rsvp", e.tokenFor(ada), map[string]any{"dietary": "nut allergy"}); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if status, body := e.do("PUT", "/api/admin/guests/"+bo.ID, host, map[string]any{"groupId": "berg"}); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	// Not answers: the event's settings.
	if status, body := e.do("PUT", "/api/admin/settings", host, map[string]string{"eventName": "Garden party", "timezone": "UTC"}); status != 200 {
		t.Fatalf("%d %s", status, body)
	}

	var page struct {
		Answers []auditEntry `json:"answers"`
	}
	status, body := e.do("GET", "/api/admin/answers?limit=5", host, nil)
	decodeInto(t, body, &page)
	if status != 200 || len(page.Answers) != 3 {
		t.Fatalf("answers: %d %s", status, body)
	}
	moved, dietary, coming := page.Answers[0], page.Answers[1], page.Answers[2]
	if moved.Action != "guest.update" || moved.Subject != bo.ID || moved.Details["group"] != "berg" || moved.Details["name"] != "Bo Berg" {
		t.Errorf("newest: %+v", moved)
	}
	if dietary.Action != "rsvp.answer" || dietary.ActorID != ada.ID || dietary.Details["needs"] != true || dietary.Details["status"] != nil {
		t.Errorf("the dietary answer: %+v", dietary)
	}
	if coming.Action != "rsvp.answer" || coming.Details["status"] != "coming" || coming.Details["numGuests"] != 1.0 || coming.Details["name"] != "Ada Lovelace" {
		t.Errorf("the first answer: %+v", coming)
	}
	if strings.Contains(string(body), "nut allergy") || strings.Contains(string(body), ada.Code) {
		t.Errorf("the answers carry the guest's words or code: %s", body)
	}
	status, body = e.do("GET", "/api/admin/answers?limit=1", host, nil)
	decodeInto(t, body, &page)
	if status != 200 || len(page.Answers) != 1 || page.Answers[0].Action != "guest.update" {
		t.Errorf("limit=1: %d %s", status, body)
	}
	for _, q := range []string{"limit=0", "limit=51", "limit=x"} {
		status, body := e.do("GET", "/api/admin/answers?"+q, host, nil)
		if status != http.StatusBadRequest || errorCode(t, body) != "invalid_query" {
			t.Errorf("?%s: %d %s", q, status, body)
		}
	}
	if status, _ := e.do("GET", "/api/admin/answers", e.tokenFor(ada), nil); status != http.StatusForbidden {
		t.Errorf("a guest reads the answers: %d", status)
	}
}

// TestAnswerWithEmptyNeedsSaysNone: the RSVP form sends its empty needs
// and tastes with every answer; the desk's "Latest answers" said "dietary
// needs, and drink tastes" before any were given.
func TestAnswerWithEmptyNeedsSaysNone(t *testing.T) {
	e := newTestEnv(t)
	host := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lovelace"})
	empty := map[string]any{"status": "coming", "numGuests": 1, "dietary": "  ", "tastes": map[string]any{"likes": []string{}, "dislikes": []string{}, "alcoholFree": false}}
	if status, body := e.do("PUT", "/api/rsvp", e.tokenFor(ada), empty); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	given := map[string]any{"dietary": "nut allergy", "tastes": map[string]any{"likes": []string{"sour"}}}
	if status, body := e.do("PUT", "/api/rsvp", e.tokenFor(ada), given); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	var page struct {
		Answers []auditEntry `json:"answers"`
	}
	status, body := e.do("GET", "/api/admin/answers?limit=5", host, nil)
	decodeInto(t, body, &page)
	if status != 200 || len(page.Answers) != 2 {
		t.Fatalf("answers: %d %s", status, body)
	}
	if d := page.Answers[1].Details; d["needs"] != nil || d["tastes"] != nil {
		t.Errorf("an answer without needs or tastes notes %v", d)
	}
	if d := page.Answers[0].Details; d["needs"] != true || d["tastes"] != true {
		t.Errorf("an answer with needs and tastes notes %v", d)
	}
}
