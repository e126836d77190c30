package api

import (
	"net/netip"
	"testing"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

func TestForwardedClient(t *testing.T) {
	lb := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	tests := []struct {
		name string
		peer string
		xff  []string
		want string
	}{
		{"direct client, header ignored", "203.0.113.9", []string{"1.2.3.4"}, "203.0.113.9"},
		{"through the balancer", "10.0.0.2", []string{"198.51.100.7"}, "198.51.100.7"},
		{"client spoofs a hop", "10.0.0.2", []string{"1.2.3.4, 198.51.100.7"}, "198.51.100.7"},
		{"two trusted hops", "10.0.0.2", []string{"198.51.100.7, 10.0.0.3"}, "198.51.100.7"},
		{"several headers", "10.0.0.2", []string{"1.2.3.4", "198.51.100.7"}, "198.51.100.7"},
		{"no header", "10.0.0.2", nil, "10.0.0.2"},
		{"garbage hop", "10.0.0.2", []string{"198.51.100.7, nonsense"}, "10.0.0.2"},
		{"ipv6 balancer", "::1", []string{"2001:db8::5"}, "2001:db8::5"},
	}
	for _, tt := range tests {
		if got := forwardedClient(tt.peer, tt.xff, lb); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Behind a trusted balancer, one guesser's failures throttle that guesser
// only, not everyone coming through the balancer.
func TestThrottleBehindTrustedProxy(t *testing.T) {
	e := newProxiedEnv(t)
	g := e.addGuest(guest.Guest{LastName: "Lind"})
	for i := range 10 {
		status, _ := e.do("POST", "/api/auth/login", "", loginRequest{Code: g.Code, LastName: "x"}, "X-Forwarded-For", "198.51.100.66")
		if want := 401; i >= auth.DefaultSignInPolicy(0, 0).PerCodeFromAddress {
			want = 429
			if status != want {
				t.Fatalf("guesser's attempt %d: %d, want %d", i, status, want)
			}
		} else if status != want {
			t.Fatalf("guesser's attempt %d: %d, want %d", i, status, want)
		}
	}
	if status, body := e.do("POST", "/api/auth/login", "", loginRequest{Code: g.Code, LastName: "Lind"}, "X-Forwarded-For", "198.51.100.77"); status != 200 {
		t.Fatalf("the owner through the same balancer: %d %s", status, body)
	}
}
