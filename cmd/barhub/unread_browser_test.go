package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserUnreadNeedIsCarefulAtOnce is issue 23's "unread means
// careful" in Chromium: a guest writes a need in a language barhub does
// not read, is asked right on the form what it means and leaves it to the
// host ("none of these"); their menu says the bar will check every drink
// with an allergen or alcohol, and the AI bartender offers only drinks
// free of both, saying why. The host's review lifts the caution on the
// guest's phone live, without a reload.
func TestBrowserUnreadNeedIsCarefulAtOnce(t *testing.T) {
	p := startBarParty(t, nil)
	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	// "I take disulfiram", in Hungarian.
	browsertest.Fill(t, phone, "#dietary", "diszulfirámot szedek")
	browsertest.WaitText(t, phone, "#dietary-read .unread-ask", "We could not read “diszulfirámot szedek”. Which of these apply?")
	if n := browsertest.Eval[int](t, phone, `document.querySelectorAll("#dietary-read .unread-chips input").length`); n != 19 {
		t.Errorf("%d chips in the question, want the 14 allergens, 4 diets and alcohol-free", n)
	}
	browsertest.ScreenshotOf(t, phone, "#about-you", "unread-question")
	browsertest.Click(t, phone, "#dietary-read .unread-none")
	browsertest.WaitText(t, phone, "#dietary-read", "the host will look at it")
	browsertest.Click(t, phone, "#prefs-save")
	browsertest.WaitText(t, phone, "#prefs-status", "Saved")

	browsertest.Click(t, phone, "#tab-menu")
	french75 := `#menu-list .drink[data-id="french-75"] .allergen-flag`
	browsertest.WaitText(t, phone, french75, "We could not read “diszulfirámot szedek” in your needs: the bar will check this with you")
	if browsertest.Eval[bool](t, phone, `!!document.querySelector('#menu-list .drink[data-id="virgin-mojito"] .allergen-flag')`) {
		t.Error("the Virgin Mojito (no allergen, no alcohol) is marked")
	}
	browsertest.ScreenshotOf(t, phone, `#menu-list .drink[data-id="french-75"]`, "unread-caution")

	browsertest.Click(t, phone, "#tab-ask")
	browsertest.WaitText(t, phone, "#reco-area", "What should I drink?")
	browsertest.Click(t, phone, "#reco-ask")
	browsertest.WaitText(t, phone, "#reco-result", "We could not read “diszulfirámot szedek”")
	picks := browsertest.Eval[string](t, phone, `document.querySelector("#reco-result").textContent`)
	for _, unsafe := range []string{"French 75", "Negroni", "Virgin Mary", "Margarita", "Spritz Veneziano"} {
		if strings.Contains(picks, unsafe) {
			t.Errorf("recommended %s to a guest whose words are unread: %s", unsafe, picks)
		}
	}
	browsertest.Screenshot(t, phone, "unread-reco")

	// The host reviews: the words mean no alcohol. The phone follows live.
	browsertest.Click(t, phone, "#tab-menu")
	if status := p.admin.call("PUT", "/api/admin/guests/"+p.guestID+"/dietary", map[string]any{"tags": []string{"alcohol-free"}}, nil); status != 200 {
		t.Fatalf("review: %d", status)
	}
	browsertest.WaitText(t, phone, french75, "has alcohol")
	if browsertest.Eval[bool](t, phone, `document.querySelector("#menu-list").textContent.includes("the bar will check this")`) {
		t.Error("the caution is still on the menu after the host's review")
	}
	if browsertest.Eval[bool](t, phone, `!!document.querySelector('#menu-list .drink[data-id="virgin-mary"] .allergen-flag')`) {
		t.Error("the Virgin Mary is still marked after the review lifted the caution")
	}
	browsertest.ScreenshotOf(t, phone, `#menu-list .drink[data-id="french-75"]`, "unread-lifted")
}
