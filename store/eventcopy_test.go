package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// createEvent makes an event from ne on the control store s, and drops
// its database when the test ends.
func createEvent(t *testing.T, s *store.Store, ne store.NewEvent) event.Event {
	t.Helper()
	ev, err := s.CreateEvent(context.Background(), ne)
	if err != nil {
		t.Fatalf("create event: %v", err)
	}
	t.Cleanup(func() { s.DB().Client().Database(ev.Database).Drop(context.Background()) })
	return ev
}

// openEvent opens the store of ev beside s, closed when the test ends.
func openEvent(t *testing.T, s *store.Store, ev event.Event) *store.Store {
	t.Helper()
	e, err := s.OpenEvent(context.Background(), ev.Database)
	if err != nil {
		t.Fatalf("open event %s: %v", ev.ID, err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func controlEvent(t *testing.T, s *store.Store) event.Event {
	t.Helper()
	ev, err := s.ControlEvent(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// evening is a party after its night, written through today's store
// methods: settings with every detail, guests who answered, a group, a
// child, needs, a checked-in guest, an admin, a replaced code, a menu
// with a photo and an ingredient out of stock, and an order.
type evening struct {
	guests  map[string]guest.Guest // by first name, as stored after the night
	oldCode string                 // Bob's code before the host replaced it
	drink   string
	photo   string
}

func writeEvening(t *testing.T, s *store.Store) evening {
	t.Helper()
	ctx := context.Background()
	deadline := midsummerDate.Add(-7 * 24 * time.Hour)
	yes := true
	st := midsummer(midsummerDate)
	st.DressCode, st.Info, st.RSVPDeadline = "White", "Bring a song.", &deadline
	st.PublicMenu, st.Registration, st.Capacity, st.OfferHours = &yes, guest.RegistrationOpen, 40, 12
	if _, err := s.SaveSettings(ctx, st); err != nil {
		t.Fatal(err)
	}
	list := []guest.Guest{
		{FirstName: "Ada", LastName: "Lind", GroupID: "lind", ExpectedGuests: 2, Email: "ada@example.com", Language: "sv",
			Companions: []guest.Companion{{Name: "Lo", AgeGroup: guest.AgeChild}}, Dietary: guest.Dietary{Text: "nut allergy"}},
		{FirstName: "Bob", LastName: "Lind", GroupID: "lind"},
		{FirstName: "Cy", LastName: "Lind", GroupID: "lind", AgeGroup: guest.AgeChild},
		{FirstName: "Sam", LastName: "Solo", Tastes: guest.Tastes{Likes: []string{"sour"}}},
		{FirstName: "Dee", LastName: "Door"},
		{FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin},
		{FirstName: "Tom", LastName: "Tap", Role: guest.RoleBartender},
	}
	for _, g := range list {
		if err := s.InsertGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	byName := func() map[string]guest.Guest {
		gs, _, err := s.ListGuests(ctx, store.GuestQuery{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]guest.Guest{}
		for _, g := range gs {
			out[g.FirstName] = g
		}
		return out
	}
	p := byName()
	n := func(v int) *int { return &v }
	for _, a := range []struct {
		who    string
		answer guest.Answer
	}{
		{"Ada", guest.Answer{Status: guest.StatusComing, NumGuests: n(5), Confirm: true}},
		{"Sam", guest.Answer{Status: guest.StatusDeclined}},
		{"Dee", guest.Answer{Status: guest.StatusComing}},
	} {
		me := p[a.who]
		group, err := s.GroupOf(ctx, me)
		if err != nil {
			t.Fatal(err)
		}
		d, err := guest.Decide(a.answer, me, group)
		if err != nil {
			t.Fatalf("%s answers: %v", a.who, err)
		}
		if _, err := s.ApplyRSVP(ctx, me, group, d, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, recorded, err := s.CheckIn(ctx, p["Dee"].ID, guest.CheckIn{At: time.Now(), By: "Hal Host", ByID: p["Hal"].ID, Heads: 1}); err != nil || !recorded {
		t.Fatalf("check in Dee: recorded %v, %v", recorded, err)
	}
	if _, err := s.RecordActivity(ctx, []store.Activity{{GuestID: p["Sam"].ID, LastLogin: ptr(time.Now())}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetInvite(ctx, p["Ada"].ID, guest.Invite{How: guest.InviteEmail, At: time.Now(), Status: guest.InviteSent}); err != nil {
		t.Fatal(err)
	}
	walkIn := guest.Guest{ID: store.NewID(), FirstName: "Wes", LastName: "Walk", Source: guest.SourceWalkIn, WalkIn: &guest.WalkIn{At: time.Now(), By: "Hal Host"}}
	if _, created, err := s.AddWalkIn(ctx, walkIn); err != nil || !created {
		t.Fatalf("walk-in: created %v, %v", created, err)
	}
	if err := s.SaveRegistration(ctx, &guest.Registration{ID: "rae", FirstName: "Rae", LastName: "Reg", Email: "rae@example.com", Status: guest.RegWaiting, Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.TakePlaces(ctx, 2, 40); err != nil || !ok {
		t.Fatalf("take places: %v, %v", ok, err)
	}
	ev := evening{oldCode: p["Bob"].Code, drink: "negroni", photo: "negroni.jpg"}
	if _, err := s.RegenerateCode(ctx, p["Bob"].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureSection(ctx, "classics", "Classics"); err != nil {
		t.Fatal(err)
	}
	if err := s.Images().Put(ctx, ev.photo, []byte("a photo")); err != nil {
		t.Fatal(err)
	}
	d := &menu.Drink{ID: ev.drink, Name: "Negroni", Section: "classics", ImageURL: "/images/" + ev.photo,
		Ingredients: []menu.Ingredient{{Name: "Gin", Amount: 3, Unit: "cl", Key: menu.IngredientKey("Gin")}}}
	if err := s.CreateDrink(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetIngredientStock(ctx, menu.IngredientKey("Gin"), "Gin", false, "Tom"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateOrder(ctx, newOrder("o1", p["Ada"].ID, order.Queued, t0)); err != nil {
		t.Fatal(err)
	}
	ev.guests = byName()
	if g := ev.guests["Ada"]; g.Status != guest.StatusComing || g.ExtraGuests != 1 || g.RSVPDate == nil {
		t.Fatalf("Ada's answer was not stored: %+v", g)
	}
	if g := ev.guests["Dee"]; g.CheckedInAt == nil || g.ArrivedHeads != 1 {
		t.Fatalf("Dee's check-in was not stored: %+v", g)
	}
	if g := ev.guests["Ada"]; g.Invite == nil {
		t.Fatalf("Ada's invitation was not stored: %+v", g)
	}
	if g := ev.guests["Wes"]; !g.IsWalkIn() || g.WalkIn == nil {
		t.Fatalf("the walk-in was not stored: %+v", g)
	}
	if g := ev.guests["Bob"]; g.SessionVersion == 0 || g.Code == ev.oldCode {
		t.Fatalf("Bob's new code was not stored: %+v", g)
	}
	return ev
}

func ptr[T any](v T) *T { return &v }

func TestCreateEventCopiesGuestsWithAnswersReset(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	night := writeEvening(t, s)
	starts := time.Date(2100, 6, 19, 16, 0, 0, 0, time.UTC)
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "  Midsummer 2100 ", StartsAt: &starts, Guests: true, Menu: true, Settings: true})

	if ev.Name != "Midsummer 2100" || ev.StartsAt == nil || !ev.StartsAt.Equal(starts) || ev.Location != "Ada's garden" ||
		ev.Timezone != "Europe/Stockholm" || ev.Status != event.Upcoming || ev.Database != s.DB().Name()+"_e_"+ev.ID {
		t.Errorf("new event = %+v", ev)
	}
	if got, err := s.Event(ctx, ev.ID); err != nil || got.Name != ev.Name || got.Database != ev.Database {
		t.Errorf("Event(%s) = %+v, %v", ev.ID, got, err)
	}
	e := openEvent(t, s, ev)

	st, err := e.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.EventName != "Midsummer 2100" || !st.EventDate.Equal(starts) || st.RSVPDeadline != nil || st.Location != "Ada's garden" ||
		st.DressCode != "White" || st.Info != "Bring a song." || st.Timezone != "Europe/Stockholm" ||
		st.PublicMenu == nil || !*st.PublicMenu || st.Registration != guest.RegistrationOpen || st.Capacity != 40 || st.OfferHours != 12 {
		t.Errorf("new event's settings = %+v", st)
	}

	for name, was := range night.guests {
		g, err := e.GuestByID(ctx, was.ID)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if g.Code != was.Code || g.FirstName != was.FirstName || g.LastName != was.LastName || g.Email != was.Email ||
			g.Language != was.Language || g.Role != was.Role || g.GroupID != was.GroupID || g.AgeGroup != was.AgeGroup ||
			g.ExpectedGuests != was.ExpectedGuests || !slices.Equal(g.Dietary.Tags, was.Dietary.Tags) ||
			!slices.Equal(g.Tastes.Likes, was.Tastes.Likes) || len(g.Companions) != len(was.Companions) && name != "Ada" {
			t.Errorf("%s's standing details changed:\n was %+v\n now %+v", name, was, g)
		}
		if g.Status != guest.StatusPending || g.Heads() != 0 || g.ExtraGuests != 0 || g.RSVPDate != nil || g.RSVPBy != "" ||
			g.LastLogin != nil || g.LastAccess != nil || g.CheckedInAt != nil || g.CheckedInBy != "" || g.ArrivedHeads != 0 ||
			g.Invite != nil || g.SessionVersion != 0 || g.Source != "" || g.WalkIn != nil {
			t.Errorf("%s's answers were not reset: %+v", name, g)
		}
		byCode, err := e.GuestByCode(ctx, was.Code)
		if err != nil || byCode.ID != was.ID {
			t.Errorf("%s's code %s signs in %+v, %v", name, was.Code, byCode.ID, err)
		}
	}
	ada, _ := e.GuestByID(ctx, night.guests["Ada"].ID)
	if len(ada.Companions) != 1 || ada.Companions[0].Name != "Lo" || !ada.Companions[0].Child() || !slices.Contains(ada.Dietary.Tags, "nuts") {
		t.Errorf("Ada's child or needs lost: %+v %+v", ada.Companions, ada.Dietary)
	}
	if bob, err := e.GuestOfReplacedCode(ctx, night.oldCode); err != nil || bob.ID != night.guests["Bob"].ID {
		t.Errorf("Bob's replaced code in the new event = %+v, %v", bob.ID, err)
	}

	stats, err := e.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Ada, Bob, Cy, Sam, Dee, Wes: the admin and the bartender do not attend.
	if stats.Invited != 6 || stats.Pending != 6 || stats.Coming != 0 || stats.ComingHeads != 0 || stats.Declined != 0 ||
		stats.CheckedIn != 0 || stats.NeverLoggedIn != 6 || stats.Expected != 7 {
		t.Errorf("new event's stats = %+v", stats.Counts)
	}
	if list, total, err := e.ListGuests(ctx, store.GuestQuery{}); err != nil || total != 8 || len(list) != 8 {
		t.Errorf("host's list: %d of %d, %v", len(list), total, err)
	}
	if list, total, err := e.ListGuests(ctx, store.GuestQuery{Status: guest.StatusPending}); err != nil || total != 6 || len(list) != 6 {
		t.Errorf("host's list of pending guests: %d of %d, %v", len(list), total, err)
	}

	drinks, err := e.Drinks(ctx, menu.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(drinks) != 1 || drinks[0].ID != night.drink || !drinks[0].Available || len(drinks[0].MissingIngredients) != 0 ||
		drinks[0].ImageURL != "/images/"+night.photo {
		t.Errorf("new event's drinks = %+v", drinks)
	}
	if secs, err := e.Sections(ctx); err != nil || len(secs) != 1 || secs[0].ID != "classics" {
		t.Errorf("new event's sections = %+v, %v", secs, err)
	}
	if v, err := e.MenuVersion(ctx); err != nil || v < 1 {
		t.Errorf("new event's menu version = %d, %v", v, err)
	}
	if r, _, err := e.Images().Open(ctx, night.photo); err != nil {
		t.Errorf("photo in the new event: %v", err)
	} else {
		b, _ := io.ReadAll(r)
		r.Close()
		if string(b) != "a photo" {
			t.Errorf("photo = %q", b)
		}
	}

	// Nothing of the night comes along.
	copied := []string{"guests", "codes", "settings", "stats", "guestchanges", "sections", "drinks", "images", "versions"}
	names, err := e.DB().ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if slices.Contains(copied, name) {
			continue
		}
		// The recount of the new event's figures claims the version it
		// writes (guests_stats.go); nothing else may be there.
		filter := bson.D{}
		if name == "claims" {
			filter = bson.D{{Key: "_id", Value: bson.D{{Key: "$not", Value: bson.Regex{Pattern: "^stats/"}}}}}
		}
		if n, err := e.DB().Collection(name).CountDocuments(ctx, filter); err != nil || n != 0 {
			t.Errorf("collection %s of the new event holds %d documents (%v)", name, n, err)
		}
	}
	if p, err := e.RegistrationPlaces(ctx); err != nil || p.Taken != 0 {
		t.Errorf("new event's registration places = %+v, %v", p, err)
	}
	if n, err := s.DB().Collection("orders").CountDocuments(ctx, bson.D{}); err != nil || n != 1 {
		t.Errorf("the first event's orders: %d, %v", n, err)
	}

	// The event copied from keeps its night.
	if g, err := s.GuestByID(ctx, night.guests["Ada"].ID); err != nil || g.Status != guest.StatusComing || g.ExtraGuests != 1 {
		t.Errorf("Ada in the first event = %+v, %v", g, err)
	}
	if d, err := s.DrinkByID(ctx, night.drink); err != nil || d.Available {
		t.Errorf("the first event's drink = %+v, %v", d, err)
	}
}

func TestCreateEventAdminsOnly(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	night := writeEvening(t, s)
	// The admin's code lost its reservation, as a guest written by other
	// code than the store's has none: the copy reserves it.
	if _, err := s.DB().Collection("codes").DeleteOne(ctx, bson.D{{Key: "_id", Value: night.guests["Hal"].Code}}); err != nil {
		t.Fatal(err)
	}
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Crayfish party"})
	if ev.StartsAt != nil || ev.Location != "" || ev.Timezone != "UTC" || ev.Name != "Crayfish party" {
		t.Errorf("new event = %+v", ev)
	}
	e := openEvent(t, s, ev)

	gs, total, err := e.ListGuests(ctx, store.GuestQuery{})
	if err != nil {
		t.Fatal(err)
	}
	hal := night.guests["Hal"]
	if total != 1 || len(gs) != 1 || gs[0].ID != hal.ID || gs[0].Code != hal.Code || gs[0].Role != guest.RoleAdmin {
		t.Errorf("new event's guests = %+v", gs)
	}
	if g, err := e.GuestByCode(ctx, hal.Code); err != nil || g.ID != hal.ID {
		t.Errorf("the admin's sign-in: %+v, %v", g.ID, err)
	}
	if _, err := e.GuestByCode(ctx, night.guests["Ada"].Code); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a guest's code in the admins' event: %v, want ErrNotFound", err)
	}
	if st, err := e.Stats(ctx); err != nil || st.Invited != 0 {
		t.Errorf("stats = %+v, %v", st.Counts, err)
	}
	st, err := e.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.DressCode != "" || st.Registration != "" || st.Capacity != 0 || st.PublicMenu != nil || st.RSVPDeadline != nil {
		t.Errorf("settings without Settings = %+v, want the defaults", st)
	}
	if d, err := e.Drinks(ctx, menu.Filter{}); err != nil || len(d) != 0 {
		t.Errorf("drinks without Menu = %+v, %v", d, err)
	}
	if v, err := e.MenuVersion(ctx); err != nil || v != 0 {
		t.Errorf("menu version without Menu = %d, %v", v, err)
	}
}

func TestCreateEventRefused(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	from := controlEvent(t, s).ID
	tests := []struct {
		name  string
		ne    store.NewEvent
		want  error
		field string
	}{
		{"unknown event", store.NewEvent{From: store.NewID(), Name: "Again"}, store.ErrNotFound, ""},
		{"no event", store.NewEvent{Name: "Again"}, store.ErrNotFound, ""},
		{"no name", store.NewEvent{From: from, Name: "  \t"}, store.ErrInvalidEvent, "eventName"},
		{"name too long", store.NewEvent{From: from, Name: strings.Repeat("x", 201)}, store.ErrInvalidEvent, "eventName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := s.DB().Client().ListDatabaseNames(ctx, bson.D{})
			if err != nil {
				t.Fatal(err)
			}
			ev, err := s.CreateEvent(ctx, tt.ne)
			if !errors.Is(err, tt.want) {
				t.Fatalf("CreateEvent = %+v, %v; want %v", ev, err, tt.want)
			}
			var fe *guest.FieldError
			if tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field) {
				t.Errorf("error %v names no field %s", err, tt.field)
			}
			if n := registryRows(t, s); n != 1 {
				t.Errorf("%d registry rows, want the first event's alone", n)
			}
			after, err := s.DB().Client().ListDatabaseNames(ctx, bson.D{})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range after {
				if strings.HasPrefix(name, s.DB().Name()+"_e_") && !slices.Contains(before, name) {
					t.Errorf("database %s was left behind", name)
				}
			}
		})
	}
}

// TestCreateEventThousandGuests copies a guest list bigger than any one
// command the test database accepts.
func TestCreateEventThousandGuests(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	gs := make([]guest.Guest, 1000)
	for i := range gs {
		gs[i] = guest.Guest{FirstName: fmt.Sprintf("G%04d", i), LastName: "Many", Status: guest.StatusComing}
	}
	for i, err := range s.InsertGuests(ctx, gs) {
		if err != nil {
			t.Fatalf("guest %d: %v", i, err)
		}
	}
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Many again", Guests: true})
	e := openEvent(t, s, ev)
	st, err := e.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Invited != 1000 || st.Pending != 1000 || st.Coming != 0 {
		t.Errorf("stats = %+v", st.Counts)
	}
	for _, coll := range []string{"guests", "codes"} {
		if n, err := e.DB().Collection(coll).CountDocuments(ctx, bson.D{}); err != nil || n != 1000 {
			t.Errorf("%s: %d, %v", coll, n, err)
		}
	}
	last := gs[len(gs)-1]
	if g, err := e.GuestByCode(ctx, last.Code); err != nil || g.ID != last.ID {
		t.Errorf("the last guest's sign-in: %+v, %v", g.ID, err)
	}
}
