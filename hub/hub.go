// Package hub delivers barhub's live events to browsers over WebSocket.
//
// Events are published to a Broker, which orders them per topic (seq),
// keeps a bounded history and hands them to every Hub attached to it — one
// per barhub instance. Each Hub encodes an event once and queues the same
// bytes to every subscribed socket; a socket whose queue is full is closed
// rather than allowed to hold anyone else up. The wire protocol is
// described in docs/PROTOCOL.md.
package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
)

// Identity is who a WebSocket connection belongs to.
type Identity struct {
	ID   string
	Role string // RoleGuest, RoleBartender or RoleAdmin
	Name string
}

// TicketRedeemer turns a single-use WebSocket ticket into the identity it
// was issued to. A ticket that is unknown, expired or already used is an
// error.
type TicketRedeemer interface {
	RedeemTicket(ctx context.Context, ticket string) (Identity, error)
}

// Config tunes a Hub. Zero fields take the defaults noted.
type Config struct {
	// AllowedOrigins lists browser origins allowed besides the request's
	// own host: "https://party.example.com", a bare host, or a host
	// pattern such as "*.example.com".
	AllowedOrigins []string
	// QueueSize is the number of messages a socket may have waiting to be
	// written before it is closed as a slow consumer (default 64: three
	// seconds of a busy topic at 20 events/s).
	QueueSize int
	// WriteTimeout bounds one write to a socket (default 10s).
	WriteTimeout time.Duration
	// PingInterval is the time between pings (default 25s); PingTimeout
	// how long a pong may take before the socket is closed (default 10s).
	PingInterval time.Duration
	PingTimeout  time.Duration
	// ReadLimit is the largest client message in bytes (default 4096).
	ReadLimit int64
	// MaxSubscriptions per socket (default 32).
	MaxSubscriptions int
	// Shards splits the subscriber maps so fan-out runs in parallel and
	// subscribing never contends with a broadcast to all (default 16, at
	// most 64).
	Shards int
}

func (c Config) withDefaults() Config {
	if c.QueueSize <= 0 {
		c.QueueSize = 64
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 25 * time.Second
	}
	if c.PingTimeout <= 0 {
		c.PingTimeout = 10 * time.Second
	}
	if c.ReadLimit <= 0 {
		c.ReadLimit = 4096
	}
	if c.MaxSubscriptions <= 0 {
		c.MaxSubscriptions = 32
	}
	if c.Shards <= 0 {
		c.Shards = 16
	}
	c.Shards = min(c.Shards, 64)
	return c
}

// Close codes sent to clients.
const (
	// StatusSlowConsumer closes a socket whose queue overflowed; the
	// client should reconnect and resubscribe with since.
	StatusSlowConsumer websocket.StatusCode = 4000
)

// Hub serves GET /ws and fans events from its Broker out to sockets.
type Hub struct {
	cfg     Config
	broker  Broker
	tickets TicketRedeemer
	log     *slog.Logger
	metrics *metrics

	shards []*shard
	nextID atomic.Uint64

	// routes has, per topic, a bit for each shard with subscribers, so an
	// event for one guest wakes one shard rather than all of them.
	routesMu sync.RWMutex
	routes   map[string]uint64

	// lastSeen is the latest seq dispatched per topic, to catch up after
	// an interrupted delivery.
	seenMu   sync.Mutex
	lastSeen map[string]uint64

	// mu orders connection registration against Shutdown.
	mu       sync.RWMutex
	started  bool
	stopping bool
	conns    sync.WaitGroup

	stopListen func()
	workers    sync.WaitGroup

	lmu       sync.RWMutex
	listeners map[string][]func(Event)
	listenQ   chan Message
}

// New returns a Hub publishing through broker and admitting sockets with
// tickets redeemed by tickets. Call Start before serving.
func New(cfg Config, broker Broker, tickets TicketRedeemer, logger *slog.Logger) *Hub {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.Default()
	}
	h := &Hub{
		cfg:       cfg,
		broker:    broker,
		tickets:   tickets,
		log:       logger,
		metrics:   newMetrics(),
		shards:    make([]*shard, cfg.Shards),
		listeners: make(map[string][]func(Event)),
		listenQ:   make(chan Message, 1024),
		routes:    make(map[string]uint64),
		lastSeen:  make(map[string]uint64),
	}
	for i := range h.shards {
		h.shards[i] = &shard{
			hub:    h,
			bit:    1 << i,
			topics: make(map[string]map[*conn]*sub),
			conns:  make(map[*conn]struct{}),
			inbox:  make(chan *delivery, 4096),
		}
	}
	return h
}

// Collectors returns the hub's metrics for the caller's registry.
func (h *Hub) Collectors() []prometheus.Collector { return h.metrics.collectors }

// Start attaches the hub to its broker. Events published after Start
// returns reach this hub's sockets.
func (h *Hub) Start(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started {
		return errors.New("hub already started")
	}
	for _, s := range h.shards {
		h.workers.Add(1)
		go func() {
			defer h.workers.Done()
			s.run()
		}()
	}
	h.workers.Add(1)
	go func() {
		defer h.workers.Done()
		h.runListeners()
	}()
	stop, err := h.broker.Listen(ctx, h.dispatch)
	if err != nil {
		for _, s := range h.shards {
			close(s.inbox)
		}
		close(h.listenQ)
		h.workers.Wait()
		return fmt.Errorf("start hub: %w", err)
	}
	h.stopListen = stop
	h.started = true
	return nil
}

// Shutdown closes every socket with "going away", so clients reconnect to
// another instance, and detaches from the broker. It returns early with
// ctx's error if sockets take longer to close.
func (h *Hub) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	if !h.started || h.stopping {
		h.mu.Unlock()
		return nil
	}
	h.stopping = true
	h.mu.Unlock()

	for _, s := range h.shards {
		s.mu.Lock()
		for c := range s.conns {
			c.kill(websocket.StatusGoingAway, "server shutting down")
		}
		s.mu.Unlock()
	}
	closed := make(chan struct{})
	go func() {
		h.conns.Wait()
		close(closed)
	}()
	var err error
	select {
	case <-closed:
	case <-ctx.Done():
		err = fmt.Errorf("shut down hub: %w", ctx.Err())
	}
	// No more dispatch calls once stopListen returns.
	h.stopListen()
	for _, s := range h.shards {
		close(s.inbox)
	}
	close(h.listenQ)
	h.workers.Wait()
	return err
}

// Publish sends event on topic to every subscriber on every instance.
// data is encoded as JSON once. It returns when the broker has ordered and
// stored the event, not when sockets have been written.
func (h *Hub) Publish(ctx context.Context, topic, event string, data any) error {
	if !ValidTopic(topic) {
		return fmt.Errorf("publish %s: unknown topic %q", event, topic)
	}
	if event == "" {
		return fmt.Errorf("publish on %s: empty event name", topic)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("publish %s on %s: encode data: %w", event, topic, err)
	}
	if _, err := h.broker.Publish(ctx, Event{Topic: topic, Event: event, Time: time.Now(), Data: raw}); err != nil {
		return err
	}
	return nil
}

// OnEvent registers fn to be called for every event on topic that reaches
// this instance, whichever instance published it. Calls are made one at a
// time from one goroutine, in order; fn should return quickly.
func (h *Hub) OnEvent(topic string, fn func(Event)) {
	h.lmu.Lock()
	defer h.lmu.Unlock()
	h.listeners[topic] = append(h.listeners[topic], fn)
}

// Presence returns the number of sockets subscribed to each topic.
func (h *Hub) Presence() map[string]int {
	p := make(map[string]int)
	for _, s := range h.shards {
		s.mu.Lock()
		for topic, subs := range s.topics {
			p[topic] += len(subs)
		}
		s.mu.Unlock()
	}
	return p
}

// Connections returns the number of open sockets.
func (h *Hub) Connections() int { return int(h.metrics.connections.Load()) }

func (h *Hub) route(topic string, bit uint64, on bool) {
	h.routesMu.Lock()
	defer h.routesMu.Unlock()
	if on {
		h.routes[topic] |= bit
		return
	}
	if m := h.routes[topic] &^ bit; m != 0 {
		h.routes[topic] = m
	} else {
		delete(h.routes, topic)
	}
}

// dispatch receives every event from the broker. It hands the event to
// the shards and returns; writing happens on each socket's goroutine. A
// Message without a topic means the broker's delivery was interrupted.
func (h *Hub) dispatch(m Message) {
	if m.Topic == "" {
		h.sessionsInterrupted()
		h.catchUp()
		return
	}
	h.metrics.published.Inc()
	h.seenMu.Lock()
	prev := h.lastSeen[m.Topic]
	if m.Seq > prev {
		h.lastSeen[m.Topic] = m.Seq
	}
	h.seenMu.Unlock()

	var pub int64
	if !m.Time.IsZero() {
		pub = m.Time.UnixNano()
	}
	out := newOut(m.Wire, pub)
	d := &delivery{topic: m.Topic, seq: m.Seq, out: out}
	h.routesMu.RLock()
	mask := h.routes[m.Topic]
	h.routesMu.RUnlock()
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		mask &^= 1 << i
		h.shards[i].inbox <- d
	}
	if m.Seq <= prev {
		// Already seen: a catch-up overlapping live delivery.
		return
	}
	h.lmu.RLock()
	_, ok := h.listeners[m.Topic]
	h.lmu.RUnlock()
	if ok {
		h.listenQ <- m
	}
}

// catchUp re-reads, from the broker's history, what may have been missed
// while delivery was interrupted (a lost Redis pub/sub connection), for
// every topic with sockets or listeners here. Sockets and listeners skip
// what they already have by seq; where the history no longer reaches back
// a socket gets a resync.
func (h *Hub) catchUp() {
	h.metrics.catchUps.Inc()
	since := make(map[string]uint64)
	h.seenMu.Lock()
	for topic, seq := range h.lastSeen {
		since[topic] = seq
	}
	h.seenMu.Unlock()
	topics := make(map[string]bool)
	h.lmu.RLock()
	for topic := range h.listeners {
		topics[topic] = true
	}
	h.lmu.RUnlock()
	for _, s := range h.shards {
		s.mu.Lock()
		for topic, subs := range s.topics {
			topics[topic] = true
			for _, sb := range subs {
				if seq, ok := since[topic]; sb.live && (!ok || sb.lastSeq < seq) {
					since[topic] = sb.lastSeq
				}
			}
		}
		s.mu.Unlock()
	}
	for topic := range topics {
		from, ok := since[topic]
		if !ok {
			// Nothing seen and no live socket: nothing to compare with.
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), h.cfg.WriteTimeout)
		hist, err := h.broker.History(ctx, topic, from)
		cancel()
		if err != nil {
			h.log.Warn("catch up after interrupted delivery", "topic", topic, "err", err)
			continue
		}
		for _, m := range hist.Messages {
			h.dispatch(m)
		}
	}
}

func (h *Hub) runListeners() {
	for m := range h.listenQ {
		var ev Event
		if err := json.Unmarshal(m.Wire, &ev); err != nil {
			h.log.Error("decode event for listeners", "topic", m.Topic, "seq", m.Seq, "err", err)
			continue
		}
		h.lmu.RLock()
		fns := h.listeners[m.Topic]
		h.lmu.RUnlock()
		for _, fn := range fns {
			fn(ev)
		}
	}
}

// ServeHTTP upgrades GET /ws?ticket=… to a WebSocket.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use GET to open a live connection")
		return
	}
	if !h.originAllowed(r) {
		writeError(w, http.StatusForbidden, "forbidden_origin", "this origin may not open a live connection")
		return
	}
	if !headerHasToken(r.Header, "Connection", "upgrade") || !headerHasToken(r.Header, "Upgrade", "websocket") {
		writeError(w, http.StatusUpgradeRequired, "upgrade_required", "this endpoint only speaks WebSocket")
		return
	}
	h.mu.RLock()
	ready := h.started && !h.stopping
	h.mu.RUnlock()
	if !ready {
		writeError(w, http.StatusServiceUnavailable, "unavailable", "live updates are not available on this instance, retry")
		return
	}
	ticket := r.URL.Query().Get("ticket")
	if ticket == "" {
		writeError(w, http.StatusUnauthorized, "invalid_ticket", "a ticket from POST /api/ws/ticket is required")
		return
	}
	id, err := h.tickets.RedeemTicket(r.Context(), ticket)
	if err != nil {
		h.log.Debug("refused live connection", "err", err)
		writeError(w, http.StatusUnauthorized, "invalid_ticket", "the ticket is invalid, expired or already used")
		return
	}
	switch id.Role {
	case RoleGuest, RoleBartender, RoleAdmin:
	default:
		writeError(w, http.StatusForbidden, "forbidden", "this account may not open a live connection")
		return
	}

	uw := &upgradeWriter{ResponseWriter: w}
	ws, err := websocket.Accept(uw, r, &websocket.AcceptOptions{
		// Origin was checked above, before the ticket was spent.
		InsecureSkipVerify: true,
		// Events are encoded once for all sockets; per-socket compression
		// would undo that.
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		h.log.Debug("websocket upgrade failed", "err", err)
		return
	}
	ws.SetReadLimit(h.cfg.ReadLimit)

	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.stopping {
		ws.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	c := h.newConn(ws, uw.netConn, id)
	h.conns.Add(1)
	c.start()
	// Returning lets net/http release the request and its buffers; the
	// connection lives on in its reader goroutine and, while there is
	// something to write, its writer.
}

// originAllowed is the check against cross-site WebSocket hijacking. The
// scheme counts as well as the host: a plain-http page on the party's own
// host (injected on an open Wi-Fi, say) must not ride a signed-in guest's
// session over wss. An https page may open a socket whatever the request
// arrived over, since a load balancer may end TLS in front of barhub.
func (h *Hub) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		// Not a browser: the ticket is what authenticates.
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "https":
	case "http":
		if requestScheme(r) != "http" {
			return false
		}
	default:
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, allowed := range h.cfg.AllowedOrigins {
		if s, host, ok := strings.Cut(allowed, "://"); ok {
			// A full origin: scheme and host both match.
			if strings.EqualFold(s, scheme) && strings.EqualFold(strings.TrimSuffix(host, "/"), u.Host) {
				return true
			}
			continue
		}
		if strings.EqualFold(allowed, u.Host) {
			return true
		}
		if ok, err := path.Match(strings.ToLower(allowed), strings.ToLower(u.Host)); err == nil && ok {
			return true
		}
	}
	return false
}

// requestScheme is the scheme the browser used to reach barhub: https when
// TLS ends here or the load balancer says so in X-Forwarded-Proto. The
// header cannot be set by a page's script, and a forged one only makes the
// check stricter.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if p, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); strings.EqualFold(strings.TrimSpace(p), "https") {
		return "https"
	}
	return "http"
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}
