package api

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
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
