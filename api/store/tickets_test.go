package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/api/store"
	"github.com/barhub/barhub/api/store/storetest"
)

func TestTicketIsSingleUse(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	now := time.Now().UTC()
	if err := s.SaveTicket(ctx, store.Ticket{Hash: "h1", GuestID: "g1", Role: "guest", ExpiresAt: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if tk, err := s.RedeemTicket(ctx, "h1", now); err == nil && tk.GuestID == "g1" {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d redeemers got the ticket, want 1", wins.Load())
	}
}

func TestTicketExpiryAndSweep(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	now := time.Now().UTC()
	for i, exp := range []time.Duration{-time.Minute, -time.Second, time.Minute} {
		if err := s.SaveTicket(ctx, store.Ticket{Hash: string(rune('a' + i)), ExpiresAt: now.Add(exp)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RedeemTicket(ctx, "a", now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired ticket redeemed: %v", err)
	}
	n, err := s.SweepTickets(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 { // "a" and "b" have expired; "c" stays
		t.Fatalf("swept %d, want 2", n)
	}
	if _, err := s.RedeemTicket(ctx, "c", now); err != nil {
		t.Fatalf("live ticket: %v", err)
	}
	if _, err := s.RedeemTicket(ctx, "c", now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ticket redeemed twice: %v", err)
	}
}
