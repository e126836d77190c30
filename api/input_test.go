package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
)

// TestUnknownFieldsRefused: a field the server does not know is a 400 that
// names it, in the body and inside its objects, instead of being dropped
// ("quantity": 99 used to order one drink); "qty": 0 is a 400, not one.
func TestUnknownFieldsRefused(t *testing.T) {
	e := newBarEnv(t)
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	tests := []struct {
		name, method, path, token, body, code, field string
	}{
		{"order line", "POST", "/api/orders", e.gTok, `{"items":[{"drinkId":"paloma","quantity":99}]}`, "unknown_field", "quantity"},
		{"order", "POST", "/api/orders", e.gTok, `{"items":[{"drinkId":"paloma"}],"express":true}`, "unknown_field", "express"},
		{"qty 0", "POST", "/api/orders", e.gTok, `{"items":[{"drinkId":"paloma","qty":0}]}`, "invalid_quantity", "qty"},
		{"sign-in", "POST", "/api/auth/login", "", `{"code":"ABCDEFGH","lastName":"x","remember":true}`, "unknown_field", "remember"},
		{"rsvp", "PUT", "/api/rsvp", e.gTok, `{"status":"coming","guests":3}`, "unknown_field", "guests"},
		{"new guest", "POST", "/api/admin/guests", admin, `{"firstName":"A","lastName":"B","admin":true}`, "unknown_field", "admin"},
		{"announcement", "POST", "/api/admin/announcements", admin, `{"text":"hi","to":"everyone"}`, "unknown_field", "to"},
		// Inside the dietary answer, which has a decoder of its own (it
		// also takes plain text): these used to be dropped.
		{"rsvp dietary", "PUT", "/api/rsvp", e.gTok, `{"dietary":{"text":"nuts","allergy":"severe"}}`, "unknown_field", "allergy"},
		{"rsvp +1's dietary", "PUT", "/api/rsvp", e.gTok, `{"companions":[{"name":"Kim","dietary":{"tags":["nuts"],"reviewed":true}}]}`, "unknown_field", "reviewed"},
		{"rsvp member's dietary", "PUT", "/api/rsvp", e.gTok, `{"members":[{"id":"abc","dietary":{"text":"x","unclear":[]}}]}`, "unknown_field", "unclear"},
		{"rsvp +1", "PUT", "/api/rsvp", e.gTok, `{"companions":[{"name":"Kim","age":4}]}`, "unknown_field", "age"},
		{"rsvp tastes", "PUT", "/api/rsvp", e.gTok, `{"tastes":{"likes":["sour"],"hates":["sweet"]}}`, "unknown_field", "hates"},
		{"guest's dietary", "PUT", "/api/admin/guests/" + e.guest.ID, admin, `{"dietary":{"text":"x","reviewed":true}}`, "unknown_field", "reviewed"},
		{"drink ingredient", "POST", "/api/admin/drinks", admin, `{"name":"X","section":"Y","abv":10,"ingredients":[{"name":"Gin","amount":5,"unit":"ml","brand":"Z"}]}`, "unknown_field", "brand"},
	}
	for _, tt := range tests {
		status, body := e.do(tt.method, tt.path, tt.token, tt.body, "Idempotency-Key", "unknown-"+tt.field)
		if status != http.StatusBadRequest || errorCode(t, body) != tt.code || !strings.Contains(string(body), tt.field) {
			t.Errorf("%s: %d %s, want 400 %s naming %q", tt.name, status, body, tt.code, tt.field)
		}
	}
}

// TestJSONAnswersAreNosniff: JSON answers, errors included, tell browsers
// not to guess another type.
func TestJSONAnswersAreNosniff(t *testing.T) {
	e := newTestEnv(t)
	for _, path := range []string{"/api/event", "/api/nowhere", "/api/admin/guests"} {
		resp := e.doResp("GET", path, "", nil)
		resp.Body.Close()
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q", path, got)
		}
	}
}

// TestQueryNotUTF8Refused: a query whose names or values are not UTF-8,
// escaped or raw, is a 400; valid ones, escaped or not, pass.
func TestQueryNotUTF8Refused(t *testing.T) {
	e := newTestEnv(t)
	plain, _ := e.do("GET", "/api/event", "", nil)
	tests := []struct {
		query string
		bad   bool
	}{
		{"q=%ff", true},
		{"%ff=1", true},
		{"a=1&q=caf%C3%A9%ff", true},
		{"q=\xff", true},
		{"\xff=1", true},
		{"q=caf%C3%A9", false},
		{"q=café", false},
		{"ticket=eyJnIjoiYSJ9.c2ln-_x&x=a+b", false},
		{"", false},
	}
	for _, tt := range tests {
		status, body := e.do("GET", "/api/event?"+tt.query, "", nil)
		if tt.bad && (status != http.StatusBadRequest || errorCode(t, body) != "invalid_query") {
			t.Errorf("?%q: %d %s, want 400 invalid_query", tt.query, status, body)
		}
		if !tt.bad && status != plain {
			t.Errorf("?%q: %d %s, want %d as without a query", tt.query, status, body, plain)
		}
	}
}
