package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserOrdersScreen: Ada orders two mojitos, Bea behind the bar
// starts, readies and serves them; the host opens the Orders screen and
// sees the order's four times (placed, started, ready, served) and Bea as
// the one who made it. A second order placed while the screen is open
// arrives live, and the night's report counts the served glasses; two
// glasses are too few for the next plan to learn from.
func TestBrowserOrdersScreen(t *testing.T) {
	p := startBarParty(t, nil)
	var o e2eOrder
	body := map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 2}}}
	if status := p.guest.call("POST", "/api/orders", body, &o, "Idempotency-Key", "orders-screen-1"); status != 201 {
		t.Fatalf("place order: %d", status)
	}
	for _, action := range []string{"start", "ready", "serve"} {
		if status := p.bartender.call("POST", "/api/bar/orders/"+o.ID+"/"+action, nil, nil); status != 200 {
			t.Fatalf("%s: %d", action, status)
		}
	}
	var list struct {
		Orders []struct {
			ID    string `json:"id"`
			Times struct {
				Placed, Started, Ready, Served string
				MadeBy                         string `json:"madeBy"`
			} `json:"times"`
		} `json:"orders"`
	}
	if status := p.admin.call("GET", "/api/admin/orders", nil, &list); status != 200 || len(list.Orders) != 1 {
		t.Fatalf("orders: %d %+v", status, list)
	}
	tm := list.Orders[0].Times
	if tm.Placed == "" || tm.Started == "" || tm.Ready == "" || tm.Served == "" || !strings.Contains(tm.MadeBy, "Bea") {
		t.Fatalf("times %+v: want all four and Bea", tm)
	}

	b := browsertest.New(t)
	desk := b.Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	// The host's notification settings are on the desk, every kind on.
	browsertest.WaitText(t, desk, "#host-notify-title", "Notifications on this device")
	browsertest.WaitText(t, desk, "#host-notify-form", "New answers")
	browsertest.Eval[bool](t, desk, `document.getElementById("host-notify").scrollIntoView(), true`)
	browsertest.Screenshot(t, desk, "host-notify")
	// The desk's link to the Orders screen.
	browsertest.Click(t, desk, `.desk-nav a[href="/admin/orders"]`)
	browsertest.WaitPath(t, desk, "/admin/orders")
	row := `#orders-body tr[data-id="` + o.ID + `"]`
	browsertest.WaitText(t, desk, row+" .made-by", "Bea")
	for _, cell := range []string{"t-placed", "t-started", "t-ready", "t-served"} {
		if got := browsertest.Text(t, desk, row+" ."+cell); len(got) < 5 || !strings.Contains(got, ":") {
			t.Errorf("%s shows %q, want a time", cell, got)
		}
	}
	browsertest.WaitText(t, desk, "#report-summary", "2 glasses served")
	browsertest.WaitText(t, desk, "#report-body", "Mojito")

	// Live: a new order shows without a reload.
	var second e2eOrder
	if status := p.guest.call("POST", "/api/orders", map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 1}}}, &second, "Idempotency-Key", "orders-screen-2"); status != 201 {
		t.Fatalf("second order: %d", status)
	}
	browsertest.WaitText(t, desk, `#orders-body tr[data-id="`+second.ID+`"] .status`, "queue")
	browsertest.Screenshot(t, desk, "orders-screen")

	// The shared view names nobody.
	browsertest.Click(t, desk, "#report-anonymous")
	browsertest.WaitText(t, desk, "#report-body", "Guest 1")
	if strings.Contains(browsertest.Text(t, desk, "#report-body"), "Ada") {
		t.Error("the shared report names Ada")
	}

	// "Use this night for the next plan": two glasses teach nothing, and
	// the report says why (docs/SHOPPING.md, "Learning from a night").
	browsertest.Click(t, desk, "#report-learn")
	browsertest.WaitText(t, desk, "#report-learnt", "at least 10 served glasses")
}
