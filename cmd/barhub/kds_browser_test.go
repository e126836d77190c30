package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserKitchenDisplay: a busy night on the bar's 1024×768 tablet in
// landscape. Nine numbered tickets wait; eight or more are on the screen at
// once without scrolling up and down, with an all-day count of what is
// waiting per drink. A helper taps the Paper Plane on a ticket for three and
// reads the recipe for three. Keys work as a bump bar: 1–9 pick, Enter
// bumps, R takes the bump back. The stock switches open over the queue.
// Then a 390 px phone: the top bar of every page keeps each item in its own
// box.
func TestBrowserKitchenDisplay(t *testing.T) {
	p := startBarParty(t, map[string]string{"BARHUB_MAX_OPEN_ORDERS": "12"})
	drinks := []struct {
		id  string
		qty int
	}{{"paper-plane", 3}, {"mojito", 2}, {"negroni", 1}, {"mojito", 1}, {"daiquiri", 1}, {"mojito", 2}, {"negroni", 2}, {"aperol-spritz", 1}, {"virgin-mojito", 1}}
	ids := make([]string, len(drinks))
	for i, d := range drinks {
		var o e2eOrder
		body := map[string]any{"items": []map[string]any{{"drinkId": d.id, "qty": d.qty}}}
		if status := p.guest.call("POST", "/api/orders", body, &o, "Idempotency-Key", fmt.Sprintf("kds-%d", i)); status != 201 {
			t.Fatalf("order %d: status %d", i, status)
		}
		ids[i] = o.ID
	}
	b := browsertest.New(t)
	tablet := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, tablet, "#live-status", "Live")
	browsertest.WaitText(t, tablet, "#count-queued", "9")

	// Eight or more tickets whole on the screen, and nothing to scroll up
	// and down.
	fit := browsertest.Eval[map[string]float64](t, tablet, `(() => {
		const vw = innerWidth, vh = innerHeight;
		let whole = 0;
		for (const el of document.querySelectorAll(".ticket")) {
			const r = el.getBoundingClientRect();
			if (r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= vw && r.bottom <= vh) whole++;
		}
		return {whole, scrollHeight: document.scrollingElement.scrollHeight, innerHeight: vh};
	})()`)
	if fit["whole"] < 8 || fit["scrollHeight"] > fit["innerHeight"] {
		t.Errorf("on a 1024×768 tablet: %v tickets whole on screen, page %v px tall for a %v px screen; want ≥ 8 and no vertical scroll", fit["whole"], fit["scrollHeight"], fit["innerHeight"])
	}
	first := fmt.Sprintf(`.ticket[data-id=%q]`, ids[0])
	browsertest.WaitText(t, tablet, first+" .num", "#1")
	browsertest.WaitText(t, tablet, fmt.Sprintf(`.ticket[data-id=%q] .num`, ids[8]), "#9")
	// What is waiting, per drink, most first.
	browsertest.WaitText(t, tablet, "#all-day li:first-child", "5 Mojito")
	browsertest.WaitText(t, tablet, "#all-day", "3 Negroni")
	browsertest.WaitText(t, tablet, "#all-day", "3 Paper Plane")
	browsertest.Screenshot(t, tablet, "rail-nine-tickets")

	// The recipe, for the ticket's three glasses.
	browsertest.Click(t, tablet, first+" .recipe-open")
	browsertest.WaitVisible(t, tablet, "#recipe-dialog")
	browsertest.WaitText(t, tablet, "#recipe-title", "3 × Paper Plane")
	browsertest.WaitText(t, tablet, "#recipe-ingredients", "67.5 ml Bourbon")
	browsertest.WaitText(t, tablet, "#recipe-ingredients", "67.5 ml Amaro Nonino")
	browsertest.WaitText(t, tablet, "#recipe-serve", "Coupe")
	browsertest.WaitText(t, tablet, "#recipe-method", "Double-strain")
	browsertest.Screenshot(t, tablet, "recipe-for-three")
	browsertest.Click(t, tablet, "#recipe-close")
	browsertest.WaitNotVisible(t, tablet, "#recipe-dialog")

	// Keys: 1 picks the first ticket, Enter bumps it, R takes it back
	// before it is sent. The first two come straight after the recipe,
	// wherever closing it left the focus: Enter re-opened the recipe
	// rather than bumping (issue 26).
	afterRecipe := 2
	key := func(k string) {
		t.Helper()
		if afterRecipe > 0 {
			afterRecipe--
		} else {
			browsertest.Eval[bool](t, tablet, `(document.activeElement?.blur?.(), true)`)
		}
		ctx, cancel := context.WithTimeout(tablet, browsertest.StepTimeout)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatalf("press %q: %v", k, err)
		}
	}
	key("1")
	if !browsertest.Eval[bool](t, tablet, `document.querySelector(`+jsString(first)+`).classList.contains("is-selected")`) {
		t.Fatal("key 1 did not pick the first ticket")
	}
	key("\r")
	if browsertest.Eval[bool](t, tablet, `document.getElementById("recipe-dialog").open`) {
		t.Fatal("Enter after closing the recipe opened it again instead of bumping the ticket")
	}
	browsertest.WaitVisible(t, tablet, first+".is-pending")
	browsertest.WaitText(t, tablet, "#bump-undo-text", "#1 started")
	browsertest.Screenshot(t, tablet, "bumped-undo")
	key("r")
	browsertest.WaitNotVisible(t, tablet, "#bump-undo")
	if browsertest.Eval[string](t, tablet, `document.querySelector(`+jsString(first)+`).dataset.pending`) != "" {
		t.Error("R did not take the bump back")
	}

	// 2 and Enter: the second ticket goes to the making, for real.
	second := fmt.Sprintf(`.ticket[data-id=%q]`, ids[1])
	key("2")
	key("\r")
	browsertest.WaitVisible(t, tablet, "#tickets-preparing "+second)
	// The first ticket's bump was taken back before the second was made:
	// had it been sent, it would have gone first.
	browsertest.WaitVisible(t, tablet, "#tickets-queued "+first)
	browsertest.WaitText(t, tablet, "#count-preparing", "1")
	browsertest.WaitText(t, tablet, "#all-day li:first-child", "5 Mojito") // still to make

	// The stock panel lies over the queue; the queue stays where it was.
	before := browsertest.Eval[float64](t, tablet, `document.getElementById("queue").getBoundingClientRect().top`)
	browsertest.Click(t, tablet, "#stock-toggle")
	browsertest.WaitText(t, tablet, "#stock-ingredients", "Mint")
	if pos := browsertest.Eval[string](t, tablet, `getComputedStyle(document.getElementById("stock-panel")).position`); pos != "fixed" {
		t.Errorf("stock panel position %q, want fixed (over the queue)", pos)
	}
	if after := browsertest.Eval[float64](t, tablet, `document.getElementById("queue").getBoundingClientRect().top`); after != before {
		t.Errorf("opening Stock moved the queue from %v to %v", before, after)
	}
	browsertest.Screenshot(t, tablet, "stock-over-queue")
	browsertest.Click(t, tablet, "#stock-close")
	browsertest.WaitNotVisible(t, tablet, "#stock-panel")

	// A 390 px phone: every page's top bar keeps each item in its own box.
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, phone, "#count-queued", "8")
	browsertest.CheckHeader(t, phone, "bar")
	browsertest.Navigate(t, phone, p.s.URL+"/door")
	browsertest.WaitText(t, phone, "#door-in", "0")
	browsertest.CheckHeader(t, phone, "door")
	guest := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, guest, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.WaitText(t, guest, "#whoami", "Ada")
	browsertest.CheckHeader(t, guest, "guest")
	host := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, host, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitVisible(t, host, `#live-status[data-status="open"]`)
	browsertest.CheckHeader(t, host, "admin")
}

func jsString(s string) string { return fmt.Sprintf("%q", s) }
