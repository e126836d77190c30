package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// newGuests makes n guests named by their number.
func newGuests(n int) []guest.Guest {
	out := make([]guest.Guest, n)
	for i := range out {
		out[i] = guest.Guest{FirstName: fmt.Sprintf("Bulk%d", i), LastName: fmt.Sprintf("Person%d", i)}
	}
	return out
}

// checkStored: every guest without a failure is stored as given, signs in
// with its own code, and no two share a code; the summary counts them.
func checkStored(t *testing.T, s *store.Store, gs []guest.Guest, errs []error, invitedBefore int) {
	t.Helper()
	ctx := context.Background()
	codes := map[string]string{}
	stored := 0
	for i, g := range gs {
		if errs[i] != nil {
			// Not stored: its id is free, or another guest's.
			if got, err := s.GuestByID(ctx, g.ID); !errors.Is(err, store.ErrNotFound) && (err != nil || got.FirstName == g.FirstName) {
				t.Errorf("guest %d failed (%v) but is stored: %+v %v", i, errs[i], got, err)
			}
			continue
		}
		stored++
		if other, ok := codes[g.Code]; ok {
			t.Fatalf("guests %s and %s share the code %s", other, g.ID, g.Code)
		}
		codes[g.Code] = g.ID
		got, err := s.GuestByCode(ctx, g.Code)
		if err != nil || got.ID != g.ID || got.FirstName != g.FirstName {
			t.Fatalf("guest %d signs in as %+v (%v), want %s", i, got, err, g.ID)
		}
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Invited != invitedBefore+stored || st.Pending != invitedBefore+stored {
		t.Errorf("stats: invited %d, pending %d; want %d", st.Invited, st.Pending, invitedBefore+stored)
	}
	n, err := s.CountGuests(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if int(n) != invitedBefore+stored {
		t.Errorf("%d guests stored, want %d", n, invitedBefore+stored)
	}
}

// TestInsertGuestsInChunks: several chunks' worth of guests are stored in
// a handful of writes a chunk, each with its own code, and the guests
// whose given id or code is taken — by a guest stored before, or by an
// earlier guest of the same chunk — are refused alone.
func TestInsertGuestsInChunks(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	if _, err := s.Stats(ctx); err != nil { // the summary exists, so it is moved
		t.Fatal(err)
	}
	taken := guest.Guest{FirstName: "Already", LastName: "Here", Code: "TAKENCODE"}
	if err := s.InsertGuest(ctx, &taken); err != nil {
		t.Fatal(err)
	}
	gs := newGuests(250)
	gs[3].Code = "GIVENCODE"
	gs[7].Code = taken.Code    // taken by a stored guest
	gs[120].Code = "TWICECODE" // given twice in one chunk
	gs[150].Code = "TWICECODE"
	gs[160].ID = taken.ID // an id that is taken
	gs[200].ID = "given-id"
	writes := s.Writes()
	errs := s.InsertGuests(ctx, gs)
	writes = s.Writes() - writes
	refused := map[int]bool{7: true, 150: true, 160: true}
	for i, err := range errs {
		if refused[i] != (err != nil) {
			t.Errorf("guest %d: %v", i, err)
		}
		if refused[i] && !errors.Is(err, store.ErrConflict) {
			t.Errorf("guest %d refused for %v, want a conflict", i, err)
		}
	}
	if gs[3].Code != "GIVENCODE" || gs[200].ID != "given-id" {
		t.Errorf("the given code and id were not kept: %q %q", gs[3].Code, gs[200].ID)
	}
	checkStored(t, s, gs, errs, 1)
	// Five writes a chunk of 100 (codes, guests, change log, the summary's
	// claim and move) and a few for the refused: not five a guest.
	if writes > 30 {
		t.Errorf("%d writes for %d guests", writes, len(gs))
	}
	// The refused guest's code stays its owner's.
	if got, err := s.GuestByCode(ctx, taken.Code); err != nil || got.ID != taken.ID {
		t.Errorf("TAKENCODE now signs in as %+v (%v)", got, err)
	}
}

// TestInsertGuestsDrawsAgainOnCollision: a fresh code that is taken, by a
// stored guest or by another guest of the same chunk, is drawn again; the
// guests are all stored, each with a code of its own.
func TestInsertGuestsDrawsAgainOnCollision(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	old := guest.Guest{FirstName: "Old", LastName: "Timer"}
	if err := s.InsertGuest(ctx, &old); err != nil {
		t.Fatal(err)
	}
	// The first draws repeat the old guest's code and one code twice;
	// then every draw is new.
	draws := []string{old.Code, "SAMECODE", "SAMECODE", old.Code}
	n := 0
	newCode := func() string {
		n++
		if n <= len(draws) {
			return draws[n-1]
		}
		return fmt.Sprintf("FRESH%04d", n)
	}
	gs := newGuests(150)
	errs := s.InsertGuestsDrawing(ctx, gs, newCode)
	for i, err := range errs {
		if err != nil {
			t.Errorf("guest %d: %v", i, err)
		}
	}
	checkStored(t, s, gs, errs, 1)
	if gs[1].Code != "SAMECODE" {
		t.Errorf("guest 1 has %q, want the first SAMECODE", gs[1].Code)
	}
	if got, err := s.GuestByCode(ctx, old.Code); err != nil || got.ID != old.ID {
		t.Errorf("the old code now signs in as %+v (%v)", got, err)
	}
}

// TestInsertGuestsGivesUpOnEndlessCollisions: a guest whose every fresh
// code is taken is refused, the others of its chunk stored.
func TestInsertGuestsGivesUpOnEndlessCollisions(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	old := guest.Guest{FirstName: "Old", LastName: "Timer"}
	if err := s.InsertGuest(ctx, &old); err != nil {
		t.Fatal(err)
	}
	n := 0
	gs := newGuests(3)
	errs := s.InsertGuestsDrawing(ctx, gs, func() string {
		n++
		if n == 2 || n > 3 {
			return old.Code // guest 1 never draws a free one
		}
		return fmt.Sprintf("FREE%04d", n)
	})
	if errs[0] != nil || errs[2] != nil || errs[1] == nil {
		t.Fatalf("errors %v, want guest 1's alone", errs)
	}
	checkStored(t, s, gs, errs, 1)
}

// TestGuestIndexSeesABatchedImport: guests inserted in chunks on one
// instance are in the very next guest list of this instance and of
// another one on the same database, both of which had read the list
// before, and in the first list of an instance started after.
func TestGuestIndexSeesABatchedImport(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)
	party(t, a)
	for _, s := range []*store.Store{a, b} {
		if _, _, err := s.ListGuests(ctx, store.GuestQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	_, before, err := b.ListGuests(ctx, store.GuestQuery{})
	if err != nil {
		t.Fatal(err)
	}
	gs := newGuests(230)
	for i, err := range a.InsertGuests(ctx, gs) {
		if err != nil {
			t.Fatalf("guest %d: %v", i, err)
		}
	}
	// A third instance, started after the import, reads every guest at
	// its first list read, the log's entries of the import included.
	c := storetest.Instance(t, a)
	for name, s := range map[string]*store.Store{"this instance": a, "another instance": b, "an instance started after": c} {
		page, total, err := s.ListGuests(ctx, store.GuestQuery{Q: "bulk", Limit: store.MaxPageSize})
		if err != nil {
			t.Fatal(err)
		}
		if total != int64(len(gs)) || len(page) != len(gs) {
			t.Errorf("%s lists %d (total %d) of the %d imported", name, len(page), total, len(gs))
		}
		seen := map[string]bool{}
		for _, g := range page {
			seen[g.ID] = true
		}
		for _, g := range gs {
			if !seen[g.ID] {
				t.Errorf("%s does not list %s %s", name, g.FirstName, g.LastName)
			}
		}
		if _, all, err := s.ListGuests(ctx, store.GuestQuery{}); err != nil || all != before+int64(len(gs)) {
			t.Errorf("%s: %d guests in all (%v), want %d", name, all, err, before+int64(len(gs)))
		}
	}
}
