package api

import (
	"net/http"
	"time"
)

// recordAccess notes that the signed-in guest used the API, after the
// PEP has let them in. The recorder only buffers (docs/DESIGN.md, flow 4): the
// request never waits for the database.
func (s *Server) recordAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.activity != nil {
			if id := identity(r.Context()).GuestID; id != "" {
				s.activity.Accessed(id, time.Now())
			}
		}
		next.ServeHTTP(w, r)
	})
}
