package api

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/language"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
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

// walkInRequest is POST /api/door/walkins: a person the door adds on the
// night, with an Idempotency-Key header (the door's offline queue sends
// it again after a network drop).
type walkInRequest struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	// GroupOf is the id of a guest whose group the person joins.
	GroupOf string `json:"groupOf"`
	Needs   string `json:"needs"`
}

// parseWalkIn decodes and checks a walk-in: the names and needs as the
// host's desk and the RSVP check them.
func parseWalkIn(r *http.Request) (app.WalkInRequest, error) {
	key := r.Header.Get("Idempotency-Key")
	if !order.ValidKey(key) {
		return app.WalkInRequest{}, errBadRequest("idempotency_key_required", "send an Idempotency-Key header (1–128 visible ASCII characters, e.g. a UUID) so a walk-in sent again is never added twice")
	}
	var req walkInRequest
	if err := decode(r, &req); err != nil {
		return app.WalkInRequest{}, err
	}
	if strings.TrimSpace(req.FirstName) == "" || strings.TrimSpace(req.LastName) == "" {
		return app.WalkInRequest{}, errUnprocessable("missing_fields", "a walk-in needs a firstName and a lastName")
	}
	first, err := guest.CleanName("firstName", req.FirstName)
	if err != nil {
		return app.WalkInRequest{}, fieldError(err)
	}
	last, err := guest.CleanName("lastName", req.LastName)
	if err != nil {
		return app.WalkInRequest{}, fieldError(err)
	}
	if _, err := guest.CleanDietary(guest.Dietary{Text: req.Needs}); err != nil {
		return app.WalkInRequest{}, fieldError(&guest.FieldError{Field: "needs", Message: strings.TrimPrefix(err.Error(), "text: ")})
	}
	req.GroupOf = strings.TrimSpace(req.GroupOf)
	if req.GroupOf != "" && !guest.ValidID(req.GroupOf) {
		return app.WalkInRequest{}, errBadRequest("invalid_field", "groupOf must be a guest's id")
	}
	return app.WalkInRequest{FirstName: first, LastName: last, GroupOf: req.GroupOf, Needs: req.Needs, Key: key}, nil
}

// walkInResponse is the door's card for a walk-in, with the sign-in link
// the person scans on their own phone (the invitations' link) as text and
// as a QR code (an SVG data URL the page shows as an image).
type walkInResponse struct {
	app.WalkInResult
	Link string `json:"link"`
	QR   string `json:"qr"`
}

func (s *Server) handleWalkIn(w http.ResponseWriter, r *http.Request) {
	req, err := parseWalkIn(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.guests.door.WalkIn(r.Context(), identity(r.Context()), clientIP(r), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.translateWarnings(r, res.Warnings)
	link := invitationLink(s.publicURL(r.Context()), res.Code)
	svg, err := qrSVG(link)
	if err != nil {
		s.fail(w, r, fmt.Errorf("draw the walk-in's QR code: %w", err))
		return
	}
	status := http.StatusCreated
	if !res.Created {
		status = http.StatusOK
	}
	writeJSON(w, status, walkInResponse{WalkInResult: res, Link: link, QR: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))})
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
