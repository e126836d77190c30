package main

import (
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserSignedOutGuestLandsOnSignIn: a guest's page is open and live
// when the host signs her out everywhere; the server closes her socket
// (4001) and the page goes to the sign-in screen saying why, without her
// touching anything.
func TestBrowserSignedOutGuestLandsOnSignIn(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	g := addFamily(t, admin, "Vale", "vale", "Nora")[0]

	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, g.Code, "vale", "/")
	// The page's live connection is open once the hub counts it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var p struct{ Topics map[string]int }
		admin.call("GET", "/api/admin/presence", nil, &p)
		if p.Topics["guests"] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the guest page never went live: %v", p.Topics)
		}
		time.Sleep(50 * time.Millisecond)
	}

	if status := admin.call("POST", "/api/admin/guests/"+g.ID+"/signout", nil, nil); status != 204 {
		t.Fatalf("sign out everywhere: %d", status)
	}
	browsertest.WaitPath(t, phone, "/login")
	browsertest.WaitText(t, phone, "#login-notice", "You have been signed out")
	if tok := browsertest.Eval[string](t, phone, `localStorage.getItem("barhub.token") || ""`); tok != "" {
		t.Errorf("the ended token is still stored")
	}
	browsertest.Screenshot(t, phone, "signed-out-everywhere")
}
