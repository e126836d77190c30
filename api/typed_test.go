package api

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/text"
)

// TestTypedTextRefusedAtEntry: NUL, escapes, C1 controls, text-direction
// overrides and text with nothing visible are refused in every field a
// person types, with a JSON 4xx naming the field, and nothing is kept.
// Before the one text rule, +1 names, dietary words, the event's details
// (the calendar file's) and drink names took them all.
func TestTypedTextRefusedAtEntry(t *testing.T) {
	e := newBarEnv(t)
	group := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Berg", GroupID: "berg", ExpectedGuests: 2})
	leo := e.addGuest(guest.Guest{FirstName: "Leo", LastName: "Berg", GroupID: "berg", ExpectedGuests: 2})
	mia := e.tokenFor(group)
	drink := func(field string, v any) map[string]any {
		d := map[string]any{"name": "Hugo", "section": "Spritz", "abv": 8, "ingredients": []any{map[string]any{"name": "Elderflower", "amount": 20, "unit": "ml"}}}
		d[field] = v
		return d
	}
	settings := func(field, v string) map[string]string {
		s := map[string]string{"eventName": "Midsummer", "timezone": "Europe/Stockholm"}
		s[field] = v
		return s
	}
	tests := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code, field               string
	}{
		{"+1 name reversed", "PUT", "/api/rsvp", mia, map[string]any{"companions": []any{map[string]any{"name": "\u202eBOB"}}}, 400, "invalid_field", "companions[0].name"},
		{"+1 name of zero-width spaces", "PUT", "/api/rsvp", mia, map[string]any{"companions": []any{map[string]any{"name": "\u200b\u2060\ufeff"}}}, 400, "invalid_field", "companions[0].name"},
		{"+1 name of Hangul fillers", "PUT", "/api/rsvp", mia, map[string]any{"companions": []any{map[string]any{"name": "\u3164\u3164"}}}, 400, "invalid_field", "companions[0].name"},
		{"+1's dietary words with an escape", "PUT", "/api/rsvp", mia, map[string]any{"companions": []any{map[string]any{"name": "Kim", "dietary": "\x1b[31mnuts"}}}, 400, "invalid_field", "companions[0].dietary.text"},
		{"dietary words with NUL", "PUT", "/api/rsvp", mia, map[string]any{"dietary": "nuts\x00"}, 400, "invalid_field", "dietary.text"},
		{"dietary tag with an isolate", "PUT", "/api/rsvp", mia, map[string]any{"dietary": map[string]any{"tags": []string{"nuts\u2066"}}}, 400, "invalid_field", "dietary.tags[0]"},
		{"a member's words with C1", "PUT", "/api/rsvp", mia, map[string]any{"members": []any{map[string]any{"id": leo.ID, "dietary": "no\u009bnuts"}}}, 400, "invalid_field", "members[0].dietary.text"},
		{"a member's +1 reversed", "PUT", "/api/rsvp", mia, map[string]any{"members": []any{map[string]any{"id": leo.ID, "companions": []any{map[string]any{"name": "x\u202dy"}}}}}, 400, "invalid_field", "members[0].companions[0].name"},
		{"dietary preview with an override", "POST", "/api/dietary/read", mia, map[string]any{"text": "nuts\u202e"}, 400, "invalid_field", "text"},
		{"guest name of a filler", "POST", "/api/admin/guests", e.aTok, map[string]any{"firstName": "\u3164", "lastName": "Berg"}, 422, "invalid_field", "firstName"},
		{"guest's dietary with an escape", "PUT", "/api/admin/guests/" + leo.ID, e.aTok, map[string]any{"dietary": map[string]any{"text": "\x1b]0;owned\x07"}}, 422, "invalid_field", "dietary.text"},
		{"event name of NUL", "PUT", "/api/admin/settings", e.aTok, settings("eventName", "Party\x00"), 422, "invalid_field", "eventName"},
		{"location reversed", "PUT", "/api/admin/settings", e.aTok, settings("location", "Storgatan 1\u202e"), 422, "invalid_field", "location"},
		{"location over two calendar lines", "PUT", "/api/admin/settings", e.aTok, settings("location", "Storgatan 1\r\nATTENDEE:mallory"), 422, "invalid_field", "location"},
		{"dress code invisible", "PUT", "/api/admin/settings", e.aTok, settings("dressCode", "\u200b"), 422, "invalid_field", "dressCode"},
		{"information with an escape", "PUT", "/api/admin/settings", e.aTok, settings("info", "Bring a jumper\x1b[2J"), 422, "invalid_field", "info"},
		{"drink name with NUL", "POST", "/api/admin/drinks", e.aTok, drink("name", "Hugo\x00"), 400, "invalid_drink", "name"},
		{"drink name reversed", "POST", "/api/admin/drinks", e.aTok, drink("name", "\u202eoguH"), 400, "invalid_drink", "name"},
		{"drink description invisible", "POST", "/api/admin/drinks", e.aTok, drink("description", "\u2800"), 400, "invalid_drink", "description"},
		{"section name with an isolate", "POST", "/api/admin/drinks", e.aTok, drink("section", "Spritz\u2067"), 400, "invalid_drink", "section"},
		{"ingredient with a line break", "POST", "/api/admin/drinks", e.aTok, drink("ingredients", []any{map[string]any{"name": "Elder\nflower", "amount": 20, "unit": "ml"}}), 400, "invalid_drink", "ingredients[0].name"},
		{"garnish with DEL", "POST", "/api/admin/drinks", e.aTok, drink("garnish", "Mint\x7f"), 400, "invalid_drink", "garnish"},
		{"order notes reversed", "POST", "/api/orders", e.gTok, map[string]any{"items": []any{map[string]any{"drinkId": "paloma", "notes": "\u202eecI oN"}}}, 400, "invalid_notes", "notes"},
		{"announcement of zero-width spaces", "POST", "/api/admin/announcements", e.aTok, map[string]any{"text": "\u200b\u200b"}, 400, "invalid_text", "announcement"},
		{"board name with an escape", "POST", "/api/bar/boards", e.bTok, map[string]any{"name": "Bar\x1b"}, 400, "invalid_name", "name"},
		{"mood reversed", "POST", "/api/recommendations", e.gTok, map[string]any{"mood": "happy\u202e"}, 422, "invalid_field", "mood"},
		{"a like with NUL", "POST", "/api/recommendations", e.gTok, map[string]any{"likes": []string{"sour", "fresh\x00"}}, 422, "invalid_field", "likes[1]"},
		{"public address reversed", "PUT", "/api/admin/public-url", e.aTok, map[string]any{"url": "http://party.example/\u202e"}, 422, "invalid_url", "url"},
		{"bar's cancel reason with NUL", "POST", "/api/bar/orders/000000000000000000000000/cancel", e.bTok, map[string]any{"reason": "out\x00"}, 400, "invalid_reason", "reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do(tt.method, tt.path, tt.token, tt.body, "Idempotency-Key", newKey())
			if status != tt.status || errorCode(t, body) != tt.code || !strings.Contains(string(body), tt.field) {
				t.Fatalf("%d %s, want %d %s naming %s", status, body, tt.status, tt.code, tt.field)
			}
		})
	}
	// Nothing of it was kept.
	g, err := e.store.GuestByID(t.Context(), group.ID)
	if err != nil || len(g.Companions) != 0 || g.Dietary.Text != "" {
		t.Errorf("Mia kept %+v %+v, %v", g.Companions, g.Dietary, err)
	}
	st, err := e.store.Settings(t.Context())
	if err != nil || st.EventName != guest.DefaultSettings().EventName || st.Location != "" {
		t.Errorf("settings kept %+v, %v", st, err)
	}
	if status, body := e.do("GET", "/api/drinks?q=hugo", e.gTok, nil); status != 200 || strings.Contains(string(body), "Hugo") {
		t.Errorf("a refused drink is on the menu: %d %s", status, body)
	}
}

// TestTypedTextCleanedToTheBarTicket: what passes is kept as the rule
// cleans it, and shows so where others read it. A "+1" typed with a
// decomposed "Å" and a direction mark is "Åsa" on the bar's ticket, in
// the family's view and the host's; a Portuguese, a Hebrew and an emoji
// name pass untouched.
func TestTypedTextCleanedToTheBarTicket(t *testing.T) {
	e := newBarEnv(t)
	mia := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Berg", ExpectedGuests: 5})
	tok := e.tokenFor(mia)
	typed := []string{"  A\u030asa\u200e Ö\u200bberg ", "João Conceição", "שלום", "👩\u200d🍳 Kim"}
	want := []string{"Åsa Öberg", "João Conceição", "שלום", "👩\u200d🍳 Kim"}
	var companions []any
	for _, name := range typed {
		companions = append(companions, map[string]any{"name": name, "dietary": "nötallergi\r\nno shellfish\u200f"})
	}
	status, body := e.do("PUT", "/api/rsvp", tok, map[string]any{"status": "coming", "numGuests": 5, "companions": companions})
	if status != 200 {
		t.Fatalf("answer: %d %s", status, body)
	}
	var v rsvpView
	decodeInto(t, body, &v)
	if len(v.Guest.Companions) != len(want) {
		t.Fatalf("companions %+v", v.Guest.Companions)
	}
	for i, c := range v.Guest.Companions {
		if c.Name != want[i] || c.Dietary.Text != "nötallergi\nno shellfish" {
			t.Errorf("companion %d kept as %+q, %+q; want %+q", i, c.Name, c.Dietary.Text, want[i])
		}
		if err := text.Line(c.Name); err != nil {
			t.Errorf("companion %d: %v", i, err)
		}
	}
	o := e.order(tok, 201, order.ItemInput{DrinkID: "paloma", Qty: 1, For: "+1", Notes: " no\u00a0 ice\u200e "})
	status, body = e.do("GET", "/api/bar/queue", e.bTok, nil)
	var q barQueueResponse
	decodeInto(t, body, &q)
	found := false
	for _, bo := range q.Orders {
		if bo.ID == o.ID {
			found = true
			if it := bo.Items[0]; it.ForName != "Åsa Öberg" || it.Notes != "no ice" {
				t.Errorf("the bar's ticket reads %+q for %+q", it.Notes, it.ForName)
			}
		}
	}
	if status != 200 || !found {
		t.Fatalf("queue: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/admin/guests/"+mia.ID, e.aTok, nil)
	var g guest.Guest
	decodeInto(t, body, &g)
	if status != 200 || len(g.Companions) != len(want) || g.Companions[0].Name != "Åsa Öberg" {
		t.Errorf("the host's view: %d %s", status, body)
	}
}
