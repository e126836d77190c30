package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

func TestLogin(t *testing.T) {
	e := newTestEnv(t)
	anna := e.addGuest(guest.Guest{FirstName: "Anna", LastName: "Åberg"})
	bo := e.addGuest(guest.Guest{FirstName: "Bo", LastName: "van der Berg", Role: guest.RoleBartender})
	lower := strings.ToLower(anna.Code)
	dashed := anna.Code[:4] + "-" + anna.Code[4:]

	tests := []struct {
		name     string
		body     any
		status   int
		code     string // error code, when failing
		wantRole guest.Role
		wantID   string
	}{
		{"exact", loginRequest{anna.Code, "Åberg"}, 200, "", guest.RoleGuest, anna.ID},
		{"no accent, lower case", loginRequest{anna.Code, "aberg"}, 200, "", guest.RoleGuest, anna.ID},
		{"upper case, spaces", loginRequest{anna.Code, "  ÅBERG "}, 200, "", guest.RoleGuest, anna.ID},
		{"code lower case with dash", loginRequest{lower[:4] + "-" + lower[4:], "Aberg"}, 200, "", guest.RoleGuest, anna.ID},
		{"code with dash", loginRequest{dashed, "aberg"}, 200, "", guest.RoleGuest, anna.ID},
		{"particles and spaces", loginRequest{bo.Code, "VanDerBerg"}, 200, "", guest.RoleBartender, bo.ID},
		{"wrong last name", loginRequest{anna.Code, "Berg"}, 401, "invalid_login", "", ""},
		{"someone else's name", loginRequest{anna.Code, "van der Berg"}, 401, "invalid_login", "", ""},
		{"unknown code", loginRequest{"ZZZZZZZZ", "aberg"}, 401, "invalid_login", "", ""},
		{"empty", loginRequest{}, 400, "missing_fields", "", ""},
		{"no code", loginRequest{LastName: "x"}, 400, "missing_code", "", ""},
		{"no last name", loginRequest{Code: anna.Code}, 400, "missing_last_name", "", ""},
		{"malformed", `{"code":`, 400, "malformed_json", "", ""},
		{"not an object", `[1,2]`, 400, "invalid_json_type", "", ""},
		{"wrong type", `{"code":12345678,"lastName":"x"}`, 400, "invalid_field", "", ""},
		{"trailing garbage", `{"code":"a","lastName":"b"} x`, 400, "malformed_json", "", ""},
		{"empty body", ``, 400, "malformed_json", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do("POST", "/api/auth/login", "", tt.body)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
			if tt.status != 200 {
				if got := errorCode(t, body); got != tt.code {
					t.Fatalf("error code %q, want %q", got, tt.code)
				}
				return
			}
			var resp loginResponse
			decodeInto(t, body, &resp)
			if resp.Role != tt.wantRole || resp.Guest.ID != tt.wantID {
				t.Fatalf("role %q guest %q, want %q %q", resp.Role, resp.Guest.ID, tt.wantRole, tt.wantID)
			}
			id, err := e.keys.Verify(context.Background(), resp.Token)
			if err != nil {
				t.Fatalf("token does not verify: %v", err)
			}
			if id.GuestID != tt.wantID || id.Role != tt.wantRole {
				t.Fatalf("token speaks for %+v", id)
			}
			if time.Until(resp.ExpiresAt) < 50*time.Minute {
				t.Fatalf("expiresAt %v is too soon", resp.ExpiresAt)
			}
		})
	}
}

// TestLoginWithReplacedCode: an invitation link whose code the host has
// replaced says so (ask the host for a new link) to someone who gives the
// guest's last name, and stays the plain refusal for anyone else, so a
// guessed code learns nothing; the new code signs in.
func TestLoginWithReplacedCode(t *testing.T) {
	e := newTestEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Elsa", LastName: "Lund"})
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	var fresh struct{ Code string }
	if status, body := e.do("POST", "/api/admin/guests/"+g.ID+"/code", admin, nil); status != 200 {
		t.Fatalf("new code: %d %s", status, body)
	} else {
		decodeInto(t, body, &fresh)
	}
	for _, tc := range []struct {
		name, code, lastName string
		status               int
		errCode, message     string
	}{
		{"old code, her name", g.Code, "lund", 401, "code_replaced", "ask the host for a new link"},
		{"old code, another name", g.Code, "Berg", 401, "invalid_login", "do not match"},
		{"new code", fresh.Code, "Lund", 200, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := e.do("POST", "/api/auth/login", "", loginRequest{tc.code, tc.lastName})
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, body)
			}
			if tc.status == 200 {
				return
			}
			if got := errorCode(t, body); got != tc.errCode {
				t.Errorf("error code %q, want %q", got, tc.errCode)
			}
			if !strings.Contains(string(body), tc.message) {
				t.Errorf("message %s, want it to say %q", body, tc.message)
			}
		})
	}
}

// TestLoginThrottle: a code tried wrongly from one address is locked for
// that address, with Retry-After; the same address signs in with another
// code at once (it is not locked out), and so does the code's owner from
// elsewhere.
func TestLoginThrottle(t *testing.T) {
	e := newProxiedEnv(t)
	g := e.addGuest(guest.Guest{LastName: "Lind"})
	other := e.addGuest(guest.Guest{LastName: "Other"})
	limit := auth.DefaultSignInPolicy(0, 0).PerCodeFromAddress
	for i := range limit {
		if status, body := e.do("POST", "/api/auth/login", "", loginRequest{g.Code, "wrong"}, "X-Forwarded-For", "198.51.100.1"); status != 401 {
			t.Fatalf("attempt %d: %d %s", i, status, body)
		}
	}
	resp := e.doResp("POST", "/api/auth/login", "", loginRequest{g.Code, "Lind"}, "X-Forwarded-For", "198.51.100.1")
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("after %d failures: status %d, want 429", limit, resp.StatusCode)
	}
	if ra := resp.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After = %q", ra)
	}
	if status, body := e.do("POST", "/api/auth/login", "", loginRequest{other.Code, "Other"}, "X-Forwarded-For", "198.51.100.1"); status != 200 {
		t.Fatalf("another code from the same address: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/auth/login", "", loginRequest{g.Code, "Lind"}, "X-Forwarded-For", "192.0.2.50"); status != 200 {
		t.Fatalf("the owner from home: %d %s", status, body)
	}
}

func TestTokensRefused(t *testing.T) {
	e := newTestEnv(t)
	g := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	good := e.tokenFor(g)

	// Signed by a key this server does not know (another deployment).
	other := newTestEnv(t)
	foreign, _, err := other.keys.Sign(identityOf(g))
	if err != nil {
		t.Fatal(err)
	}
	// Expired: a key set whose clock is two hours behind.
	past, err := auth.NewKeys(context.Background(), e.store, auth.KeysConfig{TokenTTL: time.Hour, Now: func() time.Time { return time.Now().Add(-2 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	expired, _, err := past.Sign(identityOf(g))
	if err != nil {
		t.Fatal(err)
	}
	// Tampered: the payload says guest instead of admin, signature kept.
	parts := strings.Split(good, ".")
	claims := &auth.Claims{}
	if _, _, err := jwt.NewParser().ParseUnverified(good, claims); err != nil {
		t.Fatal(err)
	}
	tampered := parts[0] + "." + strings.TrimRight(parts[1], "=") + "x." + parts[2]
	// alg none.
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)

	tests := []struct{ name, token string }{
		{"foreign key", foreign},
		{"expired", expired},
		{"tampered payload", tampered},
		{"alg none", none},
		{"garbage", "not.a.token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do("GET", "/api/me", tt.token, nil)
			if status != 401 || errorCode(t, body) != "unauthorized" {
				t.Fatalf("status %d body %s, want 401 unauthorized", status, body)
			}
		})
	}
	if status, body := e.do("GET", "/api/me", good, nil); status != 200 {
		t.Fatalf("good token: %d %s", status, body)
	}
}

func TestErrorsAreJSON(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) { d.Config.MaxBodyBytes = 1024 })
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	big := `{"text":"` + strings.Repeat("a", 4096) + `"}`
	tests := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"unknown api route", "GET", "/api/nope", "", nil, 404, "not_found"},
		{"wrong method", "DELETE", "/api/auth/login", "", nil, 405, "method_not_allowed"},
		{"too large", "POST", "/api/admin/announcements", admin, big, 413, "body_too_large"},
		{"malformed", "POST", "/api/admin/announcements", admin, `{"text": }`, 400, "malformed_json"},
		{"missing text", "POST", "/api/admin/announcements", admin, `{}`, 400, "missing_text"},
		{"no token", "GET", "/api/admin/stats", "", nil, 401, "unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do(tt.method, tt.path, tt.token, tt.body)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
			if got := errorCode(t, body); got != tt.code {
				t.Fatalf("code %q, want %q", got, tt.code)
			}
		})
	}
}

func TestJWKSVerifiesToken(t *testing.T) {
	e := newTestEnv(t)
	g := e.addGuest(guest.Guest{})
	tok := e.tokenFor(g)
	status, body := e.do("GET", "/.well-known/jwks.json", "", nil)
	if status != 200 {
		t.Fatalf("jwks: %d", status)
	}
	if err := verifyWithJWKS(tok, body); err != nil {
		t.Fatal(err)
	}
}
