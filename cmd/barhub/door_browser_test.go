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
	offline := func(off bool) { t.Helper(); setOffline(t, door, off) }
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

// setOffline takes the tab's network away (off) or gives it back, as Wi-Fi
// going and coming does: requests fail, and navigator.onLine and the
// offline and online events follow.
func setOffline(t *testing.T, page context.Context, off bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(page, browsertest.StepTimeout)
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

// TestBrowserDoorMoreThanInvited: a group invited as two answered the RSVP
// with three. At the door the card is amber, as for anyone bringing more
// people than the invitation names: nobody is counted until the door
// person lets them all in, and the welcome after that stays amber.
func TestBrowserDoorMoreThanInvited(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var bea, rae e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bea", "lastName": "Barista", "role": "bartender"}, &bea); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	if status := admin.call("POST", "/api/admin/guests", map[string]any{
		"firstName": "Rae", "lastName": "Moss", "expectedGuests": 2, "extraGuests": 1, "status": "coming",
	}, &rae); status != 201 {
		t.Fatalf("create guest: %d", status)
	}

	door := browsertest.New(t).Page(t, browsertest.Tablet)
	browsertest.SignIn(t, door, s.URL, bea.Code, "barista", "/bar")
	browsertest.Navigate(t, door, s.URL+"/door")
	browsertest.WaitText(t, door, "#door-coming", "3")
	level := func() string {
		return browsertest.Eval[string](t, door, `document.getElementById("door-result").dataset.level`)
	}
	browsertest.Fill(t, door, "#door-code", rae.Code)
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Rae Moss — party of 3")
	if got := browsertest.Eval[string](t, door, `document.getElementById("door-message").textContent`); got != "Let in anyway? Rae Moss — party of 3" {
		t.Errorf("card %q, want the amber question", got)
	}
	if l := level(); l != "warn" {
		t.Errorf("more people than invited: level %q, want warn (amber)", l)
	}
	browsertest.WaitText(t, door, `#door-warnings [data-code="more_than_invited"]`, "party of 3 for an invitation of 2")
	browsertest.WaitVisible(t, door, "#door-force")
	browsertest.WaitText(t, door, "#door-in", "0")
	browsertest.Screenshot(t, door, "more-than-invited")

	browsertest.Click(t, door, "#door-force")
	browsertest.WaitText(t, door, "#door-message", "Welcome, Rae Moss — party of 3")
	if l := level(); l != "warn" {
		t.Errorf("let in after the question: level %q, want warn (amber)", l)
	}
	browsertest.WaitText(t, door, "#door-in", "1")
	browsertest.WaitText(t, door, "#door-heads", "3")
}

// TestBrowserDoorOfflineBadge: the header's connection badge says
// "Offline" the moment the tablet loses the network, before any scan is
// kept, and "Live" again when it is back.
func TestBrowserDoorOfflineBadge(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var bea e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bea", "lastName": "Barista", "role": "bartender"}, &bea); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	door := browsertest.New(t).Page(t, browsertest.Tablet)
	browsertest.SignIn(t, door, s.URL, bea.Code, "barista", "/bar")
	browsertest.Navigate(t, door, s.URL+"/door")
	browsertest.WaitText(t, door, "#live-status", "Live")
	status := func() string {
		return browsertest.Eval[string](t, door, `document.getElementById("live-status").dataset.status`)
	}

	setOffline(t, door, true)
	browsertest.WaitText(t, door, "#live-status", "Offline")
	if st := status(); st != "offline" {
		t.Errorf("offline: the badge's status is %q", st)
	}
	if dot := browsertest.Eval[string](t, door, `getComputedStyle(document.querySelector("#live-status .dot")).backgroundColor`); dot == browsertest.Eval[string](t, door, `(() => {
		const probe = document.createElement("span");
		probe.style.color = "var(--success)";
		document.body.append(probe);
		const c = getComputedStyle(probe).color;
		probe.remove();
		return c;
	})()`) {
		t.Errorf("offline: the dot is still green (%s)", dot)
	}
	if !browsertest.Eval[bool](t, door, `document.getElementById("door-queue-box").hidden`) {
		t.Error("a scan was kept, but none was made")
	}
	browsertest.Screenshot(t, door, "offline-badge")

	setOffline(t, door, false)
	browsertest.WaitText(t, door, "#live-status", "Live")
	if st := status(); st != "open" {
		t.Errorf("back online: the badge's status is %q", st)
	}
}

// TestBrowserDoorSignInLandsAtDoor: a door volunteer has a bartender's
// sign-in. Opening the door signed out, signing in from a door link, or
// signing in again on the tablet that last showed the door lands on the
// door; a bartender whose last page was the bar, the host and a guest
// keep their own pages, and a guest is never sent to the door.
func TestBrowserDoorSignInLandsAtDoor(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var bea, ada e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Bea", "lastName": "Barista", "role": "bartender"}, &bea); status != 201 {
		t.Fatalf("create bartender: %d", status)
	}
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Ada", "lastName": "Lovelace", "status": "coming"}, &ada); status != 201 {
		t.Fatalf("create guest: %d", status)
	}
	signInHere := func(page context.Context, code, lastName, want string) {
		t.Helper()
		browsertest.WaitVisible(t, page, "#login-form[data-ready]")
		browsertest.Fill(t, page, "#code", code)
		browsertest.Fill(t, page, "#lastName", lastName)
		browsertest.Click(t, page, "#login-submit")
		browsertest.WaitPath(t, page, want)
	}
	signOut := func(page context.Context) {
		t.Helper()
		// By script: a phone's header may fold the button away.
		browsertest.Eval[bool](t, page, `(document.getElementById("logout").click(), true)`)
		browsertest.WaitPath(t, page, "/login")
	}

	tablet := browsertest.New(t).Page(t, browsertest.Tablet)
	// The door, opened signed out: the sign-in page goes back to it.
	browsertest.Navigate(t, tablet, s.URL+"/door")
	browsertest.WaitPath(t, tablet, "/login")
	if next := browsertest.Eval[string](t, tablet, `new URLSearchParams(location.search).get("next") || ""`); next != "/door" {
		t.Errorf("the door sent the browser to sign in with next=%q, want /door", next)
	}
	signInHere(tablet, bea.Code, "barista", "/door")
	browsertest.WaitText(t, tablet, "#live-status", "Live")

	// Signed out and in again on the tablet that last showed the door.
	signOut(tablet)
	browsertest.SignIn(t, tablet, s.URL, bea.Code, "barista", "/door")
	browsertest.WaitText(t, tablet, "#live-status", "Live")

	// After the bar, the bar again.
	browsertest.Navigate(t, tablet, s.URL+"/bar")
	browsertest.WaitText(t, tablet, "#live-status", "Live")
	signOut(tablet)
	browsertest.SignIn(t, tablet, s.URL, bea.Code, "barista", "/bar")

	// The door's link on another device: /login?next=/door.
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, s.URL+"/login?next=/door&code="+url.QueryEscape(bea.Code))
	browsertest.WaitVisible(t, phone, "#login-form[data-ready]")
	browsertest.Fill(t, phone, "#lastName", "barista")
	browsertest.Click(t, phone, "#login-submit")
	browsertest.WaitPath(t, phone, "/door")
	browsertest.WaitVisible(t, phone, `#live-status[data-status="open"]`)
	signOut(phone)

	// Other roles keep their homes: a guest is not let through to the door,
	// and the host's plain sign-in goes to the host's page.
	browsertest.Navigate(t, phone, s.URL+"/login?next=/door")
	signInHere(phone, ada.Code, "lovelace", "/")
	browsertest.WaitVisible(t, phone, `#live-status[data-status="open"]`)
	signOut(phone)
	browsertest.Navigate(t, phone, s.URL+"/login")
	signInHere(phone, s.Code, s.LastName, "/admin")
	browsertest.WaitVisible(t, phone, `#live-status[data-status="open"]`)
	// Somewhere else than barhub is never a place to go back to.
	signOut(phone)
	browsertest.Navigate(t, phone, s.URL+"/login?next="+url.QueryEscape("https://example.com/door"))
	signInHere(phone, bea.Code, "barista", "/bar")
}
