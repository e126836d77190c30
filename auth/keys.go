// Package auth is barhub's policy decision point: it signs and verifies
// access tokens (RS256 JWTs), publishes the public keys as JWKS, issues
// one-time WebSocket tickets and throttles failed sign-ins.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// KeyStore persists signing keys so restarts and other instances share them.
type KeyStore interface {
	SigningKeys(ctx context.Context) ([]store.SigningKey, error)
	AddSigningKey(ctx context.Context, k store.SigningKey) error
	RetireSigningKeys(ctx context.Context, keep string, retireAfter time.Time) error
	DeleteRetiredKeys(ctx context.Context, now time.Time) (int64, error)
}

// Identity is who a verified token speaks for.
type Identity struct {
	GuestID string
	Name    string
	Role    guest.Role
	// SessionVersion is the holder's session version the token was signed
	// with; Sessions.Current compares it with the current one.
	SessionVersion int64
	// IssuedAt is when the token was signed (for a ticket, when the token
	// it was taken with was signed).
	IssuedAt time.Time
	// Event is the id of the event the holder signed in to; empty for
	// the installation's first event, which tokens signed before there
	// were events name that way (docs/EVENTS.md).
	Event string
}

// Claims is the token payload.
type Claims struct {
	jwt.RegisteredClaims
	Name string     `json:"name"`
	Role guest.Role `json:"role"`
	// SV is the session version; tokens signed before it existed have
	// none and count as version 0.
	SV int64 `json:"sv,omitempty"`
	// Evt is Identity.Event; absent for the first event.
	Evt string `json:"evt,omitempty"`
}

// ErrInvalidToken covers every reason a token is refused; the reason is in
// the wrapped error for logs, never for the client.
var ErrInvalidToken = errors.New("invalid token")

type signingKey struct {
	kid         string
	priv        *rsa.PrivateKey
	retireAfter time.Time
}

// Keys signs and verifies tokens with the stored key set.
type Keys struct {
	store    KeyStore
	tokenTTL time.Duration
	issuer   string
	now      func() time.Time

	mu         sync.RWMutex
	keys       map[string]signingKey
	current    signingKey
	jwks       []byte
	lastReload time.Time

	verified verifiedTokens
}

// KeysConfig configures token signing.
type KeysConfig struct {
	TokenTTL time.Duration
	Issuer   string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewKeys loads the key set, creating the first key if there is none.
func NewKeys(ctx context.Context, ks KeyStore, cfg KeysConfig) (*Keys, error) {
	if cfg.TokenTTL <= 0 {
		cfg.TokenTTL = 12 * time.Hour
	}
	if cfg.Issuer == "" {
		cfg.Issuer = "barhub"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	k := &Keys{store: ks, tokenTTL: cfg.TokenTTL, issuer: cfg.Issuer, now: cfg.Now}
	if err := k.Reload(ctx); err != nil {
		return nil, err
	}
	if len(k.keys) == 0 {
		// Two instances starting at once may both get here; both keys are
		// stored and valid, and both instances sign with the newest.
		if _, err := k.addKey(ctx); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// TokenTTL is how long a signed token stays valid.
func (k *Keys) TokenTTL() time.Duration { return k.tokenTTL }

// Reload reads the key set from the store.
func (k *Keys) Reload(ctx context.Context) error {
	stored, err := k.store.SigningKeys(ctx)
	if err != nil {
		return fmt.Errorf("load signing keys: %w", err)
	}
	keys := make(map[string]signingKey, len(stored))
	var current signingKey
	for _, sk := range stored {
		priv, err := parsePrivateKey(sk.PrivatePEM)
		if err != nil {
			return fmt.Errorf("load signing key %s: %w", sk.KID, err)
		}
		key := signingKey{kid: sk.KID, priv: priv, retireAfter: sk.RetireAfter}
		keys[sk.KID] = key
		// Keys come oldest first: the newest one that is not retiring signs.
		if sk.RetireAfter.IsZero() {
			current = key
		}
	}
	if current.priv == nil && len(stored) > 0 {
		last := stored[len(stored)-1]
		current = keys[last.KID]
	}
	jwks, err := buildJWKS(keys)
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.keys, k.current, k.jwks, k.lastReload = keys, current, jwks, k.now()
	k.mu.Unlock()
	return nil
}

// Rotate adds a new signing key; the others keep verifying until the last
// token they signed has expired, then DeleteRetired removes them.
func (k *Keys) Rotate(ctx context.Context) (string, error) {
	kid, err := k.addKey(ctx)
	if err != nil {
		return "", err
	}
	if err := k.store.RetireSigningKeys(ctx, kid, k.now().Add(k.tokenTTL)); err != nil {
		return "", err
	}
	return kid, k.Reload(ctx)
}

// DeleteRetired removes keys whose tokens can no longer be valid.
func (k *Keys) DeleteRetired(ctx context.Context) error {
	n, err := k.store.DeleteRetiredKeys(ctx, k.now())
	if err != nil {
		return err
	}
	if n > 0 {
		return k.Reload(ctx)
	}
	return nil
}

func (k *Keys) addKey(ctx context.Context) (string, error) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", fmt.Errorf("generate signing key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", fmt.Errorf("encode signing key: %w", err)
	}
	kid := thumbprint(&priv.PublicKey)
	err = k.store.AddSigningKey(ctx, store.SigningKey{
		KID:        kid,
		PrivatePEM: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		CreatedAt:  k.now().UTC(),
	})
	if err != nil {
		return "", err
	}
	return kid, k.Reload(ctx)
}

// Sign issues a token for id.
func (k *Keys) Sign(id Identity) (string, time.Time, error) {
	k.mu.RLock()
	cur := k.current
	k.mu.RUnlock()
	now := k.now()
	exp := now.Add(k.tokenTTL).Truncate(time.Second)
	claims := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   id.GuestID,
			Issuer:    k.issuer,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
		Name: id.Name,
		Role: id.Role,
		SV:   id.SessionVersion,
		Evt:  id.Event,
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = cur.kid
	s, err := tok.SignedString(cur.priv)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign token: %w", err)
	}
	return s, exp, nil
}

// reloadEvery bounds how often an unknown kid makes Verify read the store,
// so a flood of forged tokens cannot hammer the database.
const reloadEvery = 10 * time.Second

// Verify checks a token's signature, algorithm, issuer and expiry.
//
// A token that verified once is remembered until it expires (see
// verifiedTokens), so a client sending the same token again costs a hash
// instead of an RSA verification and a JSON parse: a venue's phones all
// reconnecting at once each send their token for a ticket. What Verify
// answers does not change with the cache; whether the holder may still act
// is decided after it, against the holder's current state
// (Sessions.Current), so revocation does not depend on it.
func (k *Keys) Verify(ctx context.Context, token string) (Identity, error) {
	sum := sha256.Sum256([]byte(token))
	if e, ok := k.verified.get(sum); ok {
		// The key may have been retired since; then verify in full, which
		// refuses it.
		if k.now().Before(e.expires) {
			if _, live := k.lookup(e.kid); live {
				return e.id, nil
			}
		}
		k.verified.forget(sum)
	}
	id, kid, expires, err := k.verify(ctx, token)
	if err != nil {
		return Identity{}, err
	}
	k.verified.put(sum, verifiedToken{id: id, kid: kid, expires: expires}, k.now())
	return id, nil
}

// verify checks a token in full: signature, algorithm, issuer, expiry.
func (k *Keys) verify(ctx context.Context, token string) (Identity, string, time.Time, error) {
	claims := &Claims{}
	var kid string
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{"RS256"}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuer(k.issuer),
		jwt.WithTimeFunc(k.now),
	)
	_, err := parser.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		kid, _ = t.Header["kid"].(string)
		if key, ok := k.lookup(kid); ok {
			return &key.priv.PublicKey, nil
		}
		// A key rotated on another instance: read the store, at most every
		// reloadEvery.
		k.mu.RLock()
		stale := k.now().Sub(k.lastReload) > reloadEvery
		k.mu.RUnlock()
		if stale {
			if err := k.Reload(ctx); err != nil {
				return nil, err
			}
			if key, ok := k.lookup(kid); ok {
				return &key.priv.PublicKey, nil
			}
		}
		return nil, fmt.Errorf("unknown key id %q", kid)
	})
	if err != nil {
		return Identity{}, "", time.Time{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if claims.Subject == "" || !(claims.Role.Valid() || claims.Role == guest.RoleBoard) {
		return Identity{}, "", time.Time{}, fmt.Errorf("%w: missing subject or role", ErrInvalidToken)
	}
	id := Identity{GuestID: claims.Subject, Name: claims.Name, Role: claims.Role, SessionVersion: claims.SV, Event: claims.Evt}
	if claims.IssuedAt != nil {
		id.IssuedAt = claims.IssuedAt.Time
	}
	// WithExpirationRequired: ExpiresAt is set.
	return id, kid, claims.ExpiresAt.Time, nil
}

func (k *Keys) lookup(kid string) (signingKey, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	key, ok := k.keys[kid]
	if !ok {
		return key, false
	}
	if !key.retireAfter.IsZero() && k.now().After(key.retireAfter) {
		return key, false
	}
	return key, true
}

// JWKS returns the public key set as a JSON Web Key Set document.
func (k *Keys) JWKS() []byte {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.jwks
}

type jwk struct {
	Kty string `json:"kty"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	N   string `json:"n"`
	E   string `json:"e"`
}

func buildJWKS(keys map[string]signingKey) ([]byte, error) {
	set := struct {
		Keys []jwk `json:"keys"`
	}{Keys: []jwk{}}
	for _, k := range keys {
		pub := k.priv.PublicKey
		set.Keys = append(set.Keys, jwk{
			Kty: "RSA", Use: "sig", Alg: "RS256", Kid: k.kid,
			N: base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
			E: base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
		})
	}
	b, err := json.Marshal(set)
	if err != nil {
		return nil, fmt.Errorf("encode jwks: %w", err)
	}
	return b, nil
}

// thumbprint is the RFC 7638 JWK thumbprint, a stable kid for the key.
func thumbprint(pub *rsa.PublicKey) string {
	e := base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes())
	n := base64.RawURLEncoding.EncodeToString(pub.N.Bytes())
	sum := sha256.Sum256([]byte(`{"e":"` + e + `","kty":"RSA","n":"` + n + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

func parsePrivateKey(pemText string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	priv, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an RSA key")
	}
	return priv, nil
}
