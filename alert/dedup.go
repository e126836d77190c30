package alert

import (
	"context"
	"errors"
	"time"

	"github.com/barhub/barhub/store"
)

// Claimer takes a key for a while; a second taker gets store.ErrConflict
// (the store's claims, in the database every instance shares).
type Claimer interface {
	Claim(ctx context.Context, key string, ttl time.Duration) error
}

// ClaimDedup sends each alert once between every instance on c's database.
func ClaimDedup(c Claimer) Deduper { return claimDedup{c} }

type claimDedup struct{ c Claimer }

func (d claimDedup) Once(ctx context.Context, key string, window time.Duration) (bool, error) {
	err := d.c.Claim(ctx, key, window)
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}
