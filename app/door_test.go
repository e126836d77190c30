package app_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store/storetest"
)

func TestDoorCheckIn(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	ev := &events{}
	door := app.NewDoor(st, nil, nil, app.NewDashboard(ev, st, nil), nil)
	staff := addGuest(t, st, guest.Guest{FirstName: "Bo", Role: guest.RoleBartender})
	mia := addGuest(t, st, guest.Guest{FirstName: "Mia", ExpectedGuests: 2, Status: guest.StatusComing, NumGuests: 2})
	mia, err := st.GuestByID(ctx, mia.ID)
	if err != nil {
		t.Fatal(err)
	}

	res, err := door.CheckIn(ctx, identityOf(staff), "192.0.2.1", app.CheckInRequest{Code: mia.Code})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Admitted || res.AlreadyCheckedIn || res.Guest.ID != mia.ID || res.Guest.CheckedInBy != staff.Name() || res.Warnings == nil || res.Group == nil {
		t.Errorf("first scan %+v", res)
	}
	want := []string{"admin/guest.checked_in", "bar/guest.checked_in", "admin/stats.updated"}
	if got := ev.names(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("published %v, want %v", got, want)
	}

	again, err := door.CheckIn(ctx, identityOf(staff), "192.0.2.1", app.CheckInRequest{GuestID: mia.ID})
	if err != nil {
		t.Fatal(err)
	}
	if !again.AlreadyCheckedIn || len(ev.names()) != len(want) {
		t.Errorf("second scan %+v, published %v", again, ev.names())
	}
	arrived, err := door.Stats(ctx)
	if err != nil || arrived.CheckedIn != 1 {
		t.Errorf("stats %+v, %v", arrived, err)
	}

	undone, err := door.Undo(ctx, identityOf(staff), mia.ID)
	if err != nil || undone.Guest.CheckedInAt != nil {
		t.Fatalf("undo %+v, %v", undone, err)
	}
	_, err = door.Undo(ctx, identityOf(staff), mia.ID)
	wantError(t, err, app.Conflict, "not_checked_in")
}

func TestDoorRefused(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	door := app.NewDoor(st, nil, auth.NewThrottle(2, time.Minute), nil, nil)
	staff := identityOf(addGuest(t, st, guest.Guest{FirstName: "Bo", Role: guest.RoleBartender}))

	_, err := door.CheckIn(ctx, staff, "192.0.2.1", app.CheckInRequest{Code: "ABCD2345"})
	wantError(t, err, app.NotFound, "unknown_code")
	_, err = door.CheckIn(ctx, staff, "192.0.2.1", app.CheckInRequest{GuestID: "nobody"})
	wantError(t, err, app.NotFound, "not_found")
	// Two misses from this door: the next scan waits, known code or not.
	_, err = door.CheckIn(ctx, staff, "192.0.2.1", app.CheckInRequest{Code: "ABCD2345"})
	if ae := wantError(t, err, app.TooMany, "too_many_attempts"); ae.RetryAfter < time.Second {
		t.Errorf("retry after %v", ae.RetryAfter)
	}
	// Another staff member at another address is not held up.
	other := identityOf(addGuest(t, st, guest.Guest{FirstName: "Al", Role: guest.RoleAdmin}))
	_, err = door.CheckIn(ctx, other, "192.0.2.2", app.CheckInRequest{Code: "ABCD2345"})
	wantError(t, err, app.NotFound, "unknown_code")

	_, err = door.Undo(ctx, staff, "not an id")
	wantError(t, err, app.NotFound, "not_found")
	_, err = door.Lookup(ctx, "M")
	wantError(t, err, app.Invalid, "invalid_query")
}

func TestDoorLookupByNameOnly(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	door := app.NewDoor(st, nil, nil, nil, nil)
	mia := addGuest(t, st, guest.Guest{FirstName: "Mia", LastName: "Berg"})
	mia, _ = st.GuestByID(ctx, mia.ID)
	res, err := door.Lookup(ctx, "berg")
	if err != nil || res.Total != 1 || len(res.Guests) != 1 || res.Guests[0].ID != mia.ID {
		t.Fatalf("lookup %+v, %v", res, err)
	}
	// The search must not be a way to try codes.
	res, err = door.Lookup(ctx, mia.Code)
	if err != nil || res.Total != 0 || res.Guests == nil {
		t.Errorf("lookup by code %+v, %v", res, err)
	}
}

// TestDoorLookupAccents: at the door, accents count in neither name, in
// the search or in the name as written.
func TestDoorLookupAccents(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	door := app.NewDoor(st, nil, nil, nil, nil)
	elodie := addGuest(t, st, guest.Guest{FirstName: "Élodie", LastName: "Lefèvre"})
	zoe := addGuest(t, st, guest.Guest{FirstName: "Zoe", LastName: "Ostergaard"})
	for _, tc := range []struct {
		q    string
		want string // id, or "" for no match
	}{
		{"Élodie", elodie.ID},
		{"Elodie", elodie.ID},
		{"elodie", elodie.ID},
		{"ÉLODIE", elodie.ID},
		{"lodi", elodie.ID},
		{"Lefèvre", elodie.ID},
		{"Lefevre", elodie.ID},
		{"lefevre", elodie.ID},
		{"Zoe", zoe.ID},
		{"Zoë", zoe.ID},
		{"Østergaard", zoe.ID},
		{"Ostergaard", zoe.ID},
		{"Eloise", ""},
		{"Lefebvre", ""},
	} {
		res, err := door.Lookup(ctx, tc.q)
		if err != nil {
			t.Fatalf("lookup %q: %v", tc.q, err)
		}
		var got []string
		for _, g := range res.Guests {
			got = append(got, g.ID)
		}
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want || res.Total != 1) {
			t.Errorf("lookup %q found %v (total %d), want %q", tc.q, got, res.Total, tc.want)
		}
	}
}

// A walk-in is added once, coming and checked in, with a code of their
// own; sent again with the same key (the door's offline queue) it is the
// same person and the same code, and nobody more is counted.
func TestDoorWalkIn(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	ev := &events{}
	door := app.NewDoor(st, nil, nil, app.NewDashboard(ev, st, nil), nil)
	staff := identityOf(addGuest(t, st, guest.Guest{FirstName: "Bo", Role: guest.RoleBartender}))
	anna := addGuest(t, st, guest.Guest{FirstName: "Anna", LastName: "Ek", Status: guest.StatusComing})

	req := app.WalkInRequest{FirstName: " Nora ", LastName: "Lind", GroupOf: anna.ID, Needs: "no nuts please", Key: "k-1"}
	res, err := door.WalkIn(ctx, staff, "192.0.2.1", req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !res.Admitted || len(res.Code) != 8 || res.Guest.FirstName != "Nora" || res.Guest.Source != guest.SourceWalkIn || res.Heads != 1 {
		t.Fatalf("walk-in %+v", res)
	}
	if len(res.Group) != 1 || res.Group[0].ID != anna.ID {
		t.Errorf("group %+v, want Anna", res.Group)
	}
	nora, err := st.GuestByCode(ctx, res.Code)
	if err != nil {
		t.Fatal(err)
	}
	anna, _ = st.GuestByID(ctx, anna.ID)
	if nora.Status != guest.StatusComing || !nora.CheckedIn() || nora.WalkIn == nil || nora.WalkIn.By != staff.Name ||
		nora.GroupID == "" || nora.GroupID != anna.GroupID || len(nora.Dietary.Tags) != 1 || nora.Dietary.Tags[0] != "nuts" {
		t.Errorf("stored %+v", nora)
	}

	again, err := door.WalkIn(ctx, staff, "192.0.2.1", req)
	if err != nil {
		t.Fatal(err)
	}
	if again.Created || again.Code != res.Code || again.Guest.ID != res.Guest.ID || !again.AlreadyCheckedIn {
		t.Errorf("sent again %+v", again)
	}
	arrived, err := st.Stats(ctx)
	if err != nil || arrived.CheckedIn != 1 || arrived.WalkIns != 1 || arrived.Invited != 2 || arrived.Coming != 2 {
		t.Errorf("figures %+v, %v; want 1 in, 1 walk-in, 2 invited, 2 coming", arrived.Counts, err)
	}

	// The key names one person: another name with it is refused.
	_, err = door.WalkIn(ctx, staff, "192.0.2.1", app.WalkInRequest{FirstName: "Ola", LastName: "Berg", Key: "k-1"})
	wantError(t, err, app.Unprocessable, "idempotency_key_reused")
	_, err = door.WalkIn(ctx, staff, "192.0.2.1", app.WalkInRequest{FirstName: "Ola", LastName: " ", Key: "k-2"})
	wantError(t, err, app.Invalid, "invalid_field")
	_, err = door.WalkIn(ctx, staff, "192.0.2.1", app.WalkInRequest{FirstName: "Ola", LastName: "Berg", GroupOf: "nobody", Key: "k-3"})
	wantError(t, err, app.NotFound, "not_found")
}

// TestDoorWalkInSentAtOnce: a door's queue and a second tab send the same
// walk-in at the same moment; one person is added and checked in, and
// every sending answers with that person's code.
func TestDoorWalkInSentAtOnce(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	door := app.NewDoor(st, nil, nil, nil, nil)
	staff := identityOf(addGuest(t, st, guest.Guest{FirstName: "Bo", Role: guest.RoleBartender}))
	req := app.WalkInRequest{FirstName: "Nora", LastName: "Lind", Key: "tab-1"}
	const sends = 6
	codes := make(chan string, sends)
	var wg sync.WaitGroup
	for range sends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := door.WalkIn(ctx, staff, "192.0.2.1", req)
			if err != nil {
				t.Error(err)
				return
			}
			codes <- res.Code
		}()
	}
	wg.Wait()
	close(codes)
	var first string
	for c := range codes {
		if first == "" {
			first = c
		}
		if c != first || len(c) != 8 {
			t.Errorf("codes %q and %q for one walk-in", first, c)
		}
	}
	figures, err := st.Stats(ctx)
	if err != nil || figures.Invited != 1 || figures.WalkIns != 1 || figures.CheckedIn != 1 {
		t.Errorf("figures %+v, %v; want 1 invited, 1 walk-in, 1 in", figures.Counts, err)
	}
}
