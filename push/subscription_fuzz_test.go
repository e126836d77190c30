package push

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// FuzzSubscription: whatever a browser (or anyone) sends as a
// subscription is decoded strictly and validated without a panic, and
// only an https endpoint on a known push service's host, at port 443, with
// a P-256 key and a 16-byte secret passes.
func FuzzSubscription(f *testing.F) {
	const keys = `"keys":{"p256dh":"BPo4U9_yDn_BSvOzVuCXf0eyymBUDhmJ3X1SZx6BlYXtkLq9HJV05xxOj7ybXHnJuNbadZBdmcn5EapAGHsdoV0","auth":"AAAAAAAAAAAAAAAAAAAAAA"}`
	for _, endpoint := range []string{
		"https://fcm.googleapis.com/fcm/send/abc",
		"https://updates.push.services.mozilla.com/wpush/v2/abc",
		"https://web.push.apple.com/QGuQ",
		"https://wns2-by3p.notify.windows.com/w/?token=abc",
		"https://127.0.0.1/x", "https://[::ffff:127.0.0.1]/x", "https://2130706433/x",
		"https://fcm.googleapis.com@169.254.169.254/x", "https://fcm.googleapis.com:8443/x",
		"https://fcm.googleapis.com.evil.test/x", "https://%66cm.googleapis.com/x",
	} {
		f.Add([]byte(`{"endpoint":"` + endpoint + `","expirationTime":null,` + keys + `}`))
	}
	f.Add([]byte(`{"endpoint":"http://x","keys":{"p256dh":"","auth":""}}`))
	f.Add([]byte(`{"endpoint":"https://a/","keys":{"p256dh":"BA==","auth":"AAAAAAAAAAAAAAAAAAAAAA=="}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var s Subscription
		if dec.Decode(&s) != nil {
			return
		}
		if s.Validate(Policy{}) != nil {
			return
		}
		pub, _ := decodeKey(s.Keys.P256dh)
		auth, _ := decodeKey(s.Keys.Auth)
		if len(pub) != 65 || len(auth) != 16 || len(s.Endpoint) > maxEndpoint {
			t.Fatalf("accepted %q", raw)
		}
		u, err := url.Parse(s.Endpoint)
		if err != nil || u.Scheme != "https" || u.User != nil || (u.Port() != "" && u.Port() != "443") {
			t.Fatalf("accepted endpoint %q", s.Endpoint)
		}
		host := strings.ToLower(u.Hostname())
		known := host == "fcm.googleapis.com"
		for _, suffix := range []string{".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com"} {
			known = known || strings.HasSuffix(host, suffix)
		}
		if !known {
			t.Fatalf("accepted host %q of %q", host, s.Endpoint)
		}
	})
}
