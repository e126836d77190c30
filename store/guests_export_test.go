package store

import (
	"context"

	"github.com/barhub/barhub/guest"
)

// InsertGuestsDrawing is InsertGuests with the fresh codes drawn from
// newCode, so a test can make them collide.
func (s *Store) InsertGuestsDrawing(ctx context.Context, gs []guest.Guest, newCode func() string) []error {
	return s.insertGuests(ctx, gs, newCode)
}
