package api

import (
	"bytes"
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
		req, err := parseLogin(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if req.Code == "" || req.LastName == "" {
			t.Fatalf("accepted empty fields: %+v", req)
		}
	})
}
