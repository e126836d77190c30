package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Ticket is a one-time pass for the WebSocket upgrade. It lives in the
// database so a ticket issued by one instance can be redeemed on another
// behind the load balancer. Only its hash is stored.
type Ticket struct {
	Hash      string    `bson:"_id"`
	GuestID   string    `bson:"guestId"`
	Role      string    `bson:"role"`
	Name      string    `bson:"name"`
	ExpiresAt time.Time `bson:"expiresAt"`
	// SessionVersion is the holder's session version when the ticket was
	// issued: redeeming checks it is still current.
	SessionVersion int64 `bson:"sessionVersion,omitempty"`
}

// ticketIndexes: the sweeper deletes by expiresAt.
func ticketIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "expiresAt", Value: 1}}, Options: options.Index().SetName("expiresAt")},
	}
}

// SaveTicket stores a new ticket.
func (s *Store) SaveTicket(ctx context.Context, t Ticket) error {
	// Every page load asks for a ticket: on the embedded database a write
	// that collides with another is retried rather than failing the page.
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collTickets).InsertOne(ctx, t); return err }); err != nil {
		return fmt.Errorf("save ticket: %w", err)
	}
	return nil
}

// RedeemTicket returns the ticket with this hash once: the claim on
// "ticket/<hash>" is the single-use guarantee (see Claim), so of two
// concurrent redeemers only one gets it. The sweeper removes it after it
// expires.
func (s *Store) RedeemTicket(ctx context.Context, hash string, now time.Time) (Ticket, error) {
	var t Ticket
	err := s.coll(collTickets).FindOne(ctx, bson.D{{Key: "_id", Value: hash}}).Decode(&t)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return t, fmt.Errorf("redeem ticket: %w", ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("redeem ticket: %w", err)
	}
	if !now.Before(t.ExpiresAt) {
		return Ticket{}, fmt.Errorf("redeem ticket: expired: %w", ErrNotFound)
	}
	// The claim outlives the ticket, so it can never be taken over while
	// the ticket is still valid.
	if err := s.Claim(ctx, "ticket/"+hash, t.ExpiresAt.Sub(now)+time.Hour); err != nil {
		if errors.Is(err, ErrConflict) {
			return Ticket{}, fmt.Errorf("redeem ticket: already used: %w", ErrNotFound)
		}
		return Ticket{}, fmt.Errorf("redeem ticket: %w", err)
	}
	return t, nil
}

// SweepTickets removes expired tickets, used or not.
func (s *Store) SweepTickets(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.coll(collTickets).DeleteMany(ctx, bson.D{{Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return 0, fmt.Errorf("sweep tickets: %w", err)
	}
	return res.DeletedCount, nil
}
