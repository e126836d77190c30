package main

import (
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
)

// Trusting a range wider than these lets anyone inside it name their own
// address in X-Forwarded-For, and so dodge the sign-in throttle and the
// rate limits: a whole private network (10.0.0.0/8) is far more than a
// load balancer. A cluster's pod range (a /16) is as wide as is sensible,
// and only where a NetworkPolicy lets nothing but the ingress controller
// reach barhub.
const (
	widestTrustedV4 = 16
	widestTrustedV6 = 48
)

// proxyWarnings says what looks wrong, at start, in whose X-Forwarded-For
// barhub believes: nobody's while it looks to run behind a proxy (in
// Kubernetes, or with an https public URL that barhub, serving plain HTTP,
// cannot be answering itself), where every guest would share the proxy's
// address; or ranges too wide to be only load balancers.
func proxyWarnings(trusted []netip.Prefix, publicURL string, getenv func(string) string) []string {
	const fix = "set --trusted-proxies (BARHUB_TRUSTED_PROXIES) to the proxy's own addresses (README, \"Running a large event\")"
	var out []string
	if len(trusted) == 0 {
		shared := "every guest then has the proxy's address, so the sign-in throttle and the rate limits count the whole party as one client"
		if getenv("KUBERNETES_SERVICE_HOST") != "" {
			out = append(out, "running in Kubernetes with no trusted proxies: requests arrive through the ingress controller; "+shared+"; "+fix)
		} else if strings.HasPrefix(strings.ToLower(publicURL), "https://") {
			out = append(out, "the public URL is https but barhub serves plain HTTP, so TLS ends in a proxy, and no trusted proxies are set: "+shared+"; "+fix)
		}
	}
	for _, p := range trusted {
		widest := widestTrustedV4
		if p.Addr().Is6() && !p.Addr().Is4In6() {
			widest = widestTrustedV6
		}
		if p.Bits() < widest {
			out = append(out, fmt.Sprintf("trusted proxies include %s: anyone in that range can name their own address in X-Forwarded-For and dodge the sign-in throttle; trust only the load balancer's addresses (/%d at the widest)", p, widest))
		}
	}
	return out
}

// warnProxies logs proxyWarnings.
func warnProxies(cfg *config, getenv func(string) string, logger *slog.Logger) {
	for _, w := range proxyWarnings(cfg.TrustedProxies, cfg.PublicURL, getenv) {
		logger.Warn(w, "trustedProxies", len(cfg.TrustedProxies))
	}
}
