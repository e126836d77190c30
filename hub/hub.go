// Package hub delivers barhub's live events to browsers over WebSocket.
//
// Events are published to a Broker, which orders them per topic (seq),
// keeps a bounded history and hands them to every Hub attached to it — one
// per barhub instance. Each Hub encodes an event once and queues the same
// bytes to every subscribed socket; a socket whose queue is full is closed
// rather than allowed to hold anyone else up. The wire protocol is
// described in docs/PROTOCOL.md.
//
// The hub knows no topics and no roles: the application says which topics
// exist and who may hear them through Config (KnownTopic, Authorize,
// Admit), as centrifuge leaves them to its OnSubscribe callback; barhub's
// are in package live.
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
	ID string
	// Role is the application's name for what the holder may do; the hub
	// only hands it to Config's Admit and Authorize.
	Role string
	Name string
	// Scope is the application's name for the part of its world the
	// holder belongs to (barhub: the event); like Role, the hub only
	// hands it to Authorize, and counts people in each (PeopleIn).
	Scope string
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
	// PublishTimeout bounds one Publish, however the broker behaves (a
	// frozen Redis): past it Publish returns an ErrUnavailable error
	// (default 3s).
	PublishTimeout time.Duration
	// MaxSocketsPerIdentity is the most sockets one guest (or bartender,
	// or admin) may hold open on this instance; one more is closed with
	// StatusTooMany (default 8).
	MaxSocketsPerIdentity int
	// MaxReplaysPerMinute is the most subscriptions with since (each a
	// history replay of up to --hub-history events) one socket may make
	// in a minute; one more closes it with StatusTooMany (default 10).
	MaxReplaysPerMinute int
	// ReplayMessagesPerMinute and ReplayBytesPerMinute are what one person
	// (an Identity.ID, over all their sockets on this instance) may be
	// sent in history replays: a budget holding a minute's worth, refilled
	// continuously. A replay it does not cover is answered with a resync
	// (defaults 5,000 messages and 5 MiB: five full histories of 1,000
	// events of about a kilobyte, a host's page catching up after a long
	// sleep).
	ReplayMessagesPerMinute int
	ReplayBytesPerMinute    int
	// KnownTopic reports whether topic is one of the application's topics
	// (the hub knows none): Publish refuses any other, and a subscription
	// to one is answered "unknown_topic". Whatever it says, a topic is 1
	// to 128 characters of A-Z a-z 0-9 - _ . and :. Nil knows no topic.
	KnownTopic func(topic string) bool
	// Authorize decides, at each subscription to a known topic, whether
	// id may hear it (the application's rule, as centrifuge's
	// OnSubscribe): nil lets it; an error wrapping ErrUnknownTopic is
	// answered "unknown_topic", any other "forbidden". Nil refuses every
	// subscription.
	Authorize func(id Identity, topic string) error
	// Admit decides whether id may open a live connection at all: an
	// error refuses it with 403 "forbidden". Nil admits every ticket.
	Admit func(id Identity) error
	// FollowGrace is how long a topic stays followed (see Follower) after
	// its last subscriber here left (default 1m): phones reconnect, and
	// following again costs a round trip to the broker.
	FollowGrace time.Duration
	// PresenceInterval is the least time between two announcements of
	// this instance's connected people to the others (default 500ms), so
	// a crowd arriving costs one publish per interval, not one per phone;
	// PresenceHeartbeat how often it is repeated while anyone is
	// connected (default 15s). See People.
	PresenceInterval  time.Duration
	PresenceHeartbeat time.Duration
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
	if c.FollowGrace <= 0 {
		c.FollowGrace = time.Minute
	}
	if c.Shards <= 0 {
		c.Shards = 16
	}
	if c.PublishTimeout <= 0 {
		c.PublishTimeout = 3 * time.Second
	}
	if c.MaxSocketsPerIdentity <= 0 {
		c.MaxSocketsPerIdentity = 8
	}
	if c.MaxReplaysPerMinute <= 0 {
		c.MaxReplaysPerMinute = 10
	}
	if c.ReplayMessagesPerMinute <= 0 {
		c.ReplayMessagesPerMinute = 5000
	}
	if c.ReplayBytesPerMinute <= 0 {
		c.ReplayBytesPerMinute = 5 << 20
	}
	if c.PresenceInterval <= 0 {
		c.PresenceInterval = 500 * time.Millisecond
	}
	if c.PresenceHeartbeat <= 0 {
		c.PresenceHeartbeat = 15 * time.Second
	}
	c.Shards = min(c.Shards, 64)
	return c
}

// Close codes sent to clients.
const (
	// StatusSlowConsumer closes a socket whose queue overflowed; the
	// client should reconnect and resubscribe with since.
	StatusSlowConsumer websocket.StatusCode = 4000
	// StatusTooMany closes a socket over a per-client limit: too many
	// sockets of one identity, or too many replays on one socket. The
	// client should wait a while before reconnecting.
	StatusTooMany websocket.StatusCode = 4008
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

	// lastSeen is the latest position dispatched per topic, to catch up
	// after an interrupted delivery.
	seenMu   sync.Mutex
	lastSeen map[string]Position

	// replays is each person's budget of replayed messages and bytes.
	replays *replayBudgets

	// sockets counts the open sockets of each identity, over every
	// scope; present has the role and sockets of each identity in each
	// scope it is connected to.
	socketsMu sync.Mutex
	sockets   map[string]int
	present   map[member]membership

	// instance names this hub in its presence announcements; peers is
	// the latest heard from every other instance (see People).
	instance     string
	presenceKick chan struct{}
	presenceStop chan struct{}
	presenceMu   sync.Mutex
	peers        map[string]peerPresence
	presenceFns  []func(string, map[string]int)
	notified     map[string]map[string]int

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

	// follower is broker when it delivers only followed topics.
	follower  Follower
	fmu       sync.Mutex
	follows   map[string]*topicFollow
	listening bool // Start has followed the pinned topics
}

// New returns a Hub publishing through broker and admitting sockets with
// tickets redeemed by tickets. Call Start before serving.
func New(cfg Config, broker Broker, tickets TicketRedeemer, logger *slog.Logger) *Hub {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.Default()
	}
	h := &Hub{
		cfg:          cfg,
		broker:       broker,
		tickets:      tickets,
		log:          logger,
		metrics:      newMetrics(),
		shards:       make([]*shard, cfg.Shards),
		listeners:    make(map[string][]func(Event)),
		listenQ:      make(chan Message, 1024),
		routes:       make(map[string]uint64),
		lastSeen:     make(map[string]Position),
		sockets:      make(map[string]int),
		present:      make(map[member]membership),
		instance:     newEpoch(),
		peers:        make(map[string]peerPresence),
		presenceKick: make(chan struct{}, 1),
		presenceStop: make(chan struct{}),
		follows:      make(map[string]*topicFollow),
		replays:      newReplayBudgets(cfg.ReplayMessagesPerMinute, cfg.ReplayBytesPerMinute, time.Now),
	}
	h.follower, _ = broker.(Follower)
	for i := range h.shards {
		h.shards[i] = &shard{
			hub:    h,
			bit:    1 << i,
			topics: make(map[string]map[*conn]*sub),
			conns:  make(map[*conn]struct{}),
			inbox:  make(chan *delivery, 4096),
		}
	}
	h.OnEvent(topicPresence, h.heardPresence)
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
	if err := h.followPinned(ctx); err != nil {
		stop()
		for _, s := range h.shards {
			close(s.inbox)
		}
		close(h.listenQ)
		h.workers.Wait()
		return fmt.Errorf("start hub: %w", err)
	}
	h.stopListen = stop
	h.started = true
	h.workers.Add(1)
	go func() {
		defer h.workers.Done()
		h.runPresence(h.presenceStop)
	}()
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
	// The presence loop says "nobody here" before the broker is left.
	close(h.presenceStop)
	// No more dispatch calls once stopListen returns.
	h.stopListen()
	h.stopFollowing()
	for _, s := range h.shards {
		close(s.inbox)
	}
	close(h.listenQ)
	h.workers.Wait()
	return err
}

// Publish sends event on topic to every subscriber on every instance.
// data is encoded as JSON once. It returns when the broker has ordered and
// stored the event, not when sockets have been written. When the broker
// cannot be reached, or does not answer within Config.PublishTimeout, the
// error wraps ErrUnavailable: the event may still appear (once) when the
// broker recovers.
func (h *Hub) Publish(ctx context.Context, topic, event string, data any) error {
	if !h.knownTopic(topic) {
		return fmt.Errorf("publish %s: %w %q", event, ErrUnknownTopic, topic)
	}
	if event == "" {
		return fmt.Errorf("publish on %s: empty event name", topic)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("publish %s on %s: encode data: %w", event, topic, err)
	}
	ev := Event{Topic: topic, Event: event, Time: time.Now(), Data: raw, ID: newEventID()}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.PublishTimeout)
	defer cancel()
	// The Redis client bounds its reads by its own timeouts and retries,
	// not by ctx: waiting here is what keeps a frozen Redis from holding
	// the caller for longer than PublishTimeout. A publish still in
	// flight may land later; its ID keeps a retry of it from landing
	// twice.
	done := make(chan error, 1)
	go func() {
		_, err := h.broker.Publish(ctx, ev)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("publish %s on %s: %w", event, topic, err)
		}
		return fmt.Errorf("publish %s on %s: %w: no answer within %s", event, topic, ErrUnavailable, h.cfg.PublishTimeout)
	}
}

// OnEvent registers fn to be called for every event on topic that reaches
// this instance, whichever instance published it. Calls are made one at a
// time from one goroutine, in order; fn should return quickly.
func (h *Hub) OnEvent(topic string, fn func(Event)) {
	h.lmu.Lock()
	h.listeners[topic] = append(h.listeners[topic], fn)
	h.lmu.Unlock()
	h.pin(topic)
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
		if h.routes[topic] == 0 {
			h.followed(topic, true)
		}
		h.routes[topic] |= bit
		return
	}
	if m := h.routes[topic] &^ bit; m != 0 {
		h.routes[topic] = m
	} else if _, ok := h.routes[topic]; ok {
		delete(h.routes, topic)
		h.followed(topic, false)
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
	if m.Topic != topicPresence {
		// Presence announcements are the hub's own bookkeeping, not the
		// application's events: counting them would blur that figure.
		h.metrics.published.Inc()
	}
	h.seenMu.Lock()
	prev := h.lastSeen[m.Topic]
	// Events reach dispatch in order, so an epoch other than the last one
	// seen is the newer one.
	fresh := m.Epoch != prev.Epoch || m.Seq > prev.Seq
	if fresh {
		h.lastSeen[m.Topic] = Position{Epoch: m.Epoch, Seq: m.Seq}
	}
	h.seenMu.Unlock()

	var pub int64
	if !m.Time.IsZero() {
		pub = m.Time.UnixNano()
	}
	h.deliver(&delivery{topic: m.Topic, epoch: m.Epoch, seq: m.Seq, out: newOut(m.Wire, pub)})
	if !fresh {
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

// deliver hands d to every shard with subscribers of its topic.
func (h *Hub) deliver(d *delivery) {
	h.routesMu.RLock()
	mask := h.routes[d.topic]
	h.routesMu.RUnlock()
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		mask &^= 1 << i
		h.shards[i].inbox <- d
	}
}

// reset tells every subscriber of topic that the broker's history now
// starts after pos: those behind it, or in another epoch, get a resync.
func (h *Hub) reset(topic string, pos Position) {
	h.seenMu.Lock()
	if prev := h.lastSeen[topic]; prev.Epoch != pos.Epoch || prev.Seq < pos.Seq {
		h.lastSeen[topic] = pos
	}
	h.seenMu.Unlock()
	h.deliver(&delivery{topic: topic, epoch: pos.Epoch, seq: pos.Seq})
}

// catchUp re-reads, from the broker's history, what may have been missed
// while delivery was interrupted (a lost Redis pub/sub connection), for
// every topic with sockets or listeners here. Sockets and listeners skip
// what they already have by seq; where the history no longer reaches back,
// or was lost with its epoch (Redis restarted empty), a socket gets a
// resync at once, even if nothing new was published.
func (h *Hub) catchUp() {
	h.metrics.catchUps.Inc()
	since := make(map[string]Position)
	h.seenMu.Lock()
	for topic, pos := range h.lastSeen {
		since[topic] = pos
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
				if !sb.live {
					continue
				}
				pos, ok := since[topic]
				switch {
				case !ok:
					since[topic] = Position{Epoch: sb.epoch, Seq: sb.lastSeq}
				case sb.epoch == pos.Epoch && sb.lastSeq < pos.Seq:
					since[topic] = Position{Epoch: pos.Epoch, Seq: sb.lastSeq}
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
		if err := h.catchUpTopic(topic, from); err != nil {
			h.log.Warn("catch up after interrupted delivery", "topic", topic, "err", err)
		}
	}
}

func (h *Hub) catchUpTopic(topic string, from Position) error {
	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.WriteTimeout)
	defer cancel()
	hist, err := h.broker.History(ctx, topic, from.Seq)
	if err != nil {
		return err
	}
	lost := hist.Epoch != from.Epoch && (from.Epoch != "" || from.Seq != 0)
	if lost {
		// The history this instance followed is gone; read all of the
		// new one.
		if hist, err = h.broker.History(ctx, topic, 0); err != nil {
			return err
		}
	}
	if lost || !hist.Complete {
		start := hist.Latest
		if len(hist.Messages) > 0 {
			start = hist.Messages[0].Seq - 1
		}
		h.reset(topic, Position{Epoch: hist.Epoch, Seq: start})
	}
	for _, m := range hist.Messages {
		h.dispatch(m)
	}
	return nil
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
	if h.cfg.Admit != nil {
		if err := h.cfg.Admit(id); err != nil {
			h.log.Debug("refused live connection", "id", id.ID, "err", err)
			writeError(w, http.StatusForbidden, "forbidden", "this account may not open a live connection")
			return
		}
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

	if !h.admit(id) {
		// After the upgrade, so the browser sees why: a refusal before it
		// is only a failed connection to a page's script.
		h.metrics.limited.Inc()
		uw.netConn.SetDeadline(time.Now().Add(time.Second))
		ws.Close(StatusTooMany, "too many connections")
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.stopping {
		h.release(id)
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
// admit counts a new socket of id, unless id already holds the most it
// may; release uncounts one.
func (h *Hub) admit(id Identity) bool {
	h.socketsMu.Lock()
	defer h.socketsMu.Unlock()
	if h.sockets[id.ID] >= h.cfg.MaxSocketsPerIdentity {
		return false
	}
	h.sockets[id.ID]++
	m := member{scope: id.Scope, id: id.ID}
	ms := h.present[m]
	if ms.sockets == 0 {
		ms.role = id.Role
		h.presenceChanged()
	}
	ms.sockets++
	h.present[m] = ms
	return true
}

func (h *Hub) release(id Identity) {
	h.socketsMu.Lock()
	defer h.socketsMu.Unlock()
	if n := h.sockets[id.ID] - 1; n > 0 {
		h.sockets[id.ID] = n
	} else {
		delete(h.sockets, id.ID)
	}
	m := member{scope: id.Scope, id: id.ID}
	if ms := h.present[m]; ms.sockets > 1 {
		ms.sockets--
		h.present[m] = ms
	} else {
		delete(h.present, m)
		h.presenceChanged()
	}
}

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
