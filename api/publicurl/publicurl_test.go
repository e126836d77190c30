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

func TestResolvePrecedence(t *testing.T) {
	one := []netip.Addr{netip.MustParseAddr("192.168.1.20")}
	two := []netip.Addr{netip.MustParseAddr("192.168.1.20"), netip.MustParseAddr("10.0.0.4")}
	tests := []struct {
		name, flag, picked, listen string
		lan                        []netip.Addr
		url, source                string
	}{
		// The README: the flag wins over an address picked earlier.
		{"flag over pick", "https://party.example.com", "http://192.168.1.20:8080", "[::]:8080", one, "https://party.example.com", SourceFlag},
		{"pick over the only LAN address", "", "http://10.0.0.4:8080", "[::]:8080", one, "http://10.0.0.4:8080", SourcePicked},
		{"the only LAN address", "", "", "[::]:8080", one, "http://192.168.1.20:8080", SourceLAN},
		{"the only LAN address, v4 wildcard", "", "", "0.0.0.0:9000", one, "http://192.168.1.20:9000", SourceLAN},
		{"two LAN addresses: none known", "", "", "[::]:8080", two, "http://[::]:8080", SourceListen},
		{"no LAN address", "", "", "[::]:8080", nil, "http://[::]:8080", SourceListen},
		{"local only ignores the LAN", "", "", "127.0.0.1:8080", one, "http://127.0.0.1:8080", SourceListen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, source := Resolve(tt.flag, tt.picked, tt.listen, tt.lan)
			if url != tt.url || source != tt.source {
				t.Fatalf("Resolve = %q (%s), want %q (%s)", url, source, tt.url, tt.source)
			}
		})
	}
}

func TestLocalURLs(t *testing.T) {
	lan := []netip.Addr{netip.MustParseAddr("192.168.1.20"), netip.MustParseAddr("fd00::5")}
	local, network := LocalURLs("[::]:8080", lan)
	if local != "http://127.0.0.1:8080" || !slices.Equal(network, []string{"http://192.168.1.20:8080", "http://[fd00::5]:8080"}) {
		t.Fatalf("wildcard: local %q network %q", local, network)
	}
	local, network = LocalURLs("127.0.0.1:8080", lan)
	if local != "http://127.0.0.1:8080" || len(network) != 0 {
		t.Fatalf("loopback: local %q network %q", local, network)
	}
	local, network = LocalURLs("10.0.0.7:8080", lan)
	if local != "" || !slices.Equal(network, []string{"http://10.0.0.7:8080"}) {
		t.Fatalf("one address: local %q network %q", local, network)
	}
}
