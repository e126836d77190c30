// Package livehub builds barhub's live hub as every binary runs it: the
// broker (in-process, or Redis shared by every instance), the WebSocket
// tickets and sessions it admits sockets with, and live's rules of who may
// hear which topic, which the hub itself does not know.
package livehub

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// Rules gives a hub barhub's topics and who may hear them (package live).
func Rules(c hub.Config) hub.Config {
	c.KnownTopic = live.Exists
	c.Admit = func(id hub.Identity) error {
		if !live.MayConnect(guest.Role(id.Role)) {
			return hub.ErrForbidden
		}
		return nil
	}
	c.Authorize = func(id hub.Identity, topic string) error {
		if !live.MayHear(guest.Role(id.Role), id.ID, id.Scope, topic) {
			return hub.ErrForbidden
		}
		return nil
	}
	return c
}

// Config says how to build the hub.
type Config struct {
	// Hub holds the hub's limits; Rules adds barhub's topics and rules.
	Hub hub.Config
	// Redis, when set, carries events between instances and spends the
	// tickets' nonces there, so any instance redeems any instance's; nil
	// keeps both in this process.
	Redis       *redis.Client
	RedisPrefix string
	// History is how many events each topic keeps for reconnecting
	// clients, and HistoryBytes how many bytes all topics keep together
	// in the in-process broker (0: hub.DefaultHistoryBytes).
	History      int
	HistoryBytes int64
	// TicketTTL is how long a WebSocket ticket may wait to be redeemed.
	TicketTTL time.Duration
}

// Live is a started hub with the tickets and sessions that admit its
// sockets.
type Live struct {
	Hub     *hub.Hub
	Tickets *auth.Tickets
	// Sessions is the first event's cache of its people's sessions.
	Sessions *auth.Sessions

	events *atomic.Pointer[SessionsOf]
}

// SessionsOf finds the session cache of another event's people, for the
// sockets signed in to it (docs/EVENTS.md).
type SessionsOf func(ctx context.Context, event string) (*auth.Sessions, error)

// ServeEvents lets sockets of the installation's other events in, each
// checked against its own event's people; until it is called only the
// first event's are.
func (l *Live) ServeEvents(of SessionsOf) { l.events.Store(&of) }

// ForEvent is the hub as one event's publishers and listeners use it.
func (l *Live) ForEvent(event string) EventHub { return ForEvent(l.Hub, event) }

// ForEvent is h as one event's publishers and listeners use it, for a
// process that only publishes (the worker run alone).
func ForEvent(h *hub.Hub, event string) EventHub { return EventHub{hub: h, event: event} }

// EventHub is the hub seen from one event: the topics its users name are
// that event's (live.InEvent), so the menu cache, the bar's queue and the
// worker of one event publish and hear nothing of another's.
type EventHub struct {
	hub   *hub.Hub
	event string
}

// Publish sends an event on the event's topic.
func (e EventHub) Publish(ctx context.Context, topic, event string, data any) error {
	return e.hub.Publish(ctx, live.InEvent(e.event, topic), event, data)
}

// PublishMany sends several on the event's topics, in one exchange.
func (e EventHub) PublishMany(ctx context.Context, out []hub.Outgoing) error {
	if e.event != "" {
		scoped := make([]hub.Outgoing, len(out))
		for i, o := range out {
			o.Topic = live.InEvent(e.event, o.Topic)
			scoped[i] = o
		}
		out = scoped
	}
	return e.hub.PublishMany(ctx, out)
}

// People counts the people connected to the event on every instance, by
// role: the host's "people connected" of this event alone.
func (e EventHub) People() map[string]int { return e.hub.PeopleIn(e.event) }

// Presence counts this instance's sockets on each of the event's topics,
// by the names its users give them.
func (e EventHub) Presence() map[string]int {
	p := make(map[string]int)
	for topic, n := range e.hub.Presence() {
		if event, name, ok := live.EventOf(topic); ok && event == e.event {
			p[name] += n
		}
	}
	return p
}

// OnEvent hears the event's topic, from every instance.
func (e EventHub) OnEvent(topic string, fn func(hub.Event)) {
	e.hub.OnEvent(live.InEvent(e.event, topic), fn)
}

// Start builds the hub over st and starts it.
func Start(ctx context.Context, st *store.Store, cfg Config, logger *slog.Logger) (*Live, error) {
	var broker hub.Broker
	if cfg.Redis != nil {
		broker = hub.NewRedisBroker(cfg.Redis, cfg.RedisPrefix, cfg.History)
	} else {
		size := cfg.HistoryBytes
		if size == 0 {
			size = hub.DefaultHistoryBytes
		}
		broker = hub.NewMemoryBrokerSize(cfg.History, size)
	}
	// Tickets are signed with a key kept in the database.
	tickets, err := auth.OpenTickets(ctx, st, cfg.Redis, cfg.RedisPrefix, cfg.TicketTTL)
	if err != nil {
		return nil, err
	}
	sessions := auth.NewSessions(st, auth.SessionsConfig{})
	events := new(atomic.Pointer[SessionsOf])
	h := hub.New(Rules(cfg.Hub), broker, redeemer{tickets, sessions, events}, logger)
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("start the live hub: %w", err)
	}
	h.OnPeopleChanged((&peopleAnnouncer{hub: h, log: logger}).changed)
	return &Live{Hub: h, Tickets: tickets, Sessions: sessions, events: events}, nil
}

// redeemer adapts auth's tickets to the hub's interface, checking the
// holder's current state as every API request does.
type redeemer struct {
	t      *auth.Tickets
	s      *auth.Sessions
	events *atomic.Pointer[SessionsOf]
}

func (r redeemer) RedeemTicket(ctx context.Context, ticket string) (hub.Identity, error) {
	id, err := r.t.Redeem(ctx, ticket)
	if err != nil {
		return hub.Identity{}, err
	}
	sessions := r.s
	if id.Event != "" {
		of := r.events.Load()
		if of == nil {
			return hub.Identity{}, fmt.Errorf("ticket of event %s: %w", id.Event, auth.ErrSessionEnded)
		}
		if sessions, err = (*of)(ctx, id.Event); err != nil {
			return hub.Identity{}, fmt.Errorf("ticket of event %s: %w", id.Event, err)
		}
	}
	// A ticket issued before its holder's access changed opens nothing,
	// and the socket gets the current role.
	if id, err = sessions.Current(ctx, id); err != nil {
		return hub.Identity{}, err
	}
	return hub.Identity{ID: id.GuestID, Role: string(id.Role), Name: id.Name, Scope: id.Event}, nil
}

// peopleAnnouncer tells each event's desk, on the event's TopicAdmin, how
// many people are connected to that event whenever that changes (a
// socket's scope is its event). It publishes off the hub's listener
// goroutine, one at a time and only the latest count of each event, so a
// slow publish never holds up the hub and an older count never lands
// last.
type peopleAnnouncer struct {
	hub *hub.Hub
	log *slog.Logger

	mu     sync.Mutex
	latest map[string]map[string]int
	busy   bool
}

func (a *peopleAnnouncer) changed(event string, people map[string]int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.latest == nil {
		a.latest = make(map[string]map[string]int)
	}
	a.latest[event] = people
	if !a.busy {
		a.busy = true
		go a.run()
	}
}

func (a *peopleAnnouncer) run() {
	for {
		a.mu.Lock()
		latest := a.latest
		a.latest = nil
		if latest == nil {
			a.busy = false
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		for event, people := range latest {
			err := a.hub.Publish(context.Background(), live.InEvent(event, live.TopicAdmin), live.EventPresenceChanged, live.Presence{People: people})
			if err != nil {
				a.log.Warn("announce who is connected", "event", event, "err", err)
			}
		}
	}
}
