package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserOrderToReady is flow 6 in Chromium: a guest on a phone finds
// a drink by ingredient and orders it with a note; the bartender's tablet
// shows it live, starts it and marks it ready; the phone shows "ready!"
// without a reload. Then the bar runs out of mint and the phone's menu
// follows. Screenshots of every step are kept.
func TestBrowserOrderToReady(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)

	tablet := b.Page(t, browsertest.Tablet)
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.WaitText(t, tablet, "#live-status", "Live")
	browsertest.WaitText(t, tablet, "#tickets-queued", "No orders waiting")
	browsertest.Eval[bool](t, tablet, `window.sameDocument = true`)

	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.Click(t, phone, "#tab-menu")
	browsertest.WaitText(t, phone, "#menu-list", "Negroni")
	browsertest.WaitText(t, phone, "#menu-sections", "Alcohol-free")
	browsertest.WaitText(t, phone, `#menu-list .drink[data-id="mojito"] .serving`, "Highball · garnish: mint sprig, lime wheel")
	if width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`); int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	browsertest.Screenshot(t, phone, "menu")

	// Search by ingredient.
	browsertest.Fill(t, phone, "#menu-search", "mint")
	browsertest.WaitText(t, phone, "#menu-list", "Mojito")
	if n := browsertest.Eval[int](t, phone, `document.querySelectorAll("#menu-list .drink").length`); n != 4 {
		t.Errorf("%d drinks with mint, want 4", n)
	}
	browsertest.Screenshot(t, phone, "search-mint")

	// Order with a note.
	browsertest.Click(t, phone, `#menu-list .drink[data-id="mojito"] .order-button`)
	browsertest.WaitVisible(t, phone, "#order-dialog")
	browsertest.Click(t, phone, "#qty-up")
	browsertest.WaitText(t, phone, "#qty", "2")
	browsertest.Fill(t, phone, "#order-notes", "extra lime please")
	browsertest.Screenshot(t, phone, "order-sheet")
	browsertest.Click(t, phone, "#order-submit")
	browsertest.WaitNotVisible(t, phone, "#order-dialog")
	browsertest.WaitText(t, phone, "#order-list", "2 × Mojito")
	browsertest.WaitText(t, phone, "#order-list", "Number 1 in the queue")
	browsertest.Screenshot(t, phone, "ordered")
	id := browsertest.Eval[string](t, phone, `document.querySelector("#order-list .order").dataset.id`)
	ticket := fmt.Sprintf(`.ticket[data-id=%q]`, id)

	// The tablet has it, live, with the note.
	browsertest.WaitText(t, tablet, "#tickets-queued", "Mojito")
	browsertest.WaitText(t, tablet, "#tickets-queued", "extra lime please")
	browsertest.WaitText(t, tablet, "#tickets-queued", "Ada Lovelace")

	// One tap on the drink opens its recipe for the ticket's two glasses.
	browsertest.Click(t, tablet, ticket+" .recipe-open")
	browsertest.WaitVisible(t, tablet, "#recipe-dialog")
	browsertest.WaitText(t, tablet, "#recipe-title", "2 × Mojito")
	browsertest.WaitText(t, tablet, "#recipe-ingredients", "90 ml White rum")
	browsertest.WaitText(t, tablet, "#recipe-ingredients", "12 leaf Mint")
	browsertest.WaitText(t, tablet, "#recipe-serve", "Highball")
	browsertest.WaitText(t, tablet, "#recipe-method", "crushed ice")
	browsertest.Screenshot(t, tablet, "recipe-for-two")
	browsertest.Click(t, tablet, "#recipe-close")
	browsertest.WaitNotVisible(t, tablet, "#recipe-dialog")

	// A new order arriving leaves the ticket the bartender is about to tap
	// in place: the same element, not a fresh copy.
	mojito := fmt.Sprintf(`document.querySelector(%q)`, ticket)
	browsertest.Eval[bool](t, tablet, mojito+`.keptAcrossRefresh = true`)
	second := map[string]any{"items": []map[string]any{{"drinkId": "negroni", "qty": 1}}}
	if status := p.guest.call("POST", "/api/orders", second, nil, "Idempotency-Key", "second-order"); status != 201 {
		t.Fatalf("second order: status %d", status)
	}
	browsertest.WaitText(t, tablet, "#tickets-queued", "Negroni")
	if !browsertest.Eval[bool](t, tablet, mojito+`.keptAcrossRefresh === true`) {
		t.Error("a new order replaced the ticket of an order that had not changed")
	}
	for _, sel := range []string{ticket + " .act-start", ticket + " .act-cancel", "#stock-toggle"} {
		if h := browsertest.Eval[float64](t, tablet, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().height`, sel)); h < 48 {
			t.Errorf("%s is %.0f px tall, want at least 48 for a finger", sel, h)
		}
	}
	browsertest.Screenshot(t, tablet, "queue")

	browsertest.Click(t, tablet, ticket+" .act-start")
	browsertest.WaitText(t, tablet, "#tickets-preparing", "Mojito")
	browsertest.WaitText(t, phone, "#order-list", "Being made")
	browsertest.Click(t, tablet, ticket+" .act-ready")
	browsertest.WaitText(t, tablet, "#tickets-ready", "Mojito")

	// The "ready!" moment on the phone.
	browsertest.WaitVisible(t, phone, "#ready-overlay")
	browsertest.WaitText(t, phone, "#ready-items", "2 × Mojito")
	browsertest.Screenshot(t, phone, "ready")
	browsertest.Screenshot(t, tablet, "ready-column")
	browsertest.Click(t, phone, "#ready-ok")
	browsertest.WaitNotVisible(t, phone, "#ready-overlay")
	browsertest.WaitText(t, phone, "#order-list", "Pick it up at the bar")

	browsertest.Click(t, tablet, ticket+" .act-serve")
	browsertest.WaitText(t, tablet, "#tickets-ready", "Nothing here")
	browsertest.WaitText(t, phone, "#order-list", "Served")

	// Out of mint: one tap on the tablet, and the phone's menu follows.
	browsertest.Click(t, tablet, "#stock-toggle")
	browsertest.WaitText(t, tablet, "#stock-ingredients", "Mint")
	browsertest.Click(t, tablet, `#stock-ingredients button[aria-label="Mint: in stock"]`)
	browsertest.WaitText(t, tablet, "#stock-ingredients", "Out")
	browsertest.WaitText(t, phone, `#menu-list .drink[data-id="mojito"]`, "Out of mint")
	browsertest.Screenshot(t, tablet, "stock-mint-out")
	browsertest.Screenshot(t, phone, "menu-mint-out")
	if !browsertest.Eval[bool](t, tablet, `window.sameDocument === true`) {
		t.Error("the tablet reloaded; it should update live")
	}
}

// TestBrowserDrinkEditor: the host adds a drink on a laptop, sees the
// server's field errors next to the fields, uploads its photo through the
// signed URL, and switches guest ordering off and on again.
func TestBrowserDrinkEditor(t *testing.T) {
	p := startBarParty(t, nil)
	laptop := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, laptop, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitText(t, laptop, "#drink-rows", "Negroni")
	browsertest.WaitText(t, laptop, "#app-state", "On")

	browsertest.Click(t, laptop, "#drink-new")
	browsertest.WaitVisible(t, laptop, "#drink-dialog")
	browsertest.Fill(t, laptop, "#drink-section", "Spritzes")
	browsertest.Fill(t, laptop, ".ingredient-row:nth-child(1) .ing-name", "Prosecco")
	browsertest.Fill(t, laptop, ".ingredient-row:nth-child(1) .ing-amount", "100")
	browsertest.Fill(t, laptop, ".ingredient-row:nth-child(2) .ing-name", "Elderflower cordial")
	browsertest.Fill(t, laptop, ".ingredient-row:nth-child(2) .ing-amount", "20")
	browsertest.Fill(t, laptop, "#drink-abv", "8")
	browsertest.Click(t, laptop, `input[name="allergen"][value="sulphites"]`)
	// The recipe the bar will read.
	browsertest.Fill(t, laptop, "#drink-glass", "Wine glass")
	browsertest.Fill(t, laptop, "#drink-garnish", "Mint sprig")
	browsertest.Eval[bool](t, laptop, `(document.getElementById("drink-ice").value = "cubes") === "cubes"`)
	browsertest.Fill(t, laptop, "#drink-method", "Fill a wine glass with ice.\nAdd the cordial, then prosecco.")
	// No name yet: the server's problem shows next to the field.
	browsertest.Click(t, laptop, "#drink-save")
	browsertest.WaitText(t, laptop, "#err-name", "give the drink a name")
	browsertest.Screenshot(t, laptop, "editor-error")
	browsertest.Fill(t, laptop, "#drink-name", "Hugo")
	browsertest.Click(t, laptop, "#drink-save")
	browsertest.WaitText(t, laptop, "#drink-title", "Edit Hugo")

	jpg := filepath.Join(t.TempDir(), "hugo.jpg")
	if err := os.WriteFile(jpg, testJPEG(t), 0o644); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(laptop, browsertest.StepTimeout)
	defer cancel()
	if err := chromedp.Do(sctx, chromedp.SetUploadFiles(chromedp.CSS("#photo-file"), []string{jpg}, chromedp.NodeReady)); err != nil {
		t.Fatalf("choose photo: %v", err)
	}
	browsertest.WaitText(t, laptop, "#photo-hint", "Photo saved")
	browsertest.WaitVisible(t, laptop, "#photo-preview")
	browsertest.Screenshot(t, laptop, "editor-photo")
	browsertest.Click(t, laptop, "#drink-cancel")
	browsertest.WaitText(t, laptop, "#drink-rows", "Hugo")
	if !browsertest.Eval[bool](t, laptop, `!!document.querySelector('#drink-rows tr[data-id="hugo"] img.thumb')`) {
		t.Error("no thumbnail for the new photo in the list")
	}
	var d struct {
		ImageURL  string   `json:"imageUrl"`
		Allergens []string `json:"allergens"`
		Section   string   `json:"section"`
		Glass     string   `json:"glass"`
		Garnish   string   `json:"garnish"`
		Ice       string   `json:"ice"`
		Method    []string `json:"method"`
	}
	menuGet(t, p.s.URL+"/api/drinks/hugo", &d)
	if !strings.HasPrefix(d.ImageURL, "/images/hugo-") || strings.Join(d.Allergens, ",") != "sulphites" || d.Section != "spritzes" ||
		d.Glass != "Wine glass" || d.Garnish != "Mint sprig" || d.Ice != "cubes" || strings.Join(d.Method, "|") != "Fill a wine glass with ice.|Add the cordial, then prosecco." {
		t.Errorf("stored drink %+v", d)
	}
	browsertest.Screenshot(t, laptop, "drinks")

	// The kill switch.
	browsertest.Click(t, laptop, "#app-toggle")
	browsertest.WaitText(t, laptop, "#app-state", "Off")
	if status := p.guest.call("GET", "/api/drinks", nil, nil); status != 503 {
		t.Errorf("guest menu while off: %d", status)
	}
	browsertest.Screenshot(t, laptop, "guest-app-off")
	browsertest.Click(t, laptop, "#app-toggle")
	browsertest.WaitText(t, laptop, "#app-state", "On")
	if status := p.guest.call("GET", "/api/drinks", nil, nil); status != 200 {
		t.Errorf("guest menu back on: %d", status)
	}
}

func testJPEG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for x := range 64 {
		for y := range 48 {
			img.Set(x, y, color.RGBA{uint8(120 + x), uint8(180 - y), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
