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

// assertStatsMatchRecount checks the kept summary against a full count.
func assertStatsMatchRecount(t *testing.T, s *store.Store) guest.Counts {
	t.Helper()
	ctx := context.Background()
	kept, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counted, err := s.CountGuestStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if kept.Counts != counted {
		t.Fatalf("kept stats %+v\ndiffer from a count %+v", kept.Counts, counted)
	}
	return counted
}

func TestStatsCountTheParty(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	want := guest.Counts{
		Invited: 6, Expected: 8, Pending: 4, Coming: 1, ComingHeads: 1, Declined: 1,
		NeverLoggedIn: 5, WithAllergies: 1,
	}
	counted, err := s.CountGuestStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counted != want {
		t.Errorf("counted %+v\nwant    %+v", counted, want)
	}
	// No summary yet: the first read counts and keeps it.
	got, err := s.Stats(ctx)
	if err != nil || got.Counts != want || got.RecountedAt.IsZero() {
		t.Errorf("stats = %+v, %v", got, err)
	}
	// From now on each change moves it.
	extra := guest.Guest{FirstName: "New", LastName: "Comer", ExpectedGuests: 2, Status: guest.StatusComing}
	if err := s.InsertGuest(ctx, &extra); err != nil {
		t.Fatal(err)
	}
	want.Invited, want.Expected, want.Coming, want.ComingHeads, want.NeverLoggedIn = 7, 10, 2, 3, 6
	if got := assertStatsMatchRecount(t, s); got != want {
		t.Errorf("after insert %+v\nwant         %+v", got, want)
	}
}

// Guests written by something that bypasses the summary (another tool
// writing the collection directly, or a crash between a guest's write and
// the summary's) are picked up by a recount.
func TestRecountRepairsTheSummary(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	if _, err := s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	late := guest.Guest{ID: store.NewID(), FirstName: "Late", LastName: "Arrival", LastNameKey: "arrival", Code: "LATEARRV",
		Role: guest.RoleGuest, Status: guest.StatusPending, ExpectedGuests: 1, CreatedAt: now, UpdatedAt: now}
	if _, err := s.DB().Collection("guests").InsertOne(ctx, late); err != nil {
		t.Fatal(err)
	}
	kept, _ := s.Stats(ctx)
	if kept.Invited != 6 {
		t.Fatalf("summary saw a write that bypassed it: %+v", kept)
	}
	got, err := s.RecountStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Invited != 7 || got.Version <= kept.Version {
		t.Errorf("recount = %+v (was version %d)", got, kept.Version)
	}
	assertStatsMatchRecount(t, s)
}

// Guests written at once lose no update of the summary, whatever runs
// beside them: each update is serialised by a claim on the summary's
// version; recounts, the first of them before any summary exists (as at
// a first start), neither drop a guest nor count one twice; and readers
// of the figures on a fresh database all get an answer.
func TestStatsUnderConcurrentChanges(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		summary bool // a summary exists before the writes
		beside  func(s *store.Store) error
	}{
		{"summary kept", true, nil},
		{"recounts from a fresh start", false, func(s *store.Store) error {
			_, err := s.RecountStats(ctx)
			if errors.Is(err, store.ErrConflict) {
				return nil // gave up while the guests kept changing: allowed
			}
			return err
		}},
		{"readers on a fresh database", false, func(s *store.Store) error {
			_, err := s.Stats(ctx)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := storetest.New(t)
			if tt.summary {
				if _, err := s.Stats(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			errs := make(chan error, 48)
			for i := range 24 {
				wg.Go(func() {
					g := guest.Guest{FirstName: "G", LastName: "L", ExpectedGuests: 1 + i%3}
					errs <- s.InsertGuest(ctx, &g)
				})
				if tt.beside != nil && i%4 == 0 {
					wg.Go(func() { errs <- tt.beside(s) })
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if got := assertStatsMatchRecount(t, s); got.Invited != 24 || got.Expected != 48 {
				t.Errorf("stats = %+v, want 24 invited, 48 expected", got)
			}
		})
	}
}

// Staff who only work the night are not guests: a bartender and a second
// host leave every figure as it was, until one is marked as also
// attending. The kept summary and a recount agree at every step.
func TestStatsLeaveOutStaff(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	before := assertStatsMatchRecount(t, s)
	bar := guest.Guest{FirstName: "Bea", LastName: "Tender", Role: guest.RoleBartender}
	host := guest.Guest{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin, Status: guest.StatusComing, ExpectedGuests: 2}
	for _, g := range []*guest.Guest{&bar, &host} {
		if err := s.InsertGuest(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	staff := before
	staff.Staff += 2
	if got := assertStatsMatchRecount(t, s); got != staff {
		t.Fatalf("staff moved the figures: %+v\nwant %+v", got, staff)
	}
	yes := true
	if _, err := s.UpdateGuest(ctx, host.ID, guest.Patch{Attending: &yes}, host.ID); err != nil {
		t.Fatal(err)
	}
	want := staff
	want.Staff--
	want.Invited, want.Expected, want.Coming, want.ComingHeads, want.NeverLoggedIn = before.Invited+1, before.Expected+2, before.Coming+1, before.ComingHeads+2, before.NeverLoggedIn+1
	if got := assertStatsMatchRecount(t, s); got != want {
		t.Fatalf("host also attending: %+v\nwant %+v", got, want)
	}
	// A guest made a bartender leaves the figures.
	bt := guest.RoleBartender
	g, err := s.UpdateGuest(ctx, host.ID, guest.Patch{Role: &bt, Attending: new(bool)}, host.ID)
	if err != nil || g.Counted() {
		t.Fatalf("%+v %v", g, err)
	}
	if got := assertStatsMatchRecount(t, s); got != staff {
		t.Fatalf("after the role change %+v\nwant %+v", got, staff)
	}
	// The guest list has everyone; a figure's filter, the guests it counts.
	_, total, err := s.ListGuests(ctx, store.GuestQuery{Limit: 50})
	if err != nil || total != int64(before.Invited+2) {
		t.Fatalf("list total %d, want %d: %v", total, before.Invited+2, err)
	}
	pending, total, err := s.ListGuests(ctx, store.GuestQuery{Status: guest.StatusPending, Limit: 50})
	if err != nil || total != int64(before.Pending) || len(pending) != before.Pending {
		t.Fatalf("pending: %d rows, total %d, want %d: %v", len(pending), total, before.Pending, err)
	}
}

// A bartender's first sign-in leaves "never logged in" alone: staff are
// in no figure.
func TestStaffSignInMovesNoFigure(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	party(t, s)
	bar := guest.Guest{FirstName: "Bea", LastName: "Tender", Role: guest.RoleBartender}
	if err := s.InsertGuest(ctx, &bar); err != nil {
		t.Fatal(err)
	}
	before := assertStatsMatchRecount(t, s)
	now := time.Now()
	if n, err := s.RecordActivity(ctx, []store.Activity{{GuestID: bar.ID, LastLogin: &now}}); err != nil || n != 0 {
		t.Fatalf("first logins %d, %v; want 0", n, err)
	}
	if got := assertStatsMatchRecount(t, s); got != before {
		t.Fatalf("after the bartender signed in %+v\nwant %+v", got, before)
	}
}
