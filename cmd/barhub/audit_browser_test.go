package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserAuditLog: the host adds a guest on the desk and finds it at
// the top of the audit log, above what was done before the page opened;
// the filter narrows the log, and no code is shown anywhere in it.
func TestBrowserAuditLog(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	mia := addFamily(t, admin, "Lund", "", "Mia")[0]
	var renewed struct {
		Code string `json:"code"`
	}
	if status := admin.call("POST", "/api/admin/guests/"+mia.ID+"/code", nil, &renewed); status != 200 || renewed.Code == "" {
		t.Fatalf("new code: %d", status)
	}
	if status := admin.call("PUT", "/api/admin/settings", map[string]string{"eventName": "Midsummer", "timezone": "UTC"}, nil); status != 200 {
		t.Fatalf("settings: %d", status)
	}

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitText(t, desk, "#audit-rows tr:first-child", "Changed the event")
	browsertest.WaitText(t, desk, "#audit-rows tr:nth-child(2)", "Made a new code")
	browsertest.WaitText(t, desk, "#audit-rows tr:nth-child(3)", "Added a guest")
	browsertest.WaitText(t, desk, "#audit-rows tr:nth-child(3)", "Mia Lund")

	// A guest added on the desk, then Refresh.
	browsertest.Click(t, desk, "#guest-add")
	browsertest.WaitVisible(t, desk, "#guest-dialog")
	browsertest.Fill(t, desk, "#g-firstName", "Nora")
	browsertest.Fill(t, desk, "#g-lastName", "Ny")
	browsertest.Click(t, desk, "#g-save")
	browsertest.WaitNotVisible(t, desk, "#guest-dialog")
	browsertest.WaitText(t, desk, "#guest-rows", "Nora Ny")
	browsertest.Click(t, desk, "#audit-refresh")
	top := browsertest.WaitText(t, desk, "#audit-rows tr:first-child", "Nora Ny")
	for _, want := range []string{"Added a guest", "Party Host"} {
		if !strings.Contains(top, want) {
			t.Errorf("newest entry %q lacks %q", top, want)
		}
	}
	if action := browsertest.Eval[string](t, desk, `document.querySelector("#audit-rows tr:first-child").dataset.action`); action != "guest.create" {
		t.Errorf("the newest entry's action is %q", action)
	}
	if n := browsertest.Eval[int](t, desk, `document.querySelectorAll("#audit-rows tr[data-action]").length`); n != 4 {
		t.Errorf("%d entries in the log, want 4", n)
	}
	browsertest.WaitText(t, desk, "#audit-page-info", "1–4 of 4")
	browsertest.Eval[bool](t, desk, `document.getElementById("audit").scrollIntoView() === undefined`)
	browsertest.Screenshot(t, desk, "audit-log")
	panel := browsertest.Text(t, desk, "#audit")
	for _, code := range []string{s.Code, mia.Code, renewed.Code} {
		if strings.Contains(panel, code) {
			t.Errorf("the audit panel shows the code %s", code)
		}
	}

	// The filter by area: the event's changes, then guests, then one with none.
	choose := func(area string) {
		t.Helper()
		if !browsertest.Eval[bool](t, desk, `(() => { const s = document.getElementById("audit-area"); s.value = `+strconv.Quote(area)+`; s.dispatchEvent(new Event("change")); return s.value === `+strconv.Quote(area)+`; })()`) {
			t.Fatalf("the filter has no option %q", area)
		}
	}
	choose("event")
	browsertest.WaitText(t, desk, "#audit-page-info", "1–1 of 1")
	browsertest.WaitText(t, desk, "#audit-rows tr:first-child", "changed name")
	choose("guests")
	browsertest.WaitText(t, desk, "#audit-page-info", "1–3 of 3")
	choose("system")
	browsertest.WaitText(t, desk, "#audit-rows", "No changes in this area.")
}
