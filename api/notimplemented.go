package api

import "net/http"

// notImplemented answers routes whose feature has not landed yet. Delete
// this file when no handler calls it.
func notImplemented(w http.ResponseWriter) {
	writeError(w, http.StatusNotImplemented, "not_implemented", "this part of barhub is not built yet")
}
