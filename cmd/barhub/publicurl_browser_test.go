package main

import (
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// The reproduction: on 0.0.0.0 with no address known, Copy link copied
// http://[::]:…/login links after only a banner; and once the host picked
// an address in the banner, Copy link kept the old one until a reload.
func TestBrowserCopyLinkAfterPickingAnAddress(t *testing.T) {
	s := startServer(t, "", map[string]string{"BARHUB_LAN_ADDRS": "192.0.2.10, 198.51.100.7"}, "--addr", "0.0.0.0:0")
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	admin := signInAdmin(t, s)
	var nora e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Nora", "lastName": "Ny"}, &nora); status != 200 && status != 201 {
		t.Fatalf("create guest: %d", status)
	}

	desk := browsertest.New(t).Page(t, browsertest.Laptop)
	browsertest.SignIn(t, desk, s.URL, s.Code, s.LastName, "/admin")
	browsertest.WaitVisible(t, desk, "#public-url")
	browsertest.Eval[bool](t, desk, `(() => {
		navigator.clipboard.writeText = async (text) => { window.copied = text; };
		window.confirm = (message) => { window.asked = message; return false; };
		return true;
	})()`)
	row := `#guest-rows tr[data-id="` + nora.ID + `"]`
	browsertest.WaitText(t, desk, row, "not invited")

	// No reachable address: the host is asked, and says no.
	browsertest.Click(t, desk, row+` button[data-invite="link"]`)
	waitEval(t, desk, "the host is asked", `!!(window.asked || window.copied)`)
	if copied := browsertest.Eval[string](t, desk, `String(window.copied ?? "")`); copied != "" {
		t.Fatalf("copied %q without asking", copied)
	}
	browsertest.WaitText(t, desk, "#invite-url-note", "no guest's phone can open")

	// The host picks an address; the next copy uses it, no reload.
	want := "http://192.0.2.10:" + port
	browsertest.Click(t, desk, "#public-url-picks button")
	browsertest.WaitNotVisible(t, desk, "#public-url")
	browsertest.WaitText(t, desk, "#invite-url-note", "picked on this page")
	browsertest.Click(t, desk, row+` button[data-invite="link"]`)
	waitEval(t, desk, "the link is copied", `!!window.copied`)
	if copied := browsertest.Eval[string](t, desk, `window.copied`); copied != want+"/login?code="+nora.Code {
		t.Fatalf("copied %q, want the picked address %s", copied, want)
	}
	browsertest.WaitText(t, desk, row, "link copied")
}
