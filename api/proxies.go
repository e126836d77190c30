package api

import (
	"net/http"
	"net/netip"
	"sync/atomic"
)

// noticeUntrustedForwarding warns, once per process, of the first request
// that says it came through a proxy (X-Forwarded-For, Forwarded or
// X-Real-Ip) from a peer barhub does not trust as one. Behind a load
// balancer nobody listed in Config.TrustedProxies, every guest has the
// balancer's address: the sign-in throttle and the rate limits count the
// whole party as one client. (It is also what a client sending the header
// itself looks like, which is harmless: the header is ignored.) After the
// warning it costs one atomic load per request.
func (s *Server) noticeUntrustedForwarding(next http.Handler) http.Handler {
	var warned atomic.Bool
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !warned.Load() && forwarded(r) && !s.trustedPeer(peerIP(r)) && warned.CompareAndSwap(false, true) {
			msg := "a request came through a proxy that is not trusted (or a client sent X-Forwarded-For itself): the header is ignored, so every guest behind such a proxy shares its address in the sign-in throttle and the rate limits; if it is your load balancer, add its addresses to --trusted-proxies (BARHUB_TRUSTED_PROXIES)"
			if len(s.cfg.TrustedProxies) == 0 {
				msg = "a request came through a proxy, and no trusted proxies are set: every guest behind it shares its address in the sign-in throttle and the rate limits; set --trusted-proxies (BARHUB_TRUSTED_PROXIES) to the proxy's own addresses"
			}
			s.log.WarnContext(r.Context(), msg, "proxy", peerIP(r), "trustedProxies", len(s.cfg.TrustedProxies))
		}
		next.ServeHTTP(w, r)
	})
}

func forwarded(r *http.Request) bool {
	return r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" || r.Header.Get("X-Real-Ip") != ""
}

func (s *Server) trustedPeer(peer string) bool {
	ip, err := netip.ParseAddr(peer)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
