package api

import "net/http"

// Recommendations and the job queue view (issue: the AI bartender).

func (s *Server) handleRequestRecommendation(w http.ResponseWriter, r *http.Request) {
	notImplemented(w)
}
func (s *Server) handleGetRecommendation(w http.ResponseWriter, r *http.Request) { notImplemented(w) }
func (s *Server) handleListJobs(w http.ResponseWriter, r *http.Request)          { notImplemented(w) }
func (s *Server) handleRetryJob(w http.ResponseWriter, r *http.Request)          { notImplemented(w) }
