package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/store"
)

// errorBody is every error's shape: {"error":{"code":"…","message":"…"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Details carries structured hints, e.g. the members to choose from
	// when an RSVP must say who is not coming.
	Details any `json:"details,omitempty"`
}

// apiError is an error a handler returns to be written as JSON.
type apiError struct {
	Status int
	// Code is the stable, machine-readable reason; clients branch on it.
	Code string
	// Message is the English text for people. Other languages come from
	// the server's catalogue (package locale), looked up by Key, else by
	// "error."+Code, filled from Vars (docs/I18N.md).
	Message string
	Details any
	Key     string
	Vars    map[string]any
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errBadRequest(code, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: code, Message: msg}
}

func errNotFound(msg string) *apiError {
	return &apiError{Status: http.StatusNotFound, Code: "not_found", Message: msg}
}

func errConflict(code, msg string) *apiError {
	return &apiError{Status: http.StatusConflict, Code: code, Message: msg}
}

func errUnprocessable(code, msg string) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Code: code, Message: msg}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError writes {"error":{"code","message"}} with the message in the
// language the request asks for (see writeAPIError).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	s.writeAPIError(w, r, &apiError{Status: status, Code: code, Message: msg})
}

// writeAPIError writes ae. The code stays the same in every language; the
// message is translated for a request whose Accept-Language prefers
// Swedish or Portuguese, and stays the handler's own English otherwise
// (English is the most specific wording, naming the field or limit).
func (s *Server) writeAPIError(w http.ResponseWriter, r *http.Request, ae *apiError) {
	msg := ae.Message
	if al := r.Header.Get("Accept-Language"); al != "" {
		if lang := s.locale.Match(al); lang != language.English {
			if t, ok := s.translate(lang, ae); ok {
				msg = t
				w.Header().Set("Content-Language", lang.String())
			}
		}
	}
	writeJSON(w, ae.Status, errorBody{Error: errorDetail{Code: ae.Code, Message: msg, Details: ae.Details}})
}

func (s *Server) translate(lang language.Tag, ae *apiError) (string, bool) {
	if ae.Key != "" {
		if t, ok := s.locale.Text(lang, ae.Key, ae.Vars); ok {
			return t, true
		}
	}
	return s.locale.Text(lang, "error."+ae.Code, ae.Vars)
}

// statusClientClosed is the status of a request its client gave up on
// (nginx's 499): not a server error, so outside the 5xx figures.
const statusClientClosed = 499

// clientGone reports whether r's client hung up before its answer.
func clientGone(r *http.Request) bool {
	return errors.Is(r.Context().Err(), context.Canceled)
}

// fail writes err: an *apiError as itself; a database still busy after
// the store's retries or not answering in time, or live updates that
// could not be published, as a 503 to try again; anything else as a 500 whose
// detail goes to the log only (store errors can carry file paths).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		s.writeAPIError(w, r, ae)
		return
	}
	var ue *app.Error
	if errors.As(err, &ue) {
		if ue.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(ue.RetryAfter.Seconds())))))
		}
		s.writeAPIError(w, r, &apiError{Status: statusOf(ue.Kind), Code: ue.Code, Message: ue.Message, Details: ue.Details, Key: ue.Key, Vars: ue.Vars})
		return
	}
	if clientGone(r) {
		// The client hung up and reads no answer: nothing went wrong here,
		// and the metrics count it apart from the server's errors.
		s.log.InfoContext(r.Context(), "request given up by the client", "route", routePattern(r), "requestId", requestID(r.Context()))
		s.writeError(w, r, statusClientClosed, "cancelled", "the request was cancelled")
		return
	}
	if errors.Is(err, hub.ErrUnavailable) {
		// Redis, which carries live events between instances, is down or
		// not answering in time: a moment's trouble the caller may retry.
		s.log.WarnContext(r.Context(), "live updates unavailable", "err", err, "route", routePattern(r), "requestId", requestID(r.Context()))
		w.Header().Set("Retry-After", "5")
		s.writeError(w, r, http.StatusServiceUnavailable, "live_unavailable", "live updates are unavailable this very moment; please try again shortly")
		return
	}
	if store.Busy(err) || store.TimedOut(err) {
		s.log.WarnContext(r.Context(), "database busy", "err", err, "route", routePattern(r), "requestId", requestID(r.Context()))
		w.Header().Set("Retry-After", "1")
		s.writeError(w, r, http.StatusServiceUnavailable, "busy", "the party's database is busy this very moment; please try again")
		return
	}
	s.log.ErrorContext(r.Context(), "request failed", "err", err, "route", routePattern(r), "requestId", requestID(r.Context()))
	s.writeError(w, r, http.StatusInternalServerError, "internal", "something went wrong on our side; please try again")
}

// statusOf is the HTTP status of a use case's error kind.
func statusOf(k app.Kind) int {
	switch k {
	case app.Invalid:
		return http.StatusBadRequest
	case app.Unauthenticated:
		return http.StatusUnauthorized
	case app.Forbidden:
		return http.StatusForbidden
	case app.NotFound:
		return http.StatusNotFound
	case app.Conflict, app.LimitReached:
		return http.StatusConflict
	case app.Gone:
		return http.StatusGone
	case app.Unprocessable:
		return http.StatusUnprocessableEntity
	case app.TooMany:
		return http.StatusTooManyRequests
	case app.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// decode reads a JSON body into v. Every way a body can be wrong becomes a
// 4xx with a message that says what to fix.
func decode(r *http.Request, v any) error {
	// The Content-Type is not checked: curl sends form encoding by
	// default, and the body either parses as JSON or gets a clear 400.
	dec := json.NewDecoder(r.Body)
	// A field the server does not know is refused, not dropped: a client
	// that sends "quantity" for "qty" must hear so, not get one drink.
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return errBadRequest("malformed_json", "the body must hold a single JSON value")
	}
	// Anything after the value other than whitespace is an error too.
	if _, err := dec.Token(); err != io.EOF {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge(mbe)
		}
		return errBadRequest("malformed_json", "the body must hold a single JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return tooLarge(mbe)
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The body did not arrive within its deadline (withBodyDeadline).
		return &apiError{Status: http.StatusRequestTimeout, Code: "body_timeout", Message: "the request body arrived too slowly; send it again"}
	case errors.Is(err, io.EOF):
		return errBadRequest("malformed_json", "the request body is empty; send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errBadRequest("malformed_json", "the JSON body ends too early")
	case errors.As(err, &syn):
		return errBadRequest("malformed_json", fmt.Sprintf("the JSON body is malformed at byte %d", syn.Offset))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return errBadRequest("unknown_field", fmt.Sprintf("unknown field %s: check its spelling against the API reference", field))
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return errBadRequest("invalid_json_type", fmt.Sprintf("expected a JSON %s, got %s", jsonKind(typ.Type.Kind().String()), typ.Value))
		}
		return errBadRequest("invalid_field", fmt.Sprintf("field %q must be %s, not %s", field, jsonKind(typ.Type.Kind().String()), typ.Value))
	default:
		return errBadRequest("malformed_json", "the JSON body could not be read")
	}
}

func tooLarge(mbe *http.MaxBytesError) error {
	return &apiError{Status: http.StatusRequestEntityTooLarge, Code: "body_too_large", Message: fmt.Sprintf("the request body is larger than %d bytes", mbe.Limit)}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		return "a number"
	default:
		return "a " + goKind
	}
}
