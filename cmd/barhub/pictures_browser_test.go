package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/web/browsertest"
)

// allPicturesJS lists what is wrong with the menu's pictures: a drink
// without one, or a picture the server does not serve as an image.
const allPicturesJS = `(async () => {
	const bad = [];
	const srcs = new Set();
	for (const d of document.querySelectorAll("#menu-list .drink")) {
		const img = d.querySelector("img.drink-pic");
		if (!img || !img.getAttribute("src")) { bad.push(d.dataset.id + " has no picture"); continue; }
		srcs.add(img.getAttribute("src"));
	}
	for (const src of srcs) {
		const res = await fetch(src);
		const type = res.headers.get("Content-Type") || "";
		if (!res.ok || !type.startsWith("image/")) bad.push(src + ": " + res.status + " " + type);
	}
	return bad;
})()`

// TestBrowserDrinkPictures: every drink has a picture. Without AWS the
// guest's menu and the pick-up board show barhub's drawing of each drink;
// with Bedrock the image job pictures a new drink with Nova Canvas, and
// the menu shows that picture. The drink editor offers "New picture" only
// with an image model.
func TestBrowserDrinkPictures(t *testing.T) {
	b := browsertest.New(t)

	t.Run("drawn", func(t *testing.T) {
		p := startBarParty(t, nil)
		phone := b.Page(t, browsertest.Phone)
		browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
		browsertest.Click(t, phone, "#tab-menu")
		waitEval(t, phone, "the whole starter menu", `document.querySelectorAll("#menu-list .drink").length === 37`)
		if bad := browsertest.Eval[[]string](t, phone, allPicturesJS); len(bad) > 0 {
			t.Errorf("the menu's pictures:\n  %s", strings.Join(bad, "\n  "))
		}
		if n := browsertest.Eval[int](t, phone, `document.querySelectorAll('#menu-list img.drink-pic.drawn[src^="/images/drinks/"]').length`); n != 37 {
			t.Errorf("%d drawn pictures, want 37", n)
		}
		waitEval(t, phone, "the first rows' drawings shown", `[...document.querySelectorAll("#menu-list img.drink-pic")].slice(0, 3).every((i) => i.complete && i.naturalWidth === 240)`)
		browsertest.ScreenshotScreen(t, phone, "menu-drawn-pictures")

		body := map[string]any{"items": []map[string]any{{"drinkId": "negroni", "qty": 1}, {"drinkId": "mojito", "qty": 2}}}
		if status := p.guest.call("POST", "/api/orders", body, nil, "Idempotency-Key", "pictures-1"); status != 201 {
			t.Fatalf("place order: %d", status)
		}
		var board struct{ Link string }
		if status := p.bartender.call("POST", "/api/bar/boards", map[string]string{"name": "TV"}, &board); status != 201 {
			t.Fatalf("board: %d", status)
		}
		_, fragment, _ := strings.Cut(board.Link, "/board#")
		tv := b.Page(t, browsertest.Viewport{Name: "tv", Width: 1920, Height: 1080, Scale: 1})
		browsertest.Navigate(t, tv, p.s.URL+"/board#"+fragment)
		waitEval(t, tv, "the order's two drawings on the board", `(() => {
			const pics = [...document.querySelectorAll(".order img.pic")];
			return pics.length === 2 && pics.every((i) => i.getAttribute("src").startsWith("/images/drinks/") && i.complete && i.naturalWidth === 240);
		})()`)
		browsertest.Screenshot(t, tv, "board-drawn-pictures")

		// Without an image model nothing could make a new picture: the drink
		// editor does not offer one (the server would answer 409).
		desk := b.Page(t, browsertest.Laptop)
		browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
		openDrinkEditor(t, desk, "negroni")
		waitEval(t, desk, "the drawn picture's source shown", `!document.getElementById("photo-source").hidden`)
		if browsertest.Eval[bool](t, desk, `!document.getElementById("photo-regenerate").hidden`) {
			t.Error(`the drink editor offers "New picture" without an image model`)
		}
	})

	t.Run("generated", func(t *testing.T) {
		srv := bedrocktest.New(t)
		srv.Default(bedrocktest.Text("A Hugo spritz in a tall wine glass on pale stone, soft shadows, a sprig of mint."))
		s := startServer(t, "", bedrockEnv(t, srv))
		admin := signInAdmin(t, s)
		var d struct{ ID string }
		if status := admin.call("POST", "/api/admin/drinks", newDrink("Hugo"), &d); status != 201 {
			t.Fatalf("create drink: %d", status)
		}
		var g e2eGuest
		if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Mia", "lastName": "Holm"}, &g); status != 201 {
			t.Fatalf("create guest: %d", status)
		}
		var shown struct {
			ImageURL    string `json:"imageUrl"`
			ImageSource string `json:"imageSource"`
		}
		for deadline := time.Now().Add(browsertest.StepTimeout); shown.ImageSource != "generated" && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			menuGet(t, s.URL+"/api/drinks/"+d.ID, &shown)
		}
		if shown.ImageSource != "generated" || !strings.HasPrefix(shown.ImageURL, "/images/"+d.ID+"-") || !strings.HasSuffix(shown.ImageURL, ".png") {
			t.Fatalf("the drink shows %+v", shown)
		}
		inv := srv.Invocations()
		if len(inv) != 1 || inv[0].ModelID != "amazon.nova-canvas-v1:0" || inv[0].Body.TaskType != "TEXT_IMAGE" ||
			!strings.HasPrefix(inv[0].Body.TextToImageParams.Text, "A Hugo spritz in a tall wine glass") {
			t.Fatalf("invocations %+v", inv)
		}

		phone := b.Page(t, browsertest.Phone)
		browsertest.SignIn(t, phone, s.URL, g.Code, "holm", "/")
		browsertest.Click(t, phone, "#tab-menu")
		waitEval(t, phone, "the generated picture on the menu", `(() => {
			const img = document.querySelector('#menu-list .drink img.drink-pic');
			return !!img && img.getAttribute("src") === `+"`"+shown.ImageURL+"`"+` && img.complete && img.naturalWidth === 1024;
		})()`)
		browsertest.ScreenshotScreen(t, phone, "menu-generated-picture")

		// With one, the host may have the picture made anew.
		desk := b.Page(t, browsertest.Laptop)
		browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
		openDrinkEditor(t, desk, d.ID)
		browsertest.WaitVisible(t, desk, "#photo-regenerate")
	})
}

// openDrinkEditor opens the admin page's editor of the drink id.
func openDrinkEditor(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	row := `#drink-rows tr[data-id="` + id + `"] button.link-button`
	browsertest.WaitVisible(t, ctx, row)
	browsertest.Click(t, ctx, row)
	browsertest.WaitVisible(t, ctx, "#drink-dialog")
}
