package api

import "net/http"

// Orders and the bartender's queue (issue: menu, ordering and the bartender's live queue).

func (s *Server) handlePlaceOrder(w http.ResponseWriter, r *http.Request)    { notImplemented(w) }
func (s *Server) handleMyOrders(w http.ResponseWriter, r *http.Request)      { notImplemented(w) }
func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request)      { notImplemented(w) }
func (s *Server) handleEditOrder(w http.ResponseWriter, r *http.Request)     { notImplemented(w) }
func (s *Server) handleCancelOrder(w http.ResponseWriter, r *http.Request)   { notImplemented(w) }
func (s *Server) handleBarQueue(w http.ResponseWriter, r *http.Request)      { notImplemented(w) }
func (s *Server) handleBarTransition(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleAdminOrders(w http.ResponseWriter, r *http.Request)   { notImplemented(w) }
