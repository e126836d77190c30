package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/barhub/barhub/api/guest"
	"github.com/barhub/barhub/api/store"
)

// TicketStore keeps tickets where every instance can redeem them.
type TicketStore interface {
	SaveTicket(ctx context.Context, t store.Ticket) error
	RedeemTicket(ctx context.Context, hash string, now time.Time) (store.Ticket, error)
}

// ErrBadTicket means the ticket is unknown, used or expired.
var ErrBadTicket = errors.New("invalid, used or expired ticket")

// Tickets issues short-lived one-time passes for the WebSocket upgrade, so
// the long-lived token never appears in a URL (URLs get logged).
type Tickets struct {
	store TicketStore
	ttl   time.Duration
	now   func() time.Time
}

// NewTickets makes a ticket issuer; ttl defaults to 30 seconds.
func NewTickets(ts TicketStore, ttl time.Duration) *Tickets {
	if ttl <= 0 {
		ttl = 30 * time.Second
	}
	return &Tickets{store: ts, ttl: ttl, now: time.Now}
}

// TTL is how long a ticket stays valid.
func (t *Tickets) TTL() time.Duration { return t.ttl }

// Issue makes a ticket for id.
func (t *Tickets) Issue(ctx context.Context, id Identity) (string, error) {
	var b [32]byte
	rand.Read(b[:])
	ticket := base64.RawURLEncoding.EncodeToString(b[:])
	err := t.store.SaveTicket(ctx, store.Ticket{
		Hash:      hashTicket(ticket),
		GuestID:   id.GuestID,
		Role:      string(id.Role),
		Name:      id.Name,
		ExpiresAt: t.now().UTC().Add(t.ttl),
		// Checked again when the ticket is redeemed (Sessions.Current), so
		// a ticket issued before a revocation opens no socket after it.
		SessionVersion: id.SessionVersion,
	})
	if err != nil {
		return "", fmt.Errorf("issue ticket: %w", err)
	}
	return ticket, nil
}

// Redeem returns the identity a ticket was issued to, once. The caller
// checks it against the holder's current state (Sessions.Current).
func (t *Tickets) Redeem(ctx context.Context, ticket string) (Identity, error) {
	if len(ticket) != 43 {
		return Identity{}, ErrBadTicket
	}
	tk, err := t.store.RedeemTicket(ctx, hashTicket(ticket), t.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return Identity{}, ErrBadTicket
	}
	if err != nil {
		return Identity{}, err
	}
	return Identity{GuestID: tk.GuestID, Name: tk.Name, Role: guest.Role(tk.Role), SessionVersion: tk.SessionVersion}, nil
}

func hashTicket(ticket string) string {
	sum := sha256.Sum256([]byte(ticket))
	return hex.EncodeToString(sum[:])
}
