package api

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
)

// The public registration page and the host's list of registrations
// (docs/REGISTRATION.md). The rules are app.Registrations'.

// registerRequest is POST /api/register: the form and the solved challenge.
type registerRequest struct {
	FirstName   string   `json:"firstName"`
	LastName    string   `json:"lastName"`
	Email       string   `json:"email"`
	PlusOnes    int      `json:"plusOnes"`
	Needs       string   `json:"needs"`
	Likes       []string `json:"likes"`
	Dislikes    []string `json:"dislikes"`
	AlcoholFree bool     `json:"alcoholFree"`
	Language    string   `json:"language"`
	Challenge   string   `json:"challenge"`
	Nonce       string   `json:"nonce"`
}

// parseRegistration decodes and checks the form; the challenge is
// checked apart (it costs a database write).
func parseRegistration(r *http.Request) (registerRequest, guest.Registration, error) {
	var in registerRequest
	if err := decode(r, &in); err != nil {
		return in, guest.Registration{}, err
	}
	reg, err := guest.ParseRegistration(guest.RegistrationInput{
		FirstName: in.FirstName, LastName: in.LastName, Email: in.Email, PlusOnes: in.PlusOnes, Needs: in.Needs,
		Likes: in.Likes, Dislikes: in.Dislikes, AlcoholFree: in.AlcoholFree, Language: in.Language,
	})
	return in, reg, fieldError(err)
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	in, reg, err := parseRegistration(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if reg.Language == "" {
		reg.Language = s.requestLanguage(r)
	}
	if err := s.checkWork(r.Context(), in.Challenge, in.Nonce); err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.guests.registrations.Register(r.Context(), reg)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	status := http.StatusCreated
	if v.Duplicate {
		status = http.StatusOK
	}
	writeJSON(w, status, s.registrationOut(r, v))
}

func (s *Server) handleRegistrationStatus(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Status(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, s.registrationOut(r, v))
}

func (s *Server) handleRegistrationAccept(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Accept(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.registrationOut(r, v))
}

func (s *Server) handleRegistrationConfirm(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Confirm(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.registrationOut(r, v))
}

func (s *Server) handleRegistrationCancel(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Cancel(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.registrationOut(r, v))
}

func (s *Server) handleAdminRegistrations(w http.ResponseWriter, r *http.Request) {
	d, err := s.guests.registrations.Desk(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) handleApproveRegistration(w http.ResponseWriter, r *http.Request) {
	reg, err := s.guests.registrations.Approve(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, reg)
}

func (s *Server) handleRemoveRegistration(w http.ResponseWriter, r *http.Request) {
	reg, err := s.guests.registrations.Remove(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, reg)
}

// registrationOut is a registration's status with, once placed, the
// sign-in link and its QR code to scan from another phone.
type registrationOut struct {
	app.RegistrationView
	Link string `json:"link,omitempty"`
	QR   string `json:"qr,omitempty"`
}

func (s *Server) registrationOut(r *http.Request, v app.RegistrationView) registrationOut {
	out := registrationOut{RegistrationView: v}
	if v.Code == "" {
		return out
	}
	out.Link = s.publicURL(r.Context()) + "/login?code=" + url.QueryEscape(v.Code)
	if svg, err := qrSVG(out.Link); err == nil {
		out.QR = string(svg)
	}
	return out
}

// registrationsView is the host's list, by the name the OpenAPI test uses.
type registrationsView = app.RegistrationsDesk
