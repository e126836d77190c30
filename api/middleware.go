package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/golang-jwt/jwt/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxIdentity
	ctxClientIP
	ctxVerified
)

// verifiedToken is a bearer token toTokensEvent verified already, kept
// for authenticate so a request's token is checked once.
type verifiedToken struct {
	token string
	id    auth.Identity
}

// verify checks the request's bearer token, once per request.
func (s *Server) verify(r *http.Request, token string) (auth.Identity, error) {
	if v, ok := r.Context().Value(ctxVerified).(verifiedToken); ok && v.token == token {
		return v.id, nil
	}
	return s.keys.Verify(r.Context(), token)
}

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxRequestID).(string)
	return id
}

// identity returns who the request's token speaks for; the PEP middleware
// has put it there on every route that needs it.
func identity(ctx context.Context) auth.Identity {
	id, _ := ctx.Value(ctxIdentity).(auth.Identity)
	return id
}

// withRequestID reuses a sane incoming X-Request-Id (from a load balancer)
// or makes one, and echoes it so a user can quote it.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if len(id) == 0 || len(id) > 64 || strings.ContainsAny(id, " \r\n\t") {
			var b [8]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxRequestID, id)))
	})
}

// statusWriter remembers the status and size for the log and metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController and the WebSocket upgrade reach the
// underlying writer (Hijack, Flush).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "barhub_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "barhub_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// observe logs each request and counts it by route pattern (never by raw
// path: ids would explode the label set). The log holds no query string,
// so tickets and codes in URLs never reach it.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		if clientGone(r) {
			// Whatever was written, nobody read it.
			sw.status = statusClientClosed
		}
		elapsed := time.Since(start)
		route := routePattern(r)
		s.metrics.requests.WithLabelValues(route, r.Method, strconv.Itoa(sw.status)).Inc()
		s.metrics.duration.WithLabelValues(route, r.Method).Observe(elapsed.Seconds())
		level := slog.LevelInfo
		if route == "/healthz" || route == "/readyz" || route == "/metrics" {
			level = slog.LevelDebug // probes and scrapes would drown the log
		}
		s.log.Log(r.Context(), level, "http",
			"method", r.Method, "path", r.URL.Path, "route", route, "status", sw.status,
			"bytes", sw.bytes, "ms", float64(elapsed.Microseconds())/1000,
			"requestId", requestID(r.Context()), "remote", clientIP(r))
	})
}

// recoverer turns a panic into a logged 500 with the JSON error body, so
// one bad request never takes the process down.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "value", v, "stack", string(debug.Stack()), "requestId", requestID(r.Context()))
				s.writeError(w, r, http.StatusInternalServerError, "internal", "something went wrong on our side; please try again")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// limitBody caps every request body; decode turns the overflow into a 413.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBodyBytes {
			s.writeError(w, r, http.StatusRequestEntityTooLarge, "body_too_large", "the request body is larger than "+strconv.FormatInt(s.cfg.MaxBodyBytes, 10)+" bytes")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// authenticate is the PEP's first half: a valid bearer token of someone
// whose access has not ended, or 401.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || token == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="barhub"`)
			s.writeError(w, r, http.StatusUnauthorized, "unauthorized", "sign in first: send Authorization: Bearer <token>")
			return
		}
		id, err := s.verify(r, token)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="barhub", error="invalid_token"`)
			msg := "your sign-in is not valid; please sign in again"
			if errors.Is(err, jwt.ErrTokenExpired) {
				msg = "your sign-in has expired; please sign in again"
			}
			s.writeError(w, r, http.StatusUnauthorized, "unauthorized", msg)
			return
		}
		// Behind toTokensEvent only this event's tokens get here; without
		// it (an API serving one event alone) another's are refused, so a
		// token never acts on an event it was not signed for.
		if id.Event != s.event {
			w.Header().Set("WWW-Authenticate", `Bearer realm="barhub", error="invalid_token"`)
			s.writeError(w, r, http.StatusUnauthorized, "unauthorized", "your sign-in is for another event; please sign in again")
			return
		}
		// The request acts as its holder is now, not as the token says:
		// a deleted guest or an ended session is refused, a new role
		// applies at once. A small cache keeps this off the database.
		id, err = s.sessions.Current(r.Context(), id)
		if errors.Is(err, auth.ErrSessionEnded) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="barhub", error="invalid_token"`)
			s.writeError(w, r, http.StatusUnauthorized, "session_ended", "your access changed; please sign in again")
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		// A pick-up board's token opens the board's routes and nothing else.
		if id.Role == guest.RoleBoard && !isBoardRoute(r.Context()) {
			s.writeError(w, r, http.StatusForbidden, "forbidden", "a pick-up board may only show the board")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxIdentity, id)))
	})
}

// requireRole is the PEP's second half: the route group's roles or 403.
func (s *Server) requireRole(roles ...guest.Role) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			role := identity(r.Context()).Role
			for _, allowed := range roles {
				if role == allowed {
					next.ServeHTTP(w, r)
					return
				}
			}
			s.writeError(w, r, http.StatusForbidden, "forbidden", "your role ("+string(role)+") may not do this")
		})
	}
}

// clientIP is the address of the person making the request: the peer, or,
// when the peer is a trusted proxy (Config.TrustedProxies), the address
// that proxy saw (see withClientIP). X-Forwarded-For from anyone else is
// ignored: anyone can send it, and it would let a guesser dodge the
// sign-in throttle.
func clientIP(r *http.Request) string {
	if ip, ok := r.Context().Value(ctxClientIP).(string); ok {
		return ip
	}
	return peerIP(r)
}

func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// withClientIP resolves the client address once per request. Behind a load
// balancer every request comes from the balancer, so without this one
// guesser would lock every guest out of signing in. The X-Forwarded-For
// chain is read from the right, skipping trusted proxies: the first
// untrusted address is the client (entries further left are whatever the
// client chose to send).
func (s *Server) withClientIP(next http.Handler) http.Handler {
	next = s.noticeUntrustedForwarding(next)
	if len(s.cfg.TrustedProxies) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := forwardedClient(peerIP(r), r.Header.Values("X-Forwarded-For"), s.cfg.TrustedProxies)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxClientIP, ip)))
	})
}

func forwardedClient(peer string, xff []string, trusted []netip.Prefix) string {
	isTrusted := func(addr string) bool {
		ip, err := netip.ParseAddr(strings.TrimSpace(addr))
		if err != nil {
			return false
		}
		ip = ip.Unmap()
		for _, p := range trusted {
			if p.Contains(ip) {
				return true
			}
		}
		return false
	}
	if !isTrusted(peer) {
		return peer
	}
	var hops []string
	for _, h := range xff {
		for _, part := range strings.Split(h, ",") {
			hops = append(hops, strings.TrimSpace(part))
		}
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		if _, err := netip.ParseAddr(hops[i]); err != nil {
			break // garbage: stop at the last address we could trust
		}
		client = hops[i]
		if !isTrusted(hops[i]) {
			break
		}
	}
	return client
}
