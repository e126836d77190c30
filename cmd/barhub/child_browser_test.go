package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserGroupMemberChild (issue 26): Mia answers for her family and
// marks Nils, 12, who has a code of his own, a child on the RSVP page.
// On Nils's phone the Negroni says it is not for a child and has no Order
// button, the Virgin Mojito has one; Mia is not offered Nils for a
// Negroni. The host sees him marked in the guest dialog and unmarks him
// there; the guest table shows the mark as a word beside his name until
// then. Before, only a "+1" could be marked a child.
func TestBrowserGroupMemberChild(t *testing.T) {
	p := startBarParty(t, nil)
	var mia, nils e2eGuest
	for _, g := range []struct {
		body map[string]any
		into *e2eGuest
	}{
		{map[string]any{"firstName": "Mia", "lastName": "Berg", "groupId": "g-berg", "status": "coming"}, &mia},
		{map[string]any{"firstName": "Nils", "lastName": "Berg", "groupId": "g-berg", "status": "coming"}, &nils},
	} {
		if status := p.admin.call("POST", "/api/admin/guests", g.body, g.into); status != 201 {
			t.Fatalf("create %v: %d", g.body["firstName"], status)
		}
	}

	b := browsertest.New(t)
	miaPhone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, miaPhone, p.s.URL, mia.Code, "Berg", "/")
	browsertest.Click(t, miaPhone, "#tab-info")
	member := `[data-person="m-` + nils.ID + `"]`
	browsertest.WaitVisible(t, miaPhone, `details`+member+` summary`)
	browsertest.Click(t, miaPhone, `details`+member+` summary`)
	browsertest.Click(t, miaPhone, `fieldset`+member+` .companion-child input`)
	browsertest.Click(t, miaPhone, "#prefs-save")
	browsertest.WaitText(t, miaPhone, "#prefs-status", "Saved")
	var nilsNow struct{ AgeGroup string }
	if status := p.admin.call("GET", "/api/admin/guests/"+nils.ID, nil, &nilsNow); status != 200 || nilsNow.AgeGroup != "child" {
		t.Fatalf("Nils after Mia's answer: %d %+v", status, nilsNow)
	}

	nilsPhone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, nilsPhone, p.s.URL, nils.Code, "Berg", "/")
	browsertest.Click(t, nilsPhone, "#tab-menu")
	negroni, mojito := `#menu-list .drink[data-id="negroni"]`, `#menu-list .drink[data-id="virgin-mojito"]`
	browsertest.WaitText(t, nilsPhone, negroni, "not for a child")
	if browsertest.Eval[bool](t, nilsPhone, `!!document.querySelector(`+jsString(negroni+" .order-button")+`)`) {
		t.Error("Nils, a child, is offered a Negroni")
	}
	// The flag under the drink says why, as a child's: the host or Mia set the
	// mark, Nils told us nothing.
	if flag := browsertest.WaitText(t, nilsPhone, negroni+" .allergen-flag", "Not for a child: it has alcohol"); strings.Contains(flag, "told us") {
		t.Errorf("Nils's Negroni flag reads %q: he told us nothing", flag)
	}
	browsertest.WaitVisible(t, nilsPhone, mojito+" .order-button")
	browsertest.ScreenshotOf(t, nilsPhone, negroni, "negroni-for-a-child")

	browsertest.Click(t, miaPhone, "#tab-menu")
	browsertest.WaitVisible(t, miaPhone, negroni+" .order-button")
	browsertest.Click(t, miaPhone, negroni+" .order-button")
	browsertest.WaitVisible(t, miaPhone, "#order-dialog")
	if offered := browsertest.Eval[[]string](t, miaPhone, `[...document.querySelectorAll("#order-for option")].map((o) => o.value)`); len(offered) > 1 {
		t.Errorf("a Negroni is offered for %v, Nils among them", offered)
	}

	// The host's dialog shows the mark, and takes it off.
	desk := b.Page(t, browsertest.Viewport{Name: "laptop-1280", Width: 1280, Height: 800, Scale: 1})
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	// The guest table marks him in words beside his name, and only him.
	nilsRow, miaRow := `tr[data-id="`+nils.ID+`"]`, `tr[data-id="`+mia.ID+`"]`
	browsertest.WaitText(t, desk, nilsRow+" .name .badge.child", "child")
	browsertest.WaitVisible(t, desk, miaRow)
	if browsertest.Eval[bool](t, desk, `!!document.querySelector(`+jsString(miaRow+" .badge.child")+`)`) {
		t.Error("Mia, an adult, is marked a child in the guest table")
	}
	browsertest.Click(t, desk, nilsRow+` button.edit`)
	browsertest.WaitVisible(t, desk, "#g-child")
	waitEval(t, desk, "Nils marked a child", `document.getElementById("g-child").checked`)
	browsertest.Click(t, desk, "#g-child")
	if browsertest.Eval[bool](t, desk, `document.getElementById("g-child").checked`) {
		t.Fatal("the tick did not come off")
	}
	browsertest.Click(t, desk, "#g-save")
	browsertest.WaitNotVisible(t, desk, "#guest-dialog")
	waitEval(t, desk, "the child mark gone from Nils's row", `!document.querySelector(`+jsString(nilsRow+" .badge.child")+`)`)
	var nilsAfter struct{ AgeGroup string }
	if status := p.admin.call("GET", "/api/admin/guests/"+nils.ID, nil, &nilsAfter); status != 200 || nilsAfter.AgeGroup != "" {
		t.Errorf("Nils after the host's edit: %d %+v", status, nilsAfter)
	}
}
