package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/barhub/barhub/mail/mailtest"
	"github.com/barhub/barhub/web/browsertest"
)

// rowActionsOutside is run on the host's desk: for every guest row, each
// of its visible buttons (the invitation's and Edit) that does not lie
// wholly inside the guests' card and the viewport, and whether the table
// scrolls sideways inside its card.
const rowActionsOutside = `(() => {
	const out = [];
	const card = document.querySelector("#guests").getBoundingClientRect();
	const wrap = document.querySelector("#guests .table-wrap");
	const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
	for (const tr of document.querySelectorAll("#guest-rows tr[data-id]")) {
		const name = tr.querySelector(".name")?.textContent || tr.dataset.id;
		for (const b of tr.querySelectorAll("button")) {
			if (!b.checkVisibility()) continue;
			const r = b.getBoundingClientRect();
			if (r.left < card.left - 0.5 || r.right > card.right + 0.5) out.push(name + ": " + b.textContent + " is outside the card (" + Math.round(r.left) + "–" + Math.round(r.right) + " px, card " + Math.round(card.left) + "–" + Math.round(card.right) + ")");
			else if (r.left < 0 || r.right > innerWidth) out.push(name + ": " + b.textContent + " is off the screen");
		}
	}
	return {out, scrolls, page: document.documentElement.scrollWidth > innerWidth + 1, why: "table " + wrap.scrollWidth + " px in " + wrap.clientWidth + ", columns " + [...document.querySelectorAll("#guest-table thead th")].map((th) => Math.round(th.getBoundingClientRect().width)).join(" ")}; })()`

// TestBrowserGuestTableActionsFit: the host's guest list with long names,
// long dietary needs, a group and e-mailed invitations. At 1280×800 and
// at 1024×768 every row's invitation buttons and Edit lie inside the
// guests' card and on the screen without scrolling the table sideways
// (at 1280 px the table was wider than its card and cut "Send again" and
// Edit off, issue 26); on a phone the table may scroll inside its card,
// but the page itself does not scroll sideways.
func TestBrowserGuestTableActionsFit(t *testing.T) {
	smtp := mailtest.Start(t)
	s := startServer(t, "", map[string]string{
		"BARHUB_SMTP_URL": smtp.URL(), "BARHUB_MAIL_FROM": "Party <party@example.com>", "BARHUB_SMTP_CA_FILE": smtp.CAFile,
	})
	admin := signInAdmin(t, s)
	people := []map[string]any{
		{"firstName": "Maria-Fernanda Beatriz", "lastName": "Albuquerque-Wennerström", "groupId": "g-family", "expectedGuests": 2,
			"dietary": map[string]any{"text": "no nuts at all, lactose intolerant, and no shellfish please"}},
		{"firstName": "Sebastian Alexander", "lastName": "Albuquerque-Wennerström", "groupId": "g-family",
			"dietary": map[string]any{"text": "vegetarian, gluten free"}},
		{"firstName": "Anna-Karin", "lastName": "Albuquerque-Wennerström", "groupId": "g-family"},
		{"firstName": "Christopher", "lastName": "Vandenberghe-Oxenstierna", "dietary": map[string]any{"text": "halal, no pork or gelatine, no alcohol in food"}},
	}
	var ids []string
	for i, p := range people {
		p["email"] = fmt.Sprintf("person%d@example.com", i)
		var g e2eGuest
		if status := admin.call("POST", "/api/admin/guests", p, &g); status != 201 {
			t.Fatalf("create %v: %d", p["firstName"], status)
		}
		ids = append(ids, g.ID)
	}
	for i := range 12 {
		body := map[string]any{"firstName": fmt.Sprintf("Guest%02d", i), "lastName": "Lindqvist-Håkansson", "email": fmt.Sprintf("guest%d@example.com", i)}
		var g e2eGuest
		if status := admin.call("POST", "/api/admin/guests", body, &g); status != 201 {
			t.Fatalf("create guest %d: %d", i, status)
		}
		ids = append(ids, g.ID)
	}
	// E-mailed: the row says when, delivered, and offers Send again.
	if status := admin.call("POST", "/api/admin/invitations/send", map[string]any{"how": "email", "guestIds": ids, "anyway": true}, nil); status != 202 {
		t.Fatalf("e-mail invitations: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	smtp.Wait(ctx, t, len(ids))

	b := browsertest.New(t)
	for _, vp := range []browsertest.Viewport{
		{Name: "laptop-1280", Width: 1280, Height: 800, Scale: 1},
		browsertest.Tablet,
		browsertest.Phone,
	} {
		t.Run(vp.Name, func(t *testing.T) {
			desk := b.Page(t, vp)
			browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
			row := `#guest-rows tr[data-id="` + ids[0] + `"]`
			browsertest.WaitText(t, desk, row, "delivered")
			browsertest.WaitText(t, desk, row+` button[data-invite="again"]`, "Send again")
			browsertest.Eval[bool](t, desk, `(document.querySelector("#guests").scrollIntoView({block: "start"}), true)`)
			got := browsertest.Eval[struct {
				Out     []string
				Scrolls bool
				Page    bool
				Why     string
			}](t, desk, rowActionsOutside)
			browsertest.ScreenshotScreen(t, desk, "guest-table")
			if got.Page {
				t.Errorf("at %d px the page scrolls sideways", vp.Width)
			}
			if vp.Mobile {
				return
			}
			if got.Scrolls {
				t.Errorf("at %d px the guest table scrolls sideways inside its card (%s)", vp.Width, got.Why)
			}
			for _, p := range got.Out {
				t.Errorf("at %d px %s", vp.Width, p)
			}
		})
	}
}
