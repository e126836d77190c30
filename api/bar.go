package api

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api/ratelimit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
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

// barParts is the state behind the menu, order and bar handlers.
type barParts struct {
	cfg     BarConfig
	menu    *menuCache
	limiter ratelimit.Limiter
	appKey  *appKeyCache
	images  images.Store

	signerMu sync.Mutex
	signer   *images.Signer

	diet   dietCache
	prep   prepCache
	tokens tokenCache
	orders *orderViews

	summaryRunning atomic.Bool
	summaryDirty   atomic.Bool
	lastSweep      atomic.Int64

	// finished caches the served and cancelled totals: counting them reads
	// the whole archive, so it is refreshed now and then and moved on by
	// this instance's own finishing moves in between.
	finishedMu sync.Mutex
	finished   map[order.Status]int
	finishedAt time.Time
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
	var version menuVersion = &localVersion{st: d.Store}
	// Redis when configured, so every instance shares one budget per
	// client; this process otherwise. The sign-in throttle makes the same
	// choice (sharedCounters).
	if cfg.Redis != nil {
		b.limiter = ratelimit.NewRedis(cfg.Redis, cfg.RedisPrefix)
		version = &redisVersion{rdb: cfg.Redis, key: menuVersionKey(cfg.RedisPrefix)}
	} else {
		b.limiter = ratelimit.NewMemory()
	}
	b.menu = newMenuCache(d.Store, version, d.Logger)
	b.appKey = &appKeyCache{store: d.Store}
	b.diet.m = make(map[string]dietEntry)
	b.orders = newOrderViews(d.Store, d.Logger, cfg.OrderViewRefresh)
	if cfg.Events != nil {
		cfg.Events.OnEvent(live.TopicBar, b.orders.onEvent)
		cfg.Events.OnEvent(live.TopicMenu, func(ev hub.Event) {
			if ev.Event == live.EventAppStatus {
				b.appKey.invalidate()
				return
			}
			b.menu.invalidated()
		})
	}
	return b
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

// menuChanged makes a menu write visible everywhere before the request
// answers: this instance's cache and the shared version first, then the
// event that tells other instances and the phones.
func (s *Server) menuChanged(ctx context.Context, reason string, drinkIDs []string) {
	s.bar.menu.bump(context.WithoutCancel(ctx))
	if drinkIDs == nil {
		drinkIDs = []string{}
	}
	s.publishEvent(ctx, live.TopicMenu, live.EventMenuChanged, map[string]any{"reason": reason, "drinkIds": drinkIDs})
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
	if err != nil {
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

// dietCache keeps each guest's own dietary needs for a short while, so
// marking the menu for them costs no database read per request. Ordering
// always reads the guest afresh.
type dietCache struct {
	mu sync.Mutex
	m  map[string]dietEntry
}

type dietEntry struct {
	needs diet.Needs
	at    time.Time
}

const dietTTL = 30 * time.Second

func (c *dietCache) put(guestID string, needs diet.Needs) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]dietEntry{}
	}
	if len(c.m) > 20000 {
		clear(c.m)
	}
	c.m[guestID] = dietEntry{needs: needs, at: time.Now()}
}

// guestNeeds is the signed-in guest's own needs, for the menu's marks.
func (s *Server) guestNeeds(ctx context.Context, guestID string) diet.Needs {
	c := &s.bar.diet
	c.mu.Lock()
	e, ok := c.m[guestID]
	c.mu.Unlock()
	if ok && time.Since(e.at) < dietTTL {
		return e.needs
	}
	g, err := s.store.GuestByID(ctx, guestID)
	if err != nil {
		// Unknown or unreadable: no marks this time; ordering checks again.
		return diet.Needs{}
	}
	n := g.Dietary.Needs()
	c.put(guestID, n)
	return n
}

// prepCache keeps the typical preparation time for a few seconds: every
// queue estimate needs it and it changes slowly.
type prepCache struct {
	mu  sync.Mutex
	val time.Duration
	at  time.Time
}

const prepSample = 20

func (s *Server) typicalPrep(ctx context.Context) time.Duration {
	c := &s.bar.prep
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < 10*time.Second {
		return c.val
	}
	samples, err := s.store.RecentPrepTimes(ctx, prepSample)
	if err != nil {
		s.log.WarnContext(ctx, "load preparation times", "err", err)
		if c.val == 0 {
			return order.DefaultPrep
		}
		return c.val
	}
	c.val, c.at = order.TypicalPrep(samples), time.Now()
	return c.val
}

// summaryInterval spaces the host's order counts: each is a pass over all
// orders, and a dashboard needs no more than one a second.
const summaryInterval = time.Second

// summaryChanged sends the admin dashboard fresh order counts. Bursts of
// changes are coalesced into one count a second at most, off the
// request's path.
func (s *Server) summaryChanged() {
	b := s.bar
	b.summaryDirty.Store(true)
	if !b.summaryRunning.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			for b.summaryDirty.Swap(false) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				sum, err := s.orderSummary(ctx)
				if err != nil {
					s.log.Warn("count orders", "err", err)
				} else {
					s.publishEvent(ctx, live.TopicAdmin, live.EventOrdersSummary, sum)
				}
				cancel()
				time.Sleep(summaryInterval)
			}
			b.summaryRunning.Store(false)
			// A change that arrived after the last count but before the
			// flag dropped would otherwise wait for the next one.
			if !b.summaryDirty.Load() || !b.summaryRunning.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// finishedTTL is how stale the served and cancelled totals may get from
// other instances' moves.
const finishedTTL = 30 * time.Second

// orderSummary counts the orders by status: the unfinished ones from the
// order view, the finished ones from a cache refreshed every finishedTTL.
func (s *Server) orderSummary(ctx context.Context) (orderSummary, error) {
	view, err := s.bar.orders.get(ctx)
	if err != nil {
		return orderSummary{}, err
	}
	open := view.Counts()
	b := s.bar
	b.finishedMu.Lock()
	defer b.finishedMu.Unlock()
	if b.finished == nil || time.Since(b.finishedAt) > finishedTTL {
		done, err := s.store.FinishedOrderCounts(ctx)
		if err != nil {
			return orderSummary{}, err
		}
		b.finished, b.finishedAt = done, time.Now()
	}
	open[order.Served], open[order.Cancelled] = b.finished[order.Served], b.finished[order.Cancelled]
	return summaryOf(open), nil
}

// finishedOne counts this instance's own finishing move into the cache.
func (s *Server) finishedOne(st order.Status) {
	b := s.bar
	b.finishedMu.Lock()
	if b.finished != nil {
		b.finished[st]++
	}
	b.finishedMu.Unlock()
}

type orderSummary struct {
	Queued    int       `json:"queued"`
	Preparing int       `json:"preparing"`
	Ready     int       `json:"ready"`
	Served    int       `json:"served"`
	Cancelled int       `json:"cancelled"`
	Open      int       `json:"open"`
	Total     int       `json:"total"`
	At        time.Time `json:"at"`
}

func summaryOf(c map[order.Status]int) orderSummary {
	s := orderSummary{Queued: c[order.Queued], Preparing: c[order.Preparing], Ready: c[order.Ready], Served: c[order.Served], Cancelled: c[order.Cancelled], At: time.Now().UTC()}
	s.Open = s.Queued + s.Preparing + s.Ready
	s.Total = s.Open + s.Served + s.Cancelled
	return s
}

// maintain removes expired idempotency records and old preparation
// samples, and repairs what a crash mid-archive leaves, now and then, from
// the order path itself, so no extra background job is needed.
func (s *Server) maintain() {
	now := time.Now()
	last := s.bar.lastSweep.Load()
	if now.Unix()-last < int64((10*time.Minute).Seconds()) || !s.bar.lastSweep.CompareAndSwap(last, now.Unix()) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := s.store.SweepIdempotency(ctx, now.UTC()); err != nil {
			s.log.Warn("sweep idempotency keys", "err", err)
		}
		if fixed, err := s.store.ReconcileOrders(ctx); err != nil {
			s.log.Warn("reconcile orders", "err", err)
		} else if fixed > 0 {
			s.log.Warn("removed left-over copies of finished orders", "orders", fixed)
		}
		// Estimates use the last twenty samples, from the last two hours.
		if _, err := s.store.SweepPrepTimes(ctx, now.Add(-2*time.Hour).UTC()); err != nil {
			s.log.Warn("sweep preparation times", "err", err)
		}
	}()
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

// lockGuest serialises one guest's order placements, so the open-order
// limit holds against a double tap with two different keys, even when the
// two taps reach two instances.
func (s *Server) lockGuest(ctx context.Context, guestID string) (func(), error) {
	return s.store.Lock(ctx, "guest-orders/"+guestID, lockTTL)
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
