package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserAIBartender: a guest asks "what should I drink?" on a phone and
// sees the picks arrive, labelled as Bedrock's; the host's laptop shows the
// jobs, a dead letter among them, and retries it.
func TestBrowserAIBartender(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Handle(func(r bedrocktest.Request) bedrocktest.Response {
		switch {
		case r.Tool() != nil:
			return bedrocktest.ToolUse(`{"drinks":[{"id":"hugo","name":"Hugo","reason":"Fresh and sparkling, for a celebration."}]}`)
		case strings.Contains(r.UserText(), "Broken"):
			// A refusal no retry can fix: dead-lettered at once.
			return bedrocktest.AccessDenied()
		}
		return bedrocktest.Text("A Hugo in a tall wine glass on pale stone, soft shadows, a sprig of mint.")
	})
	s := startServer(t, "", bedrockEnv(t, srv))
	admin := signInAdmin(t, s)
	for _, name := range []string{"Hugo", "Broken Spritz"} {
		if status := admin.call("POST", "/api/admin/drinks", newDrink(name), nil); status != 201 {
			t.Fatalf("create %s: %d", name, status)
		}
	}
	var g e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Mia", "lastName": "Holm"}, &g); status != 201 {
		t.Fatalf("create guest: %d", status)
	}

	phone := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, g.Code, "holm", "/")
	browsertest.Click(t, phone, "#tab-ask")
	browsertest.WaitText(t, phone, "#reco-area", "What should I drink?")
	browsertest.Click(t, phone, `#reco-form input[name="reco-like"][value="fresh"] + span`)
	browsertest.Fill(t, phone, "#reco-mood", "celebrating")
	browsertest.Screenshot(t, phone, "reco-form")
	browsertest.Click(t, phone, "#reco-ask")
	browsertest.WaitText(t, phone, "#reco-result", "Fresh and sparkling, for a celebration.")
	browsertest.WaitText(t, phone, "#reco-result .source-badge", "AI bartender · Amazon Bedrock")
	if width := browsertest.Eval[int](t, phone, `document.documentElement.scrollWidth`); int64(width) > browsertest.Phone.Width {
		t.Errorf("the phone page is %d px wide on a %d px screen", width, browsertest.Phone.Width)
	}
	browsertest.Screenshot(t, phone, "reco-picks")

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#ai-source", "Amazon Bedrock · amazon.nova-pro-v1:0")
	browsertest.WaitText(t, desk, "#prompt-rows", "A Hugo in a tall wine glass")
	browsertest.WaitText(t, desk, "#job-rows", "dead letter")
	browsertest.WaitText(t, desk, "#job-rows", "AccessDeniedException")
	browsertest.Screenshot(t, desk, "ai-jobs-dead-letter")
	browsertest.Click(t, desk, "#job-rows tr[data-status=dead] .retry")
	// Bedrock still refuses: the retry runs once more and is set aside again.
	browsertest.WaitText(t, desk, "#job-rows", "2 of 6")
	browsertest.Screenshot(t, desk, "ai-jobs-after-retry")
}
