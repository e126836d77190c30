package api

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/barhub/barhub/app"
)

// The fuzz targets' common parts: a request carrying the fuzzer's body,
// with the size limit the API puts on bodies, and the rule every decoder
// keeps: an error is a 4xx *apiError with a code and a message.

func fuzzRequest(body []byte) *http.Request {
	r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 8192)
	return r
}

func checkAPIError(t *testing.T, err error) {
	t.Helper()
	var ae *apiError
	if !errors.As(err, &ae) {
		t.Fatalf("error %T %v is not an apiError", err, err)
	}
	if ae.Status < 400 || ae.Status > 499 || ae.Code == "" || ae.Message == "" {
		t.Fatalf("bad error %+v", ae)
	}
}

// FuzzParseHostPrefs: any body is an admin's notification choice within
// its bounds, or a 4xx; never a panic.
func FuzzParseHostPrefs(f *testing.F) {
	for _, seed := range []string{`{"off":["answers"],"batchMinutes":5,"digestHour":9}`, `{"off":["nope"],"batchMinutes":5}`, `{"batchMinutes":0}`, `{"batchMinutes":5,"digestHour":24}`, `{"off":null,"batchMinutes":1}`, `{`, ``, `{"off":[1]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseHostPrefs(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if req.BatchMinutes < 1 || req.BatchMinutes > 120 || req.DigestHour < 0 || req.DigestHour > 23 || len(req.Off) > len(app.HostKinds) {
			t.Fatalf("accepted %+v", req)
		}
		for _, k := range req.Off {
			if !slices.Contains(app.HostKinds, k) {
				t.Fatalf("accepted kind %q", k)
			}
		}
	})
}
