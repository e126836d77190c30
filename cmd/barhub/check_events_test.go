package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// "barhub check" names the events the deployment holds, one line each:
// a data folder written before there were events is one, the party the
// server serves, with the name, time and place of its settings.
func TestCheckListsEvents(t *testing.T) {
	a := startServer(t, "", nil)
	admin := signInAdmin(t, a)
	settings := map[string]any{"eventName": "Kräftskiva", "eventDate": "2099-08-14T18:00", "location": "The boathouse", "timezone": "Europe/Stockholm"}
	if status := admin.call("PUT", "/api/admin/settings", settings, nil); status != 200 {
		t.Fatalf("save settings: %d", status)
	}
	out, err := runCmd(t, map[string]string{"BARHUB_CHECK_ADMIN_CODE": a.Code, "BARHUB_CHECK_ADMIN_LAST": a.LastName}, "check", "--url", a.URL)
	t.Logf("barhub check:\n%s", out)
	if err != nil {
		t.Fatalf("check failed: %v", err)
	}
	lines := regexp.MustCompile(`(?m)^Kräftskiva .*$`).FindAllString(out, -1)
	if len(lines) != 1 {
		t.Fatalf("%d lines for the event, want 1", len(lines))
	}
	if !regexp.MustCompile(`^Kräftskiva +upcoming +2099-08-14 18:00 Europe/Stockholm +The boathouse +[0-9a-f]{24} +served here$`).MatchString(strings.TrimRight(lines[0], " ")) {
		t.Errorf("event line %q, want its name, status, time in its zone, place, id and that it is served here", lines[0])
	}
	if !regexp.MustCompile(`(?m)^EVENT +STATUS +STARTS +PLACE +ID`).MatchString(out) {
		t.Error("no header over the events")
	}
}

func TestCheckEventLine(t *testing.T) {
	starts := time.Date(2026, 6, 19, 16, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   checkedEvent
		want string
	}{
		{"dated, in its own zone, served here",
			checkedEvent{ID: "e1", Name: "Midsummer", StartsAt: &starts, Timezone: "Europe/Stockholm", Location: "The garden", Status: "past", Current: true},
			"Midsummer\tpast\t2026-06-19 18:00 Europe/Stockholm\tThe garden\te1\tserved here"},
		{"no date, no place, another server's",
			checkedEvent{ID: "e2", Name: "Crayfish party", Timezone: "UTC", Status: "upcoming"},
			"Crayfish party\tupcoming\tno date\t-\te2\t"},
		{"unknown zone read as UTC",
			checkedEvent{ID: "e3", Name: "Odd", StartsAt: &starts, Timezone: "Mars/Olympus", Status: "archived"},
			"Odd\tarchived\t2026-06-19 16:00 UTC\t-\te3\t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := eventLine(tt.in); got != tt.want {
				t.Errorf("eventLine = %q, want %q", got, tt.want)
			}
		})
	}
}
