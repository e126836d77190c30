package store

import (
	"context"

	"github.com/barhub/barhub/guest"
)

// ListGuestsQueried answers q with the database's query, never the guest
// index, so a test can hold the two side by side.
func (s *Store) ListGuestsQueried(ctx context.Context, q GuestQuery) ([]guest.Guest, int64, error) {
	limit := q.Limit
	if limit <= 0 || limit > MaxPageSize {
		limit = 50
	}
	return s.listQueried(ctx, q, limit)
}

// CorrectGuestIndex runs the guest index's full read now, as its
// periodic correction does.
func (s *Store) CorrectGuestIndex(ctx context.Context) error { return s.loadGuestIndex(ctx, true) }

// HeldGuestOrders counts the orders the embedded database's guests' order
// lists hold in memory.
func (s *Store) HeldGuestOrders() int {
	if s.single == nil {
		return 0
	}
	l := &s.single.guestOrders
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, g := range l.lists {
		n += len(g.orders)
	}
	return n
}

// WriteTurn runs write in s's turn at the embedded database's writer.
func (s *Store) WriteTurn(ctx context.Context, write func() error) error {
	return s.writeTurn(ctx, write)
}

// HoldWriteTurn takes s's writer's turn until release is called.
func (s *Store) HoldWriteTurn() (release func()) {
	s.writes.acquire(false)
	return s.writes.release
}

// WriteTurnsWaiting is how many writes wait for s's writer's turn.
func (s *Store) WriteTurnsWaiting() int { return s.writes.waiting() }
