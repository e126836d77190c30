package api

import (
	"net/http"
)

// Guards: checks a route passes before its handler runs, named where the
// route is (routes.go), so the routes show the whole contract.

// requireAppKey lets a call through only while the host has the app on
// and with the app's current key in its header (checkAppKey); the guest
// pages get the key from GET /api/app-key.
func (s *Server) requireAppKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.checkAppKey(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limit holds each client to class's rate (allow): browse counts a
// signed-in guest, else the address, for the public reads; orders and
// dietary, on signed-in routes, count the signed-in person; register, the
// public registration, counts the address.
func (s *Server) limit(class string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !s.allow(w, r, class, s.rateClient(r, class)) {
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// rateClient names who a call of class counts against.
func (s *Server) rateClient(r *http.Request, class string) string {
	if class == "browse" {
		id, signed := s.optionalIdentity(r)
		return browseClient(r, id, signed)
	}
	if class == "register" {
		return "ip:" + clientIP(r)
	}
	return identity(r.Context()).GuestID
}
