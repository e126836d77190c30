package api

import (
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/golang-jwt/jwt/v5"
)

// verifyWithJWKS checks a token the way a third party would: only with the
// published key set.
func verifyWithJWKS(token string, jwks []byte) error {
	var set struct {
		Keys []struct{ Kty, Kid, N, E, Alg string } `json:"keys"`
	}
	if err := json.Unmarshal(jwks, &set); err != nil {
		return err
	}
	_, err := jwt.Parse(token, func(t *jwt.Token) (any, error) {
		for _, k := range set.Keys {
			if k.Kid != t.Header["kid"] || k.Kty != "RSA" || k.Alg != "RS256" {
				continue
			}
			n, err := base64.RawURLEncoding.DecodeString(k.N)
			if err != nil {
				return nil, err
			}
			e, err := base64.RawURLEncoding.DecodeString(k.E)
			if err != nil {
				return nil, err
			}
			return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}, nil
		}
		return nil, fmt.Errorf("kid %v not in the published set", t.Header["kid"])
	}, jwt.WithValidMethods([]string{"RS256"}))
	return err
}
