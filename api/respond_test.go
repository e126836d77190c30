package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/hub"
)

// fail answers each kind of error with its status and a JSON body that
// says what to do, and never shows a 500's detail.
func TestFail(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		err        error
		status     int
		code       string
		retryAfter string
	}{
		{"the request's fault", context.Background(), errBadRequest("missing_text", "write the text"), 400, "missing_text", ""},
		{"a conflict", context.Background(), fmt.Errorf("move: %w", errConflict("order_changed", "refresh")), 409, "order_changed", ""},
		{"database still busy", context.Background(), fmt.Errorf("update guest g1: %w", errors.New("database is locked (5) (SQLITE_BUSY)")), 503, "busy", "1"},
		{"live updates unavailable", context.Background(), fmt.Errorf("publish announcement on guests: %w: no answer within 3s", hub.ErrUnavailable), 503, "live_unavailable", "5"},
		{"database not answering in time", context.Background(), fmt.Errorf("check session of g1: %w", context.DeadlineExceeded), 503, "busy", "1"},
		{"embedded database full", context.Background(), fmt.Errorf("place order: %w", mongo.CommandError{Code: 50, Name: "MaxTimeMSExpired", Message: "barhub: the embedded database is busy"}), 503, "busy", "1"},
		{"client hung up", gone, fmt.Errorf("lock guest-orders/g1: %w", context.Canceled), 499, "cancelled", ""},
		{"anything else", context.Background(), errors.New("open /srv/data/db/barhub.sqlite: disk I/O error"), 500, "internal", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.fail(rec, httptest.NewRequest(http.MethodGet, "/api/x", nil).WithContext(tt.ctx), tt.err)
			body := rec.Body.String()
			if rec.Code != tt.status || !strings.Contains(body, `"code":"`+tt.code+`"`) || rec.Header().Get("Retry-After") != tt.retryAfter {
				t.Errorf("%d %s (Retry-After %q), want %d %s", rec.Code, body, rec.Header().Get("Retry-After"), tt.status, tt.code)
			}
			if strings.Contains(body, "/srv/data") || strings.Contains(body, "SQLITE") {
				t.Errorf("the answer shows the error's detail: %s", body)
			}
		})
	}
}

// A use case's error reaches the client with the status of its kind, its
// code and message, and Retry-After when it says when to come back.
func TestFailUseCaseErrors(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	tests := []struct {
		err        error
		status     int
		code       string
		retryAfter string
	}{
		{&app.Error{Kind: app.Invalid, Code: "bad_qty", Message: "qty"}, 400, "bad_qty", ""},
		{fmt.Errorf("move: %w", &app.Error{Kind: app.Conflict, Code: "order_changed", Message: "changed"}), 409, "order_changed", ""},
		{&app.Error{Kind: app.LimitReached, Code: "open_order_limit", Message: "limit"}, 409, "open_order_limit", ""},
		{&app.Error{Kind: app.Unprocessable, Code: "allergen_confirmation_required", Message: "confirm"}, 422, "allergen_confirmation_required", ""},
		{&app.Error{Kind: app.TooMany, Code: "pace_yourself", Message: "wait", RetryAfter: 1500 * time.Millisecond}, 429, "pace_yourself", "2"},
		{&app.Error{Kind: app.Gone, Code: "guest_removed", Message: "gone"}, 410, "guest_removed", ""},
		{&app.Error{Kind: app.NotFound, Code: "not_found", Message: "none"}, 404, "not_found", ""},
		{&app.Error{Kind: app.Forbidden, Code: "forbidden", Message: "no"}, 403, "forbidden", ""},
		{&app.Error{Kind: app.Unavailable, Code: "busy", Message: "later", RetryAfter: time.Second}, 503, "busy", "1"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		s.fail(rec, httptest.NewRequest("GET", "/api/x", nil), tt.err)
		var body errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("%v: %v", tt.err, err)
		}
		if rec.Code != tt.status || body.Error.Code != tt.code || rec.Header().Get("Retry-After") != tt.retryAfter {
			t.Errorf("%v: %d %q Retry-After %q, want %d %q %q", tt.err, rec.Code, body.Error.Code, rec.Header().Get("Retry-After"), tt.status, tt.code, tt.retryAfter)
		}
	}
}
