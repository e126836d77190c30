package store

import (
	"context"
	"encoding/hex"
	"fmt"
)

// TicketSigningKey returns the key that signs WebSocket tickets, made at
// first start and the same for every instance, so a ticket issued by one
// is accepted by all. Tickets are signed, not stored: issuing one writes
// nothing (see auth.Tickets).
func (s *Store) TicketSigningKey(ctx context.Context) ([]byte, error) {
	doc, err := s.ensureSecret(ctx, "ws-ticket", 32)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(doc.Value)
	if err != nil {
		return nil, fmt.Errorf("ticket signing key: %w", err)
	}
	return key, nil
}
