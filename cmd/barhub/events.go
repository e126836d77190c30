package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/activity"
	"github.com/barhub/barhub/api"
	barapp "github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/web"
)

// installation is what every event of a running barhub shares: the
// control database and its keys, Redis, the live hub and the checks of
// /readyz (docs/EVENTS.md).
type installation struct {
	cfg        *config
	app        *app
	log        *slog.Logger
	rdb        *redis.Client
	live       *livehub.Live
	ready      map[string]api.Pinger
	listenAddr string
}

// eventRuntime is one event as serve runs it: its store, its API and the
// parts behind it (activity, sweeps, push, the host's notices, the AI
// worker), each on the event's own database and topics.
type eventRuntime struct {
	store    *store.Store
	api      http.Handler
	host     *barapp.Host
	sessions *auth.Sessions
	stop     func()
}

// startEvent starts the runtime of the event whose data is in st; key is
// "" for the first event, whose metrics are the process's (reg), else the
// event's id. Its parts stop when ctx ends or stop is called.
func (in *installation) startEvent(ctx context.Context, st *store.Store, key string, reg *prometheus.Registry, events api.Events) (*eventRuntime, error) {
	ctx, cancel := context.WithCancel(ctx)
	cfg, logger := in.cfg, in.log
	if key != "" {
		logger = logger.With("event", key)
	}
	// The parts that take the store take the event's; the keys stay the
	// installation's.
	ev := *in.app
	ev.store, ev.event = st, key
	lh := in.live.ForEvent(key)
	sessions := in.live.Sessions
	if key != "" {
		sessions = auth.NewSessions(st, auth.SessionsConfig{})
	}
	rt := &eventRuntime{store: st, sessions: sessions}
	var stops []func()
	rt.stop = func() {
		cancel()
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	fail := func(err error) (*eventRuntime, error) {
		rt.stop()
		return nil, err
	}

	activityRec := activity.New(st, activity.Config{Publish: lh}, logger, reg)
	recorded := make(chan struct{})
	go func() {
		defer close(recorded)
		activityRec.Run(ctx)
	}()
	// Its last batch is written before the store closes or the event's
	// database is dropped.
	stops = append(stops, func() { <-recorded })
	// The periodic work: sweeps, recounts and repairs, each registered
	// here or by its part, all stopped with ctx.
	maint := jobs.NewMaintenance(logger)
	scheduleSweeps(maint, st, logger)
	if key == "" {
		maint.Every("delete retired keys", time.Minute, in.app.keys.DeleteRetired)
	}
	// Every event worth a notification also goes to the guests' devices
	// (docs/PUSH.md).
	sender, err := startPush(ctx, in.app, st, eventNamer(events, key), reg, logger)
	if err != nil {
		return fail(err)
	}
	publish := push.Forward(lh, sender)
	host, err := startHost(cfg, &ev, sender, maint, logger)
	if err != nil {
		return fail(err)
	}
	rt.host = host
	bartender, err := startAI(ctx, cfg, &ev, lh, publish, maint, reg, logger)
	if err != nil {
		return fail(err)
	}
	stops = append(stops, bartender.stop)

	bar := barConfig(cfg, st, in.rdb, lh)
	if cfg.Images == "database" {
		bar.Images = eventPhotos{Images: st.Images(), events: events, event: key}
	}
	rt.api = api.New(api.Deps{
		Config: api.Config{MaxBodyBytes: cfg.MaxBodyBytes, BodyTimeout: cfg.BodyTimeout, PublicURL: cfg.PublicURL, PublicURLSet: cfg.PublicURLSet, PublicMenu: cfg.PublicMenu, Version: version, TrustedProxies: cfg.TrustedProxies,
			ListenAddr: in.listenAddr, LANAddrs: cfg.lanAddrs,
			SignIn:             auth.DefaultSignInPolicy(cfg.LoginFailures, cfg.LoginWindow),
			WSTicketsPerMinute: cfg.WSTicketsPerMinute, PushKey: sender.PublicKey(), PushPolicy: cfg.pushPolicy(),
			RegistrationWork: cfg.RegistrationWork,
			// Guests never read the metrics: the guests' port serves
			// them only to a scraper with the token.
			Metrics: api.MetricsAccess{Off: true, Token: cfg.MetricsToken}},
		Logger:  logger,
		Store:   st,
		Keys:    in.app.keys,
		Tickets: in.live.Tickets,
		// Revocation: the same cache checks tickets and requests, and the
		// hub carries ended sessions to every instance.
		Sessions:   sessions,
		SessionBus: in.live.Hub,
		Publish:    publish,
		Live:       in.live.Hub,
		Presence:   lh.Presence,
		People:     lh.People,
		Activity:   activityRec,
		Web:        web.Handler(),
		Ready:      in.ready,
		Registry:   reg,

		// The AI bartender (worker.go).
		AI:             bartender.api,
		Mail:           bartender.mail,
		OnDrinkCreated: bartender.onDrinkCreated,
		// The host hears of waiting-list offers accepted or expired.
		Host: host,
		// Menu caches drop on every instance's menu events, the worker's
		// image prompts included.
		Bar:         bar,
		Maintenance: maint,
		Event:       key,
		Events:      events,
		Control:     in.app.store,
	})
	stops = append(stops, runMaintenance(ctx, maint))
	return rt, nil
}

// eventPhotos is an event's photos with --images database: kept in the
// event's own database, and served from any event's. A page asks for
// /images/<name> without a sign-in, so the first event's API answers for
// every event's photos. A name is new and random for every photo, so it
// finds the one photo it names wherever that is kept, as the disk under
// --data, shared by every event, serves them all. Archived events are not
// asked (their runtimes are not started for a photo); an event made from
// one with its menu holds copies of its photos.
type eventPhotos struct {
	*store.Images
	events api.Events
	event  string
}

// Open returns the photo called name from this event's database, else
// from the first other event's that holds it.
func (p eventPhotos) Open(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error) {
	f, mod, err := p.Images.Open(ctx, name)
	if !errors.Is(err, images.ErrNotFound) || !images.ValidName(name) {
		return f, mod, err
	}
	list, lerr := p.events.List(ctx)
	if lerr != nil {
		return nil, time.Time{}, fmt.Errorf("image %s in other events: %w", name, lerr)
	}
	self := p.event
	if self == "" {
		self = p.events.FirstID()
	}
	for _, ev := range list {
		if ev.ID == self || ev.Status == event.Archived {
			continue
		}
		rt, rerr := p.events.Runtime(ctx, ev.ID)
		if errors.Is(rerr, store.ErrNotFound) {
			continue // deleted since the list was read
		}
		if rerr != nil {
			return nil, time.Time{}, fmt.Errorf("image %s in event %s: %w", name, ev.ID, rerr)
		}
		f, mod, oerr := rt.Store.Images().Open(ctx, name)
		if errors.Is(oerr, images.ErrNotFound) {
			continue
		}
		return f, mod, oerr
	}
	return nil, time.Time{}, err
}

// eventNamer gives the push sender of event key its id and name while
// the installation holds more than one event, and nothing with one.
func eventNamer(events api.Events, key string) func(context.Context) (string, string) {
	return func(ctx context.Context) (string, string) {
		id := key
		if id == "" {
			id = events.FirstID()
		}
		list, err := events.List(ctx)
		if err != nil || len(list) < 2 {
			return "", ""
		}
		for _, e := range list {
			if e.ID == id {
				return id, e.Name
			}
		}
		return "", ""
	}
}

// listFresh is how long the list of events is trusted: an event made on
// another instance is signed in to here within it.
const listFresh = 5 * time.Second

// eventRuntimes is the installation's events for the API (api.Events):
// the list, read from the registry and cached briefly, and the runtime of
// each event, started the first time a request needs it and kept while
// the process runs.
type eventRuntimes struct {
	ctx     context.Context
	in      *installation
	first   *eventRuntime
	firstID string

	mu       sync.Mutex
	running  map[string]*eventStart
	list     []event.Event
	listRead time.Time
	// listGen moves on every Changed, so a read that began before a
	// change is not kept as the list after it.
	listGen uint64
	// reading lets one caller read the list while the others wait for
	// its result: a crowd signing in when the list goes stale costs one
	// read of the registry, not one each.
	reading sync.Mutex
}

type eventStart struct {
	done chan struct{}
	rt   *eventRuntime
	err  error
}

func newEventRuntimes(ctx context.Context, in *installation) (*eventRuntimes, error) {
	first, err := in.app.store.EnsureFirstEvent(ctx)
	if err != nil {
		return nil, fmt.Errorf("the first event: %w", err)
	}
	return &eventRuntimes{ctx: context.WithoutCancel(ctx), in: in, firstID: first.ID, running: make(map[string]*eventStart)}, nil
}

// FirstID is the first event's registry id.
func (e *eventRuntimes) FirstID() string { return e.firstID }

// List returns the events in the host's order.
func (e *eventRuntimes) List(ctx context.Context) ([]event.Event, error) {
	if list, ok := e.freshList(); ok {
		return list, nil
	}
	e.reading.Lock()
	defer e.reading.Unlock()
	if list, ok := e.freshList(); ok {
		return list, nil // read by the caller before us
	}
	e.mu.Lock()
	gen := e.listGen
	e.mu.Unlock()
	list, err := e.in.app.store.Events(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if gen == e.listGen {
		e.list, e.listRead = list, time.Now()
	}
	e.mu.Unlock()
	return list, nil
}

func (e *eventRuntimes) freshList() ([]event.Event, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.list, e.list != nil && time.Since(e.listRead) < listFresh
}

// Changed drops the cached list and stops id's runtime, if it runs, so
// the next request starts it afresh or finds the event gone.
func (e *eventRuntimes) Changed(id string) {
	e.mu.Lock()
	e.list = nil
	e.listGen++
	s, running := e.running[id]
	delete(e.running, id)
	e.mu.Unlock()
	if running && id != "" {
		<-s.done
		if s.rt != nil && s.rt != e.first {
			s.rt.stop()
		}
	}
}

// Runtime returns the event's API and store, starting it once however
// many requests ask at the same time.
func (e *eventRuntimes) Runtime(ctx context.Context, id string) (api.EventRuntime, error) {
	rt, err := e.runtime(ctx, id)
	if err != nil {
		return api.EventRuntime{}, err
	}
	return api.EventRuntime{API: rt.api, Store: rt.store}, nil
}

func (e *eventRuntimes) runtime(ctx context.Context, id string) (*eventRuntime, error) {
	if id == "" {
		return e.first, nil
	}
	e.mu.Lock()
	s, ok := e.running[id]
	if !ok {
		s = &eventStart{done: make(chan struct{})}
		e.running[id] = s
		go func() {
			defer close(s.done)
			s.rt, s.err = e.start(id)
			if s.err != nil {
				// The next request tries again: the event may exist by
				// then, or the database answer.
				e.mu.Lock()
				delete(e.running, id)
				e.mu.Unlock()
			}
		}()
	}
	e.mu.Unlock()
	select {
	case <-s.done:
		return s.rt, s.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (e *eventRuntimes) start(id string) (*eventRuntime, error) {
	ev, err := e.in.app.store.Event(e.ctx, id)
	if err != nil {
		return nil, err
	}
	if ev.Database == e.in.app.store.DB().Name() {
		return e.first, nil
	}
	st, err := e.in.app.store.OpenEvent(e.ctx, ev.Database)
	if err != nil {
		return nil, fmt.Errorf("open event %s: %w", id, err)
	}
	// Each event's metrics in a registry of its own: the process's
	// /metrics counts every request once, where it arrived.
	rt, err := e.in.startEvent(e.ctx, st, id, prometheus.NewRegistry(), e)
	if err != nil {
		st.Close(context.Background())
		return nil, err
	}
	stop := rt.stop
	rt.stop = func() {
		stop()
		st.Close(context.Background())
	}
	e.in.log.Info("event started", "event", id, "name", ev.Name, "database", ev.Database)
	return rt, nil
}

// startAll starts the runtime of every event not archived, so their
// reminders, the host's notices and their sweeps run after a restart
// before anyone asks for them.
func (e *eventRuntimes) startAll() {
	list, err := e.List(e.ctx)
	if err != nil {
		e.in.log.Warn("start the events", "err", err)
		return
	}
	for _, ev := range list {
		if ev.Status == event.Archived || ev.ID == e.firstID {
			continue
		}
		if _, err := e.runtime(e.ctx, ev.ID); err != nil {
			e.in.log.Warn("start event", "event", ev.ID, "err", err)
		}
	}
}

// sessionsOf gives the hub the session cache of an event's people.
func (e *eventRuntimes) sessionsOf(ctx context.Context, id string) (*auth.Sessions, error) {
	rt, err := e.runtime(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: no event %s", auth.ErrSessionEnded, id)
	}
	if err != nil {
		return nil, err
	}
	return rt.sessions, nil
}

// stopAll stops every runtime, the first last.
func (e *eventRuntimes) stopAll() {
	e.mu.Lock()
	running := e.running
	e.running = map[string]*eventStart{}
	e.mu.Unlock()
	for _, s := range running {
		<-s.done
		if s.rt != nil && s.rt != e.first {
			s.rt.stop()
		}
	}
	if e.first != nil {
		e.first.stop()
	}
}
