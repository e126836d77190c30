package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestCheckInAndUndo(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if _, err := s.Stats(ctx); err != nil { // start the kept summary
		t.Fatal(err)
	}
	at := time.Date(2030, 6, 12, 18, 14, 5, 123456789, time.UTC)
	mia := p["Mia"]

	g, recorded, err := s.CheckIn(ctx, mia.ID, guest.CheckIn{At: at, By: "Sam Door", ByID: "staff1", Heads: 3})
	if err != nil || !recorded {
		t.Fatalf("first check-in: recorded %v, %v", recorded, err)
	}
	want := at.Truncate(time.Millisecond)
	if g.CheckedInAt == nil || !g.CheckedInAt.Equal(want) || g.CheckedInBy != "Sam Door" || g.ArrivedHeads != 3 {
		t.Fatalf("returned %v by %q heads %d", g.CheckedInAt, g.CheckedInBy, g.ArrivedHeads)
	}
	stored, err := s.GuestByID(ctx, mia.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.CheckedInAt == nil || !stored.CheckedInAt.Equal(want) || stored.CheckedInBy != "Sam Door" || stored.CheckedInByID != "staff1" || stored.ArrivedHeads != 3 {
		t.Fatalf("stored %v by %q (%q) heads %d", stored.CheckedInAt, stored.CheckedInBy, stored.CheckedInByID, stored.ArrivedHeads)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 1 || c.CheckedInHeads != 3 {
		t.Fatalf("after one check-in: %d in, %d heads; want 1, 3", c.CheckedIn, c.CheckedInHeads)
	}

	// A second scan changes nothing and says who let them in.
	g, recorded, err = s.CheckIn(ctx, mia.ID, guest.CheckIn{At: at.Add(time.Minute), By: "Other", Heads: 5})
	if err != nil || recorded || g.CheckedInBy != "Sam Door" || g.ArrivedHeads != 3 {
		t.Fatalf("second scan: recorded %v by %q heads %d, %v", recorded, g.CheckedInBy, g.ArrivedHeads, err)
	}

	// Another guest, with the default of one head (0 means at least one).
	if _, recorded, err := s.CheckIn(ctx, p["Sam"].ID, guest.CheckIn{At: at, By: "Sam Door"}); err != nil || !recorded {
		t.Fatalf("check in Sam: %v %v", recorded, err)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 2 || c.CheckedInHeads != 4 {
		t.Fatalf("after two: %d in, %d heads; want 2, 4", c.CheckedIn, c.CheckedInHeads)
	}

	// Undo, then undo again (nothing to undo).
	g, undone, err := s.UndoCheckIn(ctx, mia.ID)
	if err != nil || !undone || g.CheckedIn() || g.ArrivedHeads != 0 || g.CheckedInBy != "" {
		t.Fatalf("undo: undone %v, %+v, %v", undone, g, err)
	}
	if _, undone, err := s.UndoCheckIn(ctx, mia.ID); err != nil || undone {
		t.Fatalf("second undo: undone %v, %v", undone, err)
	}
	stored, _ = s.GuestByID(ctx, mia.ID)
	if stored.CheckedIn() || stored.CheckedInBy != "" || stored.ArrivedHeads != 0 || stored.CheckInRound != 1 {
		t.Fatalf("stored after undo: %+v", stored)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 1 || c.CheckedInHeads != 1 {
		t.Fatalf("after undo: %d in, %d heads; want 1, 1", c.CheckedIn, c.CheckedInHeads)
	}

	// After an undo the guest can be checked in again: a new round.
	if g, recorded, err := s.CheckIn(ctx, mia.ID, guest.CheckIn{At: at, By: "Kim", Heads: 2}); err != nil || !recorded || g.ArrivedHeads != 2 {
		t.Fatalf("check in after undo: %v %+v %v", recorded, g, err)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 2 || c.CheckedInHeads != 3 {
		t.Fatalf("after re-check-in: %d in, %d heads; want 2, 3", c.CheckedIn, c.CheckedInHeads)
	}

	// Unknown guests.
	if _, _, err := s.CheckIn(ctx, "nobody", guest.CheckIn{At: at}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("check in nobody: %v, want ErrNotFound", err)
	}
	if _, _, err := s.UndoCheckIn(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("undo nobody: %v, want ErrNotFound", err)
	}
}

// Two door tablets scanning one code at the same moment: one check-in,
// counted once; every scan answers with the one record.
func TestCheckInConcurrentScansCountOnce(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if _, err := s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	const scans = 20
	var wg sync.WaitGroup
	results := make([]bool, scans)
	errs := make([]error, scans)
	bys := make([]string, scans)
	for i := range scans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, recorded, err := s.CheckIn(ctx, p["Ada"].ID, guest.CheckIn{At: time.Now(), By: "tablet", ByID: "t", Heads: 1})
			results[i], errs[i], bys[i] = recorded, err, g.CheckedInBy
		}()
	}
	wg.Wait()
	recorded := 0
	for i := range scans {
		if errs[i] != nil {
			t.Errorf("scan %d: %v", i, errs[i])
		}
		if results[i] {
			recorded++
		}
		if bys[i] != "tablet" {
			t.Errorf("scan %d saw checkedInBy %q", i, bys[i])
		}
	}
	if recorded != 1 {
		t.Errorf("%d scans recorded the check-in, want 1", recorded)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 1 || c.CheckedInHeads != 1 {
		t.Errorf("%d in, %d heads; want 1, 1", c.CheckedIn, c.CheckedInHeads)
	}
}

func TestCheckInCounts(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if n, h, err := s.CheckInCounts(ctx); err != nil || n != 0 || h != 0 {
		t.Fatalf("nobody in: %d, %d, %v", n, h, err)
	}
	at := time.Now()
	for name, heads := range map[string]int{"Ada": 1, "Mia": 3, "Leo": 2, "Åsa": 3} {
		if _, _, err := s.CheckIn(ctx, p[name].ID, guest.CheckIn{At: at, Heads: heads}); err != nil {
			t.Fatal(err)
		}
	}
	if n, h, err := s.CheckInCounts(ctx); err != nil || n != 4 || h != 9 {
		t.Fatalf("four in: %d guests, %d heads, %v; want 4, 9", n, h, err)
	}
	// A stale summary is repaired by the recount.
	st, err := s.RecountStats(ctx)
	if err != nil || st.CheckedIn != 4 || st.CheckedInHeads != 9 {
		t.Fatalf("recount: %+v, %v", st.Counts, err)
	}
}

// A walk-in is added once however often the door sends it (an offline
// queue sending again), counted as coming, checked in and a walk-in, and
// the kept figures agree with a recount.
func TestAddWalkInOnce(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p := party(t, s)
	if _, err := s.Stats(ctx); err != nil { // start the kept summary
		t.Fatal(err)
	}
	at := time.Date(2030, 6, 12, 21, 5, 0, 0, time.UTC)
	walkIn := guest.Guest{
		ID: "walkin-3f9a", FirstName: "Nora", LastName: "Lind", Status: guest.StatusComing, GroupID: p["Ada"].GroupID,
		Dietary: guest.Dietary{Text: "vegan"}, Source: guest.SourceWalkIn, WalkIn: &guest.WalkIn{At: at, By: "Sam Door", ByID: "staff1"},
	}
	g, created, err := s.AddWalkIn(ctx, walkIn)
	if err != nil || !created || len(g.Code) != 8 {
		t.Fatalf("first: created %v code %q, %v", created, g.Code, err)
	}
	again, created, err := s.AddWalkIn(ctx, walkIn)
	if err != nil || created || again.ID != g.ID || again.Code != g.Code {
		t.Fatalf("again: created %v id %q code %q (first %q), %v", created, again.ID, again.Code, g.Code, err)
	}
	if _, recorded, err := s.CheckIn(ctx, g.ID, guest.CheckIn{At: at, By: "Sam Door", ByID: "staff1", Heads: 1}); err != nil || !recorded {
		t.Fatalf("check in: %v %v", recorded, err)
	}
	stored, err := s.GuestByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !stored.IsWalkIn() || stored.WalkIn == nil || stored.WalkIn.By != "Sam Door" || !stored.WalkIn.At.Equal(at) || stored.GroupID != "byron" || stored.Status != guest.StatusComing {
		t.Fatalf("stored %+v (walk-in %+v)", stored, stored.WalkIn)
	}
	found, err := s.GuestByCode(ctx, g.Code)
	if err != nil || found.ID != g.ID {
		t.Fatalf("by code: %q %v", found.ID, err)
	}
	// The party of 6 (1 coming) plus Nora: 7 invited, 2 coming, 1 in, 1 walk-in.
	c := assertStatsMatchRecount(t, s)
	if c.Invited != 7 || c.Coming != 2 || c.CheckedIn != 1 || c.WalkIns != 1 {
		t.Fatalf("figures: invited %d coming %d in %d walk-ins %d; want 7 2 1 1", c.Invited, c.Coming, c.CheckedIn, c.WalkIns)
	}
	// An undone check-in leaves a walk-in a walk-in.
	if _, undone, err := s.UndoCheckIn(ctx, g.ID); err != nil || !undone {
		t.Fatalf("undo: %v %v", undone, err)
	}
	if c := assertStatsMatchRecount(t, s); c.CheckedIn != 0 || c.WalkIns != 1 {
		t.Fatalf("after undo: in %d walk-ins %d; want 0 1", c.CheckedIn, c.WalkIns)
	}
}
