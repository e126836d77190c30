package main

import (
	"fmt"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserHostLaptop: the host's dashboard on a 1280×800 laptop, with 41 guests.
// The section nav is one line (it wrapped onto two); at least 15 guest rows fit on the
// screen (rows were ~110 px tall, six to a screen); at 200 % zoom (640×400 CSS px) the
// section nav is still on the screen and its links reachable (it disappeared); and, as
// axe-core measures them, every visible text reads at 4.5:1 or more in the light and the
// dark theme (dark had 38 failures) and no button's aria-label leaves out the words it
// shows.
func TestBrowserHostLaptop(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	// The host is one guest; 40 more make the 41.
	for i := range 40 {
		body := map[string]any{"firstName": fmt.Sprintf("Guest%02d", i), "lastName": "Lund"}
		if i%3 == 0 {
			body["status"] = "coming"
		}
		if status := admin.call("POST", "/api/admin/guests", body, nil); status != 201 {
			t.Fatalf("create guest %d: %d", i, status)
		}
	}

	b := browsertest.New(t)
	laptop := browsertest.Viewport{Name: "laptop-1280", Width: 1280, Height: 800, Scale: 1}
	desk := b.Page(t, laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#guest-rows", "Guest39 Lund")

	// One line: the nav is as tall as one line of link, and every link is on it, on the
	// screen, not scrolled away.
	nav := browsertest.Eval[[]string](t, desk, `(() => {
		const out = [];
		const nav = document.querySelector(".desk-nav").getBoundingClientRect();
		const a = document.querySelector(".desk-nav a");
		const line = parseFloat(getComputedStyle(a).lineHeight) + parseFloat(getComputedStyle(a).paddingTop) + parseFloat(getComputedStyle(a).paddingBottom);
		if (nav.height > line * 1.5) out.push("the nav is " + Math.round(nav.height) + " px tall, one line is " + Math.round(line));
		for (const l of document.querySelectorAll(".desk-nav a")) {
			const r = l.getBoundingClientRect();
			const range = document.createRange();
			range.selectNodeContents(l);
			if (new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size > 1) out.push(l.textContent + " wraps");
			if (r.left < nav.left - 0.5 || r.right > nav.right + 0.5 || r.top < 0 || r.right > innerWidth) out.push(l.textContent + " is off the nav");
		}
		return out; })()`)
	for _, p := range nav {
		t.Errorf("at 1280 px the section nav is not one line: %s", p)
	}

	// The guest list from its first row: how many rows are wholly on the screen.
	rows := browsertest.Eval[int](t, desk, `(() => {
		const first = document.querySelector("#guest-rows tr");
		first.scrollIntoView({block: "start"});
		const bar = document.querySelector("header.topbar").getBoundingClientRect();
		const top = getComputedStyle(document.querySelector("header.topbar")).position === "sticky" ? bar.bottom : 0;
		const head = document.querySelector("#guests thead")?.getBoundingClientRect();
		scrollBy(0, -(top + (head ? head.height : 0)));
		return [...document.querySelectorAll("#guest-rows tr")].filter((r) => {
			const b = r.getBoundingClientRect();
			return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight;
		}).length; })()`)
	if rows < 15 {
		t.Errorf("at 1280×800 %d guest rows fit on the screen, want at least 15", rows)
	}
	browsertest.ScreenshotScreen(t, desk, "guest-list")

	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, desk, scheme)
		for _, v := range browsertest.Axe(t, desk, "color-contrast", "label-content-name-mismatch") {
			t.Errorf("%s theme: %s", scheme, v)
		}
		browsertest.Eval[bool](t, desk, `(scrollTo(0, 0), true)`)
		browsertest.ScreenshotScreen(t, desk, "desk-"+scheme)
	}

	// 200 % zoom: the same laptop at half the CSS pixels.
	zoomed := b.Page(t, browsertest.Viewport{Name: "zoom-200", Width: 640, Height: 400, Scale: 2})
	browsertest.SignIn(t, zoomed, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, zoomed, "#guest-rows", "Guest39 Lund")
	unreachable := browsertest.Eval[[]string](t, zoomed, `(() => {
		const nav = document.querySelector(".desk-nav");
		if (!nav || !nav.checkVisibility()) return ["the section nav is hidden"];
		const out = [];
		for (const a of nav.querySelectorAll("a")) {
			a.scrollIntoView({block: "nearest", inline: "nearest"});
			const r = a.getBoundingClientRect();
			const x = r.left + r.width / 2, y = r.top + r.height / 2;
			if (r.width < 1 || x < 0 || x > innerWidth || y < 0 || y > innerHeight || !a.contains(document.elementFromPoint(x, y))) out.push(a.textContent.trim());
		}
		return out; })()`)
	for _, a := range unreachable {
		t.Errorf("at 200 %% zoom the section nav's %q cannot be reached", a)
	}
	browsertest.Eval[bool](t, zoomed, `(scrollTo(0, 0), document.querySelector(".desk-nav").scrollLeft = 0, true)`)
	browsertest.ScreenshotScreen(t, zoomed, "desk-zoomed")
}
