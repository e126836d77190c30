package main

import (
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserNightMessages walks the messages of issue 26 that misled the
// people reading them, on one server and one browser.
func TestBrowserNightMessages(t *testing.T) {
	s := startServer(t, "", nil)
	b := browsertest.New(t)

	// A host's first visit to /admin: nobody was signed out, so the sign-in
	// page must not say so.
	laptop := b.Page(t, browsertest.Laptop)
	browsertest.Navigate(t, laptop, s.URL+"/admin")
	browsertest.WaitPath(t, laptop, "/login")
	browsertest.WaitVisible(t, laptop, "#code")
	// The admin page's requests and its live connection both answer 401 and
	// both send the browser on: give the later one time to land.
	for range 20 {
		if q := browsertest.Eval[string](t, laptop, `location.search`); strings.Contains(q, "expired") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	browsertest.WaitVisible(t, laptop, "#code")
	if notice := browsertest.Eval[string](t, laptop, `(() => { const n = document.getElementById("login-notice"); return n && !n.hidden ? n.textContent : ""; })()`); strings.Contains(notice, "signed out") {
		t.Errorf("a first visit to /admin says %q", notice)
	}
	if q := browsertest.Eval[string](t, laptop, `location.search`); strings.Contains(q, "expired") {
		t.Errorf("a first visit to /admin lands on /login%s", q)
	}
	browsertest.Screenshot(t, laptop, "admin-first-visit")
}
