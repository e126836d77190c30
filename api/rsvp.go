package api

import "net/http"

// RSVP and the host's guest desk (issue: RSVP and the host's guest desk).

func (s *Server) handleEvent(w http.ResponseWriter, r *http.Request)          { notImplemented(w) }
func (s *Server) handleGetRSVP(w http.ResponseWriter, r *http.Request)        { notImplemented(w) }
func (s *Server) handlePutRSVP(w http.ResponseWriter, r *http.Request)        { notImplemented(w) }
func (s *Server) handleStats(w http.ResponseWriter, r *http.Request)          { notImplemented(w) }
func (s *Server) handleListGuests(w http.ResponseWriter, r *http.Request)     { notImplemented(w) }
func (s *Server) handleCreateGuest(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleExportGuests(w http.ResponseWriter, r *http.Request)   { notImplemented(w) }
func (s *Server) handleImportGuests(w http.ResponseWriter, r *http.Request)   { notImplemented(w) }
func (s *Server) handleGetGuest(w http.ResponseWriter, r *http.Request)       { notImplemented(w) }
func (s *Server) handleUpdateGuest(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleDeleteGuest(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleRegenerateCode(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleGetSettings(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handlePutSettings(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleDietaryReport(w http.ResponseWriter, r *http.Request)  { notImplemented(w) }
func (s *Server) handleInvitations(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
