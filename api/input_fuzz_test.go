package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/text"
)

// FuzzRequestText sends the fuzzer's text where clients put free text and
// ids: a guest search, the door's look-up, a guest id in the address, an
// announcement's guestId and text, the event's location, a "+1"'s name, a
// drink's name. Whatever it is (invalid UTF-8, spaces, regular-expression
// syntax, NUL, overrides, fillers), the answer is never a 500, and what is
// kept is text the rule (package text) accepts as it is. The seeds are
// inputs that once were.
func FuzzRequestText(f *testing.F) {
	e := newTestEnv(f)
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	bar := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	host := e.addGuest(guest.Guest{ExpectedGuests: 2})
	guestTok := e.tokenFor(host)
	status, body := e.do("POST", "/api/admin/drinks", admin, map[string]any{"name": "Hugo", "section": "Spritz", "abv": 8,
		"ingredients": []any{map[string]any{"name": "Elderflower", "amount": 20, "unit": "ml"}}})
	var drink struct{ ID string }
	if err := json.Unmarshal(body, &drink); status != http.StatusCreated || err != nil {
		f.Fatalf("drink: %d %s", status, body)
	}
	for _, s := range []string{"a b", "\xff", "\xff\xffab", "(", "[a-", ".*", "\x00", "a\u202eb", "guest:x", "ÅBERG", "", "\u200b", "\u3164", "A\u030a\u200e", "\x1b[2J", "a\r\nb"} {
		f.Add(s)
	}
	// kept checks text the server kept: what the rule would keep itself.
	kept := func(t *testing.T, what, v string) {
		if err := text.Line(v); v != "" && err != nil || !norm.NFC.IsNormalString(v) {
			t.Fatalf("%s kept as %+q: %v", what, v, err)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := *e // the same server, reporting to this run
		e.t = t
		check := func(what string, status int, body []byte) {
			if status >= 500 {
				t.Fatalf("%s with %q: %d %s", what, s, status, body)
			}
			if status >= 400 {
				errorCode(t, body)
			}
		}
		q := url.QueryEscape(s)
		st, b := e.do("GET", "/api/admin/guests?q="+q, admin, nil)
		check("guest search", st, b)
		st, b = e.do("GET", "/api/door/lookup?q="+q, bar, nil)
		check("door look-up", st, b)
		st, b = e.do("GET", "/api/admin/guests/"+url.PathEscape(s), admin, nil)
		check("guest by id", st, b)
		st, b = e.do("POST", "/api/admin/announcements", admin, map[string]string{"text": "hello", "guestId": s})
		check("announcement's guestId", st, b)
		if st != http.StatusAccepted && guest.ValidID(s) {
			t.Fatalf("announcement to %q: %d %s", s, st, b)
		}
		st, b = e.do("POST", "/api/admin/announcements", admin, map[string]string{"text": s})
		check("announcement's text", st, b)
		st, b = e.do("PUT", "/api/admin/settings", admin, map[string]string{"eventName": "Party", "location": s})
		check("location", st, b)
		if st == http.StatusOK {
			settings, err := e.store.Settings(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			kept(t, "location", settings.Location)
		}
		st, b = e.do("PUT", "/api/rsvp", guestTok, map[string]any{"companions": []any{map[string]string{"name": s, "dietary": s}}})
		check("+1's name", st, b)
		if st == http.StatusOK {
			g, err := e.store.GuestByID(t.Context(), host.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range g.Companions {
				kept(t, "+1's name", c.Name)
				if err := text.Lines(c.Dietary.Text); c.Dietary.Text != "" && err != nil {
					t.Fatalf("+1's dietary words kept as %+q: %v", c.Dietary.Text, err)
				}
			}
		}
		st, b = e.do("PUT", "/api/admin/drinks/"+drink.ID, admin, map[string]any{"name": s, "section": "Spritz", "abv": 8,
			"ingredients": []any{map[string]any{"name": "Elderflower", "amount": 20, "unit": "ml"}}})
		check("drink's name", st, b)
		if st == http.StatusOK {
			d, err := e.store.DrinkByID(t.Context(), drink.ID)
			if err != nil {
				t.Fatal(err)
			}
			kept(t, "drink's name", d.Name)
		}
	})
}
