package api

import (
	"net/http"
	"time"

	"github.com/barhub/barhub/images"
)

// bodyMinRate is the slowest average a request body may arrive at, in
// bytes per second, past Config.BodyTimeout: a 5 MB photo gets 50 s more,
// a phone on a poor 3G link still uploads it, and a sign-in's few hundred
// bytes get nothing noticeable.
const bodyMinRate = 100_000

// withBodyDeadline gives a request's body Config.BodyTimeout from the end of
// its headers, plus the time its declared length takes at bodyMinRate, to
// arrive. Without it a client could send headers and then trickle the body
// a byte at a time, holding a connection and a goroutine for as long as
// the server's ReadTimeout (a minute). Requests without a body are left
// alone: the WebSocket upgrade is one, and its connection lives on for
// hours after the handler returns (the hijack clears every deadline
// anyway).
//
// The deadline ends with the body: once the handler has read it to its
// end, net/http clears the read deadline as it starts reading the
// connection in the background (to notice a client that hangs up), so a
// handler still at work after that (a sign-in waiting for its turn, an
// export) is not cancelled by it (TestBodyDeadlineLiftedOnceRead).
func (s *Server) withBodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		size := r.ContentLength
		if size < 0 {
			// Chunked: as long as the largest body a route takes.
			size = s.cfg.MaxBodyBytes
		}
		// No route takes more than a photo: a larger declared length is
		// refused unread, and earns no more time than a photo.
		size = min(size, max(s.cfg.MaxBodyBytes, images.MaxBytes))
		d := s.cfg.BodyTimeout + time.Duration(size)*time.Second/bodyMinRate
		// A writer without deadlines (http.ErrNotSupported) has nothing to
		// bound.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		next.ServeHTTP(w, r)
	})
}
