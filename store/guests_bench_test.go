package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// tenThousand stores 10,000 generated guests (a third coming, a sixth
// declined, one in ten with a dietary need, one in five signed in, couples
// and families in groups) straight into the collection, which is far
// quicker than one insert each.
func tenThousand(b *testing.B) *store.Store {
	b.Helper()
	ctx := context.Background()
	s := storetest.New(b)
	now := time.Now().UTC().Truncate(time.Millisecond)
	docs := make([]any, 0, 10000)
	for i := range 10000 {
		g := guest.Guest{
			ID: fmt.Sprintf("g%05d", i), FirstName: fmt.Sprintf("First%d", i%97), LastName: fmt.Sprintf("Last%d", i%1009),
			Code: fmt.Sprintf("C%07d", i), Role: guest.RoleGuest, Status: guest.StatusPending, ExpectedGuests: 1 + i%3/2,
			CreatedAt: now, UpdatedAt: now,
		}
		g.LastNameKey = guest.NameKey(g.LastName)
		switch i % 6 {
		case 0, 1:
			g.Status = guest.StatusComing
			g.RSVPDate = &now
		case 2:
			g.Status = guest.StatusDeclined
			g.RSVPDate = &now
		}
		if i%10 == 0 {
			g.Dietary = guest.NormalizeDietary(guest.Dietary{Text: "no nuts"})
		}
		if i%5 == 0 {
			g.LastLogin = &now
		}
		if i%4 < 2 {
			g.GroupID = fmt.Sprintf("grp%d", i/4)
		}
		docs = append(docs, g)
	}
	for start := 0; start < len(docs); start += 1000 {
		if _, err := s.DB().Collection("guests").InsertMany(ctx, docs[start:start+1000]); err != nil {
			b.Fatal(err)
		}
	}
	storetest.IndexIDs(b)
	return s
}

// BenchmarkGuestByID10k loads one guest among 10,000 by _id, as every
// signed-in request and every RSVP does.
func BenchmarkGuestByID10k(b *testing.B) {
	ctx := context.Background()
	s := tenThousand(b)
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.GuestByID(ctx, fmt.Sprintf("g%05d", i*7919%10000)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStats10k reads the host's figures for 10,000 guests: one read
// of the kept summary.
func BenchmarkStats10k(b *testing.B) {
	ctx := context.Background()
	s := tenThousand(b)
	want, err := s.RecountStats(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if want.Invited != 10000 || want.Coming != 3334 {
		b.Fatalf("generated party counts %+v", want.Counts)
	}
	b.ResetTimer()
	for b.Loop() {
		got, err := s.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if got.Counts != want.Counts {
			b.Fatalf("stats %+v, want %+v", got.Counts, want.Counts)
		}
	}
}

// BenchmarkRecountStats10k counts the figures from the 10,000 guests
// themselves, as at start and on the periodic repair.
func BenchmarkRecountStats10k(b *testing.B) {
	ctx := context.Background()
	s := tenThousand(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.RecountStats(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListGuests10k pages through the pending guests, 50 at a time,
// by last name, with the total (from the kept figures).
func BenchmarkListGuests10k(b *testing.B) {
	ctx := context.Background()
	s := tenThousand(b)
	if _, err := s.RecountStats(ctx); err != nil {
		b.Fatal(err)
	}
	// The guest index (FerretDB) reads every guest once, on the first
	// page; the benchmark is of the pages after.
	if _, _, err := s.ListGuests(ctx, store.GuestQuery{Limit: 1}); err != nil {
		b.Fatal(err)
	}
	offset := 0
	b.ResetTimer()
	for b.Loop() {
		page, total, err := s.ListGuests(ctx, store.GuestQuery{Status: guest.StatusPending, Limit: 50, Offset: offset})
		if err != nil {
			b.Fatal(err)
		}
		if total != 4999 || len(page) != 50 {
			b.Fatalf("page of %d, total %d", len(page), total)
		}
		offset = (offset + 50) % 4950
	}
}

// BenchmarkSearchGuests10k pages through a text search, whose total is
// counted.
func BenchmarkSearchGuests10k(b *testing.B) {
	ctx := context.Background()
	s := tenThousand(b)
	if _, _, err := s.ListGuests(ctx, store.GuestQuery{Limit: 1}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		page, total, err := s.ListGuests(ctx, store.GuestQuery{Q: "last100", Limit: 50})
		if err != nil {
			b.Fatal(err)
		}
		if total != 91 || len(page) != 50 {
			b.Fatalf("page of %d, total %d", len(page), total)
		}
	}
}

// BenchmarkInsertGuestWithStats is one guest created by the host: code
// reserved, guest inserted, summary moved (read, claim, write).
func BenchmarkInsertGuestWithStats(b *testing.B) {
	ctx := context.Background()
	s := storetest.New(b)
	if _, err := s.Stats(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := s.InsertGuest(ctx, &guest.Guest{FirstName: "A", LastName: "B"}); err != nil {
			b.Fatal(err)
		}
	}
}
