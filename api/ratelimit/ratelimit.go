// Package ratelimit limits requests per client and route class: a token
// bucket in memory for one instance, or a fixed one-second window in Redis
// shared by every instance behind the load balancer.
package ratelimit

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Decision is the answer for one request.
type Decision struct {
	Allowed bool
	// RetryAfter is how long to wait before the next request can pass.
	RetryAfter time.Duration
}

// Limiter decides whether a request may pass.
type Limiter interface {
	// Allow takes one request for key at rate per second (bursts up to
	// one second's worth). A rate of zero or less means no limit.
	Allow(ctx context.Context, key string, rate float64) (Decision, error)
}

// Memory is a token bucket per key, for a single instance.
type Memory struct {
	now    func() time.Time
	seed   maphash.Seed
	shards [16]memShard
}

type memShard struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	sweepAt time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewMemory returns an in-memory limiter.
func NewMemory() *Memory {
	m := &Memory{now: time.Now, seed: maphash.MakeSeed()}
	for i := range m.shards {
		m.shards[i].buckets = make(map[string]*bucket)
	}
	return m
}

// idleAfter is how long an untouched bucket is kept; a full bucket and a
// missing one behave the same, so forgetting it changes nothing.
const idleAfter = time.Minute

// Allow implements Limiter.
func (m *Memory) Allow(_ context.Context, key string, rate float64) (Decision, error) {
	if rate <= 0 {
		return Decision{Allowed: true}, nil
	}
	burst := math.Max(1, rate)
	now := m.now()
	sh := &m.shards[maphash.String(m.seed, key)%uint64(len(m.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.After(sh.sweepAt) {
		for k, b := range sh.buckets {
			if now.Sub(b.last) > idleAfter {
				delete(sh.buckets, k)
			}
		}
		sh.sweepAt = now.Add(idleAfter)
	}
	b := sh.buckets[key]
	if b == nil {
		b = &bucket{tokens: burst, last: now}
		sh.buckets[key] = b
	}
	b.tokens = math.Min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return Decision{Allowed: true}, nil
	}
	wait := time.Duration((1 - b.tokens) / rate * float64(time.Second))
	return Decision{Allowed: false, RetryAfter: wait}, nil
}

// Redis counts requests per key in one-second windows in Redis, so every
// instance shares one budget per client. A fixed window lets a client
// reach up to twice the rate across a window boundary; that is the price
// of one round trip per request.
type Redis struct {
	rdb    *redis.Client
	prefix string
	now    func() time.Time
}

// NewRedis returns a limiter keeping its counters under prefix.
func NewRedis(rdb *redis.Client, prefix string) *Redis {
	return &Redis{rdb: rdb, prefix: prefix, now: time.Now}
}

// incrWindow counts one request and sets the window's expiry on its first.
var incrWindow = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`)

// Allow implements Limiter.
func (l *Redis) Allow(ctx context.Context, key string, rate float64) (Decision, error) {
	if rate <= 0 {
		return Decision{Allowed: true}, nil
	}
	// Rates of one a second or more count per one-second window; slower
	// rates (one per ten seconds, say) allow one request per 1/rate window.
	limit := int64(math.Max(1, math.Floor(rate)))
	span := time.Second
	if rate < 1 {
		span = time.Duration(float64(time.Second) / rate)
	}
	now := l.now()
	window := now.UnixNano() / int64(span)
	k := l.prefix + ":rl:" + key + ":"
	if span != time.Second {
		k += strconv.FormatInt(int64(span/time.Millisecond), 10) + "ms:"
	}
	k += strconv.FormatInt(window, 10)
	n, err := incrWindow.Run(ctx, l.rdb, []string{k}, int64(2*span/time.Millisecond)).Int64()
	if err != nil {
		return Decision{Allowed: true}, fmt.Errorf("rate limit %s: %w", key, err)
	}
	if n <= limit {
		return Decision{Allowed: true}, nil
	}
	next := time.Unix(0, (window+1)*int64(span))
	return Decision{Allowed: false, RetryAfter: next.Sub(now)}, nil
}
