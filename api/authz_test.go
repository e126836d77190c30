package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

// access is who may call a route.
type access int

const (
	public access = iota
	signedIn
	bartender
	admin
	// board: a pick-up board's token, the bar's or the host's.
	board
	// menuReader: anyone signed in, and anyone at all while the host's
	// public menu is on (api/publicmenu.go); TestAuthorisation runs with it
	// off.
	menuReader
)

// policy is the authorisation table: every route of the API and who may
// call it. TestEveryRouteIsInThePolicy keeps it complete.
var policy = map[string]access{
	"GET /healthz":                                 public,
	"GET /readyz":                                  public,
	"GET /metrics":                                 public,
	"GET /.well-known/jwks.json":                   public,
	"GET /api/openapi.json":                        public,
	"GET /ws":                                      public, // the one-time ticket is checked by the hub
	"POST /api/auth/login":                         public,
	"GET /api/event":                               public,
	"GET /api/app-key":                             public,
	"GET /images/{name}":                           public,
	"GET /images/drinks/{file}":                    public,
	"PUT /uploads/drinks/{id}":                     public, // the upload URL's signature is checked
	"POST /uploads/drinks/{id}":                    public, // the upload URL's signature is checked
	"POST /api/ws/ticket":                          signedIn,
	"POST /api/auth/signout-everywhere":            signedIn,
	"GET /api/me":                                  signedIn,
	"GET /api/me/events":                           signedIn,
	"POST /api/auth/switch":                        signedIn,
	"GET /api/rsvp":                                signedIn,
	"PUT /api/rsvp":                                signedIn,
	"POST /api/dietary/read":                       signedIn,
	"POST /api/orders":                             signedIn,
	"GET /api/orders":                              signedIn,
	"GET /api/orders/{id}":                         signedIn,
	"PATCH /api/orders/{id}":                       signedIn,
	"POST /api/orders/{id}/cancel":                 signedIn,
	"POST /api/recommendations":                    signedIn,
	"GET /api/recommendations/{id}":                signedIn,
	"POST /api/board/login":                        public,
	"GET /api/board":                               board,
	"POST /api/board/ws/ticket":                    board,
	"GET /api/push/key":                            signedIn,
	"POST /api/push/subscriptions":                 signedIn,
	"DELETE /api/push/subscriptions/{id}":          signedIn,
	"GET /api/bar/queue":                           bartender,
	"POST /api/bar/orders/{id}/{action}":           bartender,
	"GET /api/bar/stock":                           bartender,
	"PUT /api/bar/stock/{ingredient}":              bartender,
	"GET /api/bar/drinks/{id}/recipe":              bartender,
	"POST /api/door/checkin":                       bartender,
	"POST /api/door/checkin/{id}/undo":             bartender,
	"GET /api/door/lookup":                         bartender,
	"GET /api/door/stats":                          bartender,
	"GET /api/admin/stats":                         admin,
	"GET /api/admin/guests":                        admin,
	"POST /api/admin/guests":                       admin,
	"GET /api/admin/guests.csv":                    admin,
	"POST /api/admin/guests/import":                admin,
	"GET /api/admin/guests/{id}":                   admin,
	"PUT /api/admin/guests/{id}":                   admin,
	"DELETE /api/admin/guests/{id}":                admin,
	"POST /api/admin/guests/{id}/code":             admin,
	"PUT /api/admin/guests/{id}/dietary":           admin,
	"POST /api/admin/guests/{id}/signout":          admin,
	"GET /api/admin/settings":                      admin,
	"PUT /api/admin/settings":                      admin,
	"GET /api/admin/reports/dietary":               admin,
	"GET /api/admin/reports/shopping":              admin,
	"GET /api/admin/reports/shopping.csv":          admin,
	"GET /api/admin/invitations":                   admin,
	"GET /api/admin/public-url":                    admin,
	"GET /api/event.ics":                           signedIn,
	"POST /api/admin/invitations/send":             admin,
	"GET /api/admin/mail":                          admin,
	"GET /api/admin/reminders":                     admin,
	"POST /api/admin/reminders":                    admin,
	"DELETE /api/admin/reminders/{id}":             admin,
	"PUT /api/admin/public-url":                    admin,
	"POST /api/admin/orders/report/learn":          admin,
	"DELETE /api/admin/reports/shopping/learnt":    admin,
	"POST /api/admin/drinks":                       admin,
	"PUT /api/admin/drinks/{id}":                   admin,
	"DELETE /api/admin/drinks/{id}":                admin,
	"POST /api/admin/drinks/{id}/image-upload":     admin,
	"POST /api/admin/drinks/{id}/image/regenerate": admin,
	"DELETE /api/admin/drinks/{id}/image":          admin,
	"GET /api/admin/orders":                        admin,
	"GET /api/admin/jobs":                          admin,
	"POST /api/admin/jobs/{id}/retry":              admin,
	"POST /api/admin/announcements":                admin,
	"GET /api/admin/presence":                      admin,
	"GET /api/admin/audit":                         admin,
	"GET /api/admin/events":                        admin,
	"GET /api/sections":                            menuReader,
	"GET /api/drinks":                              menuReader,
	"GET /api/drinks/{id}":                         menuReader,
	"POST /api/door/walkins":                       bartender,
	"GET /api/register/challenge":                  public,
	"POST /api/register":                           public,
	"GET /api/register/{token}":                    public, // the link's secret is checked
	"POST /api/register/{token}/accept":            public, // the link's secret is checked
	"POST /api/register/{token}/confirm":           public, // the link's secret, e-mailed only, is checked
	"POST /api/register/{token}/cancel":            public, // the link's secret is checked
	"GET /api/admin/notifications":                 admin,
	"PUT /api/admin/notifications":                 admin,
	"GET /api/admin/orders.csv":                    admin,
	"GET /api/admin/orders/report":                 admin,
	"GET /api/admin/orders/report.csv":             admin,
}

// policyPrefixes covers routes added later under a prefix whose rule is
// fixed: everything under /api/admin/ is the host's, /api/bar/ the bar's.
func expectedAccess(route string) (access, bool) {
	if a, ok := policy[route]; ok {
		return a, true
	}
	_, path, _ := strings.Cut(route, " ")
	switch {
	case strings.HasPrefix(path, "/api/admin/"):
		return admin, true
	case strings.HasPrefix(path, "/api/bar/"):
		return bartender, true
	}
	return 0, false
}

func walkRoutes(t *testing.T, h http.Handler) []string {
	t.Helper()
	var routes []string
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasSuffix(route, "/*") {
			return nil // the web apps and the API's own not-found
		}
		routes = append(routes, method+" "+strings.TrimSuffix(route, "/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return routes
}

// TestEveryRouteIsInThePolicy fails when a route is added without saying
// who may call it.
func TestEveryRouteIsInThePolicy(t *testing.T) {
	e := newTestEnv(t)
	for _, route := range walkRoutes(t, New(e.deps)) {
		if _, ok := expectedAccess(route); !ok {
			t.Errorf("route %s is not in the authorisation table (api/authz_test.go)", route)
		}
	}
}

// TestAuthorisation calls every route as every role (and signed out) and
// checks the PEP lets exactly the right people through. Handlers may still
// answer 4xx for the empty body or unknown id; what matters is 401/403.
func TestAuthorisation(t *testing.T) {
	e := newTestEnv(t)
	tokens := map[string]string{"anonymous": ""}
	people := map[string]guest.Guest{}
	for _, r := range []guest.Role{guest.RoleGuest, guest.RoleBartender, guest.RoleAdmin} {
		people[string(r)] = e.addGuest(guest.Guest{Role: r})
		tokens[string(r)] = e.tokenFor(people[string(r)])
	}
	// A pick-up board holds a token too, and may use it for the board only.
	b, _, err := e.store.CreateBoard(context.Background(), "Board", "test")
	if err != nil {
		t.Fatal(err)
	}
	tokens["board"], _, err = e.keys.Sign(auth.Identity{GuestID: b.ID, Name: b.Name, Role: guest.RoleBoard})
	if err != nil {
		t.Fatal(err)
	}
	// The host turned the public menu off: the menu is for those signed in.
	off := false
	if _, err := e.store.SaveSettings(context.Background(), guest.Settings{EventName: "Party", Timezone: "UTC", PublicMenu: &off}); err != nil {
		t.Fatal(err)
	}
	allowed := func(a access, who string) bool {
		switch a {
		case public:
			return true
		case menuReader:
			return who != "anonymous"
		case signedIn:
			return who != "anonymous" && who != "board"
		case board:
			return who == "board" || who == "bartender" || who == "admin"
		case bartender:
			return who == "bartender" || who == "admin"
		default:
			return who == "admin"
		}
	}
	for _, route := range walkRoutes(t, New(e.deps)) {
		a, ok := expectedAccess(route)
		if !ok || route == "GET /ws" {
			continue
		}
		method, path, _ := strings.Cut(route, " ")
		path = strings.NewReplacer("{id}", "000000000000000000000000", "{action}", "start", "{ingredient}", "lime").Replace(path)
		for who, tok := range tokens {
			status, body := e.do(method, path, tok, nil)
			denied := status == http.StatusUnauthorized || status == http.StatusForbidden
			if allowed(a, who) && denied {
				t.Errorf("%s as %s: %d, want access: %s", route, who, status, body)
			}
			if !allowed(a, who) {
				want := http.StatusForbidden
				if who == "anonymous" {
					want = http.StatusUnauthorized
				}
				if status != want {
					t.Errorf("%s as %s: %d, want %d: %s", route, who, status, want, body)
				}
			}
			if status >= 500 {
				t.Errorf("%s as %s: %d: %s", route, who, status, body)
			}
			if g, ok := people[who]; ok && route == "POST /api/auth/signout-everywhere" {
				// That ended the caller's sessions: sign in again.
				g, err := e.store.GuestByID(context.Background(), g.ID)
				if err != nil {
					t.Fatal(err)
				}
				tokens[who] = e.tokenFor(g)
			}
		}
	}
}
