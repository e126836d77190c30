package push

import (
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"strings"
)

// Subscription is a browser's PushSubscription.toJSON(), as the guest app
// sends it.
type Subscription struct {
	Endpoint string `json:"endpoint"`
	// ExpirationTime is sent by browsers (usually null); barhub relies on
	// the push service's 404/410 instead.
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// maxEndpoint bounds an endpoint URL; real ones are a few hundred bytes.
const maxEndpoint = 2048

// Validate checks that the subscription can be sent to: an endpoint p
// allows (an https URL on a push service's host, see policy.go), a P-256
// public key and a 16-byte auth secret. The server will POST to the
// endpoint, so it must be a real push service's URL and nothing else.
func (s Subscription) Validate(p Policy) error {
	if s.Endpoint == "" {
		return errors.New("endpoint is missing")
	}
	if len(s.Endpoint) > maxEndpoint {
		return errors.New("endpoint is too long")
	}
	if err := p.checkEndpoint(s.Endpoint); err != nil {
		return err
	}
	pub, err := decodeKey(s.Keys.P256dh)
	if err != nil || len(pub) != 65 {
		return errors.New("keys.p256dh must be a P-256 public key (65 bytes, base64url)")
	}
	if _, err := ecdh.P256().NewPublicKey(pub); err != nil {
		return errors.New("keys.p256dh is not a point on P-256")
	}
	auth, err := decodeKey(s.Keys.Auth)
	if err != nil || len(auth) != 16 {
		return errors.New("keys.auth must be 16 bytes, base64url")
	}
	return nil
}

// decodeKey reads base64url with or without padding (browsers send it
// without; some libraries with).
func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
