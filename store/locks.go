package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Lock holds name until unlock is called, for a step that reads and then
// writes and must not interleave with itself: a guest's order placement
// (count the open orders, then add one) or a stock change. Callers in
// this process take turns on a local lock first. With the database in this
// process (embedded), that is all: every writer is here. Otherwise other
// instances share the database, so the holder also inserts the claim
// "lock/<name>", waiting while another instance holds it; a holder that
// died frees it when ttl passes. Pick a ttl far longer than the step.
func (s *Store) Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), err error) {
	v, _ := s.locks.LoadOrStore(name, make(chan struct{}, 1))
	turn := v.(chan struct{})
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("lock %s: %w", name, ctx.Err())
	}
	local := sync.OnceFunc(func() { <-turn })
	if s.single != nil {
		return local, nil
	}
	key := "lock/" + name
	owner := NewID() // unique to this holder: only it may remove the claim
	for attempt := 0; ; attempt++ {
		err := s.claim(ctx, key, ttl, owner)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrConflict) {
			local()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if err := sleepJittered(ctx, backoff(time.Millisecond, 50*time.Millisecond, attempt)); err != nil {
			local()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
	}
	return sync.OnceFunc(func() {
		// Only our own: after ttl another holder may own the key.
		err := s.retry(context.WithoutCancel(ctx), onBusy, func() error {
			_, err := s.coll(collClaims).DeleteOne(context.WithoutCancel(ctx), bson.D{{Key: "_id", Value: key}, {Key: "owner", Value: owner}})
			return err
		})
		if err != nil {
			s.log.WarnContext(ctx, "unlock: the lock frees itself when its time passes", "lock", name, "err", err)
		}
		local()
	}), nil
}
