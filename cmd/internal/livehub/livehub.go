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
		if !live.MayHear(guest.Role(id.Role), id.ID, topic) {
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
	Hub      *hub.Hub
	Tickets  *auth.Tickets
	Sessions *auth.Sessions
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
	h := hub.New(Rules(cfg.Hub), broker, redeemer{tickets, sessions}, logger)
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("start the live hub: %w", err)
	}
	h.OnPeopleChanged((&peopleAnnouncer{hub: h, log: logger}).changed)
	return &Live{Hub: h, Tickets: tickets, Sessions: sessions}, nil
}

// redeemer adapts auth's tickets to the hub's interface, checking the
// holder's current state as every API request does.
type redeemer struct {
	t *auth.Tickets
	s *auth.Sessions
}

func (r redeemer) RedeemTicket(ctx context.Context, ticket string) (hub.Identity, error) {
	id, err := r.t.Redeem(ctx, ticket)
	if err != nil {
		return hub.Identity{}, err
	}
	// A ticket issued before its holder's access changed opens nothing,
	// and the socket gets the current role.
	if id, err = r.s.Current(ctx, id); err != nil {
		return hub.Identity{}, err
	}
	return hub.Identity{ID: id.GuestID, Role: string(id.Role), Name: id.Name}, nil
}

// peopleAnnouncer tells the host's desk, on TopicAdmin, how many people
// are connected whenever that changes. It publishes off the hub's
// listener goroutine, one at a time and only the latest count, so a slow
// publish never holds up the hub and an older count never lands last.
type peopleAnnouncer struct {
	hub *hub.Hub
	log *slog.Logger

	mu     sync.Mutex
	latest map[string]int
	busy   bool
}

func (a *peopleAnnouncer) changed(people map[string]int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.latest = people
	if !a.busy {
		a.busy = true
		go a.run()
	}
}

func (a *peopleAnnouncer) run() {
	for {
		a.mu.Lock()
		people := a.latest
		a.latest = nil
		if people == nil {
			a.busy = false
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		err := a.hub.Publish(context.Background(), live.TopicAdmin, live.EventPresenceChanged, live.Presence{People: people})
		if err != nil {
			a.log.Warn("announce who is connected", "err", err)
		}
	}
}
