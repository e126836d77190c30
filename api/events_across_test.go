package api

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// Two events' registry ids in the tests: the first ("" in tokens) and
// another.
const (
	firstEventID  = "aaaaaaaaaaaaaaaaaaaaaaaa"
	secondEventID = "bbbbbbbbbbbbbbbbbbbbbbbb"
)

// twoEvents is api.Events over two test APIs, as serve's runtimes are;
// like serve's, it reads the list once and keeps it (the tests rename no
// event).
type twoEvents struct {
	first, second EventRuntime

	mu   sync.Mutex
	list []event.Event
}

func (e *twoEvents) FirstID() string { return firstEventID }
func (e *twoEvents) Changed(string)  {}

func (e *twoEvents) List(ctx context.Context) ([]event.Event, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.list != nil {
		return e.list, nil
	}
	var list []event.Event
	for _, ev := range []struct {
		id string
		st *store.Store
	}{{firstEventID, e.first.Store}, {secondEventID, e.second.Store}} {
		s, err := ev.st.Settings(ctx)
		if err != nil {
			return nil, err
		}
		list = append(list, event.Event{ID: ev.id, Name: s.EventName, StartsAt: s.EventDate, Timezone: s.Timezone,
			Database: ev.st.DB().Name(), Status: event.StatusAt(s.EventDate, false, time.Now())})
	}
	event.Sort(list)
	e.list = list
	return list, nil
}

func (e *twoEvents) Runtime(_ context.Context, id string) (EventRuntime, error) {
	switch id {
	case "":
		return e.first, nil
	case secondEventID:
		return e.second, nil
	}
	return EventRuntime{}, store.ErrNotFound
}

// eventHub is the test hub as one event's API publishes to it.
type eventHub struct {
	h     *hub.Hub
	event string
}

func (p eventHub) Publish(ctx context.Context, topic, ev string, data any) error {
	return p.h.Publish(ctx, live.InEvent(p.event, topic), ev, data)
}

func (p eventHub) PublishMany(ctx context.Context, out []hub.Outgoing) error {
	scoped := make([]hub.Outgoing, len(out))
	for i, o := range out {
		o.Topic = live.InEvent(p.event, o.Topic)
		scoped[i] = o
	}
	return p.h.PublishMany(ctx, scoped)
}

func (p eventHub) OnEvent(topic string, fn func(hub.Event)) {
	p.h.OnEvent(live.InEvent(p.event, topic), fn)
}

// eventParty is one event's people, signed in to it, and what they made.
type eventParty struct {
	*barEnv
	event   string
	marker  string
	board   string
	orderID string
}

// twoEventEnv starts the first event's API, which every request reaches,
// and a second event's on its own database behind it, sharing the keys
// and the hub as serve's runtimes do.
func twoEventEnv(t testing.TB) (first, second *eventParty) {
	t.Helper()
	events := &twoEvents{}
	a := newTestEnv(t, func(d *Deps) { d.Events = events })
	b := newTestEnvOn(t, storetest.New(t), func(d *Deps) {
		d.Keys, d.Tickets, d.Event, d.Events, d.Control = a.keys, a.deps.Tickets, secondEventID, events, a.store
		d.Publish, d.Live, d.SessionBus = eventHub{a.hub, secondEventID}, a.hub, a.hub
		d.Bar.Events = eventHub{a.hub, secondEventID}
	})
	// The installation's app key, as the pages send it.
	b.keys, b.appKey = a.keys, a.appKey
	events.first = EventRuntime{API: a.srv.Config.Handler, Store: a.store}
	events.second = EventRuntime{API: b.srv.Config.Handler, Store: b.store}
	party := func(e *testEnv, event, marker string) *eventParty {
		ctx := context.Background()
		if _, err := e.store.SaveSettings(ctx, guest.Settings{EventName: marker + " night", Timezone: "UTC"}); err != nil {
			t.Fatal(err)
		}
		p := &eventParty{barEnv: barEnvOf(e), event: event, marker: marker}
		// People whose names say their event.
		p.guest = e.addGuest(guest.Guest{FirstName: marker, LastName: marker + "Guest"})
		p.bartender = e.addGuest(guest.Guest{FirstName: marker, LastName: marker + "Bar", Role: guest.RoleBartender})
		p.admin = e.addGuest(guest.Guest{FirstName: marker, LastName: marker + "Host", Role: guest.RoleAdmin})
		p.gTok, p.bTok, p.aTok = p.sign(p.guest), p.sign(p.bartender), p.sign(p.admin)
		b, _, err := e.store.CreateBoard(ctx, marker+" board", "test")
		if err != nil {
			t.Fatal(err)
		}
		if p.board, _, err = e.keys.Sign(auth.Identity{GuestID: b.ID, Name: b.Name, Role: guest.RoleBoard, Event: event}); err != nil {
			t.Fatal(err)
		}
		p.orderID = p.order(p.gTok, 201, one("daiquiri")).ID
		return p
	}
	return party(a, "", "Alpha"), party(b, secondEventID, "Bravo")
}

// sign signs a token for g in the party's event.
func (p *eventParty) sign(g guest.Guest) string {
	p.t.Helper()
	id := identityOf(g)
	id.Event = p.event
	tok, _, err := p.keys.Sign(id)
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}

// secrets are the strings of this event nobody of another may read.
func (p *eventParty) secrets() []string {
	return []string{p.marker, p.guest.ID, p.guest.Code, p.bartender.ID, p.bartender.Code, p.admin.ID, p.admin.Code, p.orderID}
}

// TestEveryRouteAcrossEvents calls every route as every role of one
// event (guest, bartender, host, pick-up board) with the ids of the
// other event's guests, orders, drinks and boards, through the server
// every request reaches, both ways. Nothing of the other event may be in
// any answer, and its database must be unchanged to the byte.
func TestEveryRouteAcrossEvents(t *testing.T) {
	first, second := twoEventEnv(t)
	for _, tt := range []struct{ me, other *eventParty }{{second, first}, {first, second}} {
		t.Run(tt.me.marker+" reaches for "+tt.other.marker, func(t *testing.T) {
			// The installation's keys, made on first use whichever event
			// uses them, exist before the count.
			if status, body := first.do("GET", "/api/register/challenge", "", nil); status != http.StatusOK {
				t.Fatalf("registration challenge: %d %s", status, body)
			}
			before := storetest.Fingerprint(t, tt.other.store)
			tokens := map[string]string{"guest": tt.me.gTok, "bartender": tt.me.bTok, "admin": tt.me.aTok, "board": tt.me.board}
			ids := []string{tt.other.guest.ID, tt.other.orderID, tt.other.admin.ID}
			for _, route := range walkRoutes(t, first.srv.Config.Handler) {
				if route == "GET /ws" {
					continue
				}
				method, pattern, _ := strings.Cut(route, " ")
				for _, id := range ids {
					path := strings.NewReplacer("{id}", id, "{action}", "start", "{ingredient}", "lime",
						"{name}", id+".jpg", "{file}", id+".png", "{token}", id).Replace(pattern)
					for who, tok := range tokens {
						// Through the entry server, as a browser would.
						status, body := first.do(method, path, tok, map[string]any{})
						if status >= 500 {
							t.Errorf("%s as %s with %s: %d: %s", route, who, id, status, body)
						}
						secrets := tt.other.secrets()
						if route == "GET /api/admin/events" && who == "admin" && tt.me.event == "" {
							// The first event's hosts host every event: they
							// list the others' names, and nothing more.
							secrets = secrets[1:]
						}
						for _, s := range secrets {
							if bytes.Contains(body, []byte(s)) {
								t.Errorf("%s %s as %s of %s: the answer holds %q of %s: %s", method, path, who, tt.me.marker, s, tt.other.marker, body)
							}
						}
						if route == "POST /api/auth/signout-everywhere" {
							tt.me.gTok, tt.me.bTok, tt.me.aTok = tt.me.resign(tt.me.guest), tt.me.resign(tt.me.bartender), tt.me.resign(tt.me.admin)
							tokens["guest"], tokens["bartender"], tokens["admin"] = tt.me.gTok, tt.me.bTok, tt.me.aTok
						}
					}
				}
			}
			after := storetest.Fingerprint(t, tt.other.store)
			for name, sum := range before {
				if after[name] != sum {
					t.Errorf("%s's %s changed under %s's requests", tt.other.marker, name, tt.me.marker)
				}
			}
			for name := range after {
				if _, ok := before[name]; !ok {
					t.Errorf("%s's requests made %s's collection %s", tt.me.marker, tt.other.marker, name)
				}
			}
		})
	}
}

// resign signs g in again after "sign out everywhere" ended their tokens.
func (p *eventParty) resign(g guest.Guest) string {
	p.t.Helper()
	g, err := p.store.GuestByID(context.Background(), g.ID)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.sign(g)
}

// TestTokenIsServedByItsEvent: whichever route, a token is answered from
// its own event's data, and a token of an event that is gone, or of
// another event at an API serving one alone, is refused.
func TestTokenIsServedByItsEvent(t *testing.T) {
	first, second := twoEventEnv(t)
	for _, p := range []*eventParty{first, second} {
		status, body := first.do("GET", "/api/me", p.gTok, nil)
		if status != http.StatusOK || !bytes.Contains(body, []byte(p.marker+"Guest")) {
			t.Errorf("GET /api/me as %s's guest: %d %s", p.marker, status, body)
		}
		status, body = first.do("GET", "/api/bar/queue", p.bTok, nil)
		if status != http.StatusOK || !bytes.Contains(body, []byte(p.orderID)) {
			t.Errorf("GET /api/bar/queue as %s's bartender: %d, want its order %s: %s", p.marker, status, p.orderID, body)
		}
		status, body = first.do("GET", "/api/event", p.gTok, nil)
		if status != http.StatusOK || !bytes.Contains(body, []byte(p.marker+" night")) {
			t.Errorf("GET /api/event as %s's guest: %d %s", p.marker, status, body)
		}
	}
	id := identityOf(second.guest)
	id.Event = "cccccccccccccccccccccccc"
	gone, _, err := first.keys.Sign(id)
	if err != nil {
		t.Fatal(err)
	}
	if status, body := first.do("GET", "/api/me", gone, nil); status != http.StatusUnauthorized || errorCode(t, body) != "event_gone" {
		t.Errorf("a token of an event that is gone: %d %s, want 401 event_gone", status, body)
	}
	// An API that serves one event alone refuses another event's token
	// rather than answer it from the wrong data.
	alone := newTestEnvOn(t, first.store, func(d *Deps) { d.Keys = first.keys })
	alone.keys = first.keys
	if status, body := alone.do("GET", "/api/me", second.gTok, nil); status != http.StatusUnauthorized {
		t.Errorf("another event's token at an API of one event: %d %s, want 401", status, body)
	}
}

// BenchmarkEventDispatch is what serving an event other than the first
// costs: the same signed-in read, GET /api/me, by a guest of the first
// event (served where it arrives) and by a guest of another (handed to
// that event's API by toTokensEvent).
func BenchmarkEventDispatch(b *testing.B) {
	first, second := twoEventEnv(b)
	for _, p := range []*eventParty{first, second} {
		b.Run(p.marker, func(b *testing.B) {
			for b.Loop() {
				if status, body := first.do("GET", "/api/me", p.gTok, nil); status != http.StatusOK {
					b.Fatalf("GET /api/me: %d %s", status, body)
				}
			}
		})
	}
}

// TestPublicPagesNameTheirEvent: a page that needs no sign-in (the
// registration page, the public menu) names its event in its address;
// its calls are that event's, an unknown event is 404, a token of
// another event is refused where one is needed, and the second event's
// poster points at its own menu.
func TestPublicPagesNameTheirEvent(t *testing.T) {
	first, second := twoEventEnv(t)
	var ev struct {
		ID        string `json:"id"`
		EventName string `json:"eventName"`
	}
	for _, tc := range []struct {
		path, name, id string
	}{
		{"/api/event", "Alpha night", firstEventID},
		{"/api/event?event=" + secondEventID, "Bravo night", secondEventID},
		{"/api/event?event=" + firstEventID, "Alpha night", firstEventID},
	} {
		status, body := first.do("GET", tc.path, "", nil)
		decodeInto(t, body, &ev)
		if status != http.StatusOK || ev.EventName != tc.name || ev.ID != tc.id {
			t.Errorf("GET %s: %d %s, want %q with id %s", tc.path, status, body, tc.name, tc.id)
		}
	}
	if status, body := first.do("GET", "/api/register/challenge?event="+secondEventID, "", nil); status != http.StatusOK {
		t.Errorf("the second event's registration challenge: %d %s", status, body)
	}
	if status, body := first.do("GET", "/api/event?event=cccccccccccccccccccccccc", "", nil); status != http.StatusNotFound || errorCode(t, body) != "no_such_event" {
		t.Errorf("an unknown event: %d %s, want 404 no_such_event", status, body)
	}
	// A guest of the first event naming the second reads only what the
	// second shows anyone, never with their token.
	if status, body := first.do("GET", "/api/me?event="+secondEventID, first.gTok, nil); status != http.StatusUnauthorized {
		t.Errorf("a first-event token on the second event's /api/me: %d %s, want 401", status, body)
	}
	status, body := first.do("GET", "/api/admin/poster?anyway=1", second.aTok, nil)
	if status != http.StatusOK || !bytes.Contains(body, []byte("/menu?event="+secondEventID)) {
		t.Errorf("the second event's poster: %d, want a link to /menu?event=%s: %.300s", status, secondEventID, body)
	}
}

// TestLanguageIsThePersons: the language a person's page shows at
// sign-in is recorded on their invitation to every event, as their name
// and needs are, so each event's mail speaks it; an event whose list
// does not have them is left alone.
func TestLanguageIsThePersons(t *testing.T) {
	ctx := context.Background()
	first, second := twoEventEnv(t)
	ada := first.addGuest(guest.Guest{FirstName: "Ada", LastName: "Lind"})
	if err := second.store.InsertGuest(ctx, &guest.Guest{ID: ada.ID, Code: ada.Code, FirstName: "Ada", LastName: "Lind"}); err != nil {
		t.Fatal(err)
	}
	status, body := first.do("POST", "/api/auth/login", "", map[string]string{"code": ada.Code, "lastName": "Lind"}, "Accept-Language", "sv-SE")
	if status != http.StatusOK {
		t.Fatalf("sign-in: %d %s", status, body)
	}
	for _, e := range []*eventParty{first, second} {
		if lang, err := e.store.GuestLanguage(ctx, ada.ID); err != nil || lang != "sv" {
			t.Errorf("%s's Ada speaks %q (%v), want sv", e.marker, lang, err)
		}
		if lang, err := e.store.GuestLanguage(ctx, e.guest.ID); err != nil || lang != "" {
			t.Errorf("%s's own guest speaks %q (%v), want none recorded", e.marker, lang, err)
		}
	}
}
