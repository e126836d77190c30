package main

import (
	"flag"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/push/pushtest"
)

// TestPushHostsFlag: --push-hosts (BARHUB_PUSH_HOSTS) adds push services'
// hosts; an entry that is not a host pattern stops the start with a
// message naming it.
func TestPushHostsFlag(t *testing.T) {
	for _, tt := range []struct {
		env, flag string
		want      []string
		err       string
	}{
		{"", "", nil, ""},
		{" push.example.org, *.relay.example.net:8443 ,", "", []string{"push.example.org", "*.relay.example.net:8443"}, ""},
		{"push.example.org", "other.example.org", []string{"other.example.org"}, ""},
		{"https://push.example.org/", "", nil, `BARHUB_PUSH_HOSTS: push host "https://push.example.org/"`},
		{"localhost", "", nil, `push host "localhost"`},
		{"push.example.org:0", "", nil, `push host "push.example.org:0"`},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c, finish := serveFlags(fs, func(k string) string {
			if k == "BARHUB_PUSH_HOSTS" {
				return tt.env
			}
			return ""
		})
		var args []string
		if tt.flag != "" {
			args = []string{"--push-hosts", tt.flag}
		}
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		err := finish()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("env %q flag %q: %v, want an error with %q", tt.env, tt.flag, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(c.PushHosts, tt.want) {
			t.Errorf("env %q flag %q: %q %v, want %q", tt.env, tt.flag, c.PushHosts, err, tt.want)
		}
	}
}

// TestServedPushStaysOutside is barhub as it is started: by default the
// API refuses a subscription on the test push service (loopback), and
// with that host listed by --push-hosts the subscription is accepted but
// the sender still does not connect there, as the address is not public.
func TestServedPushStaysOutside(t *testing.T) {
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	d := svc.NewDevice()
	hostport := strings.TrimPrefix(strings.Split(d.Endpoint, "/push/")[0], "https://")

	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	var refused struct {
		Error struct{ Code, Message string }
	}
	if status := admin.call("POST", "/api/push/subscriptions", d.Subscription(), &refused); status != 400 || refused.Error.Code != "invalid_subscription" {
		t.Fatalf("subscribe on loopback by default: %d %+v, want 400 invalid_subscription", status, refused)
	}
	s.Stop(t)

	s = startServer(t, "", map[string]string{"BARHUB_PUSH_HOSTS": hostport, "BARHUB_METRICS_TOKEN": "scrape"})
	admin = signInAdmin(t, s)
	if status := admin.call("POST", "/api/push/subscriptions", d.Subscription(), nil); status != 201 {
		t.Fatalf("subscribe on a listed host: %d, want 201", status)
	}
	if status := admin.call("POST", "/api/admin/announcements", map[string]any{"text": "Cake in the garden", "push": true}, nil); status != 202 {
		t.Fatalf("announce: %d", status)
	}
	refusedLine := regexp.MustCompile(`barhub_push_notifications_total\{result="refused"\} 1\b`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		req, _ := http.NewRequest("GET", s.URL+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer scrape")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if refusedLine.Match(body) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no refused notification counted after 20s:\n%s", grepLines(string(body), "barhub_push_"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(d.Messages()); n != 0 {
		t.Fatalf("the push service on loopback got %d notifications", n)
	}
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
