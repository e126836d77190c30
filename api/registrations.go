package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
)

// The public registration page and the host's list of registrations
// (docs/REGISTRATION.md). The rules are app.Registrations'.

// registerRequest is POST /api/register: the form and the solved challenge.
type registerRequest struct {
	guest.RegistrationInput
	Challenge string `json:"challenge"`
	Nonce     string `json:"nonce"`
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	var in registerRequest
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.Language == "" {
		in.Language = s.requestLanguage(r)
	}
	reg, err := guest.ParseRegistration(in.RegistrationInput)
	if err != nil {
		s.fail(w, r, fieldError(err))
		return
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
	writeJSON(w, status, v)
}

func (s *Server) handleRegistrationStatus(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Status(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleRegistrationAccept(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Accept(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleRegistrationCancel(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.registrations.Cancel(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
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

// registrationsView is the host's list, by the name the OpenAPI test uses.
type registrationsView = app.RegistrationsDesk
