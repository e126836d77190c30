package auth

import (
	"encoding/json"
	"testing"
)

// TestDecodeClaims: what Issue writes reads back as it was, and the
// shapes the short path does not know read as encoding/json reads them.
func TestDecodeClaims(t *testing.T) {
	written := []ticketClaims{
		{GuestID: "65a1b2c3d4e5f60718293a4b", Role: "guest", Expires: 1764641234567, Nonce: "AAECAwQFBgcICQoLDA0ODw"},
		{GuestID: "g", Role: "admin", SessionVersion: 7, IssuedAt: 1764640000, Expires: 1, Nonce: "n-_0123456789abcdef"},
		{GuestID: "a,b:\"c\"", Role: "<&>", SessionVersion: -3, Expires: -1, Nonce: "é\u2028\x01"}, // escaped by Marshal
		{GuestID: "", Role: "", Nonce: ""},
	}
	for _, want := range written {
		raw, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var got ticketClaims
		if err := decodeClaims(raw, &got); err != nil || got != want {
			t.Errorf("%s: %+v %v, want %+v", raw, got, err, want)
		}
	}
	others := []string{
		`{"g":"a","r":"guest","e":5,"n":"x","extra":1}`,
		`{ "g":"a","e":5}`,
		`{"g":"a","e":5.5}`,
		`{"g":"a","e":"5"}`,
		`{"g":"a",}`,
		`{"g":"a"`,
		`{"g":"a","g":"b"}`,
		`{"G":"a"}`,
		`{}`,
		`[]`,
		`{"g":"a\u0062"}`,
		`{"g":"a","r":null}`,
	}
	for _, raw := range others {
		var got, want ticketClaims
		errWant := json.Unmarshal([]byte(raw), &want)
		errGot := decodeClaims([]byte(raw), &got)
		if (errGot == nil) != (errWant == nil) || got != want {
			t.Errorf("%s: %+v %v, want %+v %v", raw, got, errGot, want, errWant)
		}
	}
}

// FuzzDecodeClaims: whenever the short path reads a payload, encoding/json
// reads the same claims from it.
func FuzzDecodeClaims(f *testing.F) {
	f.Add(`{"g":"65a1b2c3d4e5f60718293a4b","r":"guest","v":2,"i":17,"e":1764641234567,"n":"AAECAwQFBgcICQoLDA0ODw"}`)
	f.Add(`{"g":"a","e":5}`)
	f.Add(`{"g":"a,b","e":-0}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var got ticketClaims
		if !decodeFlatClaims(raw, &got) {
			return
		}
		var want ticketClaims
		if err := json.Unmarshal([]byte(raw), &want); err != nil || got != want {
			t.Errorf("%q: short path %+v, encoding/json %+v %v", raw, got, want, err)
		}
	})
}
