package store_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// midsummer are the settings of the party the upgrade tests keep.
func midsummer(date time.Time) guest.Settings {
	return guest.Settings{EventName: "Midsummer at Ada's", EventDate: &date, Location: "Ada's garden", Timezone: "Europe/Stockholm"}
}

var midsummerDate = time.Date(2099, 6, 20, 16, 0, 0, 0, time.UTC)

// writeParty fills s through today's store methods: settings, two guests
// and an order, as a party served before there were events.
func writeParty(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.SaveSettings(ctx, midsummer(midsummerDate)); err != nil {
		t.Fatal(err)
	}
	ada := &guest.Guest{FirstName: "Ada", LastName: "Åberg"}
	bo := &guest.Guest{FirstName: "Bo", LastName: "Åberg", Role: guest.RoleBartender}
	for _, g := range []*guest.Guest{ada, bo} {
		if err := s.CreateGuest(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateOrder(ctx, newOrder("o1", ada.ID, order.Queued, t0)); err != nil {
		t.Fatal(err)
	}
}

// forgetEvents deletes the registry, so s's database stands for one
// written by barhub before there were events.
func forgetEvents(t *testing.T, s *store.Store) {
	t.Helper()
	if _, err := s.DB().Collection("events").DeleteMany(context.Background(), bson.D{}); err != nil {
		t.Fatal(err)
	}
	if n := registryRows(t, s); n != 0 {
		t.Fatalf("%d registry rows left after deleting them", n)
	}
}

func registryRows(t *testing.T, s *store.Store) int64 {
	t.Helper()
	n, err := s.DB().Collection("events").CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// snapshot is every document of every collection but the registry, as
// stored, so a test can tell that nothing was moved or rewritten.
func snapshot(t *testing.T, s *store.Store) map[string][]bson.Raw {
	t.Helper()
	ctx := context.Background()
	names, err := s.DB().ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]bson.Raw{}
	for _, name := range names {
		if name == "events" {
			continue
		}
		cur, err := s.DB().Collection(name).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			t.Fatal(err)
		}
		var raw []bson.Raw
		if err := cur.All(ctx, &raw); err != nil {
			t.Fatal(err)
		}
		docs[name] = raw
	}
	return docs
}

func sameSnapshot(t *testing.T, before, after map[string][]bson.Raw) {
	t.Helper()
	for name, docs := range before {
		if !slices.EqualFunc(docs, after[name], func(a, b bson.Raw) bool { return slices.Equal(a, b) }) {
			t.Errorf("collection %s changed: %d documents before, %d after:\nbefore %v\nafter  %v", name, len(docs), len(after[name]), docs, after[name])
		}
	}
	for name, docs := range after {
		if _, ok := before[name]; !ok && len(docs) > 0 {
			t.Errorf("collection %s appeared with %d documents", name, len(docs))
		}
	}
}

// checkOnlyEvent asserts s lists exactly one event, the party of
// writeParty on s's database, and returns it.
func checkOnlyEvent(t *testing.T, s *store.Store) event.Event {
	t.Helper()
	events, err := s.Events(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 {
		t.Fatalf("%d events, want 1: %+v", len(events), events)
	}
	e := events[0]
	if e.ID == "" || e.Name != "Midsummer at Ada's" || e.StartsAt == nil || !e.StartsAt.Equal(midsummerDate) ||
		e.Location != "Ada's garden" || e.Timezone != "Europe/Stockholm" || e.Database != s.DB().Name() ||
		e.Status != event.Upcoming || e.CreatedAt.IsZero() {
		t.Errorf("event %+v, want the party's settings on database %s, upcoming", e, s.DB().Name())
	}
	return e
}

// A database written before there were events becomes exactly one event
// when a store opens it, with every document left as it was; opening it
// again, or twice at once, still gives one.
func TestFirstEventUpgradesInPlace(t *testing.T) {
	s := storetest.New(t)
	writeParty(t, s)
	forgetEvents(t, s)
	before := snapshot(t, s)

	first := storetest.Instance(t, s)
	if n := registryRows(t, s); n != 1 {
		t.Fatalf("%d registry rows after the upgrade, want 1", n)
	}
	e := checkOnlyEvent(t, first)
	sameSnapshot(t, before, snapshot(t, s))

	// Started again: the same one event.
	again := storetest.Instance(t, s)
	if got := checkOnlyEvent(t, again); got.ID != e.ID || !got.CreatedAt.Equal(e.CreatedAt) {
		t.Errorf("after a restart the event is %+v, want %+v", got, e)
	}

	// Two instances starting together on the old database: one event.
	forgetEvents(t, s)
	const n = 2
	opened := make([]*store.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			opened[i], errs[i] = store.Open(context.Background(), store.Config{URI: storetest.URI(t), Database: s.DB().Name()}, slog.New(slog.DiscardHandler))
		})
	}
	wg.Wait()
	var ids []string
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("open %d: %v", i, errs[i])
		}
		defer opened[i].Close(context.Background())
		ids = append(ids, checkOnlyEvent(t, opened[i]).ID)
	}
	if rows := registryRows(t, s); rows != 1 {
		t.Errorf("%d registry rows after two instances started together, want 1", rows)
	}
	if ids[0] != ids[1] {
		t.Errorf("the two instances list events %s and %s", ids[0], ids[1])
	}
	sameSnapshot(t, before, snapshot(t, s))

	// The party itself reads as before.
	guests, err := s.AllGuests(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(guests) != 2 {
		t.Errorf("%d guests, want 2", len(guests))
	}
	orders, total, err := s.ListOrders(context.Background(), store.OrderFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 || len(orders) != 1 || orders[0].ID != "o1" {
		t.Errorf("orders %v (total %d), want o1 alone", orderIDs(orders), total)
	}
}

// Started on the defaults, barhub serve opens its data folder through an
// embedded server of its own: a folder written before there were events
// becomes one event at the next start, as a shared database does.
func TestFirstEventUpgradesADataFolder(t *testing.T) {
	dir := t.TempDir()
	s := storetest.SingleProcess(t, dir)
	writeParty(t, s)
	forgetEvents(t, s)
	before := snapshot(t, s)
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	for range 2 { // the upgrade, then an ordinary restart
		s = storetest.SingleProcess(t, dir)
		checkOnlyEvent(t, s)
		if n := registryRows(t, s); n != 1 {
			t.Errorf("%d registry rows, want 1", n)
		}
		sameSnapshot(t, before, snapshot(t, s))
		if err := s.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// Instances racing to register the same database register it once, and
// every one of them is given the winner's row.
func TestEnsureFirstEventRace(t *testing.T) {
	s := storetest.New(t)
	stores := []*store.Store{s, storetest.Instance(t, s), storetest.Instance(t, s), storetest.Instance(t, s)}
	for round := range 3 {
		forgetEvents(t, s)
		ids := make([]string, len(stores))
		errs := make([]error, len(stores))
		var wg sync.WaitGroup
		for i, st := range stores {
			wg.Go(func() {
				e, err := st.EnsureFirstEvent(context.Background())
				ids[i], errs[i] = e.ID, err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, store %d: %v", round, i, err)
			}
		}
		if n := registryRows(t, s); n != 1 {
			t.Errorf("round %d: %d registry rows, want 1", round, n)
		}
		if len(slices.Compact(slices.Clone(ids))) != 1 {
			t.Errorf("round %d: the stores were given events %v, want one", round, ids)
		}
	}
}

// The list reads each event's name, time and place from its settings, so
// a change of the settings is the list's change too, and the status
// follows the date.
func TestEventsFollowTheSettings(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)

	// A new database is an event from its first start, on the defaults.
	events, err := s.Events(ctx)
	if err != nil {
		t.Fatal(err)
	}
	def := guest.DefaultSettings()
	if len(events) != 1 || events[0].Name != def.EventName || events[0].StartsAt != nil || events[0].Timezone != def.Timezone ||
		events[0].Location != "" || events[0].Status != event.Upcoming || events[0].Database != s.DB().Name() {
		t.Fatalf("a new database lists %+v, want one upcoming event on the default settings", events)
	}
	id := events[0].ID

	tests := []struct {
		name       string
		settings   guest.Settings
		wantStatus event.Status
	}{
		{"dated far ahead", midsummer(midsummerDate), event.Upcoming},
		{"renamed and moved", guest.Settings{EventName: "Kräftskiva", EventDate: &midsummerDate, Location: "The boathouse", Timezone: "America/Sao_Paulo"}, event.Upcoming},
		{"held in 2020", midsummer(time.Date(2020, 8, 14, 17, 0, 0, 0, time.UTC)), event.Past},
		{"date taken away", guest.Settings{EventName: "Some day", Timezone: "UTC"}, event.Upcoming},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.SaveSettings(ctx, tt.settings); err != nil {
				t.Fatal(err)
			}
			events, err := s.Events(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != 1 {
				t.Fatalf("%d events, want 1", len(events))
			}
			e := events[0]
			sameTime := (e.StartsAt == nil) == (tt.settings.EventDate == nil) && (e.StartsAt == nil || e.StartsAt.Equal(*tt.settings.EventDate))
			if e.ID != id || e.Name != tt.settings.EventName || !sameTime || e.Location != tt.settings.Location ||
				e.Timezone != tt.settings.Timezone || e.Status != tt.wantStatus {
				t.Errorf("event %+v, want id %s with settings %+v, %s", e, id, tt.settings, tt.wantStatus)
			}
		})
	}
}

func TestOpenEventIsolation(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Event B"})
	e, err := s.OpenEvent(ctx, ev.Database)
	if err != nil {
		t.Fatal(err)
	}
	inB := &guest.Guest{FirstName: "Bea", LastName: "Bee"}
	inA := &guest.Guest{FirstName: "Alf", LastName: "Aye"}
	for _, w := range []struct {
		s *store.Store
		g *guest.Guest
	}{{e, inB}, {s, inA}} {
		if err := w.s.CreateGuest(ctx, w.g); err != nil {
			t.Fatal(err)
		}
		if err := w.s.CreateOrder(ctx, newOrder("o-"+w.g.FirstName, w.g.ID, order.Queued, t0)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		s     *store.Store
		own   *guest.Guest
		other *guest.Guest
	}{{"control", s, inA, inB}, {"event B", e, inB, inA}} {
		if _, err := c.s.GuestByID(ctx, c.other.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s sees the other event's guest: %v", c.name, err)
		}
		if _, err := c.s.GuestByCode(ctx, c.other.Code); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s signs in the other event's code: %v", c.name, err)
		}
		if os, err := c.s.OrdersByGuest(ctx, c.other.ID, 10); err != nil || len(os) != 0 {
			t.Errorf("%s sees the other event's orders: %v, %v", c.name, os, err)
		}
		if os, err := c.s.OrdersByGuest(ctx, c.own.ID, 10); err != nil || len(os) != 1 {
			t.Errorf("%s's own orders: %v, %v", c.name, os, err)
		}
		if st, err := c.s.Stats(ctx); err != nil || st.Invited != 1 {
			t.Errorf("%s's stats = %+v, %v", c.name, st.Counts, err)
		}
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("control store after closing event B: %v", err)
	}
	if err := s.CreateGuest(ctx, &guest.Guest{FirstName: "Cid", LastName: "See"}); err != nil {
		t.Fatalf("control store after closing event B: %v", err)
	}
	if _, err := s.OpenEvent(ctx, s.DB().Name()); !errors.Is(err, store.ErrControlEvent) {
		t.Errorf("opening the control database again = %v, want ErrControlEvent", err)
	}
}

func TestOpenEventSingleProcess(t *testing.T) {
	ctx := context.Background()
	s := storetest.SingleProcess(t, "")
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Event B"})
	e := openEvent(t, s, ev)
	if !e.SingleProcess() {
		t.Error("an event store of a single-process store is not single-process")
	}
	g := &guest.Guest{FirstName: "Bea", LastName: "Bee"}
	if err := e.CreateGuest(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := e.CreateOrder(ctx, newOrder("o1", g.ID, order.Queued, t0)); err != nil {
		t.Fatal(err)
	}
	if os, err := e.OrdersByGuest(ctx, g.ID, 10); err != nil || len(os) != 1 {
		t.Errorf("event B's orders: %v, %v", os, err)
	}
	if os, err := s.OrdersByGuest(ctx, g.ID, 10); err != nil || len(os) != 0 {
		t.Errorf("control sees event B's orders: %v, %v", os, err)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("control store after closing event B: %v", err)
	}
}

func TestDeleteEvent(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	control := controlEvent(t, s)
	ev := createEvent(t, s, store.NewEvent{From: control.ID, Name: "Short-lived", Guests: true})
	dbs := func() []string {
		names, err := s.DB().Client().ListDatabaseNames(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	if !slices.Contains(dbs(), ev.Database) {
		t.Fatalf("database %s missing before the delete", ev.Database)
	}
	if err := s.DeleteEvent(ctx, ev.ID); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(dbs(), ev.Database) {
		t.Errorf("database %s still there", ev.Database)
	}
	if _, err := s.Event(ctx, ev.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Event after delete = %v, want ErrNotFound", err)
	}
	for _, c := range []struct {
		name string
		id   string
		want error
	}{
		{"control", control.ID, store.ErrControlEvent},
		{"deleted", ev.ID, store.ErrNotFound},
		{"unknown", store.NewID(), store.ErrNotFound},
	} {
		if err := s.DeleteEvent(ctx, c.id); !errors.Is(err, c.want) {
			t.Errorf("delete %s = %v, want %v", c.name, err, c.want)
		}
	}
	if evs, err := s.Events(ctx); err != nil || len(evs) != 1 || evs[0].ID != control.ID {
		t.Errorf("events after delete = %+v, %v", evs, err)
	}
	if !slices.Contains(dbs(), s.DB().Name()) {
		t.Error("the control database went too")
	}
}

func TestSetEventArchived(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	ev := createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Old one"})
	statusOf := func() event.Status {
		evs, err := s.Events(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.ID == ev.ID {
				return e.Status
			}
		}
		t.Fatalf("event %s not listed", ev.ID)
		return ""
	}
	for _, archived := range []bool{true, false, true} {
		if err := s.SetEventArchived(ctx, ev.ID, archived); err != nil {
			t.Fatal(err)
		}
		want := event.Upcoming
		if archived {
			want = event.Archived
		}
		if got := statusOf(); got != want {
			t.Errorf("archived %v: status %s, want %s", archived, got, want)
		}
	}
	if err := s.SetEventArchived(ctx, store.NewID(), true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("archive an unknown event = %v, want ErrNotFound", err)
	}
	if err := s.SetEventArchived(ctx, controlEvent(t, s).ID, true); !errors.Is(err, store.ErrControlEvent) {
		t.Errorf("archive the control event = %v, want ErrControlEvent", err)
	}
}

// TestEventStoresShareTheWriter: the embedded database has one writer
// for every database it holds, and the bar's urgent moves go before the
// other writes. Every event's store takes its turns in the same line,
// so a move at one event's bar goes before a guest list write of
// another: while the first event's write holds the turn, its next write
// and an urgent one of event B both wait, and B's goes first. With a
// line per store B's move did not wait at all, and three events' stores
// wrote at once past the writer's one turn.
func TestEventStoresShareTheWriter(t *testing.T) {
	ctx := context.Background()
	s := storetest.SingleProcess(t, "")
	e := openEvent(t, s, createEvent(t, s, store.NewEvent{From: controlEvent(t, s).ID, Name: "Event B"}))
	release := s.HoldWriteTurn()
	var mu sync.Mutex
	var ran []string
	write := func(st *store.Store, ctx context.Context, name string, done chan<- error) {
		done <- st.WriteTurn(ctx, func() error {
			mu.Lock()
			ran = append(ran, name)
			mu.Unlock()
			return nil
		})
	}
	done := make(chan error, 2)
	go write(s, ctx, "first event's write", done)
	for s.WriteTurnsWaiting() < 1 {
		time.Sleep(time.Millisecond)
	}
	go write(e, store.Urgent(ctx), "event B's bar move", done)
	deadline := time.Now().Add(10 * time.Second)
	for s.WriteTurnsWaiting() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	early := slices.Clone(ran)
	mu.Unlock()
	if len(early) > 0 {
		t.Errorf("%v wrote while another store held the writer's turn", early)
	}
	release()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"event B's bar move", "first event's write"}; !slices.Equal(ran, want) {
		t.Errorf("the writes ran as %v, want %v", ran, want)
	}
}
