package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserModelNoteSaysWhatHappened: the model names the Mai Tai (orgeat:
// almonds) for a guest who told the host "no nuts please". Her phone, in
// Portuguese, says the AI bartender suggested something not safe for her
// and shows the house picks (it said "busy" before); the host's jobs log
// names the cause.
func TestBrowserModelNoteSaysWhatHappened(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Handle(func(r bedrocktest.Request) bedrocktest.Response {
		if r.Tool() == nil {
			return bedrocktest.Text("A drink on pale stone.")
		}
		return bedrocktest.ToolUse(`{"drinks":[{"id":"mai-tai","name":"Mai Tai","reason":"Tropical."}]}`)
	})
	p := startBarParty(t, bedrockEnv(t, srv))
	ada := rsvpClient{t: t, base: p.s.URL, token: p.guest.token}
	if status := ada.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 1, "dietary": "no nuts please"}, nil); status != 200 {
		t.Fatalf("rsvp: %d", status)
	}
	b := browsertest.New(t)

	phone := b.Page(t, browsertest.Phone)
	browsertest.Language(t, phone, "pt-BR,pt;q=0.9")
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.Click(t, phone, "#tab-ask")
	browsertest.Fill(t, phone, "#reco-mood", "algo refrescante")
	browsertest.Click(t, phone, "#reco-ask")
	browsertest.WaitText(t, phone, "#reco-result", "O bartender de IA sugeriu algo que não é seguro para você")
	browsertest.Screenshot(t, phone, "reco-note-unsafe-pt")
	picks := browsertest.Eval[[]string](t, phone, `[...document.querySelectorAll("#reco-result li")].map((li) => li.dataset.drinkId)`)
	if len(picks) == 0 || strings.Contains(strings.Join(picks, " "), "mai-tai") {
		t.Errorf("picks %v: want the house picks, without the Mai Tai", picks)
	}

	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#job-rows", "Answered by the house recommender: picks_unsafe: model call 2: every pick dropped (1 named: 1 unsafe)")
	browsertest.ScreenshotOf(t, desk, "#job-rows", "jobs-fallback-cause")
}
