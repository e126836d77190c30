package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/language"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
)

// The door (docs/DOOR.md): the use case is app.Door; here are its routes.

// checkInRequest is POST /api/door/checkin: the code as typed or the
// whole scanned link, or the id of a guest found by name.
type checkInRequest struct {
	Code    string `json:"code"`
	GuestID string `json:"guestId"`
	// Heads overrides how many people come in on the code.
	Heads *int `json:"heads"`
	// Force is "let in anyway" on an amber card: a guest who declined,
	// never answered, or brings more people than invited.
	Force bool `json:"force"`
}

// parseCheckIn decodes and checks a check-in body. It is its own function
// so the fuzz test reaches every path a body can take. It returns the
// code already extracted from a scanned link.
func parseCheckIn(r *http.Request) (checkInRequest, error) {
	var req checkInRequest
	if err := decode(r, &req); err != nil {
		return req, err
	}
	req.Code, req.GuestID = strings.TrimSpace(req.Code), strings.TrimSpace(req.GuestID)
	switch {
	case req.Code == "" && req.GuestID == "":
		return req, errBadRequest("missing_code", "scan the QR code or type the code from the invitation")
	case req.Code != "" && req.GuestID != "":
		return req, errBadRequest("invalid_field", "send a code or a guestId, not both")
	case len(req.Code) > guest.MaxScanLength:
		return req, errBadRequest("too_long", "that is far too long for an invitation code or link")
	case req.GuestID != "" && !guest.ValidID(req.GuestID):
		return req, errBadRequest("invalid_field", "guestId must be a guest's id")
	case req.Heads != nil && (*req.Heads < 1 || *req.Heads > guest.MaxPartySize):
		return req, errBadRequest("invalid_field", fmt.Sprintf("heads must be a whole number from 1 to %d", guest.MaxPartySize))
	}
	if req.Code != "" {
		code, ok := guest.ScannedCode(req.Code)
		if !ok {
			return req, errUnprocessable("invalid_code", "that is not an invitation code: a code has 8 letters and digits, or scan the QR code on the invitation")
		}
		req.Code = code
	}
	return req, nil
}

func (s *Server) handleCheckIn(w http.ResponseWriter, r *http.Request) {
	req, err := parseCheckIn(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	in := app.CheckInRequest{Code: req.Code, GuestID: req.GuestID, Force: req.Force}
	if req.Heads != nil {
		in.Heads = *req.Heads
	}
	res, err := s.guests.door.CheckIn(r.Context(), identity(r.Context()), clientIP(r), in)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.translateWarnings(r, res.Warnings)
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleUndoCheckIn(w http.ResponseWriter, r *http.Request) {
	res, err := s.guests.door.Undo(r.Context(), identity(r.Context()), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// handleDoorLookup finds guests by name, for guests who lost their code.
func (s *Server) handleDoorLookup(w http.ResponseWriter, r *http.Request) {
	res, err := s.guests.door.Lookup(r.Context(), strings.TrimSpace(r.URL.Query().Get("q")))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleDoorStats(w http.ResponseWriter, r *http.Request) {
	st, err := s.guests.door.Stats(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// translateWarnings puts the door card's notes in the language the door's
// page asks for (Accept-Language), as errors are; English stays the
// wording DecideArrival wrote.
func (s *Server) translateWarnings(r *http.Request, ws []guest.Warning) {
	al := r.Header.Get("Accept-Language")
	if al == "" {
		return
	}
	lang := s.locale.Match(al)
	if lang == language.English {
		return
	}
	for i, w := range ws {
		if w.Key == "" {
			continue
		}
		if text, ok := s.locale.Text(lang, w.Key, w.Vars); ok {
			ws[i].Message = text
		}
	}
}
