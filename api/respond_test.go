package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

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
