package hub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Per-socket buffers. Client messages are tiny; most events fit in one
// write buffer, larger ones are written straight through.
const (
	readBufSize = 256
	// Only control frames (pong, ping, close; at most 125 bytes of
	// payload) go through the library's buffer; data frames are written
	// directly.
	writeBufSize = 256
	// maxBatch is the most queued frames written with one writev.
	maxBatch = 32
	// maxPendingFactor bounds the live events held for a socket while its
	// history replay is being queued, in multiples of QueueSize.
	maxPendingFactor = 4
)

// outMsg is one message queued to a socket, as a complete WebSocket
// frame. Server frames are not masked, so an event's frame is built once
// and the same bytes are written to every socket it goes to.
type outMsg struct {
	frame []byte
	// pub is the event's publish time in unix nanos; 0 for messages that
	// should not count in the latency histogram.
	pub int64
}

// delivery is one event on its way through a shard, or, with a nil out,
// a reset: the topic's history now starts after (epoch, seq), and
// subscribers short of it must resync.
type delivery struct {
	topic string
	epoch string
	seq   uint64
	out   *outMsg
}

// next decides what a subscriber at (epoch, last) gets for d: the event,
// a resync first, both or nothing. An epoch of "" with nothing seen is a
// subscription made while the broker held nothing of the topic, so the
// first epoch to come is its own.
func (d *delivery) next(epoch string, last uint64) (send, resync bool) {
	same := d.epoch == epoch || (epoch == "" && last == 0)
	if d.out == nil {
		return false, !same || d.seq > last
	}
	switch {
	case same && d.seq <= last:
		return false, false
	case same && d.seq == last+1:
		return true, false
	default:
		// A gap (a lost pub/sub message) or a new epoch (a lost history):
		// the client must refetch.
		return true, true
	}
}

// resyncSeq is the seq the client's refetched state stands for: events
// after it follow.
func (d *delivery) resyncSeq() uint64 {
	if d.out == nil {
		return d.seq
	}
	return d.seq - 1
}

// sub is one socket's subscription to one topic. Guarded by its shard's mu.
type sub struct {
	// live is false while the history is being replayed; events arriving
	// meanwhile wait in pending so none is lost or sent twice.
	live    bool
	pending []*delivery
	epoch   string
	lastSeq uint64
}

// shard owns a slice of the sockets and their subscriptions.
type shard struct {
	hub    *Hub
	bit    uint64 // this shard's bit in Hub.routes
	mu     sync.Mutex
	topics map[string]map[*conn]*sub
	conns  map[*conn]struct{}
	inbox  chan *delivery
}

func (s *shard) run() {
	for d := range s.inbox {
		s.fanOut(d)
	}
}

func (s *shard) fanOut(d *delivery) {
	h := s.hub
	s.mu.Lock()
	defer s.mu.Unlock()
	for c, sb := range s.topics[d.topic] {
		if !sb.live {
			if len(sb.pending) >= maxPendingFactor*h.cfg.QueueSize {
				s.dropSlowLocked(c)
				continue
			}
			sb.pending = append(sb.pending, d)
			continue
		}
		send, resync := d.next(sb.epoch, sb.lastSeq)
		if !send && !resync {
			continue
		}
		sb.epoch, sb.lastSeq = d.epoch, d.seq
		if resync {
			h.metrics.resyncs.Inc()
			if !c.trySend(resyncOut(d.topic, d.epoch, d.resyncSeq())) {
				s.dropSlowLocked(c)
				continue
			}
		}
		if send && !c.trySend(d.out) {
			s.dropSlowLocked(c)
		}
	}
}

// dropSlowLocked closes c as a slow consumer and removes it at once, so
// it costs nothing more in this or later broadcasts.
func (s *shard) dropSlowLocked(c *conn) {
	if c.kill(StatusSlowConsumer, "slow consumer") {
		s.hub.metrics.slowDrops.Inc()
	}
	s.removeConnLocked(c)
}

func (s *shard) addSubLocked(c *conn, topic string, sb *sub) {
	subs := s.topics[topic]
	if subs == nil {
		subs = make(map[*conn]*sub)
		s.topics[topic] = subs
		// Routed before the caller reads the history, so every event
		// stored after that read reaches this shard.
		s.hub.route(topic, s.bit, true)
	}
	subs[c] = sb
	if c.topics == nil {
		c.topics = make(map[string]*sub, 4)
	}
	c.topics[topic] = sb
	s.hub.metrics.subscriptions.Add(1)
}

func (s *shard) removeSubLocked(c *conn, topic string) {
	if _, ok := c.topics[topic]; !ok {
		return
	}
	delete(c.topics, topic)
	subs := s.topics[topic]
	delete(subs, c)
	if len(subs) == 0 {
		delete(s.topics, topic)
		s.hub.route(topic, s.bit, false)
	}
	s.hub.metrics.subscriptions.Add(-1)
}

func (s *shard) removeConnLocked(c *conn) {
	for topic := range c.topics {
		s.removeSubLocked(c, topic)
	}
}

// conn is one WebSocket. Its reader goroutine handles client messages;
// its writer goroutine, running while the queue has messages, is the only
// one writing data frames.
type conn struct {
	hub   *Hub
	id    Identity
	ws    *websocket.Conn
	nc    net.Conn
	shard *shard
	queue chan *outMsg

	done      chan struct{}
	closeOnce sync.Once
	dead      atomic.Bool
	code      websocket.StatusCode
	reason    string

	pingTimer *time.Timer
	// closeTimer, set when the socket is killed, closes the connection
	// if the writer has not managed to within WriteTimeout.
	closeTimer *time.Timer
	// writeStart is the unix nanos the current write began, 0 when idle.
	writeStart atomic.Int64
	// writing is set while a writer goroutine runs.
	writing atomic.Bool

	// topics is guarded by shard.mu.
	topics map[string]*sub

	// replayTokens and replayAt are a token bucket of replays; only the
	// message handler, one message at a time, touches them.
	replayTokens float64
	replayAt     time.Time
}

func (h *Hub) newConn(ws *websocket.Conn, nc net.Conn, id Identity) *conn {
	s := h.shards[h.nextID.Add(1)%uint64(len(h.shards))]
	c := &conn{
		hub:   h,
		id:    id,
		ws:    ws,
		nc:    nc,
		shard: s,
		queue: make(chan *outMsg, h.cfg.QueueSize),
		done:  make(chan struct{}),

		replayTokens: float64(h.cfg.MaxReplaysPerMinute),
		replayAt:     time.Now(),
	}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	h.metrics.connections.Add(1)
	return c
}

func (c *conn) start() {
	c.pingTimer = time.AfterFunc(c.hub.cfg.PingInterval, c.ping)
	c.queue <- helloOut
	c.wake()
	go c.readLoop()
}

// kill asks the writer to close the socket with code and reason. It never
// blocks, so the fan-out can call it. It reports whether this call was the
// one that closed c.
func (c *conn) kill(code websocket.StatusCode, reason string) bool {
	first := false
	c.closeOnce.Do(func() {
		first = true
		c.code = code
		c.reason = reason
		c.dead.Store(true)
		if c.nc != nil {
			// A peer that stopped reading leaves the writer blocked in a
			// write, the close frame with it: the connection, and the
			// kernel buffers it holds, go when WriteTimeout is up.
			nc := c.nc
			c.closeTimer = time.AfterFunc(c.hub.cfg.WriteTimeout, func() { nc.Close() })
		}
		close(c.done)
	})
	if first {
		// The writer closes the socket.
		c.wake()
	}
	return first
}

// trySend queues m without waiting; false means the queue is full.
func (c *conn) trySend(m *outMsg) bool {
	if c.dead.Load() {
		return true
	}
	select {
	case c.queue <- m:
		c.wake()
		return true
	default:
		return false
	}
}

// wake makes sure a writer is draining the queue. The writer exits when
// the queue is empty, so an idle socket costs no goroutine stack for
// writing; there is never more than one writer per socket.
func (c *conn) wake() {
	if !c.writing.Load() && c.writing.CompareAndSwap(false, true) {
		go c.writeLoop()
	}
}

// sendControl queues a message from the reader goroutine.
func (c *conn) sendControl(b []byte) bool { return c.sendOut(newOut(b, 0)) }

func (c *conn) sendOut(m *outMsg) bool {
	if c.trySend(m) {
		return !c.dead.Load()
	}
	if c.kill(StatusSlowConsumer, "slow consumer") {
		c.hub.metrics.slowDrops.Inc()
	}
	return false
}

// sendWait queues m, waiting for room while the writer catches up: a
// history replay may be longer than the queue.
func (c *conn) sendWait(m *outMsg, timer *time.Timer) bool {
	select {
	case c.queue <- m:
		c.wake()
		timer.Reset(c.hub.cfg.WriteTimeout)
		return true
	case <-c.done:
		return false
	case <-timer.C:
		if c.kill(StatusSlowConsumer, "slow consumer") {
			c.hub.metrics.slowDrops.Inc()
		}
		return false
	}
}

// writeLoop writes queued frames straight to the connection: several
// queued frames go out in one writev, and nothing is copied or encoded per
// socket. Control frames the library writes itself (pong, ping, close) go
// through the same net.Conn, whose write lock keeps every frame whole.
func (c *conn) writeLoop() {
	for {
		select {
		case m := <-c.queue:
			if !c.dead.Load() {
				c.write(m)
			}
			continue
		case <-c.done:
			c.finish()
			return
		default:
		}
		// The queue is empty: stop, unless a message slipped in between
		// the check and the flag going down.
		c.writing.Store(false)
		if len(c.queue) == 0 && !c.dead.Load() {
			return
		}
		if !c.writing.CompareAndSwap(false, true) {
			return
		}
	}
}

// write sends m and whatever else is queued, up to maxBatch frames.
func (c *conn) write(m *outMsg) {
	h := c.hub
	var err error
	n := 1
	// A deadline per write would cost a timer update per message; ping()
	// watches writeStart instead.
	c.writeStart.Store(time.Now().UnixNano())
	if len(c.queue) == 0 {
		_, err = c.nc.Write(m.frame)
		c.writeStart.Store(0)
		h.observe(m)
	} else {
		b := batchPool.Get().(*batch)
		b.msgs = append(b.msgs[:0], m)
		b.vec = append(b.vec[:0], m.frame)
	drain:
		for len(b.msgs) < maxBatch {
			select {
			case m := <-c.queue:
				b.msgs = append(b.msgs, m)
				b.vec = append(b.vec, m.frame)
			default:
				break drain
			}
		}
		bufs := net.Buffers(b.vec)
		_, err = bufs.WriteTo(c.nc)
		c.writeStart.Store(0)
		for _, m := range b.msgs {
			h.observe(m)
		}
		n = len(b.msgs)
		clear(b.msgs)
		clear(b.vec)
		batchPool.Put(b)
	}
	if err != nil {
		c.kill(websocket.StatusAbnormalClosure, "")
		return
	}
	h.metrics.messagesOut.Add(float64(n))
}

// finish closes the socket and releases it; it runs once, on the writer
// that saw the connection die, and leaves the writing flag up so no other
// writer starts.
func (c *conn) finish() {
	defer c.teardown()
	if c.code == websocket.StatusAbnormalClosure {
		c.ws.CloseNow()
		return
	}
	// A slow or vanished peer must not hold the close for long.
	c.nc.SetWriteDeadline(time.Now().Add(time.Second))
	c.ws.Close(c.code, c.reason)
}

type batch struct {
	msgs []*outMsg
	vec  [][]byte
}

var batchPool = sync.Pool{New: func() any {
	return &batch{msgs: make([]*outMsg, 0, maxBatch), vec: make([][]byte, 0, maxBatch)}
}}

func (h *Hub) observe(m *outMsg) {
	if m.pub != 0 {
		h.metrics.latency.Observe(float64(time.Now().UnixNano()-m.pub) / 1e9)
	}
}

// newOut frames payload as one unmasked text frame (RFC 6455 5.2).
func newOut(payload []byte, pub int64) *outMsg {
	n := len(payload)
	f := make([]byte, 0, n+10)
	switch {
	case n < 126:
		f = append(f, 0x81, byte(n))
	case n <= 0xffff:
		f = append(f, 0x81, 126, byte(n>>8), byte(n))
	default:
		f = append(f, 0x81, 127)
		f = binary.BigEndian.AppendUint64(f, uint64(n))
	}
	return &outMsg{frame: append(f, payload...), pub: pub}
}

var (
	helloOut = newOut(helloFrame, 0)
	pongOut  = newOut(pongFrame, 0)
)

func (c *conn) teardown() {
	c.pingTimer.Stop()
	if c.closeTimer != nil {
		c.closeTimer.Stop()
	}
	c.hub.release(c.id)
	s := c.shard
	s.mu.Lock()
	s.removeConnLocked(c)
	delete(s.conns, c)
	s.mu.Unlock()
	c.hub.metrics.connections.Add(-1)
	c.hub.conns.Done()
}

func (c *conn) ping() {
	if c.dead.Load() {
		return
	}
	if start := c.writeStart.Load(); start != 0 && time.Since(time.Unix(0, start)) > c.hub.cfg.WriteTimeout {
		// The peer stopped reading and no new event overflowed its queue:
		// closing the socket unblocks the writer.
		c.kill(websocket.StatusAbnormalClosure, "")
		c.nc.Close()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.hub.cfg.PingTimeout)
	err := c.ws.Ping(ctx)
	cancel()
	if err != nil {
		c.kill(websocket.StatusPolicyViolation, "ping timeout")
		return
	}
	c.pingTimer.Reset(c.hub.cfg.PingInterval)
}

func (c *conn) readLoop() {
	ctx := context.Background()
	var handled sync.WaitGroup
	for {
		typ, b, err := c.ws.Read(ctx)
		if err != nil {
			// The peer closed, broke the read limit, or the writer closed
			// the socket; in every case the writer finishes up.
			c.kill(websocket.StatusNormalClosure, "")
			return
		}
		c.hub.metrics.messagesIn.Inc()
		// Decoding and subscribing (JSON, a broker round trip) need a deep
		// stack. Doing them on a short-lived goroutine keeps this one, which
		// spends the socket's whole life parked in Read, at its small
		// initial stack: a few KB less for every idle socket. Waiting for it
		// keeps the client's messages in order.
		handled.Go(func() { c.handle(typ, b) })
		handled.Wait()
	}
}

func (c *conn) handle(typ websocket.MessageType, b []byte) {
	if typ != websocket.MessageText {
		c.sendError("bad_message", "messages must be JSON text frames", "")
		return
	}
	m, err := parseClientMessage(b)
	if err != nil {
		c.sendError("bad_message", err.Error(), "")
		return
	}
	switch m.Type {
	case msgPing:
		c.sendOut(pongOut)
	case msgSubscribe:
		if m.Since != nil && !c.takeReplay() {
			// A replay sends up to the whole history: asked for over and
			// over it would turn a few bytes in into megabytes out.
			c.hub.metrics.limited.Inc()
			c.kill(StatusTooMany, "too many replays")
			return
		}
		c.subscribe(m.Topic, m.Since)
	case msgUnsubscribe:
		s := c.shard
		s.mu.Lock()
		s.removeSubLocked(c, m.Topic)
		s.mu.Unlock()
	}
}

// takeReplay spends one of the socket's replays, refilled at
// MaxReplaysPerMinute; false when none is left.
func (c *conn) takeReplay() bool {
	limit := float64(c.hub.cfg.MaxReplaysPerMinute)
	now := time.Now()
	c.replayTokens = min(limit, c.replayTokens+now.Sub(c.replayAt).Minutes()*limit)
	c.replayAt = now
	if c.replayTokens < 1 {
		return false
	}
	c.replayTokens--
	return true
}

func (c *conn) sendError(code, message, topic string) {
	c.sendControl(mustMarshal(errorMessage{Type: "error", Code: code, Message: message, Topic: topic}))
}

// subscribe joins topic and, when since is set, replays what the client
// missed. The subscription is registered before the history is read and
// holds live events back until the replay is queued: every event lands
// in the history read, in pending, or both, and seq numbers remove the
// overlap. A since in another epoch than the topic's (the history it
// counted in was lost) gets a resync, never a replay of unrelated seqs.
func (c *conn) subscribe(topic string, since *Position) {
	h := c.hub
	if !h.knownTopic(topic) {
		c.sendError("unknown_topic", "there is no topic "+truncate(topic, 80), truncate(topic, 80))
		return
	}
	if err := h.authorize(c.id, topic); err != nil {
		if errors.Is(err, ErrUnknownTopic) {
			c.sendError("unknown_topic", "there is no topic "+truncate(topic, 80), truncate(topic, 80))
		} else {
			c.sendError("forbidden", "you may not subscribe to "+topic, topic)
		}
		return
	}
	s := c.shard
	s.mu.Lock()
	if _, ok := c.topics[topic]; ok {
		s.removeSubLocked(c, topic)
	} else if len(c.topics) >= h.cfg.MaxSubscriptions {
		s.mu.Unlock()
		c.sendError("too_many_subscriptions", "unsubscribe from a topic first", topic)
		return
	}
	sb := &sub{}
	s.addSubLocked(c, topic, sb)
	s.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.WriteTimeout)
	hist, replay, err := h.startFrom(ctx, c.id, topic, since)
	cancel()
	if err != nil {
		h.log.Warn("read live history", "topic", topic, "err", err)
		s.mu.Lock()
		if c.topics[topic] == sb {
			s.removeSubLocked(c, topic)
		}
		s.mu.Unlock()
		c.sendError("unavailable", "live updates are unavailable, retry", topic)
		return
	}

	timer := time.NewTimer(h.cfg.WriteTimeout)
	defer timer.Stop()
	if !c.sendWait(newOut(mustMarshal(subscribedMessage{Type: "subscribed", Topic: topic, Seq: hist.Latest, Epoch: hist.Epoch}), 0), timer) {
		return
	}
	epoch, last := hist.Epoch, hist.Latest
	if since != nil {
		if replay {
			for _, m := range hist.Messages {
				if !c.sendWait(newOut(m.Wire, 0), timer) {
					return
				}
			}
		} else {
			h.metrics.resyncs.Inc()
			if !c.sendWait(resyncOut(topic, epoch, last), timer) {
				return
			}
		}
	}
	for {
		s.mu.Lock()
		if c.topics[topic] != sb {
			s.mu.Unlock()
			return
		}
		pending := sb.pending
		sb.pending = nil
		if len(pending) == 0 {
			sb.live = true
			sb.epoch, sb.lastSeq = epoch, last
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		for _, d := range pending {
			send, resync := d.next(epoch, last)
			if !send && !resync {
				continue
			}
			epoch, last = d.epoch, d.seq
			if resync {
				h.metrics.resyncs.Inc()
				if !c.sendWait(resyncOut(topic, d.epoch, d.resyncSeq()), timer) {
					return
				}
			}
			if send && !c.sendWait(d.out, timer) {
				return
			}
		}
	}
}

// startFrom returns where a new subscription to topic starts: with since,
// the history after it to replay, or the latest position for a resync
// (replayFrom); without, just the latest position. The topic is followed
// before the read, so every event stored after it arrives live.
func (h *Hub) startFrom(ctx context.Context, id Identity, topic string, since *Position) (hist History, replay bool, err error) {
	if since != nil {
		return h.replayFrom(ctx, id, topic, *since)
	}
	if err := h.awaitFollow(ctx, topic); err != nil {
		return History{}, false, err
	}
	pos, err := h.broker.Latest(ctx, topic)
	return History{Epoch: pos.Epoch, Latest: pos.Seq, Complete: true}, false, err
}

func resyncOut(topic, epoch string, seq uint64) *outMsg {
	b, _ := json.Marshal(resyncMessage{Type: "resync", Topic: topic, Seq: seq, Epoch: epoch})
	return newOut(b, 0)
}

// upgradeWriter hands the WebSocket library small buffers of its own
// instead of net/http's 4 KB pair, and keeps the net.Conn for write
// deadlines. With thousands of idle sockets these buffers dominate memory.
type upgradeWriter struct {
	http.ResponseWriter
	netConn net.Conn
}

func (u *upgradeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(u.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		nc.Close()
		return nil, nil, err
	}
	size := readBufSize
	var r io.Reader = nc
	if n := brw.Reader.Buffered(); n > 0 {
		// The client already sent frames after its handshake; carry them
		// over.
		b, _ := brw.Reader.Peek(n)
		r = io.MultiReader(bytes.NewReader(bytes.Clone(b)), nc)
		size = max(size, n)
		br := bufio.NewReaderSize(r, size)
		if _, err := br.Peek(n); err != nil {
			nc.Close()
			return nil, nil, err
		}
		u.netConn = nc
		return nc, bufio.NewReadWriter(br, bufio.NewWriterSize(nc, writeBufSize)), nil
	}
	u.netConn = nc
	return nc, bufio.NewReadWriter(bufio.NewReaderSize(r, size), bufio.NewWriterSize(nc, writeBufSize)), nil
}
