package main

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserOrderForSomeoneElse (issue 26, "warnings that come late"): a
// guest brings Elsa, who has a nut allergy, and Tom, whom she marks as a
// child on the RSVP page. Choosing "for Elsa" on a Mai Tai shows the nut
// warning at once, before Order; a Negroni is not offered for Tom, a
// Virgin Mojito is. Then the phone's back button with the sheet open,
// and a reload that kept the note typed (issue 26, item 12).
func TestBrowserOrderForSomeoneElse(t *testing.T) {
	p := startBarParty(t, nil)
	var mia e2eGuest
	if status := p.admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Mia", "lastName": "Berg", "expectedGuests": 3}, &mia); status != 201 {
		t.Fatalf("create Mia: %d", status)
	}
	status, lr := login(t, p.s.URL, mia.Code, "Berg")
	if status != 200 {
		t.Fatalf("Mia signs in: %d", status)
	}
	miaAPI := rsvpClient{t: t, base: p.s.URL, token: lr.Token}
	if status := miaAPI.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 3,
		"companions": []any{map[string]any{"name": "Elsa", "dietary": "nut allergy"}, map[string]any{"name": "Tom"}}}, nil); status != 200 {
		t.Fatalf("Mia answers: %d", status)
	}

	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, mia.Code, "Berg", "/")
	// Tom is a child: one tick in his block.
	browsertest.Click(t, phone, "#tab-info")
	browsertest.WaitVisible(t, phone, `details[data-person="c2"] summary`)
	browsertest.Click(t, phone, `details[data-person="c2"] summary`)
	browsertest.Click(t, phone, `fieldset[data-person="c2"] .companion-child input`)
	browsertest.ScreenshotOf(t, phone, `fieldset[data-person="c2"]`, "companion-child")
	browsertest.Click(t, phone, "#prefs-save")
	browsertest.WaitText(t, phone, "#prefs-status", "Saved")
	var v struct {
		Guest struct {
			Companions []struct{ Name, AgeGroup string } `json:"companions"`
		} `json:"guest"`
	}
	if status := miaAPI.call("GET", "/api/rsvp", nil, &v); status != 200 || len(v.Guest.Companions) != 2 || v.Guest.Companions[1].AgeGroup != "child" || v.Guest.Companions[0].AgeGroup != "" {
		t.Fatalf("the companions saved: %d %+v", status, v.Guest.Companions)
	}

	browsertest.Click(t, phone, "#tab-menu")
	maiTai := `#menu-list .drink[data-id="mai-tai"]`
	browsertest.WaitVisible(t, phone, maiTai+" .order-button")
	browsertest.Click(t, phone, maiTai+" .order-button")
	browsertest.WaitVisible(t, phone, "#order-for-row")
	if !browsertest.Eval[bool](t, phone, `document.getElementById("allergen-confirm-row").hidden`) {
		t.Error("a warning shows for Mia herself, who has no needs")
	}
	browsertest.Eval[bool](t, phone, `(() => { const s = document.getElementById("order-for");
		s.value = [...s.options].find((o) => o.textContent === "Elsa").value;
		s.dispatchEvent(new Event("change")); return true; })()`)
	browsertest.WaitVisible(t, phone, "#allergen-confirm-row")
	browsertest.WaitText(t, phone, "#allergen-confirm-text", "nuts")
	browsertest.WaitText(t, phone, "#allergen-confirm-text", "Elsa")
	browsertest.ScreenshotScreen(t, phone, "order-for-elsa-warns")
	browsertest.Click(t, phone, "#order-back")

	offered := func(drink string) []string {
		sel := `#menu-list .drink[data-id="` + drink + `"] .order-button`
		browsertest.WaitVisible(t, phone, sel)
		browsertest.Click(t, phone, sel)
		browsertest.WaitVisible(t, phone, "#order-dialog")
		names := browsertest.Eval[[]string](t, phone, `[...document.getElementById("order-for").options].map((o) => o.textContent)`)
		browsertest.Click(t, phone, "#order-back")
		return names
	}
	if names := strings.Join(offered("negroni"), ", "); strings.Contains(names, "Tom") || !strings.Contains(names, "Elsa") {
		t.Errorf("a Negroni is offered for %s; want Elsa and not Tom, a child", names)
	}
	if names := strings.Join(offered("virgin-mojito"), ", "); !strings.Contains(names, "Tom") {
		t.Errorf("a Virgin Mojito is offered for %s; want Tom too", names)
	}

	// The phone's back button closes the sheet and leaves the menu where
	// it was (it went back to the RSVP view beneath an open sheet).
	mojito := `#menu-list .drink[data-id="mojito"] .order-button`
	browsertest.Click(t, phone, mojito)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.Fill(t, phone, "#order-notes", "no ice, please")
	browsertest.Eval[bool](t, phone, `(history.back(), true)`)
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	if hash := browsertest.Eval[string](t, phone, `location.hash`); hash != "#menu" {
		t.Errorf("the back button with the sheet open left the page at %q, want #menu", hash)
	}
	browsertest.WaitVisible(t, phone, mojito)
	// A reload keeps the note typed for that drink.
	browsertest.Eval[bool](t, phone, `(location.reload(), true)`)
	browsertest.WaitVisible(t, phone, mojito)
	browsertest.Click(t, phone, mojito)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	if note := browsertest.Eval[string](t, phone, `document.getElementById("order-notes").value`); note != "no ice, please" {
		t.Errorf("after a reload the note reads %q", note)
	}

	// The order's toast takes no taps: what lies beneath it (an Order
	// button) is what a finger at its middle reaches.
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitVisible(t, phone, "#bar-toast.show")
	if hit := browsertest.Eval[string](t, phone, `(() => { const r = document.getElementById("bar-toast").getBoundingClientRect();
		const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return el ? el.id || el.className : ""; })()`); hit == "bar-toast" || strings.Contains(hit, "bar-toast") {
		t.Errorf("a tap on the toast reaches the toast, not the page beneath it")
	}

	// "Ready! Pick it up at the bar" reads at 4.5:1 or more in both themes.
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(phone, emulation.SetEmulatedMedia,
			emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		ratio := browsertest.Eval[float64](t, phone, `(() => {
			const dock = document.getElementById("order-dock");
			dock.hidden = false;
			dock.className = "order-dock status-ready";
			dock.style.transition = "none"; // the colours as they settle, not halfway
			const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
			const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
				.reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
			const s = getComputedStyle(dock);
			const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))].sort((x, y) => y - x);
			return (a + 0.05) / (b + 0.05); })()`)
		if ratio < 4.5 {
			t.Errorf("the ready dock's contrast in the %s theme is %.2f:1, want at least 4.5:1", scheme, ratio)
		}
		browsertest.ScreenshotScreen(t, phone, "ready-dock-"+scheme)
	}
}
