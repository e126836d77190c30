package push

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSubscription: whatever a browser (or anyone) sends as a
// subscription is decoded strictly and validated without a panic, and
// only an https endpoint with a P-256 key and a 16-byte secret passes.
func FuzzSubscription(f *testing.F) {
	f.Add([]byte(`{"endpoint":"https://push.example/abc","expirationTime":null,"keys":{"p256dh":"BPo4U9_yDn_BSvOzVuCXf0eyymBUDhmJ3X1SZx6BlYXtkLq9HJV05xxOj7ybXHnJuNbadZBdmcn5EapAGHsdoV0","auth":"AAAAAAAAAAAAAAAAAAAAAA"}}`))
	f.Add([]byte(`{"endpoint":"http://x","keys":{"p256dh":"","auth":""}}`))
	f.Add([]byte(`{"endpoint":"https://a/","keys":{"p256dh":"BA==","auth":"AAAAAAAAAAAAAAAAAAAAAA=="}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var s Subscription
		if dec.Decode(&s) != nil {
			return
		}
		if s.Validate() != nil {
			return
		}
		pub, _ := decodeKey(s.Keys.P256dh)
		auth, _ := decodeKey(s.Keys.Auth)
		if len(pub) != 65 || len(auth) != 16 || len(s.Endpoint) > maxEndpoint {
			t.Fatalf("accepted %q", raw)
		}
	})
}
