package publicurl

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	lan := []netip.Addr{netip.MustParseAddr("192.168.1.23"), netip.MustParseAddr("fd00::5")}
	tests := []struct {
		name, url, listen string
		level             string
		problem, reason   string
		suggestions       []string
	}{
		// The reproduction: --addr 0.0.0.0:8080 printed http://0.0.0.0:8080/login?code=… on every card.
		{"unspecified v4", "http://0.0.0.0:8080", "0.0.0.0:8080", "warning", "not an address a phone can open", "unspecified",
			[]string{"http://192.168.1.23:8080", "http://[fd00::5]:8080"}},
		{"unspecified v6", "http://[::]:8080", "[::]:8080", "warning", "not an address a phone can open", "unspecified",
			[]string{"http://192.168.1.23:8080", "http://[fd00::5]:8080"}},
		{"localhost on the network", "http://localhost:8080", ":8080", "warning", "the phone itself", "loopback",
			[]string{"http://192.168.1.23:8080", "http://[fd00::5]:8080"}},
		{"loopback on the network", "http://127.0.0.1:9000", "0.0.0.0:9000", "warning", "the phone itself", "loopback",
			[]string{"http://192.168.1.23:9000", "http://[fd00::5]:9000"}},
		{"bound to one address", "http://0.0.0.0:8080", "10.0.0.7:8080", "warning", "not an address", "unspecified", []string{"http://10.0.0.7:8080"}},
		{"local only", "http://127.0.0.1:8080", "127.0.0.1:8080", "info", "--addr 0.0.0.0:8080", "listens_locally", []string{}},
		{"a real name", "https://party.example.com", "0.0.0.0:8080", "ok", "", "", []string{}},
		{"a LAN address", "http://192.168.1.23:8080", "0.0.0.0:8080", "ok", "", "", []string{}},
		{"not a URL", "party.example.com", "0.0.0.0:8080", "warning", "not an http(s) address", "not_http", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(tt.url, tt.listen, lan)
			if r.Level != tt.level || r.Reachable != (tt.level == "ok") {
				t.Fatalf("level %q reachable %v, want %q: %+v", r.Level, r.Reachable, tt.level, r)
			}
			if r.Reason != tt.reason {
				t.Fatalf("reason %q, want %q", r.Reason, tt.reason)
			}
			if tt.reason == "listens_locally" && (r.Host != "127.0.0.1" || r.Port != "8080") {
				t.Fatalf("host %q port %q for the page's sentence", r.Host, r.Port)
			}
			if !strings.Contains(r.Problem, tt.problem) {
				t.Fatalf("problem %q, want it to say %q", r.Problem, tt.problem)
			}
			if !slices.Equal(r.Suggestions, tt.suggestions) {
				t.Fatalf("suggestions %q, want %q", r.Suggestions, tt.suggestions)
			}
		})
	}
}

func TestLANAddrsLeavesOutLoopback(t *testing.T) {
	for _, a := range LANAddrs() {
		if a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() {
			t.Errorf("%s is not an address a phone could use", a)
		}
	}
}
