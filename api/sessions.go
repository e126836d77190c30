package api

import (
	"context"
	"net/http"

	"github.com/coder/websocket"
	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/hub"
)

// SessionBus tells every instance that a guest's access changed and closes
// that guest's sockets (the hub; see hub/revoke.go).
type SessionBus interface {
	// EndSessions reaches every instance, this one included.
	EndSessions(ctx context.Context, guestID string) error
	// OnSessionsEnded hears every EndSessions, and "" when some may have
	// been missed.
	OnSessionsEnded(fn func(guestID string))
	// CloseGuest closes guestID's sockets on this instance.
	CloseGuest(guestID string, code websocket.StatusCode, reason string) int
}

// listenForEndedSessions keeps this instance's session cache in step with
// changes made on any instance.
func (s *Server) listenForEndedSessions() {
	if s.sessionBus == nil {
		return
	}
	s.sessionBus.OnSessionsEnded(func(guestID string) {
		if guestID == "" {
			s.sessions.ForgetAll()
			return
		}
		s.sessions.Forget(guestID)
	})
}

// accessChanged is called once a change to guestID's access is stored: a
// deletion, a new role, a new code, "sign out everywhere". This instance
// forgets the guest and closes their sockets at once (no window here);
// the others hear it through the hub, and a lost message is bounded by
// the cache's TTL. The sockets reconnect with a fresh ticket, under the
// new role, or go to the sign-in screen when the session ended.
func (s *Server) accessChanged(ctx context.Context, guestID string) {
	s.sessions.Forget(guestID)
	if s.sessionBus == nil {
		return
	}
	s.sessionBus.CloseGuest(guestID, hub.StatusSessionEnded, "session ended")
	if err := s.sessionBus.EndSessions(context.WithoutCancel(ctx), guestID); err != nil {
		s.log.WarnContext(ctx, "other instances will see the ended session when their cache expires",
			"guest", guestID, "ttl", s.sessions.TTL(), "err", err, "requestId", requestID(ctx))
	}
}

// handleSignOutEverywhere ends every session of the caller, this one
// included: a lost phone stops working.
func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	me := identity(ctx)
	if _, err := s.store.EndSessions(ctx, me.GuestID); err != nil {
		s.fail(w, r, storeError(err, "your invitation"))
		return
	}
	s.accessChanged(ctx, me.GuestID)
	audit.SetSubject(ctx, me.GuestID)
	audit.Note(ctx, "name", me.Name)
	w.WriteHeader(http.StatusNoContent)
}

// handleSignOutGuest is the host's "sign out everywhere" for a guest: every
// token and socket of theirs ends; their code still works.
func (s *Server) handleSignOutGuest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	if _, err := s.store.EndSessions(ctx, id); err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	s.accessChanged(ctx, id)
	if g, err := s.store.GuestByID(ctx, id); err == nil {
		audit.Note(ctx, "name", g.Name())
	}
	w.WriteHeader(http.StatusNoContent)
}
