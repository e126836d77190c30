package api

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

// checkInput turns away a request whose path or query is not valid UTF-8
// (say ?q=%ff) with a 400 before any handler runs: such text cannot be
// what a client meant, and passed on it reaches the database's regular
// expressions and the hub's topics, which fail it as a 500. It also marks
// every answer nosniff, so a browser never reads a JSON error (which may
// quote the request) as a page or a script.
func (s *Server) checkInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if !utf8.ValidString(r.URL.Path) {
			s.writeError(w, r, http.StatusBadRequest, "invalid_path", "the address is not valid UTF-8 text")
			return
		}
		// Without escapes every name and value is a piece of the raw query
		// cut at ASCII bytes, so the raw query's own check covers them all
		// without building the map (a ticket on every socket's upgrade).
		if q := r.URL.RawQuery; !strings.Contains(q, "%") && utf8.ValidString(q) {
			next.ServeHTTP(w, r)
			return
		}
		for name, values := range r.URL.Query() {
			if !utf8.ValidString(name) {
				s.writeError(w, r, http.StatusBadRequest, "invalid_query", "a query parameter's name is not valid UTF-8 text")
				return
			}
			for _, v := range values {
				if !utf8.ValidString(v) {
					s.writeError(w, r, http.StatusBadRequest, "invalid_query", "query parameter "+name+" is not valid UTF-8 text")
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
