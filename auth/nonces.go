package auth

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// MemoryNonces spends ticket nonces in this process: enough for one
// instance, which redeems only its own tickets.
type MemoryNonces struct {
	now func() time.Time

	mu    sync.Mutex
	spent map[string]time.Time // nonce → expiry
	// sweepAt is the size at which the next Spend drops expired nonces;
	// it doubles with what survives, so sweeping costs O(1) per Spend.
	sweepAt int
}

// NewMemoryNonces makes an empty nonce set.
func NewMemoryNonces() *MemoryNonces {
	return &MemoryNonces{now: time.Now, spent: make(map[string]time.Time), sweepAt: 1024}
}

// Spend records nonce until expires; false if it was already spent.
func (m *MemoryNonces) Spend(_ context.Context, nonce string, expires time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.spent[nonce]; ok {
		return false, nil
	}
	if len(m.spent) >= m.sweepAt {
		now := m.now()
		for k, exp := range m.spent {
			if !now.Before(exp) {
				delete(m.spent, k)
			}
		}
		m.sweepAt = max(1024, 2*len(m.spent))
	}
	m.spent[nonce] = expires
	return true, nil
}

// RedisNonces spends ticket nonces in Redis with SET NX, so a ticket
// issued by one instance is good for one socket on any of them.
type RedisNonces struct {
	rdb    *redis.Client
	prefix string
}

// NewRedisNonces keeps spent nonces under prefix + ":wsnonce:".
func NewRedisNonces(rdb *redis.Client, prefix string) *RedisNonces {
	return &RedisNonces{rdb: rdb, prefix: prefix + ":wsnonce:"}
}

// Spend records nonce until expires; false if it was already spent. With
// Redis away it fails, and the ticket opens nothing: single use is not
// given up for availability (the hub's events need Redis anyway).
func (r *RedisNonces) Spend(ctx context.Context, nonce string, expires time.Time) (bool, error) {
	// The key outlives the ticket by a second, so clock steps between
	// instances cannot reopen it while the ticket is valid.
	ttl := max(time.Until(expires), 0) + time.Second
	ok, err := r.rdb.SetNX(ctx, r.prefix+nonce, 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("spend ticket nonce: %w", err)
	}
	return ok, nil
}
