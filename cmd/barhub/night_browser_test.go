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

	// The audit log names people and groups, not ids: a guest moved into
	// a generated group, and a guest who signed herself out everywhere.
	admin := signInAdmin(t, s)
	bo := addFamily(t, admin, "Berg", "g-ec2e1234", "Bo")[0]
	ada := addFamily(t, admin, "Lund", "", "Ada")[0]
	if status := admin.call("PUT", "/api/admin/guests/"+ada.ID, map[string]any{"groupId": "g-ec2e1234"}, nil); status != 200 {
		t.Fatalf("move Ada into Bo's group: %d", status)
	}
	status, lr := login(t, s.URL, bo.Code, "Berg")
	if status != 200 {
		t.Fatalf("Bo signs in: %d", status)
	}
	if status := (rsvpClient{t: t, base: s.URL, token: lr.Token}).call("POST", "/api/auth/signout-everywhere", nil, nil); status != 204 {
		t.Fatalf("Bo signs out everywhere: %d", status)
	}
	// A copied link counts the guests it was copied for ("link copied, 0
	// guests" before).
	if status := admin.call("POST", "/api/admin/invitations/send", map[string]any{"how": "link", "guestIds": []string{ada.ID}, "anyway": true}, nil); status != 200 {
		t.Fatalf("record a copied link: %d", status)
	}
	// One person with a milk allergy and an undescribed +1, and words the
	// host must read: the dietary report says "1 person" and writes its
	// headings in sentence case.
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Cid", "lastName": "Mjölk", "expectedGuests": 2,
		"status": "coming", "dietary": "milk allergy, and no coriander"}, nil); status != 201 {
		t.Fatalf("create Cid: %d", status)
	}
	browsertest.SignIn(t, laptop, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, laptop, "#dietary-report .needs-eyes", "coriander")
	if h := browsertest.Eval[string](t, laptop, `document.querySelector("#dietary-report .needs-eyes h3").innerText`); !strings.HasPrefix(h, "⚑ Needs the host's eyes") {
		t.Errorf("the review heading reads %q", h)
	}
	if h := browsertest.Eval[string](t, laptop, `document.querySelector("#dietary-report .dietary-tag:not(.needs-eyes) h3").innerText.replace(/\s+/g, " ")`); h != "Milk 1 person" {
		t.Errorf("the milk heading reads %q, want %q", h, "Milk 1 person")
	}
	browsertest.Eval[bool](t, laptop, `document.getElementById("dietary-report").scrollIntoView() === undefined`)
	browsertest.Screenshot(t, laptop, "dietary-report-one-person")
	browsertest.WaitText(t, laptop, `#audit-rows tr[data-action="invitation.send"]`, "link copied, 1 guest")
	browsertest.WaitText(t, laptop, "#audit-rows", "Signed out everywhere")
	browsertest.WaitText(t, laptop, `#audit-rows tr[data-action="auth.signout_everywhere"]`, "Bo Berg")
	browsertest.WaitText(t, laptop, `#audit-rows tr[data-action="guest.update"]`, "moved to group Bo Berg")
	if log := browsertest.Text(t, laptop, "#audit-rows"); strings.Contains(log, "g-ec2e") || strings.Contains(log, bo.ID) {
		t.Errorf("the audit log shows ids: %q", log)
	}
	browsertest.Eval[bool](t, laptop, `document.getElementById("audit").scrollIntoView() === undefined`)
	browsertest.Screenshot(t, laptop, "audit-names")
}
