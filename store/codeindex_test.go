package store_test

import (
	"context"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// holders asks the control store s which of evs may hold code.
func holders(t *testing.T, s *store.Store, code string, evs ...event.Event) []string {
	t.Helper()
	dbs := make([]string, len(evs))
	for i, e := range evs {
		dbs[i] = e.Database
	}
	got, err := s.EventsWithCode(context.Background(), code, dbs)
	if err != nil {
		t.Fatalf("events with code %s: %v", code, err)
	}
	return got
}

// Every way a code comes onto an event's list or leaves it keeps the
// control database's index of codes right: a code an event holds is
// always found there, and one it gave up is no longer.
func TestCodeIndexFollowsEveryCode(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	ada := &guest.Guest{FirstName: "Ada", LastName: "Lind"}
	if err := s.CreateGuest(ctx, ada); err != nil {
		t.Fatal(err)
	}
	b := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Wedding", Guests: true})
	c := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Brunch"})
	eb, ec := openEvent(t, s, b), openEvent(t, s, c)

	onlyControl := &guest.Guest{FirstName: "Cid", LastName: "See"}
	if err := s.CreateGuest(ctx, onlyControl); err != nil {
		t.Fatal(err)
	}
	created := &guest.Guest{FirstName: "Bea", LastName: "Bee"}
	if err := eb.CreateGuest(ctx, created); err != nil {
		t.Fatal(err)
	}
	given := &guest.Guest{FirstName: "Gus", LastName: "Given", Code: "GIVEN7"}
	if err := ec.InsertGuest(ctx, given); err != nil {
		t.Fatal(err)
	}
	imported := []guest.Guest{{FirstName: "Ida", LastName: "Import"}, {FirstName: "Ivo", LastName: "Import", Code: "IMPRT9"}}
	for i, err := range eb.InsertGuests(ctx, imported) {
		if err != nil {
			t.Fatalf("import %d: %v", i, err)
		}
	}
	gone := &guest.Guest{FirstName: "Rex", LastName: "Removed"}
	if err := eb.CreateGuest(ctx, gone); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.RemoveGuest(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	newCode, err := eb.RegenerateCode(ctx, ada.ID)
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name string
		code string
		want []event.Event
	}{
		{"copied with the list", ada.Code, nil}, // then replaced at the wedding
		{"replaced", newCode, []event.Event{b}},
		{"on the control event's list alone", onlyControl.Code, nil},
		{"created", created.Code, []event.Event{b}},
		{"inserted with its code", given.Code, []event.Event{c}},
		{"imported, fresh", imported[0].Code, []event.Event{b}},
		{"imported with its code", imported[1].Code, []event.Event{b}},
		{"removed", gone.Code, nil},
		{"never given", "NOSUCH", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := holders(t, s, tt.code, b, c)
			var want []string
			for _, e := range tt.want {
				want = append(want, e.Database)
			}
			if !slices.Equal(got, want) {
				t.Errorf("events with %s = %v, want %v", tt.code, got, want)
			}
		})
	}

	// A code copied into two events is held by both, and by the one left
	// after the other is deleted.
	both := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "After-party", Guests: true})
	if got := holders(t, s, onlyControl.Code, b, both); !slices.Equal(got, []string{both.Database}) {
		t.Errorf("events with a code copied to the after-party = %v, want it alone", got)
	}
	if err := s.DeleteEvent(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	n, err := s.DB().Collection("eventCodes").CountDocuments(ctx, bson.D{{Key: "databases", Value: b.Database}})
	if err != nil || n != 0 {
		t.Errorf("%d index rows still name the deleted event (%v)", n, err)
	}
	if got := holders(t, s, onlyControl.Code, c, both); !slices.Equal(got, []string{both.Database}) {
		t.Errorf("after the delete, events with the copied code = %v, want the after-party", got)
	}
}

// An event made before the index (its registry row not marked, no row of
// its codes) is asked directly until its store is opened, which indexes
// its codes; from then on the index answers for it, on a new instance
// too.
func TestCodeIndexBackfillsOlderEvents(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	held := &guest.Guest{FirstName: "Ada", LastName: "Lind"}
	if err := s.CreateGuest(ctx, held); err != nil {
		t.Fatal(err)
	}
	older := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Last year", Guests: true})
	// As stop 31's barhub left it: no index, no mark.
	if _, err := s.DB().Collection("eventCodes").DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Collection("events").UpdateOne(ctx, bson.D{{Key: "_id", Value: older.ID}},
		bson.D{{Key: "$unset", Value: bson.D{{Key: "codesIndexed", Value: ""}}}}); err != nil {
		t.Fatal(err)
	}

	restarted := storetest.Instance(t, s)
	if got := holders(t, restarted, "NOSUCH", older); !slices.Equal(got, []string{older.Database}) {
		t.Errorf("before its codes are indexed, the older event = %v, want it asked", got)
	}
	openEvent(t, restarted, older)
	for _, tt := range []struct {
		name string
		code string
		want []string
	}{
		{"held", held.Code, []string{older.Database}},
		{"not held", "NOSUCH", nil},
	} {
		for name, st := range map[string]*store.Store{"the instance that opened it": restarted, "another instance": storetest.Instance(t, s)} {
			if got := holders(t, st, tt.code, older); !slices.Equal(got, tt.want) {
				t.Errorf("%s, %s code: events = %v, want %v", name, tt.name, got, tt.want)
			}
		}
	}
}
