package api

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/guest"
)

// TestListEvents: the host's list of events has the event this server
// serves, marked current, with its settings' name, time and place, and
// others of the installation in the host's order; it fits the OpenAPI
// document, and is the host's alone.
func TestListEvents(t *testing.T) {
	ctx := context.Background()
	e := newTestEnv(t)
	adminTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	starts := time.Date(2099, 6, 20, 16, 0, 0, 0, time.UTC)
	if _, err := e.store.SaveSettings(ctx, guest.Settings{EventName: "Midsummer", EventDate: &starts, Location: "The garden", Timezone: "Europe/Stockholm"}); err != nil {
		t.Fatal(err)
	}
	// Two more events of the installation, each in a database of its own
	// with today's settings document, as later events will be: last
	// year's party, and one being planned with no date yet.
	other := func(id, name string, date *time.Time) {
		t.Helper()
		db := e.store.DB().Client().Database(e.store.DB().Name() + "_e_" + id)
		t.Cleanup(func() { db.Drop(context.Background()) })
		settings := bson.D{{Key: "_id", Value: "event"}, {Key: "eventName", Value: name}, {Key: "location", Value: "The boathouse"}, {Key: "timezone", Value: "UTC"}}
		if date != nil {
			settings = append(settings, bson.E{Key: "eventDate", Value: *date})
		}
		if _, err := db.Collection("settings").InsertOne(ctx, settings); err != nil {
			t.Fatal(err)
		}
		row := bson.D{{Key: "_id", Value: id}, {Key: "database", Value: db.Name()}, {Key: "createdAt", Value: time.Now().UTC()}}
		if _, err := e.store.DB().Collection("events").InsertOne(ctx, row); err != nil {
			t.Fatal(err)
		}
	}
	lastYear := time.Date(2020, 6, 19, 16, 0, 0, 0, time.UTC)
	other("lastyear", "Midsummer 2020", &lastYear)
	other("planning", "Crayfish party", nil)

	status, body := e.do(http.MethodGet, "/api/admin/events", adminTok, nil)
	if status != http.StatusOK {
		t.Fatalf("GET /api/admin/events: %d %s", status, body)
	}
	_, root := loadOpenAPI(t)
	schema, ok := resolveOpenAPIRef(root, "#/paths/~1api~1admin~1events/get/responses/200/content/application~1json/schema")
	if !ok {
		t.Fatal("api/openapi.json documents no 200 for GET /api/admin/events")
	}
	var v any
	decodeInto(t, body, &v)
	for _, p := range checkOpenAPISchema(root, schema, v, "body") {
		t.Errorf("GET /api/admin/events: %s", p)
	}

	var page eventsPage
	decodeInto(t, body, &page)
	type row struct {
		name, status, location, timezone string
		current, dated                   bool
	}
	want := []row{
		{"Midsummer", "upcoming", "The garden", "Europe/Stockholm", true, true},
		{"Crayfish party", "upcoming", "The boathouse", "UTC", false, false},
		{"Midsummer 2020", "past", "The boathouse", "UTC", false, true},
	}
	if len(page.Events) != len(want) {
		t.Fatalf("%d events, want %d: %s", len(page.Events), len(want), body)
	}
	for i, w := range want {
		ev := page.Events[i]
		got := row{ev.Name, string(ev.Status), ev.Location, ev.Timezone, ev.Current, ev.StartsAt != nil}
		if got != w || ev.ID == "" {
			t.Errorf("event %d: %+v (id %q), want %+v", i, got, ev.ID, w)
		}
	}
	if s := page.Events[0].StartsAt; s == nil || !s.Equal(starts) {
		t.Errorf("the current event starts at %v, want %v", s, starts)
	}
	// Undated: null, not an absent field.
	var raw struct {
		Events []map[string]json.RawMessage `json:"events"`
	}
	decodeInto(t, body, &raw)
	if s, ok := raw.Events[1]["startsAt"]; !ok || string(s) != "null" {
		t.Errorf("an undated event's startsAt is %s (present %v), want null", s, ok)
	}

	for _, role := range []guest.Role{guest.RoleGuest, guest.RoleBartender} {
		tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Not", LastName: "Host", Role: role}))
		if status, body := e.do(http.MethodGet, "/api/admin/events", tok, nil); status != http.StatusForbidden {
			t.Errorf("GET /api/admin/events as %s: %d %s, want 403", role, status, body)
		}
	}
	if status, body := e.do(http.MethodGet, "/api/admin/events", "", nil); status != http.StatusUnauthorized {
		t.Errorf("GET /api/admin/events signed out: %d %s, want 401", status, body)
	}
}
