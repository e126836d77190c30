package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserRecommendationAndJobsInSwedish: a guest whose phone is in
// Swedish asks the house recommender in Swedish for "something fresh and
// sour, nothing sweet" and reads Swedish reasons for sour or fresh drinks
// only; the host's Swedish laptop names the job in the jobs log in Swedish
// (the API keeps the identifier).
func TestBrowserRecommendationAndJobsInSwedish(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)

	phone := b.Page(t, browsertest.Phone)
	browsertest.Language(t, phone, "sv-SE,sv;q=0.9,en;q=0.8")
	browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
	browsertest.Click(t, phone, "#tab-ask")
	browsertest.WaitText(t, phone, "#reco-area", "Vad ska jag dricka?")
	browsertest.Fill(t, phone, "#reco-mood", "något friskt och surt, inget sött")
	browsertest.Click(t, phone, "#reco-ask")
	browsertest.WaitText(t, phone, "#reco-result", "precis som du gillar")
	browsertest.Screenshot(t, phone, "reco-swedish")
	picks := browsertest.Eval[[]map[string]string](t, phone, `[...document.querySelectorAll("#reco-result li")].map((li) => ({id: li.dataset.drinkId, reason: li.querySelector("p").textContent}))`)
	if len(picks) != 3 {
		t.Fatalf("picks %v, want 3", picks)
	}
	for _, pick := range picks {
		if !strings.HasSuffix(pick["reason"], " – precis som du gillar.") {
			t.Errorf("%s: reason %q, want a Swedish one", pick["id"], pick["reason"])
		}
		if !strings.HasPrefix(pick["reason"], "Syrlig") && !strings.HasPrefix(pick["reason"], "Frisk") {
			t.Errorf("%s: reason %q names neither sour nor fresh", pick["id"], pick["reason"])
		}
	}
	// Nothing sweet: the starter menu's sweet drinks are left out.
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	sweet := map[string]bool{}
	for _, d := range drinks {
		if slices.Contains(d.Tags, "sweet") {
			sweet[d.ID] = true
		}
	}
	if len(sweet) == 0 || sweet[""] {
		t.Fatalf("the starter menu's sweet drinks by id: %v", sweet)
	}
	for _, pick := range picks {
		if sweet[pick["id"]] {
			t.Errorf("%s is sweet, and the guest said inget sött", pick["id"])
		}
	}

	desk := b.Page(t, browsertest.Laptop)
	browsertest.Language(t, desk, "sv-SE,sv;q=0.9")
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#job-rows", "Rekommendation")
	kinds := browsertest.Eval[[]string](t, desk, `[...document.querySelectorAll("#job-rows tr td:nth-child(2)")].map((td) => td.textContent)`)
	for _, k := range kinds {
		if strings.Contains(k, "_") || k == "recommendation" || k == "mail" {
			t.Errorf("the jobs log shows the identifier %q, want its Swedish name", k)
		}
	}
	browsertest.ScreenshotOf(t, desk, "#job-rows", "jobs-swedish")
}
