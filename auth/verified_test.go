package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store/storetest"
)

// TestVerifyRemembersTokens: a token verified once is answered from the
// cache with the same identity, and the cache never answers for a token
// that has expired, whose key has retired, or that never verified.
func TestVerifyRemembersTokens(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	clk := &clock{t: time.Now()}
	keys, err := NewKeys(ctx, st, KeysConfig{TokenTTL: 2 * time.Hour, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	id := Identity{GuestID: "g1", Name: "Dana", Role: guest.RoleGuest, SessionVersion: 3}
	token, _, err := keys.Sign(id)
	if err != nil {
		t.Fatal(err)
	}

	for i := range 2 { // the second time from the cache
		got, err := keys.Verify(ctx, token)
		if err != nil {
			t.Fatalf("verify %d: %v", i, err)
		}
		if got.GuestID != id.GuestID || got.Name != id.Name || got.Role != id.Role || got.SessionVersion != id.SessionVersion || got.IssuedAt.IsZero() {
			t.Errorf("verify %d: %+v, want %+v", i, got, id)
		}
	}
	if n := keys.verified.len(); n != 1 {
		t.Errorf("%d tokens cached, want 1", n)
	}

	// Refused tokens are not kept, and a cached one does not vouch for a
	// token that differs from it.
	if _, err := keys.Verify(ctx, token+"x"); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("tampered token: %v, want ErrInvalidToken", err)
	}
	if n := keys.verified.len(); n != 1 {
		t.Errorf("%d tokens cached after a refusal, want 1", n)
	}

	// A second key set on the same store rotates with a one-minute token
	// lifetime, so the first key retires a minute from now, long before
	// the cached token expires.
	other, err := NewKeys(ctx, st, KeysConfig{TokenTTL: time.Minute, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := keys.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Verify(ctx, token); err != nil {
		t.Fatalf("before the key retires: %v", err)
	}
	clk.advance(2 * time.Minute)
	if _, err := keys.Verify(ctx, token); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("cached token of a retired key: %v, want ErrInvalidToken", err)
	}

	// A token from the new key, cached, then past its expiry: refused as
	// expired, as an uncached one is.
	fresh, _, err := keys.Sign(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Verify(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	clk.advance(3 * time.Hour)
	if _, err := keys.Verify(ctx, fresh); !errors.Is(err, jwt.ErrTokenExpired) {
		t.Errorf("cached token past its expiry: %v, want ErrTokenExpired", err)
	}
	if n := keys.verified.len(); n != 0 {
		t.Errorf("%d tokens cached after both were refused, want 0", n)
	}
}

// TestVerifiedTokensBounded: the cache holds at most maxVerifiedTokens,
// dropping expired entries first.
func TestVerifiedTokensBounded(t *testing.T) {
	now := time.Now()
	var v verifiedTokens
	for i := range maxVerifiedTokens + 100 {
		var sum [32]byte
		sum[0], sum[1] = byte(i), byte(i>>8)
		exp := now.Add(time.Hour)
		if i == 0 {
			exp = now.Add(-time.Second) // expired: goes first
		}
		v.put(sum, verifiedToken{expires: exp}, now)
	}
	if n := v.len(); n > maxVerifiedTokens {
		t.Errorf("%d entries, want at most %d", n, maxVerifiedTokens)
	}
	if _, ok := v.get([32]byte{}); ok {
		t.Error("the expired entry survived a full cache")
	}
	last := maxVerifiedTokens + 99
	if _, ok := v.get([32]byte{byte(last), byte(last >> 8)}); !ok {
		t.Error("the newest entry is missing")
	}
}
