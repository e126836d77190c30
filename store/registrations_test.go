package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestRegistrationPlaces(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	steps := []struct {
		take, capacity int
		fits           bool
		taken          int
	}{
		{3, 5, true, 3},
		{2, 5, true, 5},
		{1, 5, false, 5},
		{1, 6, true, 6},  // a raised capacity
		{4, 0, true, 10}, // no bound
	}
	for i, st := range steps {
		ok, err := s.TakePlaces(ctx, st.take, st.capacity)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.RegistrationPlaces(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok != st.fits || p.Taken != st.taken {
			t.Errorf("step %d: take %d of %d: fits %v, taken %d; want %v, %d", i, st.take, st.capacity, ok, p.Taken, st.fits, st.taken)
		}
	}
	if err := s.ReleasePlaces(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.RegistrationPlaces(ctx); p.Taken != 3 {
		t.Errorf("after releasing 7: taken %d, want 3", p.Taken)
	}
	for want := int64(1); want <= 3; want++ {
		if n, err := s.NextRegistrationSeq(ctx); err != nil || n != want {
			t.Fatalf("seq %d, %v; want %d", n, err, want)
		}
	}
}

// TestRegistrationPlacesUnderTheTurn: 30 writers each taking 2 places
// of 20 in the registration turn (as app.Registrations does) fill exactly
// 10 of them.
func TestRegistrationPlacesUnderTheTurn(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	var fits atomic.Int32
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := s.Lock(ctx, store.RegistrationLock, time.Minute)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			ok, err := s.TakePlaces(ctx, 2, 20)
			if err != nil {
				t.Error(err)
			}
			if ok {
				fits.Add(1)
			}
		}()
	}
	wg.Wait()
	p, _ := s.RegistrationPlaces(ctx)
	if fits.Load() != 10 || p.Taken != 20 {
		t.Fatalf("%d registrations fitted, %d places taken; want 10 and 20", fits.Load(), p.Taken)
	}
}

func TestRegistrationsInLineOrder(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	for i, name := range []string{"Ada", "Bo", "Cy", "Di"} {
		r := guest.Registration{ID: guest.RegistrationID(name + "@example.com"), FirstName: name, LastName: "L", Email: name + "@example.com", Status: guest.RegWaiting, Seq: int64(10 - i)}
		if i == 1 {
			r.Status = guest.RegPlaced
		}
		if err := s.SaveRegistration(ctx, &r); err != nil {
			t.Fatal(err)
		}
	}
	waiting, err := s.RegistrationsWith(ctx, guest.RegWaiting, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range waiting {
		names = append(names, r.FirstName)
	}
	if got := len(names); got != 3 || names[0] != "Di" || names[1] != "Cy" || names[2] != "Ada" {
		t.Fatalf("waiting %v, want [Di Cy Ada]", names)
	}
	if n, _ := s.WaitingAhead(ctx, 10); n != 2 {
		t.Errorf("ahead of Ada: %d, want 2", n)
	}
	if _, err := s.Registration(ctx, guest.RegistrationID("nobody@example.com")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown registration: %v, want ErrNotFound", err)
	}
	if guest.RegistrationID(" ADA@example.com") != guest.RegistrationID("ada@example.com") {
		t.Error("the same address in another case names another registration")
	}
}
