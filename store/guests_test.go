package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestGuestCodeLifecycle(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)

	g := guest.Guest{FirstName: "Anna", LastName: "Åberg", ExpectedGuests: 2}
	if err := s.CreateGuest(ctx, &g); err != nil {
		t.Fatal(err)
	}
	if !guest.ValidCode(g.Code) {
		t.Fatalf("code %q is not a valid code", g.Code)
	}
	if g.Role != guest.RoleGuest || g.Status != guest.StatusPending {
		t.Fatalf("defaults: role %q status %q", g.Role, g.Status)
	}

	got, err := s.GuestByCode(ctx, g.Code)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != g.ID || got.LastNameKey != "aberg" || got.ExpectedGuests != 2 {
		t.Fatalf("by code: got %+v", got)
	}

	newCode, err := s.RegenerateCode(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if newCode == g.Code {
		t.Fatal("regenerated code equals the old one")
	}
	if _, err := s.GuestByCode(ctx, g.Code); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("old code still works: %v", err)
	}
	if got, err := s.GuestByCode(ctx, newCode); err != nil || got.ID != g.ID {
		t.Fatalf("new code: %v %+v", err, got)
	}

	if err := s.DeleteGuest(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GuestByCode(ctx, newCode); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("code of deleted guest: %v", err)
	}
	if _, err := s.GuestByID(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted guest: %v", err)
	}
}

func TestCreateGuestsConcurrently(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			role := guest.RoleGuest
			if i%10 == 0 {
				role = guest.RoleBartender
			}
			errs <- s.CreateGuest(ctx, &guest.Guest{FirstName: "G", LastName: "L", Role: role})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		filter bson.D
		want   int64
	}{
		{"all", nil, 40},
		{"bartenders", bson.D{{Key: "role", Value: "bartender"}}, 4},
		{"pending", bson.D{{Key: "status", Value: "pending"}}, 40},
		{"coming", bson.D{{Key: "status", Value: "coming"}}, 0},
	}
	for _, tt := range tests {
		n, err := s.CountGuests(ctx, tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		if n != tt.want {
			t.Errorf("%s: %d guests, want %d", tt.name, n, tt.want)
		}
	}
}
