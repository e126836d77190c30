package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserFamilyNeedsPerPerson is issue 10's "per invitation, not per
// person" in Chromium: a parent fills in her son's nut allergy in the
// family answer (and writes her own in Swedish, which comes back as a
// chip to confirm); the son signs in with his own code and gets the
// warning and the confirmation on Mai Tai.
func TestBrowserFamilyNeedsPerPerson(t *testing.T) {
	p := startBarParty(t, nil)
	fam := addFamily(t, p.admin, "Berg", "berg", "Mia", "Leo")
	mia, leo := fam[0], fam[1]
	b := browsertest.New(t)

	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, p.s.URL, mia.Code, "berg", "/")
	leoBlock := fmt.Sprintf(`fieldset[data-person="m-%s"]`, leo.ID)
	browsertest.WaitText(t, phone, fmt.Sprintf(`details[data-person="m-%s"] summary`, leo.ID), "Leo Berg")
	// Her own need, in Swedish: read back as a chip to confirm.
	browsertest.Fill(t, phone, "#dietary", "nötallergi")
	browsertest.WaitText(t, phone, "#dietary-read", "We read: nuts")
	browsertest.Click(t, phone, "#dietary-read .read-yes")
	if !browsertest.Eval[bool](t, phone, `document.querySelector('#dietary-tags input[value="nuts"]').checked`) {
		t.Error("the nuts chip is not ticked after confirming what was read")
	}
	// Her son's allergy, tapped in his block.
	browsertest.Click(t, phone, fmt.Sprintf(`details[data-person="m-%s"] summary`, leo.ID))
	browsertest.Click(t, phone, leoBlock+` label:has(input[value="nuts"]) span`)
	browsertest.ScreenshotOf(t, phone, "#about-you", "family-needs")
	browsertest.Click(t, phone, "#prefs-save")
	browsertest.WaitText(t, phone, "#prefs-status", "Saved")
	// After saving, both chips come back ticked from the server.
	browsertest.WaitVisible(t, phone, leoBlock)
	for _, sel := range []string{`#dietary-tags input[value="nuts"]`, leoBlock + ` input[value="nuts"]`} {
		if !browsertest.Eval[bool](t, phone, fmt.Sprintf(`document.querySelector(%q).checked`, sel)) {
			t.Errorf("%s is not ticked after saving", sel)
		}
	}
	var stored struct {
		Dietary struct{ Tags []string } `json:"dietary"`
	}
	if status := p.admin.call("GET", "/api/admin/guests/"+leo.ID, nil, &stored); status != 200 || !slices.Equal(stored.Dietary.Tags, []string{"nuts"}) {
		t.Fatalf("Leo's stored needs: %d %+v", status, stored)
	}

	// Leo's own phone.
	son := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, son, p.s.URL, leo.Code, "berg", "/")
	browsertest.Click(t, son, "#tab-menu")
	maiTai := `#menu-list .drink[data-id="mai-tai"]`
	browsertest.WaitText(t, son, maiTai+" .allergen-flag", "contains nuts")
	browsertest.Click(t, son, maiTai+" .order-button")
	browsertest.WaitVisible(t, son, "#order-dialog")
	browsertest.WaitText(t, son, "#allergen-confirm-text", "contains nuts")
	browsertest.Click(t, son, "#order-submit")
	browsertest.WaitText(t, son, "#order-error", "Please confirm")
	browsertest.ScreenshotOf(t, son, "#order-dialog", "mai-tai-confirm")
	browsertest.Click(t, son, "#allergen-confirm")
	browsertest.Click(t, son, "#order-submit")
	browsertest.WaitNotVisible(t, son, "#order-dialog")
	browsertest.WaitText(t, son, "#order-list", "Mai Tai")
	browsertest.Click(t, son, "#tab-orders")
	browsertest.ScreenshotOf(t, son, "#my-orders", "mai-tai-ordered")
}

// TestBrowserHostReviewsUnclearNeeds: words barhub does not understand
// are flagged "needs the host's eyes" in the host's dietary report; the
// host ticks what holds and confirms, and the flag goes.
func TestBrowserHostReviewsUnclearNeeds(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var g e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Cid", "lastName": "Koriander", "expectedGuests": 1,
		"status": "coming", "dietary": "no coriander please, celeriac makes me ill"}, &g); status != 201 {
		t.Fatalf("create guest: %d", status)
	}
	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#dietary-report .needs-eyes", "coriander")
	if !browsertest.Eval[bool](t, desk, `document.querySelector("#dietary-report .needs-eyes h3").textContent.includes("Needs the host's eyes")`) {
		t.Error(`the flag does not say "Needs the host's eyes"`)
	}
	browsertest.Screenshot(t, desk, "needs-eyes")
	entry := fmt.Sprintf(`#dietary-report li[data-ref=%q]`, g.ID)
	browsertest.Click(t, desk, entry+` input[value="celery"]`)
	browsertest.Click(t, desk, entry+" .review-ok")
	browsertest.WaitText(t, desk, "#dietary-report .dietary-tag:not(.needs-eyes)", "Cid Koriander")
	if h := browsertest.Eval[string](t, desk, `document.querySelector("#dietary-report .dietary-tag:not(.needs-eyes) h3").textContent`); !strings.HasPrefix(h, "Celery") {
		t.Errorf("the reviewed person is under %q, want Celery", h)
	}
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("#dietary-report .needs-eyes").length`); n != 0 {
		t.Errorf("%d flags left after the review", n)
	}
	browsertest.Screenshot(t, desk, "reviewed")
	var stored struct {
		Dietary struct {
			Tags     []string
			Reviewed bool
		} `json:"dietary"`
	}
	if status := admin.call("GET", "/api/admin/guests/"+g.ID, nil, &stored); status != 200 || !stored.Dietary.Reviewed || !slices.Equal(stored.Dietary.Tags, []string{"celery"}) {
		t.Errorf("after the review: %d %+v", status, stored)
	}
}
