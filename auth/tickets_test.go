package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/redis/go-redis/v9"
)

func testTicketKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

func redisNonces(t *testing.T) *RedisNonces {
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
	var b [6]byte
	rand.Read(b[:])
	return NewRedisNonces(rdb, "test-tickets-"+hex.EncodeToString(b[:]))
}

func newTestTickets(t *testing.T, key []byte, nonces TicketNonces) *Tickets {
	t.Helper()
	tk, err := NewTickets(key, nonces, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// A ticket opens one socket: of many concurrent redeemers exactly one
// gets the identity, in this process and through Redis.
func TestTicketIsSingleUse(t *testing.T) {
	for name, nonces := range map[string]func(*testing.T) TicketNonces{
		"memory": func(*testing.T) TicketNonces { return NewMemoryNonces() },
		"redis":  func(t *testing.T) TicketNonces { return redisNonces(t) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tk := newTestTickets(t, testTicketKey(), nonces(t))
			issuedAt := time.Now().Add(-time.Minute).Truncate(time.Second)
			want := Identity{GuestID: "g1", Role: guest.RoleBartender, SessionVersion: 3, IssuedAt: issuedAt}
			ticket, err := tk.Issue(ctx, Identity{GuestID: "g1", Name: "Ada Lovelace", Role: guest.RoleBartender, SessionVersion: 3, IssuedAt: issuedAt})
			if err != nil {
				t.Fatal(err)
			}
			var wins atomic.Int32
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					id, err := tk.Redeem(ctx, ticket)
					if err == nil {
						wins.Add(1)
						if id != want {
							t.Errorf("redeemed %+v, want %+v", id, want)
						}
					} else if !errors.Is(err, ErrBadTicket) {
						t.Errorf("second redemption: %v, want ErrBadTicket", err)
					}
				})
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("%d redeemers got the ticket, want 1", wins.Load())
			}
		})
	}
}

// Instances sharing the key and Redis redeem each other's tickets, still
// once in all.
func TestTicketAcrossInstances(t *testing.T) {
	ctx := context.Background()
	key, nonces := testTicketKey(), redisNonces(t)
	a, b := newTestTickets(t, key, nonces), newTestTickets(t, key, nonces)
	ticket, err := a.Issue(ctx, Identity{GuestID: "g1", Role: guest.RoleGuest})
	if err != nil {
		t.Fatal(err)
	}
	if id, err := b.Redeem(ctx, ticket); err != nil || id.GuestID != "g1" {
		t.Fatalf("redeem on the other instance: %+v, %v", id, err)
	}
	if _, err := a.Redeem(ctx, ticket); !errors.Is(err, ErrBadTicket) {
		t.Fatalf("redeemed again on the issuer: %v, want ErrBadTicket", err)
	}
}

// What was not issued by this key, or has expired, or was altered, opens
// nothing, and the name never travels in the ticket (it is in a URL).
func TestTicketRefused(t *testing.T) {
	ctx := context.Background()
	key := testTicketKey()
	tk := newTestTickets(t, key, NewMemoryNonces())
	id := Identity{GuestID: "g1", Name: "Ada Lovelace", Role: guest.RoleGuest}
	ticket, err := tk.Issue(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ticket, "Ada") || strings.Contains(ticket, "Lovelace") {
		t.Fatalf("ticket %q carries the name", ticket)
	}
	payload, sig, _ := strings.Cut(ticket, ".")
	admin, _ := (&Tickets{key: key, ttl: time.Minute, now: time.Now}).Issue(ctx, Identity{GuestID: "g2", Role: guest.RoleAdmin})
	adminPayload, _, _ := strings.Cut(admin, ".")

	other := newTestTickets(t, testTicketKey(), NewMemoryNonces())
	foreign, _ := other.Issue(ctx, id)

	expired := newTestTickets(t, key, NewMemoryNonces())
	expired.now = func() time.Time { return time.Now().Add(-31 * time.Second) }
	old, _ := expired.Issue(ctx, id)

	for name, bad := range map[string]string{
		"empty":             "",
		"no signature":      payload,
		"signature only":    "." + sig,
		"another payload":   adminPayload + "." + sig,
		"another key":       foreign,
		"expired":           old,
		"bad base64":        payload + ".!!!",
		"altered signature": payload + "." + strings.Repeat("A", len(sig)),
		"too long":          strings.Repeat("a", maxTicketLen) + "." + sig,
	} {
		if got, err := tk.Redeem(ctx, bad); !errors.Is(err, ErrBadTicket) {
			t.Errorf("%s: redeemed %+v, %v; want ErrBadTicket", name, got, err)
		}
	}
	if _, err := tk.Redeem(ctx, ticket); err != nil {
		t.Fatalf("the good ticket, after the bad ones: %v", err)
	}
}

// Spent nonces are forgotten once their tickets have expired, so the set
// stays as big as one ticket lifetime's worth of sockets.
func TestMemoryNoncesForgetExpired(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryNonces()
	now := time.Now()
	m.now = func() time.Time { return now }
	for i := range 5000 {
		if ok, _ := m.Spend(ctx, "old"+string(rune(i)), now.Add(-time.Second)); !ok {
			t.Fatalf("fresh nonce %d refused", i)
		}
	}
	if ok, _ := m.Spend(ctx, "live", now.Add(time.Minute)); !ok {
		t.Fatal("fresh nonce refused")
	}
	if len(m.spent) > 2048 {
		t.Fatalf("%d nonces kept, want the expired ones dropped", len(m.spent))
	}
	if ok, _ := m.Spend(ctx, "live", now.Add(time.Minute)); ok {
		t.Fatal("a live nonce spent twice")
	}
}

func TestNewTicketsWantsAKey(t *testing.T) {
	if _, err := NewTickets(make([]byte, 16), NewMemoryNonces(), 0); err == nil {
		t.Fatal("a 16-byte key was accepted")
	}
}

// FuzzTicketRedeem: whatever arrives in ?ticket=, Redeem answers without
// panicking, and only an issued ticket opens anything.
func FuzzTicketRedeem(f *testing.F) {
	key := make([]byte, 32)
	tk, err := NewTickets(key, NewMemoryNonces(), time.Minute)
	if err != nil {
		f.Fatal(err)
	}
	good, _ := tk.Issue(context.Background(), Identity{GuestID: "g1", Role: guest.RoleGuest})
	for _, s := range []string{good, "", ".", "a.b", "eyJnIjoiZzEifQ.", strings.Repeat(".", 600)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := tk.Redeem(context.Background(), s)
		if err == nil && s != good {
			t.Fatalf("%q opened %+v", s, id)
		}
	})
}
