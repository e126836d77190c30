package api

import "net/http"

// Menu, stock and the admin drink editor (issue: menu, ordering and the bartender's live queue).

func (s *Server) handleSections(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleDrinks(w http.ResponseWriter, r *http.Request)      { notImplemented(w) }
func (s *Server) handleDrink(w http.ResponseWriter, r *http.Request)       { notImplemented(w) }
func (s *Server) handleListStock(w http.ResponseWriter, r *http.Request)   { notImplemented(w) }
func (s *Server) handleSetStock(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleCreateDrink(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleUpdateDrink(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleDeleteDrink(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleImageUpload(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
