package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserUnreadNeedIsCarefulAtOnce is issue 23's "unread means
// careful" in Chromium: a guest writes a need in a language barhub does
// not read, is asked right on the form what it means (the AI's reading
// ticked, to confirm) and leaves it to the host ("none of these"); their
// menu says the bar will check every drink with an allergen or alcohol,
// and the AI bartender offers only drinks free of both, saying why. The
// host ticks the AI's reading on the dietary report and confirms: the
// caution lifts on the guest's phone live, without a reload.
func TestBrowserUnreadNeedIsCarefulAtOnce(t *testing.T) {
	// The model reads the words as "no alcohol", and picks a French 75
	// among its drinks: a suggestion the guest does not take, and a pick
	// barhub's own rule drops.
	srv := bedrocktest.New(t)
	srv.Handle(func(r bedrocktest.Request) bedrocktest.Response {
		switch tool := r.Tool(); {
		case tool != nil && tool.Name == "suggest_needs":
			return bedrocktest.ToolUse(`{"tags":["alcohol-free"]}`)
		case tool != nil:
			return bedrocktest.ToolUse(`{"drinks":[{"id":"french-75","name":"French 75","reason":"Bubbly."},{"id":"virgin-mojito","name":"Virgin Mojito","reason":"Fresh and minty."}]}`)
		}
		return bedrocktest.Text("A drink on pale stone.")
	})
	p := startBarParty(t, bedrockEnv(t, srv))
	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")

	// "I take disulfiram", in Hungarian.
	browsertest.Fill(t, phone, "#dietary", "diszulfirámot szedek")
	browsertest.WaitText(t, phone, "#dietary-read .unread-ask", "We could not read “diszulfirámot szedek”. Which of these apply?")
	if n := browsertest.Eval[int](t, phone, `document.querySelectorAll("#dietary-read .unread-chips input").length`); n != 19 {
		t.Errorf("%d chips in the question, want the 14 allergens, 4 diets and alcohol-free", n)
	}
	browsertest.WaitText(t, phone, "#dietary-read .unread-ai", "The AI thinks: no alcohol. Confirm?")
	if !browsertest.Eval[bool](t, phone, `document.querySelector('#dietary-read .unread-chips input[value="alcohol-free"]').checked`) {
		t.Error("the AI's suggestion is not ticked in the question")
	}
	browsertest.ScreenshotOf(t, phone, "#about-you", "unread-question")
	browsertest.Click(t, phone, "#dietary-read .unread-none")
	browsertest.WaitText(t, phone, "#dietary-read", "the host will look at it")
	browsertest.Click(t, phone, "#prefs-save")
	browsertest.WaitText(t, phone, "#prefs-status", "Saved")
	var stored struct {
		Dietary struct{ Tags, Unclear, Answered []string } `json:"dietary"`
	}
	if status := p.admin.call("GET", "/api/admin/guests/"+p.guestID, nil, &stored); status != 200 || len(stored.Dietary.Tags) != 0 || len(stored.Dietary.Answered) != 0 || len(stored.Dietary.Unclear) != 1 {
		t.Fatalf("the suggestion was applied without the guest: %d %+v", status, stored)
	}

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

	if strings.Contains(picks, "Bubbly") || !strings.Contains(picks, "Virgin Mojito") {
		t.Errorf("the model's picks were not filtered by barhub's rule: %s", picks)
	}

	// The host reviews on the dietary report, where the AI's reading is
	// offered to tick: the words mean no alcohol. The phone follows live.
	browsertest.Click(t, phone, "#tab-menu")
	// (The report lists the guests who are coming.)
	if status := p.admin.call("PUT", "/api/admin/guests/"+p.guestID, map[string]any{"status": "coming"}, nil); status != 200 {
		t.Fatalf("mark Ada coming: %d", status)
	}
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	entry := fmt.Sprintf(`#dietary-report li[data-ref=%q]`, p.guestID)
	browsertest.WaitText(t, desk, entry+" .review-ai", "The AI thinks: no alcohol.")
	if browsertest.Eval[bool](t, desk, fmt.Sprintf(`document.querySelector(%q).checked`, entry+` input[value="alcohol-free"]`)) {
		t.Error("the AI's reading was ticked before the host asked")
	}
	browsertest.Click(t, desk, entry+" .review-ai-tick")
	browsertest.ScreenshotOf(t, desk, entry, "unread-host-review")
	browsertest.Click(t, desk, entry+" .review-ok")
	browsertest.WaitText(t, phone, french75, "has alcohol")
	if browsertest.Eval[bool](t, phone, `document.querySelector("#menu-list").textContent.includes("the bar will check this")`) {
		t.Error("the caution is still on the menu after the host's review")
	}
	if browsertest.Eval[bool](t, phone, `!!document.querySelector('#menu-list .drink[data-id="virgin-mary"] .allergen-flag')`) {
		t.Error("the Virgin Mary is still marked after the review lifted the caution")
	}
	browsertest.ScreenshotOf(t, phone, `#menu-list .drink[data-id="french-75"]`, "unread-lifted")
}
