package api

import (
	"net/http"
	"slices"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/store"
)

// The host's notifications (docs/PUSH.md, "The host's notifications"):
// what each admin wants on their devices and in the daily e-mail. The
// devices subscribe through /api/push/subscriptions as guests' do; the
// sending is app.Host's, run by the server's upkeep.

type hostPrefsResponse struct {
	// Kinds lists every kind an admin may turn on or off.
	Kinds        []string `json:"kinds"`
	Off          []string `json:"off"`
	BatchMinutes int      `json:"batchMinutes"`
	DigestHour   int      `json:"digestHour"`
	// Push says whether this server can send notifications at all;
	// Mail whether it can send the daily digest (SMTP set up), and
	// Email the admin's address it goes to.
	Push  bool   `json:"push"`
	Mail  bool   `json:"mail"`
	Email string `json:"email"`
}

type hostPrefsRequest struct {
	Off          []string `json:"off"`
	BatchMinutes int      `json:"batchMinutes"`
	DigestHour   int      `json:"digestHour"`
}

// parseHostPrefs reads an admin's choice: known kinds, a batch of 1 to
// 120 minutes, an hour of the day.
func parseHostPrefs(r *http.Request) (hostPrefsRequest, error) {
	var req hostPrefsRequest
	if err := decode(r, &req); err != nil {
		return req, err
	}
	if req.Off == nil {
		req.Off = []string{}
	}
	if len(req.Off) > len(app.HostKinds) {
		return req, errBadRequest("invalid_kind", "off lists each kind at most once")
	}
	for _, k := range req.Off {
		if !slices.Contains(app.HostKinds, k) {
			return req, errBadRequest("invalid_kind", "unknown kind "+quoteShort(k)+"; the kinds are answers, deadline, low-stock, waitlist, dead-job, backplane, digest")
		}
	}
	slices.Sort(req.Off)
	req.Off = slices.Compact(req.Off)
	if req.BatchMinutes < 1 || req.BatchMinutes > 120 {
		return req, errBadRequest("invalid_batch", "batchMinutes is a whole number of minutes from 1 to 120")
	}
	if req.DigestHour < 0 || req.DigestHour > 23 {
		return req, errBadRequest("invalid_hour", "digestHour is an hour of the day, 0 to 23")
	}
	return req, nil
}

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}

func (s *Server) hostPrefs(r *http.Request) (hostPrefsResponse, error) {
	id := identity(r.Context()).GuestID
	p, err := s.store.HostPrefs(r.Context(), id)
	if err != nil {
		return hostPrefsResponse{}, err
	}
	me, err := s.store.GuestByID(r.Context(), id)
	if err != nil {
		return hostPrefsResponse{}, err
	}
	return hostPrefsResponse{Kinds: app.HostKinds, Off: p.Off, BatchMinutes: p.BatchMinutes, DigestHour: p.DigestHour,
		Push: s.cfg.PushKey != "", Mail: s.mail.Configured, Email: me.Email}, nil
}

// handleGetHostPrefs gives the signed-in admin's choice.
func (s *Server) handleGetHostPrefs(w http.ResponseWriter, r *http.Request) {
	resp, err := s.hostPrefs(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// handlePutHostPrefs stores the signed-in admin's choice.
func (s *Server) handlePutHostPrefs(w http.ResponseWriter, r *http.Request) {
	req, err := parseHostPrefs(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := store.HostPrefs{AdminID: identity(r.Context()).GuestID, Off: req.Off, BatchMinutes: req.BatchMinutes, DigestHour: req.DigestHour}
	if err := s.store.SaveHostPrefs(r.Context(), p); err != nil {
		s.fail(w, r, err)
		return
	}
	s.handleGetHostPrefs(w, r)
}
