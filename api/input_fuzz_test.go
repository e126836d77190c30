package api

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/barhub/barhub/api/guest"
)

// FuzzRequestText sends the fuzzer's text where clients put free text and
// ids: a guest search, the door's look-up, a guest id in the address, an
// announcement's guestId and text. Whatever it is (invalid UTF-8, spaces,
// regular-expression syntax, NUL), the answer is never a 500. The seeds are
// inputs that once were.
func FuzzRequestText(f *testing.F) {
	e := newTestEnv(f)
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	bar := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleBartender}))
	for _, s := range []string{"a b", "\xff", "\xff\xffab", "(", "[a-", ".*", "\x00", "a\u202eb", "guest:x", "ÅBERG", ""} {
		f.Add(s)
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
	})
}
