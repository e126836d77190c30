package api

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "version": s.cfg.Version, "uptimeSeconds": int(time.Since(s.started).Seconds())})
}

// readyTimeout bounds /readyz's checks. The database check is a real write
// and read, which a crowd can make wait a moment behind its own writes: the
// bound is for a database that does not answer, not for a busy one.
const readyTimeout = 5 * time.Second

// handleReadyz checks every dependency; a load balancer takes an instance
// out of rotation while its database or Redis is unreachable.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	checks := map[string]string{}
	status := http.StatusOK
	for name, p := range s.ready {
		if err := p.Ping(ctx); err != nil {
			checks[name] = "unreachable"
			status = http.StatusServiceUnavailable
			s.log.WarnContext(ctx, "readiness check failed", "dependency", name, "err", err)
			continue
		}
		checks[name] = "ok"
	}
	state := "ready"
	if status != http.StatusOK {
		state = "not ready"
	}
	writeJSON(w, status, map[string]any{"status": state, "checks": checks})
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	m := s.cfg.Metrics
	if m.Token != "" {
		// Constant time: the comparison must not tell how much of a guess was right.
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(m.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			s.writeError(w, r, http.StatusUnauthorized, "unauthorized", "the metrics need the scraper's bearer token")
			return
		}
	} else if m.Off {
		s.writeError(w, r, http.StatusNotFound, "not_found", "no such endpoint: GET /metrics (served on the metrics address)")
		return
	}
	promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{}).ServeHTTP(w, r)
}
