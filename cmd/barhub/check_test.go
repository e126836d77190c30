package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/barhub/barhub/store/storetest"
)

// "barhub check" against one instance, with the kill switch, and against
// two instances on one database and Redis, where the guest is on one and
// the bar on the other: every step passes and nothing it made is left.
func TestCheckCommand(t *testing.T) {
	redisURL := testRedisURL(t)
	env := map[string]string{
		"MONGODB_URI":         startDB(t),
		"REDIS_URL":           redisURL,
		"BARHUB_REDIS_PREFIX": "test-check-" + storetest.DatabaseName(),
		// The default: the check reads the menu as its signed-in guest.
		"BARHUB_PUBLIC_MENU": "0",
	}
	a := startServer(t, "", env)
	b := startServer(t, "", env)
	creds := map[string]string{"BARHUB_CHECK_ADMIN_CODE": a.Code, "BARHUB_CHECK_ADMIN_LAST": a.LastName}

	for _, tt := range []struct {
		name string
		args []string
	}{
		{"one instance, kill switch", []string{"check", "--url", a.URL, "--kill-switch"}},
		{"two instances on Redis", []string{"check", "--url", a.URL + "," + b.URL}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runCmd(t, creds, tt.args...)
			t.Logf("barhub %s:\n%s", strings.Join(tt.args, " "), out)
			if err != nil {
				t.Fatalf("check failed: %v", err)
			}
			for _, want := range []string{`order\.ready reaches the guest's socket +pass +\d+ ms +order\.ready \d+ ms after`, "14 of 14 steps passed", `remove what the check made +pass`} {
				if !regexp.MustCompile(want).MatchString(out) {
					t.Errorf("output lacks %q", want)
				}
			}
			if strings.Contains(tt.name, "kill") && !strings.Contains(out, "off: 503, on again: 200") {
				t.Error("the kill switch was not tried")
			}
		})
	}
	// Nothing left behind: the only person is the host, the menu is empty.
	admin := signInAdmin(t, a)
	var list struct{ Total int }
	if status := admin.call("GET", "/api/admin/guests", nil, &list); status != 200 || list.Total != 1 {
		t.Errorf("guests after the checks: %d, total %d, want only the host", status, list.Total)
	}
	if status := admin.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Checked", "publicMenu": true}, nil); status != 200 {
		t.Fatalf("public menu on: %d", status)
	}
	menuGet(t, a.URL+"/api/drinks", &struct{}{})
	var menu struct{ Drinks []struct{ ID string } }
	menuGet(t, a.URL+"/api/drinks", &menu)
	if len(menu.Drinks) != 0 {
		t.Errorf("drinks left on the menu: %v", menu.Drinks)
	}

	// A failing step fails the command, names the step, and skips the rest.
	out, err := runCmd(t, map[string]string{"BARHUB_CHECK_ADMIN_CODE": "WRONG123", "BARHUB_CHECK_ADMIN_LAST": a.LastName}, "check", "--url", a.URL)
	if err == nil || !strings.Contains(out, "admin signs in") || !strings.Contains(out, "FAIL") || !strings.Contains(out, "skip") {
		t.Fatalf("check with a wrong code: %v\n%s", err, out)
	}
	if _, err := runCmd(t, nil, "check"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("check with no URL: %v", err)
	}
}
