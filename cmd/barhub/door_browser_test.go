package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserDoorCheckIn: a bartender holds a tablet at the entrance. A
// guest's code, typed, gives the green welcome card and the arrivals go
// up on the door and on the host's dashboard, live; undo takes it back;
// the whole scanned link works as well, and a second scan is refused with
// who let them in. A guest who lost the code is found by name.
func TestBrowserDoorCheckIn(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var bea, ada e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bea", "lastName": "Barista", "role": "bartender"}, &bea); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	if status := admin.call("POST", "/api/admin/guests", map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "expectedGuests": 3, "status": "coming", "dietary": "no nuts",
	}, &ada); status != 201 {
		t.Fatalf("create guest: %d", status)
	}
	fam := addFamily(t, admin, "Byron", "byron", "Bob", "Cy")

	// The host's laptop, watching.
	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#live-status", "Live")
	browsertest.WaitText(t, desk, "#stat-checkedInHeads", "0")

	// The door tablet: the bartender signs in, and the bar links to the door.
	door := browsertest.New(t).Page(t, browsertest.Tablet)
	browsertest.SignIn(t, door, s.URL, bea.Code, "barista", "/bar")
	// Once the bar has loaded its queue and gone live, nothing moves the
	// link any more: a click while the page still fills in can land
	// beside it on a slow machine.
	browsertest.WaitText(t, door, "#live-status", "Live")
	browsertest.WaitText(t, door, "#tickets-queued", "No orders waiting")
	browsertest.Click(t, door, "#door-link")
	browsertest.WaitPath(t, door, "/door")
	browsertest.WaitText(t, door, "#live-status", "Live")
	browsertest.WaitText(t, door, "#door-in", "0")
	browsertest.WaitText(t, door, "#door-coming", "3")
	browsertest.Eval[bool](t, door, `window.sameDocument = true`)
	if id := browsertest.Eval[string](t, door, `document.activeElement.id`); id != "door-code" {
		t.Errorf("the focus is on %q, want the code field", id)
	}
	// The scan button shows exactly where the browser can read QR codes.
	if !browsertest.Eval[bool](t, door, `document.getElementById("door-scan").hidden === !("BarcodeDetector" in window)`) {
		t.Error("the Scan QR button is shown without BarcodeDetector, or hidden with it")
	}
	browsertest.Screenshot(t, door, "door-ready")

	// Typed, in lower case.
	browsertest.Fill(t, door, "#door-code", strings.ToLower(ada.Code))
	if tt := browsertest.Eval[string](t, door, `getComputedStyle(document.getElementById("door-code")).textTransform`); tt != "uppercase" {
		t.Errorf("the code field shows %q, want uppercase", tt)
	}
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Welcome, Ada Lovelace — party of 3")
	browsertest.WaitText(t, door, "#door-warnings", "Dietary: no nuts")
	checkTimes(t, door)
	if level := browsertest.Eval[string](t, door, `document.getElementById("door-result").dataset.level`); level != "ok" {
		t.Errorf("welcome card level %q, want ok (green)", level)
	}
	browsertest.WaitText(t, door, "#door-in", "1")
	browsertest.WaitText(t, door, "#door-heads", "3")
	browsertest.WaitText(t, desk, "#stat-checkedInHeads", "3")
	browsertest.WaitText(t, desk, "#stat-checkedIn", "1")
	if h := browsertest.Eval[float64](t, door, `document.getElementById("door-undo").getBoundingClientRect().height`); h < 48 {
		t.Errorf("the undo button is %.0f px tall, want at least 48", h)
	}
	browsertest.Screenshot(t, door, "welcome")
	browsertest.Screenshot(t, desk, "desk-arrived")

	// Wrong card: undo.
	browsertest.Click(t, door, "#door-undo")
	browsertest.WaitText(t, door, "#door-message", "Check-in undone")
	browsertest.WaitText(t, door, "#door-in", "0")
	browsertest.WaitText(t, desk, "#stat-checkedInHeads", "0")

	// The whole link from the QR code, as a keyboard-like scanner types it.
	browsertest.Fill(t, door, "#door-code", s.URL+"/login?code="+url.QueryEscape(ada.Code))
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Welcome, Ada Lovelace — party of 3")
	browsertest.WaitText(t, door, "#door-in", "1")

	// Scanned twice: red, with who let them in, and still counted once.
	browsertest.Fill(t, door, "#door-code", ada.Code)
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Already in: Ada Lovelace")
	browsertest.WaitText(t, door, "#door-warnings", "by Bea Barista")
	if level := browsertest.Eval[string](t, door, `document.getElementById("door-result").dataset.level`); level != "stop" {
		t.Errorf("second scan level %q, want stop (red)", level)
	}
	// The time it says is in the page's one format, never the server's.
	browsertest.WaitText(t, door, "#door-detail", "In since")
	checkTimes(t, door)
	browsertest.WaitText(t, door, "#door-in", "1")
	browsertest.Screenshot(t, door, "already-in")

	// An unknown code.
	browsertest.Fill(t, door, "#door-code", "ABCDEFGH")
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Unknown code")
	browsertest.WaitText(t, door, "#door-detail", "find the guest by name")
	browsertest.Screenshot(t, door, "unknown-code")

	// Bob lost his code: found by name and let in; the card says Cy is
	// still to come.
	browsertest.Fill(t, door, "#door-search", "byron")
	browsertest.Click(t, door, `#door-search-form button[type="submit"]`)
	browsertest.WaitText(t, door, "#door-search-results", "Bob Byron")
	browsertest.Screenshot(t, door, "search")
	browsertest.Click(t, door, `#door-search-results li[data-id="`+fam[0].ID+`"] button`)
	// Bob never answered: the amber card asks before anyone is counted.
	browsertest.WaitText(t, door, "#door-message", "Let in anyway? Bob Byron — party of 1")
	browsertest.WaitText(t, door, "#door-warnings", "never answered the RSVP")
	browsertest.WaitVisible(t, door, "#door-force")
	if level := browsertest.Eval[string](t, door, `document.getElementById("door-result").dataset.level`); level != "warn" {
		t.Errorf("asking card level %q, want warn (amber)", level)
	}
	browsertest.WaitText(t, door, "#door-in", "1")
	browsertest.WaitText(t, door, "#door-detail", "Not checked in yet")
	browsertest.Screenshot(t, door, "amber-let-in-anyway")
	browsertest.Click(t, door, "#door-force")
	browsertest.WaitText(t, door, "#door-message", "Welcome, Bob Byron — party of 1")
	browsertest.WaitText(t, door, "#door-warnings", "still to come: Cy")
	if level := browsertest.Eval[string](t, door, `document.getElementById("door-result").dataset.level`); level != "warn" {
		t.Errorf("Bob never answered: level %q, want warn (amber)", level)
	}
	browsertest.WaitText(t, door, "#door-in", "2")
	browsertest.WaitText(t, door, "#door-heads", "4")
	browsertest.WaitText(t, desk, "#stat-checkedInHeads", "4")
	browsertest.WaitText(t, desk, "#guest-rows", "✓ in")
	browsertest.Screenshot(t, door, "found-by-name")
	browsertest.Screenshot(t, desk, "desk-two-arrived")

	if !browsertest.Eval[bool](t, door, `window.sameDocument === true`) {
		t.Error("the door page reloaded; it should update live")
	}

	// Kiosk mode on the tablet, and a short network drop: Cy's scan is
	// kept, marked "not yet sent" and not counted; the card goes back to
	// the scan screen on its own; when the network is back the scan is
	// sent and counted.
	browsertest.Navigate(t, door, s.URL+"/door?kiosk=1")
	browsertest.WaitText(t, door, "#door-in", "2")
	browsertest.WaitNotVisible(t, door, "#door-search")
	browsertest.WaitText(t, door, "#door-kiosk", "Leave kiosk mode")
	offline := func(off bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(door, browsertest.StepTimeout)
		defer cancel()
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatalf("network: %v", err)
		}
		cond := []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: cond}); err != nil {
			t.Fatalf("network offline=%v: %v", off, err)
		}
		if _, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
			t.Fatalf("navigator offline=%v: %v", off, err)
		}
	}
	offline(true)
	browsertest.Fill(t, door, "#door-code", fam[1].Code)
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Not yet sent")
	browsertest.WaitText(t, door, "#door-queue", "not yet sent")
	browsertest.WaitText(t, door, "#door-queue-title", "1 scan not yet sent")
	browsertest.Screenshot(t, door, "kiosk-not-yet-sent")
	browsertest.WaitText(t, door, "#door-in", "2")
	browsertest.WaitNotVisible(t, door, "#door-result") // back to the scan screen by itself
	if id := browsertest.Eval[string](t, door, `document.activeElement.id`); id != "door-code" {
		t.Errorf("kiosk: the focus is on %q, want the code field", id)
	}
	offline(false)
	// Sent; Cy never answered either, so the answer is the amber question,
	// kept on the list until the door person answers it.
	browsertest.WaitText(t, door, "#door-queue", "Let in anyway? Cy Byron")
	browsertest.WaitText(t, door, "#door-queue", "sent")
	browsertest.WaitText(t, door, "#door-queue-title", "Scans sent after the connection came back")
	browsertest.WaitText(t, door, "#door-in", "2")
	browsertest.Screenshot(t, door, "kiosk-sent")
	browsertest.Click(t, door, "#door-queue button.primary")
	browsertest.WaitText(t, door, "#door-message", "Welcome, Cy Byron")
	browsertest.WaitText(t, door, "#door-in", "3")
	browsertest.WaitText(t, desk, "#stat-checkedIn", "3")
}

// checkTimes fails the test when a time on the door's card is not in the
// one format of the page's language.
func checkTimes(t *testing.T, ctx context.Context) {
	t.Helper()
	bad := browsertest.Eval[string](t, ctx, `(() => {
		const f = new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, {hour: "2-digit", minute: "2-digit"});
		// The shape of 15:16 in this format, whatever the time of day now: digits are
		// any digits, and AM or PM either.
		const shape = new RegExp("^" + f.format(new Date(2020, 0, 1, 15, 16)).replace(/\d/g, "\\d").replace(/[AP]M/, "[AP]M") + "$");
		const times = document.getElementById("door-result").innerText.match(/\d{1,2}[:.]\d{2}(\s?[AP]M)?/g) || [];
		if (times.length === 0) return "no time on the card";
		return times.filter((x) => !shape.test(x)).join(", ");
	})()`)
	if bad != "" {
		t.Errorf("times on the door's card not in the page's format: %s", bad)
	}
}
