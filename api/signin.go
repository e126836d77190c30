package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

type loginRequest struct {
	Code     string `json:"code"`
	LastName string `json:"lastName"`
}

// loginBody is the sign-in body: the request, and FromLink when the code
// came filled in from an invitation link (the host's list then shows
// "opened the link").
type loginBody struct {
	loginRequest
	FromLink bool `json:"fromLink"`
}

type loginResponse struct {
	Token     string      `json:"token"`
	ExpiresAt time.Time   `json:"expiresAt"`
	Role      guest.Role  `json:"role"`
	Guest     guest.Guest `json:"guest"`
}

// parseLogin decodes and checks a sign-in body. It is its own function so
// the fuzz test reaches every path a body can take.
func parseLogin(r *http.Request) (loginBody, error) {
	var req loginBody
	if err := decode(r, &req); err != nil {
		return req, err
	}
	req.Code = guest.NormalizeCode(req.Code)
	req.LastName = strings.TrimSpace(req.LastName)
	switch {
	case req.Code == "" && req.LastName == "":
		return req, errBadRequest("missing_fields", "enter the code from your invitation and your last name")
	case req.Code == "":
		return req, errBadRequest("missing_code", "enter the code from your invitation")
	case req.LastName == "":
		return req, errBadRequest("missing_last_name", "enter your last name")
	case len(req.Code) > 64 || len(req.LastName) > 200:
		return req, errBadRequest("too_long", "the code or last name is too long")
	}
	return req, nil
}

// handleLogin is the PDP's front door: code + last name → signed token.
// Failures are throttled (auth.SignInThrottle: per code, per code from an
// address, and slowed per address and overall, where only failures keep
// their turns), and the answer never says which of code and name was
// wrong.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	req, err := parseLogin(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	attempt, refused := s.throttle.Begin(r.Context(), clientIP(r), req.Code)
	if refused != nil {
		s.writeThrottled(w, r, refused)
		return
	}
	// With several events, the code may be another event's: that event
	// signs the guest in, as if asked directly (docs/EVENTS.md).
	// Checked at once, even when the throttle gave a turn ahead: a right
	// sign-in gives its turn back and goes in, and only a failure waits
	// for its turn (auth.SignInThrottle).
	m, err := s.signInEvent(r.Context(), req)
	if err != nil {
		s.throttle.Succeeded(r.Context(), attempt) // not a failure of the guest's
		s.fail(w, r, err)
		return
	}
	if rt := m.other; rt != nil {
		s.throttle.Succeeded(r.Context(), attempt)
		body, err := json.Marshal(req)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		r2 := r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, nil))
		r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rt.API.ServeHTTP(w, r2)
		return
	}
	g, err := m.here, m.hereErr
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.throttle.Succeeded(r.Context(), attempt) // not a failure of the guest's
		s.fail(w, r, err)
		return
	}
	if err != nil || guest.NameKey(req.LastName) != g.LastNameKey || g.LastNameKey == "" {
		replaced := err != nil && s.codeReplaced(r.Context(), req)
		if s.throttle.Failed(r.Context(), attempt) != nil {
			return // the client gave up waiting
		}
		if replaced {
			s.writeError(w, r, http.StatusUnauthorized, "code_replaced", "The host has replaced the code in this invitation with a new one; ask the host for a new link.")
			return
		}
		s.writeError(w, r, http.StatusUnauthorized, "invalid_login", "That code and last name do not match an invitation; check both and try again.")
		return
	}
	s.throttle.Succeeded(r.Context(), attempt)
	id := identityOf(g)
	id.Event = s.event
	token, exp, err := s.keys.Sign(id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if s.activity != nil {
		s.activity.LoggedIn(g.ID, time.Now())
	}
	if lang := s.requestLanguage(r); lang != "" && lang != g.Language {
		// The guest's e-mails follow the language their page shows. Best
		// effort, and only when it changed, so a sign-in rarely writes.
		if err := s.store.SetGuestLanguage(r.Context(), g.ID, lang); err != nil {
			s.log.WarnContext(r.Context(), "record guest language", "guest", g.ID, "err", err)
		} else {
			// The language is the person's: their other invitations are
			// written in it too (docs/EVENTS.md, "People across events").
			s.toOtherInvitations(r.Context(), g.ID, func(ctx context.Context, st *store.Store) error {
				return st.SetGuestLanguage(ctx, g.ID, lang)
			})
		}
	}
	if req.FromLink && (g.Invite == nil || g.Invite.OpenedAt == nil) {
		// Best effort, like the activity: the sign-in never waits on it
		// failing. It is once per guest, so a write here is cheap.
		if err := s.store.MarkInviteOpened(r.Context(), g.ID, time.Now()); err != nil {
			s.log.WarnContext(r.Context(), "record opened invitation", "guest", g.ID, "err", err)
		} else if s.publish != nil {
			s.publish.Publish(r.Context(), live.TopicAdmin, live.EventInviteUpdated, map[string]any{"guestId": g.ID, "opened": true})
		}
	}
	writeJSON(w, http.StatusOK, loginResponse{Token: token, ExpiresAt: exp, Role: g.Role, Guest: g})
}

// codeReplaced reports whether req's code was the guest's before the host
// gave them a new one, and req's last name is theirs: only someone who
// holds the old invitation is told the code was replaced, so the answer
// reveals nothing a guessed code would not.
func (s *Server) codeReplaced(ctx context.Context, req loginBody) bool {
	g, err := s.store.GuestOfReplacedCode(ctx, req.Code)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.WarnContext(ctx, "look up a replaced code", "err", err)
		}
		return false
	}
	return g.LastNameKey != "" && guest.NameKey(req.LastName) == g.LastNameKey
}

// writeThrottled answers a sign-in the throttle turned away.
func (s *Server) writeThrottled(w http.ResponseWriter, r *http.Request, refused *auth.Refusal) {
	wait := refused.RetryAfter
	w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
	var msg string
	switch refused.Reason {
	case auth.RefusedBusy:
		msg = "too many sign-ins from your network right now; try again in a few seconds"
	case auth.RefusedCodeFromAddress:
		msg = "too many failed sign-ins with this code from here; check the code on your invitation and try again in " + humanDuration(wait)
	default:
		msg = "too many failed sign-ins with this code; try again in " + humanDuration(wait) + ", or ask the host for a new code"
	}
	s.writeError(w, r, http.StatusTooManyRequests, "too_many_attempts", msg)
}

func humanDuration(d time.Duration) string {
	switch m := int(d.Round(time.Minute).Minutes()); {
	case d < time.Minute:
		return "a minute"
	case m == 1:
		return "1 minute"
	default:
		return strconv.Itoa(m) + " minutes"
	}
}

func (s *Server) handleJWKS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(s.keys.JWKS())
}

type ticketResponse struct {
	Ticket    string `json:"ticket"`
	ExpiresIn int    `json:"expiresIn"`
	// TopicPrefix starts the names of the event's topics on the wire
	// ("e:{event}:"), absent for the first event's (live.InEvent): the
	// web apps name topics as always and add it when they subscribe.
	TopicPrefix string `json:"topicPrefix,omitempty"`
}

// handleWSTicket trades the bearer token for a one-time ticket, so the
// token itself never travels in the WebSocket URL.
func (s *Server) handleWSTicket(w http.ResponseWriter, r *http.Request) {
	if !s.ticketAllowed(w, r) {
		return
	}
	t, err := s.tickets.Issue(r.Context(), identity(r.Context()))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ticketResponse{Ticket: t, ExpiresIn: int(s.tickets.TTL().Seconds()), TopicPrefix: live.InEvent(s.event, "")})
}

// handleMe returns the signed-in person, fresh from the store.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	g, err := s.store.GuestByID(r.Context(), identity(r.Context()).GuestID)
	if errors.Is(err, store.ErrNotFound) {
		s.writeError(w, r, http.StatusUnauthorized, "unauthorized", "your invitation no longer exists; contact the host")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, g)
}
