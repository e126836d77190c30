package api

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api/ratelimit"
	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/live"
)

// BarConfig configures the menu, ordering and the bar queue.
type BarConfig struct {
	// RateBrowse and RateOrders are requests per second per client on
	// the menu and on the order and bar routes; zero or less is no limit.
	RateBrowse float64
	RateOrders float64
	// RateDietary is reads of dietary words (POST /api/dietary/read, the
	// RSVP form's preview) per second per guest; zero or less is no limit.
	RateDietary float64
	// RateRegister is new registrations (POST /api/register) per second
	// per address; zero or less is no limit.
	RateRegister float64
	// MaxOpenOrders is how many orders a guest may have queued or in the
	// making at once (default 3).
	MaxOpenOrders int
	// DrinksPerHour caps the standard drinks a guest may order in any
	// hour; zero leaves pacing off.
	DrinksPerHour float64
	// ImageDir holds drink photos when Images is nil (default data/images).
	ImageDir string
	// Images stores drink photos; nil uses a disk store in ImageDir.
	Images images.Store
	// Redis, when set, shares rate limits and the menu's version across
	// instances; nil keeps both in this process.
	Redis *redis.Client
	// RedisPrefix prefixes every Redis key (default "barhub").
	RedisPrefix string
	// Events delivers the live events of every instance, so this one can
	// drop its menu cache when another changes the menu; nil hears only
	// its own writes (fine for a single instance).
	Events EventSource
	// OrderViewRefresh is how often the view of the unfinished orders is
	// corrected from the store (default 10 s; see orderViews).
	OrderViewRefresh time.Duration
}

// EventSource is the hub's in-process feed of events on a topic, from
// every instance.
type EventSource interface {
	OnEvent(topic string, fn func(hub.Event))
}

// barParts is the HTTP side's state of the menu, order and bar routes:
// rate limits, the app key, photos, verified tokens and the order view.
type barParts struct {
	cfg     BarConfig
	limiter ratelimit.Limiter
	appKey  *appKeyCache
	images  images.Store

	signerMu sync.Mutex
	signer   *images.Signer

	tokens tokenCache
	orders *orderViews
}

func newBarParts(d Deps) *barParts {
	cfg := d.Bar
	if cfg.MaxOpenOrders <= 0 {
		cfg.MaxOpenOrders = 3
	}
	if cfg.ImageDir == "" {
		cfg.ImageDir = filepath.Join("data", "images")
	}
	if cfg.RedisPrefix == "" {
		cfg.RedisPrefix = "barhub"
	}
	b := &barParts{cfg: cfg, images: cfg.Images}
	if b.images == nil {
		b.images = images.NewDisk(cfg.ImageDir)
	}
	// Redis when configured, so every instance shares one budget per
	// client; this process otherwise. The sign-in throttle makes the same
	// choice (sharedCounters).
	if cfg.Redis != nil {
		b.limiter = ratelimit.NewRedis(cfg.Redis, cfg.RedisPrefix)
	} else {
		b.limiter = ratelimit.NewMemory()
	}
	b.appKey = &appKeyCache{store: d.Control}
	b.orders = newOrderViews(d.Store, d.Logger, cfg.OrderViewRefresh)
	return b
}

// newServices builds the use cases behind the menu, order and bar
// handlers, and has them follow every instance's events.
func (s *Server) newServices(d Deps) {
	cfg := s.bar.cfg
	// The menu's version in Redis when instances share one; else in this
	// process, following the database's counter when there is a database.
	version := app.NewLocalMenuVersion(nil)
	switch {
	case cfg.Redis != nil:
		version = app.NewRedisMenuVersion(cfg.Redis, cfg.RedisPrefix)
	case d.Store != nil:
		version = app.NewLocalMenuVersion(d.Store)
	}
	views := liveOrders{s.bar.orders}
	s.menu = app.NewMenu(app.MenuDeps{Store: d.Store, Version: version, Publish: d.Publish, Images: s.bar.images, Logger: d.Logger})
	s.queue = app.NewBar(app.BarDeps{Store: d.Store, Views: views, Publish: d.Publish, OnOrder: s.boardEvent, Logger: d.Logger})
	s.orders = app.NewOrders(app.OrdersDeps{Store: d.Store, Menu: s.menu, Bar: s.queue, Views: views, Logger: d.Logger,
		Limits: app.OrderLimits{MaxOpenOrders: cfg.MaxOpenOrders, DrinksPerHour: cfg.DrinksPerHour}})
	if cfg.Events != nil {
		cfg.Events.OnEvent(live.TopicBar, s.bar.orders.onEvent)
		cfg.Events.OnEvent(live.TopicMenu, func(ev hub.Event) {
			if ev.Event == live.EventAppStatus {
				s.bar.appKey.invalidate()
				return
			}
			s.menu.Invalidated()
		})
	}
}

// publishEvent sends an event and logs a failure: the change is already
// stored, and clients resync on reconnect, so a lost event must not fail
// the request.
func (s *Server) publishEvent(ctx context.Context, topic, event string, data any) {
	if s.publish == nil {
		return
	}
	if err := s.publish.Publish(context.WithoutCancel(ctx), topic, event, data); err != nil {
		s.log.WarnContext(ctx, "publish event", "topic", topic, "event", event, "err", err)
	}
}

// optionalIdentity reads a bearer token on a public route: a valid one
// personalises the answer, a missing or bad one is simply anonymous.
// Verified tokens are remembered for a minute: a phone reads the menu
// often, and checking an RSA signature costs more than the read itself.
// What they unlock here is only the allergen flags and the rate-limit
// bucket, so a token that expires within that minute does no harm.
func (s *Server) optionalIdentity(r *http.Request) (auth.Identity, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return auth.Identity{}, false
	}
	if id, ok := s.bar.tokens.get(tok); ok {
		return id, true
	}
	id, err := s.keys.Verify(r.Context(), tok)
	if err != nil || id.Event != s.event {
		// Another event's token reads nothing of this one's.
		return auth.Identity{}, false
	}
	s.bar.tokens.put(tok, id)
	return id, true
}

// tokenCache remembers recently verified tokens for public reads.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]tokenEntry
}

type tokenEntry struct {
	id auth.Identity
	at time.Time
}

const (
	tokenCacheTTL = time.Minute
	tokenCacheMax = 20000
)

func (c *tokenCache) get(tok string) (auth.Identity, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[tok]
	if !ok || time.Since(e.at) > tokenCacheTTL {
		return auth.Identity{}, false
	}
	return e.id, true
}

func (c *tokenCache) put(tok string, id auth.Identity) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tokenCacheMax {
		c.m = make(map[string]tokenEntry)
	}
	c.m[tok] = tokenEntry{id: id, at: time.Now()}
}

// allow applies the rate limit of class to client, answering 429 with
// Retry-After when it is used up. A Redis failure lets the request
// through: the limit protects the party, it must not stop it.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, class, client string) bool {
	rate := s.bar.cfg.RateBrowse
	switch class {
	case "orders":
		rate = s.bar.cfg.RateOrders
	case "dietary":
		rate = s.bar.cfg.RateDietary
	case "register":
		rate = s.bar.cfg.RateRegister
	}
	d, err := s.bar.limiter.Allow(r.Context(), class+":"+client, rate)
	if err != nil {
		s.log.WarnContext(r.Context(), "rate limit unavailable", "err", err)
	}
	if d.Allowed {
		return true
	}
	secs := int(d.RetryAfter.Seconds())
	if time.Duration(secs)*time.Second < d.RetryAfter {
		secs++
	}
	secs = max(secs, 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.writeAPIError(w, r, &apiError{Status: http.StatusTooManyRequests, Code: "rate_limited",
		Message: "too many requests; please slow down and try again in " + strconv.Itoa(secs) + " s",
		Key:     "error.rate_limited.wait", Vars: map[string]any{"Seconds": secs}})
	return false
}

// browseClient names who is browsing, for the rate limit: the signed-in
// guest, else the address.
func browseClient(r *http.Request, id auth.Identity, ok bool) string {
	if ok {
		return "g:" + id.GuestID
	}
	return "ip:" + clientIP(r)
}

// Locks for steps that read, then write, and must not interleave with
// themselves on any instance (store.Lock); their ttl outlives the step by
// far.
const lockTTL = 30 * time.Second

// sharedCounters are the sign-in throttle's counters: in Redis when the
// deployment has one, like the rate limits above, so every instance
// counts the same failures; local otherwise.
func sharedCounters(cfg BarConfig, local *ratelimit.MemoryCounters) auth.Counters {
	if cfg.Redis == nil {
		return local
	}
	prefix := cfg.RedisPrefix
	if prefix == "" {
		prefix = "barhub"
	}
	return ratelimit.NewRedisCounters(cfg.Redis, prefix)
}

var errSigningKey = errors.New("image signing key unavailable")

// signerFor returns the upload URL signer, loading its key from the
// database on first use (and again after a failure).
func (s *Server) uploadSigner(ctx context.Context) (*images.Signer, error) {
	b := s.bar
	b.signerMu.Lock()
	defer b.signerMu.Unlock()
	if b.signer != nil {
		return b.signer, nil
	}
	key, err := s.store.ImageSigningKey(ctx)
	if err != nil {
		return nil, errors.Join(errSigningKey, err)
	}
	b.signer = images.NewSigner(key)
	return b.signer, nil
}
