package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store"
)

// Web Push subscriptions: a guest's browsers that may show "your drink is
// ready" with the page closed (docs/PUSH.md). The sending is the push
// package's, wrapped around the publisher.

type pushKeyResponse struct {
	Enabled   bool   `json:"enabled"`
	PublicKey string `json:"publicKey,omitempty"`
}

// handlePushKey gives the VAPID public key the browser subscribes with.
func (s *Server) handlePushKey(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, pushKeyResponse{Enabled: s.cfg.PushKey != "", PublicKey: s.cfg.PushKey})
}

type pushDeviceResponse struct {
	ID string `json:"id"`
}

// handlePushSubscribe stores the signed-in person's browser subscription.
// One person may have several devices; the same browser again replaces
// its earlier keys.
func (s *Server) handlePushSubscribe(w http.ResponseWriter, r *http.Request) {
	if s.cfg.PushKey == "" {
		s.fail(w, r, &apiError{Status: http.StatusServiceUnavailable, Code: "push_unavailable", Message: "notifications are not set up on this server"})
		return
	}
	var sub push.Subscription
	if err := decode(r, &sub); err != nil {
		s.fail(w, r, err)
		return
	}
	// The server will POST to the endpoint: only a push service's, never
	// an address inside (push.Policy, docs/SECURITY.md).
	if err := sub.Validate(s.cfg.PushPolicy); err != nil {
		s.fail(w, r, errBadRequest("invalid_subscription", err.Error()))
		return
	}
	d := store.PushDevice{Endpoint: sub.Endpoint, P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth, CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.store.SavePushDevice(r.Context(), identity(r.Context()).GuestID, d); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, pushDeviceResponse{ID: d.ID()})
}

// handlePushUnsubscribe forgets one of the signed-in person's devices.
func (s *Server) handlePushUnsubscribe(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !validDeviceID(id) {
		s.fail(w, r, errBadRequest("invalid_id", "the device id is 32 hexadecimal characters"))
		return
	}
	if err := s.store.DeletePushDevice(r.Context(), identity(r.Context()).GuestID, id); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func validDeviceID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
