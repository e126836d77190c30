package main

import (
	"net/netip"
	"strings"
	"testing"
)

func TestProxyWarnings(t *testing.T) {
	prefixes := func(s ...string) []netip.Prefix {
		var out []netip.Prefix
		for _, p := range s {
			out = append(out, netip.MustParsePrefix(p))
		}
		return out
	}
	k8s := map[string]string{"KUBERNETES_SERVICE_HOST": "10.96.0.1"}
	tests := []struct {
		name      string
		trusted   []netip.Prefix
		publicURL string
		env       map[string]string
		// want are words each warning must hold, one entry per warning.
		want []string
	}{
		{"a laptop on the party's Wi-Fi", nil, "http://192.168.1.20:8080", nil, nil},
		{"Kubernetes trusting nobody", nil, "https://party.example.com", k8s, []string{"Kubernetes"}},
		{"TLS ended in front, nobody trusted", nil, "https://party.example.com", nil, []string{"https"}},
		{"Kubernetes trusting its ingress controller's pods", prefixes("10.244.3.0/24", "10.244.7.0/24"), "https://party.example.com", k8s, nil},
		{"compose's balancer", prefixes("172.30.80.10/32"), "http://localhost:8080", nil, nil},
		{"a whole private network", prefixes("10.0.0.0/8"), "https://party.example.com", k8s, []string{"10.0.0.0/8"}},
		{"a pod range is the widest allowed", prefixes("10.244.0.0/16"), "https://party.example.com", k8s, nil},
		{"everyone", prefixes("0.0.0.0/0", "::/0"), "http://localhost:8080", nil, []string{"0.0.0.0/0", "::/0"}},
		{"an IPv6 ingress subnet", prefixes("fd00:10:244::/56"), "https://party.example.com", k8s, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := proxyWarnings(tt.trusted, tt.publicURL, func(k string) string { return tt.env[k] })
			if len(got) != len(tt.want) {
				t.Fatalf("warnings %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) || !strings.Contains(got[i], "trust") {
					t.Errorf("warning %q does not say %q", got[i], w)
				}
			}
		})
	}
}
