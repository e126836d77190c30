package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestMemoryTokenBucket(t *testing.T) {
	ctx := context.Background()
	m := NewMemory()
	clock := time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return clock }

	// A burst of one second's worth passes, the next is refused.
	for i := range 10 {
		if d, _ := m.Allow(ctx, "a", 10); !d.Allowed {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	d, _ := m.Allow(ctx, "a", 10)
	if d.Allowed || d.RetryAfter != 100*time.Millisecond {
		t.Fatalf("11th: %+v, want refused with 100ms to wait", d)
	}
	// Another key has its own bucket.
	if d, _ := m.Allow(ctx, "b", 10); !d.Allowed {
		t.Fatal("other key refused")
	}
	// 250 ms refill 2.5 tokens: two pass, the third waits 50 ms.
	clock = clock.Add(250 * time.Millisecond)
	for i := range 2 {
		if d, _ := m.Allow(ctx, "a", 10); !d.Allowed {
			t.Fatalf("refilled request %d refused", i+1)
		}
	}
	d, _ = m.Allow(ctx, "a", 10)
	if d.Allowed || d.RetryAfter != 50*time.Millisecond {
		t.Fatalf("after refill: %+v, want 50ms", d)
	}
	// No limit.
	for range 100 {
		if d, _ := m.Allow(ctx, "c", 0); !d.Allowed {
			t.Fatal("rate 0 refused")
		}
	}
	// Idle buckets are forgotten, which is the same as full.
	clock = clock.Add(2 * idleAfter)
	for i := range 10 {
		if d, _ := m.Allow(ctx, "a", 10); !d.Allowed {
			t.Fatalf("after idling, request %d refused", i+1)
		}
	}
	n := 0
	for i := range m.shards {
		n += len(m.shards[i].buckets)
	}
	if n > 3 {
		t.Errorf("%d buckets kept, want at most a, b and c", n)
	}
}

func testRedis(t *testing.T) *redis.Client {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("redis at %s: %v", url, err)
	}
	return rdb
}

func prefix() string {
	var b [6]byte
	rand.Read(b[:])
	return "test-rl-" + hex.EncodeToString(b[:])
}

func TestRedisSharedWindow(t *testing.T) {
	ctx := context.Background()
	rdb := testRedis(t)
	p := prefix()
	// Two instances, one budget.
	a, b := NewRedis(rdb, p), NewRedis(rdb, p)
	clock := time.Unix(1_780_000_000, 200*int64(time.Millisecond))
	a.now = func() time.Time { return clock }
	b.now = a.now
	allowed := 0
	for i := range 10 {
		l := a
		if i%2 == 1 {
			l = b
		}
		d, err := l.Allow(ctx, "guest:1/orders", 5)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			allowed++
		} else if d.RetryAfter != 800*time.Millisecond {
			t.Errorf("retry after %v, want 800ms (to the next window)", d.RetryAfter)
		}
	}
	if allowed != 5 {
		t.Errorf("%d of 10 allowed across two instances at 5/s, want 5", allowed)
	}
	// The next window starts afresh.
	clock = clock.Add(time.Second)
	if d, _ := a.Allow(ctx, "guest:1/orders", 5); !d.Allowed {
		t.Error("next window refused")
	}
	ttl := rdb.PTTL(ctx, p+":rl:guest:1/orders:1780000000").Val()
	if ttl <= 0 || ttl > 2*time.Second {
		t.Errorf("window key ttl %v, want (0, 2s]", ttl)
	}
}

// Rates below one a second allow one request per 1/rate window.
func TestRedisSlowRate(t *testing.T) {
	ctx := context.Background()
	l := NewRedis(testRedis(t), prefix())
	clock := time.Unix(1_780_000_000, 0)
	l.now = func() time.Time { return clock }
	if d, err := l.Allow(ctx, "ip:1", 0.1); err != nil || !d.Allowed {
		t.Fatalf("first: %+v %v", d, err)
	}
	clock = clock.Add(4 * time.Second)
	d, err := l.Allow(ctx, "ip:1", 0.1)
	if err != nil || d.Allowed || d.RetryAfter != 6*time.Second {
		t.Fatalf("second within 10 s: %+v %v, want refused for 6s", d, err)
	}
	clock = clock.Add(6 * time.Second)
	if d, _ := l.Allow(ctx, "ip:1", 0.1); !d.Allowed {
		t.Fatal("next 10 s window refused")
	}
}

func TestRedisDownFailsOpen(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	d, err := NewRedis(rdb, prefix()).Allow(context.Background(), "k", 1)
	if err == nil || !d.Allowed {
		t.Errorf("unreachable redis: %+v, %v; want allowed with an error to log", d, err)
	}
}
