package main

import (
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// toastOverlaps lists what the shown order toast lies over, or comes
// within a few pixels of: the sticky bottom bar (the order dock, the tab
// bar), the top bar, and each visible button of the order sheet.
const toastOverlaps = `(() => {
	const box = document.getElementById("bar-toast");
	if (!box || !box.classList.contains("show")) return ["no toast shown"];
	// Its shadow and a little air count: a toast a pixel above a button
	// still reads as lying on it.
	const r0 = box.getBoundingClientRect(), air = 6;
	const t = {top: r0.top - air, bottom: r0.bottom + air, left: r0.left - air, right: r0.right + air};
	const out = [];
	if (r0.top < 0 || r0.bottom > innerHeight) out.push("the toast is off the screen (" + Math.round(t.top) + "–" + Math.round(t.bottom) + ")");
	const over = (el, what) => {
		if (!el || !el.checkVisibility()) return;
		const r = el.getBoundingClientRect();
		if (r.width && r.height && t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom) out.push(what + " (" + Math.round(r.top) + "–" + Math.round(r.bottom) + ", toast " + Math.round(t.top) + "–" + Math.round(t.bottom) + ")");
	};
	over(document.getElementById("order-dock"), "the order dock");
	over(document.getElementById("tabbar"), "the tab bar");
	over(document.querySelector("header.topbar"), "the top bar");
	for (const b of document.querySelectorAll("#order-dialog button")) over(b, "the order sheet's " + (b.textContent.trim() || b.getAttribute("aria-label")));
	return out; })()`

// TestBrowserOrderToastCoversNoButton: on a 390×844 phone the toast that
// says an order was placed lies over neither the sticky bar (the order
// dock and the tab bar) nor the top bar, and when the guest at once opens
// the next drink's order sheet, over none of its buttons. The toast rose
// from the bottom over the dock and the sheet's Order button (issue 26).
func TestBrowserOrderToastCoversNoButton(t *testing.T) {
	p := startBarParty(t, nil)
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Negroni")

	for _, drink := range []string{"espresso-martini", "negroni"} {
		// Each drink's Order button in turn, near the screen's bottom
		// where the toast used to rise.
		button := `#menu-list .drink[data-id="` + drink + `"] .order-button`
		browsertest.WaitVisible(t, phone, button)
		browsertest.Eval[bool](t, phone, `(document.querySelector(`+jsString(button)+`).scrollIntoView({block: "end"}), scrollBy(0, 140), true)`)
		browsertest.Click(t, phone, button)
		browsertest.WaitVisible(t, phone, "#order-dialog")
		browsertest.Click(t, phone, "#order-submit")
		browsertest.WaitNotVisible(t, phone, "#order-dialog")
		waitEval(t, phone, "the toast shown", `(() => { const b = document.getElementById("bar-toast"); return !!b && b.classList.contains("show") && b.getAnimations().length === 0; })()`)
		browsertest.ScreenshotScreen(t, phone, "toast-after-"+drink)
		for _, o := range browsertest.Eval[[]string](t, phone, toastOverlaps) {
			t.Errorf("after ordering a %s the toast lies over %s", drink, o)
		}
	}

	// The next drink's sheet opened while the toast still shows.
	next := `#menu-list .drink[data-id="virgin-mojito"] .order-button`
	browsertest.Click(t, phone, next)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	waitEval(t, phone, "the sheet settled", `document.getElementById("order-dialog").getAnimations().length === 0`)
	browsertest.ScreenshotScreen(t, phone, "toast-with-sheet")
	for _, o := range browsertest.Eval[[]string](t, phone, toastOverlaps) {
		t.Errorf("with the next order sheet open the toast lies over %s", o)
	}
}
