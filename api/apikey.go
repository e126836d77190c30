package api

import (
	"context"
	"crypto/subtle"
	"net/http"
	"sync"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// The public app (the guests' phone pages) sends an API key with every
// menu and order call. The key is not a secret — any page can fetch it
// from GET /api/app-key — it is a switch: the host can turn the public
// app off (a flood of orders, the bar closing) and on again from the
// admin page, or replace the key so copies of it stop working. The bar's
// tablet and the admin pages do not use it, so the host and the bar keep
// working while the guests' app is off.

const appKeyHeader = "X-Api-Key"

// appKeyTTL bounds how long an instance trusts its copy of the key when
// the app.status event from another instance is lost.
const appKeyTTL = 5 * time.Second

type appKeyCache struct {
	store *store.Store
	mu    sync.Mutex
	val   store.AppKey
	at    time.Time
}

func (c *appKeyCache) get(ctx context.Context) (store.AppKey, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < appKeyTTL {
		return c.val, nil
	}
	k, err := c.store.AppKey(ctx)
	if err != nil {
		return k, err
	}
	c.val, c.at = k, time.Now()
	return k, nil
}

func (c *appKeyCache) invalidate() {
	c.mu.Lock()
	c.at = time.Time{}
	c.mu.Unlock()
}

// checkAppKey lets the request through when the public app is switched
// on and the request carries its key; otherwise it answers 503 or 403.
func (s *Server) checkAppKey(w http.ResponseWriter, r *http.Request) bool {
	k, err := s.bar.appKey.get(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return false
	}
	if !k.Enabled {
		w.Header().Set("Retry-After", "60")
		s.writeError(w, r, http.StatusServiceUnavailable, "app_switched_off", "the host has paused ordering from phones for now; please ask at the bar")
		return false
	}
	sent := r.Header.Get(appKeyHeader)
	if sent == "" {
		s.writeError(w, r, http.StatusForbidden, "api_key_required", "this call needs the app's key in the "+appKeyHeader+" header (GET /api/app-key); reload the page")
		return false
	}
	if subtle.ConstantTimeCompare([]byte(sent), []byte(k.Key)) != 1 {
		s.writeError(w, r, http.StatusForbidden, "invalid_api_key", "the app's key is out of date; reload the page")
		return false
	}
	return true
}

type appKeyResponse struct {
	Key     string `json:"key,omitempty"`
	Enabled bool   `json:"enabled"`
}

// handleAppKey gives the guest pages the key (while the app is on).
func (s *Server) handleAppKey(w http.ResponseWriter, r *http.Request) {
	k, err := s.bar.appKey.get(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := appKeyResponse{Enabled: k.Enabled}
	if k.Enabled {
		resp.Key = k.Key
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) handleGetAppKeyAdmin(w http.ResponseWriter, r *http.Request) {
	k, err := s.control.AppKey(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, k)
}

type setAppKeyRequest struct {
	Enabled *bool `json:"enabled"`
	Rotate  bool  `json:"rotate"`
}

// handleSetAppKey is the kill switch: {enabled: false} turns the guests'
// app off on every instance, {enabled: true} back on; rotate replaces the
// key.
func (s *Server) handleSetAppKey(w http.ResponseWriter, r *http.Request) {
	var req setAppKeyRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Enabled == nil {
		s.fail(w, r, errBadRequest("missing_enabled", `say whether the guests' app is on: {"enabled": true} or {"enabled": false}`))
		return
	}
	k, err := s.control.SetAppKey(r.Context(), *req.Enabled, req.Rotate, identity(r.Context()).Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.bar.appKey.invalidate()
	// Whether the app is on and whether the key was replaced; the key
	// itself never reaches the log.
	audit.Note(r.Context(), "enabled", k.Enabled)
	audit.Note(r.Context(), "rotated", req.Rotate)
	s.publishEvent(r.Context(), live.TopicMenu, live.EventAppStatus, map[string]bool{"enabled": k.Enabled})
	s.log.InfoContext(r.Context(), "guest app switched", "enabled", k.Enabled, "rotated", req.Rotate, "by", identity(r.Context()).GuestID)
	writeJSON(w, http.StatusOK, k)
}
