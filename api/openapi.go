package api

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes every route of routes(). It is embedded so the
// document served is always the one for this build; openapi_test.go keeps
// it in step with the router, the authorisation table and the handlers'
// real answers.
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(openAPIDoc)
}
