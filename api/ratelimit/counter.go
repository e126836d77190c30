package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Counters count events per key in fixed windows, and hand out turns per
// key at a steady pace: what the sign-in throttle needs. MemoryCounters
// serve one instance; RedisCounters are shared by every instance behind the
// load balancer. Every count is one atomic step (INCRBY in Redis, a mutex
// here), so callers that decide on the returned count never overrun a
// limit however many requests arrive at once.

// windowStart is the start of the fixed window of length w holding at.
func windowStart(at time.Time, w time.Duration) int64 {
	return at.UnixNano() / int64(w)
}

// MemoryCounters keeps the counts in this process.
type MemoryCounters struct {
	mu      sync.Mutex
	counts  map[string]memCount
	turns   map[string]time.Time
	sweepAt time.Time
}

type memCount struct {
	n       int64
	expires time.Time
}

// NewMemoryCounters returns counters for one instance.
func NewMemoryCounters() *MemoryCounters {
	return &MemoryCounters{counts: map[string]memCount{}, turns: map[string]time.Time{}}
}

// Add adds delta to key's count in the window of length window that holds
// at, and returns the count after it. A refund passes the at of its charge,
// so it lands in the same window.
func (m *MemoryCounters) Add(_ context.Context, key string, delta int64, window time.Duration, at time.Time) (int64, error) {
	k := key + ":" + strconv.FormatInt(windowStart(at, window), 10)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(at)
	c := m.counts[k]
	c.n += delta
	c.expires = time.Unix(0, (windowStart(at, window)+1)*int64(window))
	m.counts[k] = c
	return c.n, nil
}

// Turn gives key its next turn, one per every: it returns how long the
// caller waits for it. A turn further than maxWait away is not given (ok
// false), so waiting callers stay bounded.
func (m *MemoryCounters) Turn(_ context.Context, key string, every, maxWait time.Duration, at time.Time) (time.Duration, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(at)
	next := at
	if t := m.turns[key]; t.After(at) {
		next = t
	}
	wait := next.Sub(at)
	if wait > maxWait {
		return wait, false, nil
	}
	m.turns[key] = next.Add(every)
	return wait, true, nil
}

// GiveBack returns a turn that Turn gave key and that was not needed (a
// right sign-in checked at once): the next turn moves one pace earlier, so
// only the turns that are kept hold the queue up. A key whose turns have
// all passed is left alone.
func (m *MemoryCounters) GiveBack(_ context.Context, key string, every time.Duration, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.turns[key]; ok && t.After(at) {
		m.turns[key] = t.Add(-every)
	}
	return nil
}

// sweep forgets ended windows and past turns, at most once a minute, so a
// flood of distinct keys does not grow the maps for ever.
func (m *MemoryCounters) sweep(now time.Time) {
	if now.Before(m.sweepAt) {
		return
	}
	m.sweepAt = now.Add(time.Minute)
	for k, c := range m.counts {
		if !now.Before(c.expires) {
			delete(m.counts, k)
		}
	}
	for k, t := range m.turns {
		if now.After(t) {
			delete(m.turns, k)
		}
	}
}

// RedisCounters keeps the counts in Redis under prefix, shared by every
// instance. Windows and turns are reckoned on the callers' clocks, which
// instances keep within a fraction of a second of each other (NTP).
type RedisCounters struct {
	rdb    *redis.Client
	prefix string
}

// NewRedisCounters returns counters shared through rdb.
func NewRedisCounters(rdb *redis.Client, prefix string) *RedisCounters {
	return &RedisCounters{rdb: rdb, prefix: prefix}
}

// addInWindow adds ARGV[1] and expires the key when its window is over.
var addInWindow = redis.NewScript(`
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`)

// Add implements the same contract as MemoryCounters.Add.
func (r *RedisCounters) Add(ctx context.Context, key string, delta int64, window time.Duration, at time.Time) (int64, error) {
	start := windowStart(at, window)
	k := r.prefix + ":cnt:" + key + ":" + strconv.FormatInt(start, 10)
	// Kept a window past its end, so a late refund still finds it.
	ttl := time.Unix(0, (start+2)*int64(window)).Sub(at)
	n, err := addInWindow.Run(ctx, r.rdb, []string{k}, delta, ttl.Milliseconds()+1).Int64()
	if err != nil {
		return 0, fmt.Errorf("count %s: %w", key, err)
	}
	return n, nil
}

// nextTurn hands out the turn at max(now, the next free one), unless it is
// more than ARGV[3] ms away; it answers the wait in ms, or -1-wait when
// refused.
var nextTurn = redis.NewScript(`
local now = tonumber(ARGV[1])
local every = tonumber(ARGV[2])
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
if next < now then next = now end
if next - now > tonumber(ARGV[3]) then return -1 - (next - now) end
redis.call('SET', KEYS[1], next + every, 'PX', next + every - now + 1000)
return next - now`)

// giveBackTurn moves the next turn ARGV[1] ms earlier if it is still ahead
// of ARGV[2] (now); a missing or passed key is left as it is, so a late
// give-back never makes a key without an expiry.
var giveBackTurn = redis.NewScript(`
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
if next > tonumber(ARGV[2]) then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0`)

// GiveBack implements the same contract as MemoryCounters.GiveBack.
func (r *RedisCounters) GiveBack(ctx context.Context, key string, every time.Duration, at time.Time) error {
	k := r.prefix + ":turn:" + key
	if err := giveBackTurn.Run(ctx, r.rdb, []string{k}, every.Milliseconds(), at.UnixMilli()).Err(); err != nil {
		return fmt.Errorf("give back a turn of %s: %w", key, err)
	}
	return nil
}

// Turn implements the same contract as MemoryCounters.Turn.
func (r *RedisCounters) Turn(ctx context.Context, key string, every, maxWait time.Duration, at time.Time) (time.Duration, bool, error) {
	k := r.prefix + ":turn:" + key
	ms, err := nextTurn.Run(ctx, r.rdb, []string{k}, at.UnixMilli(), every.Milliseconds(), maxWait.Milliseconds()).Int64()
	if err != nil {
		return 0, false, fmt.Errorf("turn of %s: %w", key, err)
	}
	if ms < 0 {
		return time.Duration(-1-ms) * time.Millisecond, false, nil
	}
	return time.Duration(ms) * time.Millisecond, true, nil
}
