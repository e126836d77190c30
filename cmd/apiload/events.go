package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/store"
)

// loadEvents is api.Events over the events apiload made: all started
// before the load, as serve starts the events it finds (docs/EVENTS.md).
type loadEvents struct {
	firstID string
	list    []event.Event
	apis    map[string]api.EventRuntime
}

func (e *loadEvents) FirstID() string                             { return e.firstID }
func (e *loadEvents) List(context.Context) ([]event.Event, error) { return e.list, nil }
func (e *loadEvents) Changed(string)                              {}
func (e *loadEvents) Runtime(_ context.Context, id string) (api.EventRuntime, error) {
	rt, ok := e.apis[id]
	if !ok {
		return api.EventRuntime{}, store.ErrNotFound
	}
	return rt, nil
}

// eventParts are the first event's, which every other event shares.
type eventParts struct {
	first  http.Handler
	st     *store.Store
	keys   *auth.Keys
	live   *livehub.Live
	rdb    *redis.Client
	prefix string
	dir    string
	logger *slog.Logger
}

// moreEvents makes o.events-1 events from the first, with its guests
// and menu, serves each through an API of its own behind the first, and
// spreads the guests over them: guest i signs in to event i mod
// o.events, and each event's bartender serves that event's orders.
func (s *server) moreEvents(ctx context.Context, o options, evs *loadEvents, p eventParts, closers *[]func()) error {
	first, err := p.st.EnsureFirstEvent(ctx)
	if err != nil {
		return err
	}
	evs.firstID = first.ID
	evs.apis = map[string]api.EventRuntime{"": {API: p.first, Store: p.st}}
	sessions := map[string]*auth.Sessions{}
	for i := 1; i < o.events; i++ {
		e, err := p.st.CreateEvent(ctx, store.NewEvent{From: first.ID, Name: fmt.Sprintf("Event %d", i+1), Guests: true, Menu: true, Settings: true})
		if err != nil {
			return err
		}
		st, err := p.st.OpenEvent(ctx, e.Database)
		if err != nil {
			return err
		}
		*closers = append(*closers, func() { st.Close(context.Background()) })
		hub := p.live.ForEvent(e.ID)
		sessions[e.ID] = auth.NewSessions(st, auth.SessionsConfig{})
		maint := jobs.NewMaintenance(p.logger)
		mctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); maint.Run(mctx) }()
		*closers = append(*closers, func() { stop(); <-done })
		handler := api.New(api.Deps{
			Maintenance: maint, Event: e.ID, Events: evs, Control: p.st,
			Config: api.Config{MaxBodyBytes: 1 << 20}, Logger: p.logger, Store: st, Keys: p.keys, Tickets: p.live.Tickets,
			Publish: hub, Live: p.live.Hub, Presence: hub.Presence, People: hub.People, Sessions: sessions[e.ID], SessionBus: p.live.Hub,
			Bar: api.BarConfig{
				RateBrowse: 1e9, RateOrders: 1e9, MaxOpenOrders: 1 << 30,
				ImageDir: filepath.Join(p.dir, "images"), Redis: p.rdb, RedisPrefix: p.prefix, Events: hub,
			},
		})
		evs.apis[e.ID] = api.EventRuntime{API: handler, Store: st}
		s.events = append(s.events, e.ID)
		// The same bartender, copied with the guest list, signs in to
		// this event too.
		bar := s.bartenders[0]
		id := auth.Identity{GuestID: bar.id, Name: "Bar Tender", Role: "bartender", Event: e.ID}
		tok, _, err := p.keys.Sign(id)
		if err != nil {
			return err
		}
		s.bartenders = append(s.bartenders, person{id: bar.id, token: tok, event: i})
	}
	if evs.list, err = p.st.Events(ctx); err != nil {
		return err
	}
	var mu sync.Mutex
	p.live.ServeEvents(func(_ context.Context, id string) (*auth.Sessions, error) {
		mu.Lock()
		defer mu.Unlock()
		ss, ok := sessions[id]
		if !ok {
			return nil, auth.ErrSessionEnded
		}
		return ss, nil
	})
	for i := range s.guests {
		g := &s.guests[i]
		g.event = i % len(s.events)
		if g.event == 0 {
			continue
		}
		tok, _, err := p.keys.Sign(auth.Identity{GuestID: g.id, Name: fmt.Sprintf("Guest%d Load", i), Role: "guest", Event: s.events[g.event]})
		if err != nil {
			return err
		}
		g.token = tok
	}
	return nil
}
