package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzParseLogin feeds arbitrary bodies to the sign-in decoder: it must
// answer a value or a 4xx *apiError, never panic or anything else.
func FuzzParseLogin(f *testing.F) {
	for _, seed := range []string{
		`{"code":"ABCD2345","lastName":"Åberg"}`,
		`{"code":"abcd-2345","lastName":"  van der Berg "}`,
		`{"code":1}`, `[]`, `null`, `{`, ``, `{"code":"a"} {}`, "\x00\xff",
		`{"code":"` + string(bytes.Repeat([]byte("A"), 100)) + `","lastName":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/api/auth/login", bytes.NewReader(body))
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 4096)
		req, err := parseLogin(r)
		if err != nil {
			ae, ok := err.(*apiError)
			if !ok {
				t.Fatalf("error %T %v is not an apiError", err, err)
			}
			if ae.Status < 400 || ae.Status > 499 || ae.Code == "" || ae.Message == "" {
				t.Fatalf("bad error %+v", ae)
			}
			return
		}
		if req.Code == "" || req.LastName == "" {
			t.Fatalf("accepted empty fields: %+v", req)
		}
	})
}
