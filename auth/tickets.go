package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/redis/go-redis/v9"
)

// TicketNonces remembers the nonces of redeemed tickets until they expire,
// which is what makes a ticket single-use.
type TicketNonces interface {
	// Spend records nonce as used until expires. It reports false when
	// the nonce was already spent.
	Spend(ctx context.Context, nonce string, expires time.Time) (bool, error)
}

// ErrBadTicket means the ticket is unknown, used or expired.
var ErrBadTicket = errors.New("invalid, used or expired ticket")

// Tickets issues short-lived one-time passes for the WebSocket upgrade, so
// the long-lived token never appears in a URL (URLs get logged).
//
// A ticket is signed, not stored: it carries the holder's guest id, role,
// session version, the token's issue time, its own expiry and a random
// nonce, under an HMAC with a key every instance shares (kept in the
// database). Issuing one costs a signature and no write, so a whole venue
// reconnecting at once is not a queue of database writes; redeeming
// spends the nonce once (TicketNonces). It carries no name: the redeemer
// takes name and role from the holder's current state (Sessions.Current).
type Tickets struct {
	key    []byte
	nonces TicketNonces
	ttl    time.Duration
	now    func() time.Time
}

// NewTickets makes a ticket issuer signing with key (at least 32 bytes,
// the same on every instance) and spending nonces in nonces (shared by
// every instance that may redeem another's tickets); ttl defaults to 30
// seconds.
func NewTickets(key []byte, nonces TicketNonces, ttl time.Duration) (*Tickets, error) {
	if len(key) < 32 {
		return nil, fmt.Errorf("ticket key of %d bytes: want at least 32", len(key))
	}
	if ttl <= 0 {
		ttl = 30 * time.Second
	}
	return &Tickets{key: key, nonces: nonces, ttl: ttl, now: time.Now}, nil
}

// TTL is how long a ticket stays valid.
func (t *Tickets) TTL() time.Duration { return t.ttl }

// ticketClaims is what a ticket says, kept short: it travels in a URL.
type ticketClaims struct {
	GuestID string `json:"g"`
	Role    string `json:"r"`
	// SessionVersion is checked again on redemption (Sessions.Current), so
	// a ticket issued before a revocation opens no socket after it.
	SessionVersion int64 `json:"v,omitempty"`
	// IssuedAt is the token's, in Unix seconds: a ticket made from a token
	// older than its guest (deleted, imported again) opens nothing.
	IssuedAt int64  `json:"i,omitempty"`
	Expires  int64  `json:"e"` // Unix milliseconds
	Nonce    string `json:"n"`
	// Event is Identity.Event: the socket hears that event's topics only.
	Event string `json:"ev,omitempty"`
}

// maxTicketLen bounds what Redeem looks at: claims with a 64-character
// guest id, an event id and a long role come to well under 450 characters.
const maxTicketLen = 512

// Issue makes a ticket for id.
func (t *Tickets) Issue(ctx context.Context, id Identity) (string, error) {
	var nonce [16]byte
	rand.Read(nonce[:])
	c := ticketClaims{
		GuestID:        id.GuestID,
		Role:           string(id.Role),
		SessionVersion: id.SessionVersion,
		Event:          id.Event,
		Expires:        t.now().Add(t.ttl).UnixMilli(),
		Nonce:          base64.RawURLEncoding.EncodeToString(nonce[:]),
	}
	if !id.IssuedAt.IsZero() {
		c.IssuedAt = id.IssuedAt.Unix()
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("issue ticket: %w", err)
	}
	payload := base64.RawURLEncoding.EncodeToString(raw)
	return payload + "." + base64.RawURLEncoding.EncodeToString(t.sign(payload)), nil
}

func (t *Tickets) sign(payload string) []byte {
	m := hmac.New(sha256.New, t.key)
	m.Write([]byte("barhub ws ticket\x00"))
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Redeem returns the identity a ticket was issued to, once. The caller
// checks it against the holder's current state (Sessions.Current).
func (t *Tickets) Redeem(ctx context.Context, ticket string) (Identity, error) {
	c, err := t.verify(ticket)
	if err != nil {
		return Identity{}, err
	}
	fresh, err := t.nonces.Spend(ctx, c.Nonce, time.UnixMilli(c.Expires))
	if err != nil {
		return Identity{}, fmt.Errorf("redeem ticket: %w", err)
	}
	if !fresh {
		return Identity{}, fmt.Errorf("%w: already used", ErrBadTicket)
	}
	id := Identity{GuestID: c.GuestID, Role: guest.Role(c.Role), SessionVersion: c.SessionVersion, Event: c.Event}
	if c.IssuedAt != 0 {
		id.IssuedAt = time.Unix(c.IssuedAt, 0)
	}
	return id, nil
}

// verify checks the signature and the expiry, spending nothing.
func (t *Tickets) verify(ticket string) (ticketClaims, error) {
	var c ticketClaims
	payload, sig, ok := strings.Cut(ticket, ".")
	if !ok || len(ticket) > maxTicketLen {
		return c, ErrBadTicket
	}
	// Strict: one signature has one spelling.
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, t.sign(payload)) {
		return c, ErrBadTicket
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return c, ErrBadTicket
	}
	if err := json.Unmarshal(raw, &c); err != nil || c.GuestID == "" || len(c.Nonce) < 16 {
		return c, ErrBadTicket
	}
	if !t.now().Before(time.UnixMilli(c.Expires)) {
		return c, fmt.Errorf("%w: expired", ErrBadTicket)
	}
	return c, nil
}

// TicketKeyStore holds the ticket signing key every instance shares.
type TicketKeyStore interface {
	TicketSigningKey(ctx context.Context) ([]byte, error)
}

// OpenTickets loads the shared key from ks and spends nonces in Redis
// under prefix when rdb is set (instances that share Redis redeem each
// other's tickets), otherwise in this process.
func OpenTickets(ctx context.Context, ks TicketKeyStore, rdb *redis.Client, prefix string, ttl time.Duration) (*Tickets, error) {
	key, err := ks.TicketSigningKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("open tickets: %w", err)
	}
	var nonces TicketNonces = NewMemoryNonces()
	if rdb != nil {
		nonces = NewRedisNonces(rdb, prefix)
	}
	return NewTickets(key, nonces, ttl)
}
