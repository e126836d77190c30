package hub

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Event is one published event, as in-process listeners see it.
type Event struct {
	Topic string          `json:"topic"`
	Seq   uint64          `json:"seq"`
	Epoch string          `json:"epoch"`
	Event string          `json:"event"`
	Time  time.Time       `json:"time"`
	Data  json.RawMessage `json:"data"`
	// ID names the publish, so that a publish retried after a timeout is
	// stored once: a broker given an ID it already holds answers with the
	// first publish's position. Not sent to clients.
	ID string `json:"-"`
}

// Position is a place in a topic's sequence. Seq counts the topic's events
// within Epoch; a new epoch begins, with seq starting again at 1, whenever
// the broker lost the topic's history (Redis restarted empty, or evicted
// the keys), so a seq is only comparable with seqs of the same epoch.
type Position struct {
	Epoch string
	Seq   uint64
}

// Message is an event as a Broker delivers and stores it: already encoded
// as the protocol's event message, so the hub writes the same bytes to every
// socket without encoding anything per subscriber.
type Message struct {
	Topic string
	Seq   uint64
	Epoch string
	// Time is when the event was published, for latency metrics.
	Time time.Time
	// Wire is the complete {"type":"event",...} message.
	Wire []byte
}

// History is what a Broker still holds of a topic after a given seq.
type History struct {
	// Messages are the stored events after the requested seq, in order.
	Messages []Message
	// Epoch is the topic's current epoch ("" when the broker holds
	// nothing of the topic); Messages and Latest belong to it.
	Epoch string
	// Latest is the topic's latest seq (0 before the first event).
	Latest uint64
	// Complete is false when events after the requested seq were
	// already dropped from the history, or the seq lies in the future.
	// It says nothing about the epoch: the caller compares that.
	Complete bool
}

// ErrUnavailable wraps every error of a Publish that failed because the
// broker could not be reached in time (Redis down, restarting or frozen).
// The event may or may not have been stored; publishing it again with the
// same Event.ID never stores it twice.
var ErrUnavailable = errors.New("live updates unavailable")

// Broker orders, stores and delivers events for every Hub attached to it.
// Implementations assign each topic's seq within its epoch, keep a
// bounded history per topic and deliver events to listeners in seq order
// per topic.
type Broker interface {
	// Publish assigns ev the topic's next seq, appends it to the history
	// and delivers it to every listener on every instance. ev.Seq and
	// ev.Epoch are ignored. An ev.ID the broker has seen recently is not
	// published again: Publish returns the first publish's position. It
	// does not wait for delivery to sockets. Errors reaching the broker
	// wrap ErrUnavailable.
	Publish(ctx context.Context, ev Event) (Position, error)
	// Listen calls fn for every event published from now on, on any
	// instance, in seq order per topic. fn must not block for long. When
	// delivery was interrupted and events may have been missed, fn gets a
	// Message with an empty Topic. Listen returns once delivery is set up;
	// stop ends it.
	Listen(ctx context.Context, fn func(Message)) (stop func(), err error)
	// History returns the stored events of topic after since, and the
	// topic's epoch and latest seq, as one consistent snapshot.
	History(ctx context.Context, topic string, since uint64) (History, error)
	// Latest returns the topic's epoch and latest seq.
	Latest(ctx context.Context, topic string) (Position, error)
}

// A Follower is a Broker that delivers to Listen only the topics the hub
// follows, so an instance receives the events its sockets and listeners
// want rather than every event of every instance. The Hub follows a topic
// while it has subscribers here (and for Config.FollowGrace after the last
// leaves, so a phone that reconnects finds it still followed), and the
// topics of OnEvent listeners for its whole life. A Broker that is not a
// Follower delivers every topic.
//
// Calls for one topic are made one at a time, in the order the Hub decides
// them, so the broker's own order of commands matches.
type Follower interface {
	// Follow starts delivery of topic's events to Listen. The channel is
	// closed once every event published from then on will be delivered,
	// or delivery was interrupted (Listen's fn gets its empty Message and
	// the Hub catches up from the history).
	Follow(topic string) <-chan struct{}
	// Unfollow stops delivery of topic's events.
	Unfollow(topic string)
}

// completeHistory decides whether msgs covers every event after since up
// to latest.
func completeHistory(msgs []Message, since, latest uint64) bool {
	switch {
	case since == latest:
		return true
	case since > latest:
		return false
	default:
		return len(msgs) > 0 && msgs[0].Seq == since+1 && msgs[len(msgs)-1].Seq == latest
	}
}

// newEpoch returns a fresh epoch name: random, so two histories begun
// independently (two Redis restarts, two processes) never share one.
func newEpoch() string {
	var b [8]byte
	rand.Read(b[:])
	return epochEncoding.EncodeToString(b[:])
}

// newEventID returns a fresh Event.ID.
func newEventID() string {
	var b [12]byte
	rand.Read(b[:])
	return epochEncoding.EncodeToString(b[:])
}

// epochEncoding keeps epochs short and free of the characters the
// protocol's since ("<epoch>:<seq>") and the broker's framing use.
var epochEncoding = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// MemoryBroker is the in-process Broker used when barhub runs as a single
// instance: every Hub sharing it sees every event.
//
// Its history is bounded twice: each topic keeps its last history events,
// and all topics together keep at most maxBytes of them, the oldest going
// first whichever topic holds them. A per-topic count alone would let the
// history grow with the number of topics: every guest has a topic of their
// own, and a night's orders fill each one until the count is reached (a
// thousand guests' topics at a thousand events each is most of a
// gigabyte). Past the budget a client asking for older events gets a
// resync and fetches the state again, as it does past the count.
type MemoryBroker struct {
	history  int
	maxBytes int64

	mu     sync.Mutex // guards topics
	topics map[string]*memTopic

	lmu       sync.RWMutex // guards listeners
	listeners map[int]func(Message)
	nextID    int

	// held counts the bytes of stored events (eventCost), and count the
	// events, in all topics.
	held  atomic.Int64
	count atomic.Int64
	// stored is every stored event in publish order, for the budget;
	// entries whose event its topic has dropped already (past the
	// per-topic count) are skipped when they come up.
	ageMu  sync.Mutex
	stored []storedEvent
	first  int // stored[first:] are the entries not yet taken
	// evictMu lets one publisher at a time take events off the front, so
	// they leave in publish order.
	evictMu sync.Mutex
}

// storedEvent names one stored event for the budget.
type storedEvent struct {
	t   *memTopic
	seq uint64
}

type memTopic struct {
	mu     sync.Mutex
	epoch  string
	latest uint64
	// msgs[head:] are the stored events, oldest first, with consecutive
	// seqs; msgIDs[head:] their Event.IDs, and ids the seq of each ID
	// still stored, so a repeated publish is recognised.
	msgs   []Message
	msgIDs []string
	head   int
	ids    map[string]uint64
	// oldest is the seq of the oldest event still stored (latest+1 when
	// none is), read without mu to tell which budget entries are stale.
	oldest atomic.Uint64
}

// eventCost is what an event is counted as against the budget: its
// encoded message and ID, and about what holding them costs besides (the
// Message, the ID in the topic's map, the budget's entry).
func eventCost(m Message, id string) int64 {
	return int64(len(m.Wire) + len(id) + 160)
}

// DefaultHistoryBytes is the history budget of NewMemoryBroker: about
// 30,000 order events, a whole party's night, or a couple of minutes of a
// rush of 100 orders a second.
const DefaultHistoryBytes = 32 << 20

// NewMemoryBroker returns an in-process broker keeping the last history
// events of each topic, and DefaultHistoryBytes of events in all.
func NewMemoryBroker(history int) *MemoryBroker {
	return NewMemoryBrokerSize(history, DefaultHistoryBytes)
}

// NewMemoryBrokerSize returns an in-process broker keeping the last
// history events of each topic, and at most maxBytes of events in all
// topics together.
func NewMemoryBrokerSize(history int, maxBytes int64) *MemoryBroker {
	if history < 1 {
		history = 1
	}
	return &MemoryBroker{
		history:   history,
		maxBytes:  maxBytes,
		topics:    make(map[string]*memTopic),
		listeners: make(map[int]func(Message)),
	}
}

func (b *MemoryBroker) topic(name string) *memTopic {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.topics[name]
	if !ok {
		// The history lives as long as the process: one epoch per topic
		// per process, so a client that followed an earlier process gets
		// a resync rather than the new process's unrelated seqs. A topic
		// whose events have all left the history keeps its epoch and seq
		// (a few dozen bytes a topic), so its subscribers are not sent a
		// needless resync by the next event.
		t = &memTopic{epoch: newEpoch()}
		t.oldest.Store(1)
		b.topics[name] = t
	}
	return t
}

// dropOldest drops t's oldest stored event; the caller holds t.mu and
// knows there is one.
func (b *MemoryBroker) dropOldest(t *memTopic) {
	m, id := t.msgs[t.head], t.msgIDs[t.head]
	b.held.Add(-eventCost(m, id))
	b.count.Add(-1)
	if id != "" {
		delete(t.ids, id)
	}
	t.msgs[t.head], t.msgIDs[t.head] = Message{}, ""
	t.head++
	switch {
	case t.head == len(t.msgs):
		// Empty: start again at the front, and let a map that grew with
		// a busy moment go.
		t.msgs, t.msgIDs, t.head, t.ids = t.msgs[:0], t.msgIDs[:0], 0, nil
	case t.head > len(t.msgs)/2:
		n := copy(t.msgs, t.msgs[t.head:])
		copy(t.msgIDs, t.msgIDs[t.head:])
		clear(t.msgs[n:])
		clear(t.msgIDs[n:])
		t.msgs, t.msgIDs, t.head = t.msgs[:n], t.msgIDs[:n], 0
	}
	t.oldest.Add(1)
}

// Publish implements Broker.
func (b *MemoryBroker) Publish(ctx context.Context, ev Event) (Position, error) {
	head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
	if err != nil {
		return Position{}, fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
	}
	t := b.topic(ev.Topic)
	pos, stored := b.publish(t, ev, head, tail)
	if stored && b.held.Load() > b.maxBytes {
		b.evict()
	}
	return pos, nil
}

func (b *MemoryBroker) publish(t *memTopic, ev Event, head, tail []byte) (Position, bool) {
	// Holding the topic lock across delivery keeps listeners' view in seq
	// order; listeners only hand the message over, so this stays short.
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev.ID != "" {
		if seq, ok := t.ids[ev.ID]; ok {
			return Position{Epoch: t.epoch, Seq: seq}, false
		}
	}
	t.latest++
	m := Message{Topic: ev.Topic, Seq: t.latest, Epoch: t.epoch, Time: ev.Time, Wire: joinEvent(head, t.latest, t.epoch, tail)}
	if len(t.msgs)-t.head >= b.history {
		b.dropOldest(t)
	}
	t.msgs = append(t.msgs, m)
	t.msgIDs = append(t.msgIDs, ev.ID)
	b.held.Add(eventCost(m, ev.ID))
	b.count.Add(1)
	if ev.ID != "" {
		if t.ids == nil {
			t.ids = make(map[string]uint64)
		}
		t.ids[ev.ID] = m.Seq
	}
	// Into the budget's order under the topic's lock, so one topic's
	// events are in it in seq order.
	b.ageMu.Lock()
	b.stored = append(b.stored, storedEvent{t: t, seq: m.Seq})
	b.compactLocked()
	b.ageMu.Unlock()
	b.lmu.RLock()
	for _, fn := range b.listeners {
		fn(m)
	}
	b.lmu.RUnlock()
	return Position{Epoch: t.epoch, Seq: m.Seq}, true
}

// compactLocked keeps the budget's list about as long as the events it
// names: it lets the entries already taken go, and the entries of events
// their topic dropped (past its count), which pile up while the budget is
// not reached, once they outnumber the events held. Each pass is paid for
// by as many publishes, so a publish costs O(1) on average. The caller
// holds ageMu.
func (b *MemoryBroker) compactLocked() {
	pending := len(b.stored) - b.first
	if b.first > pending {
		n := copy(b.stored, b.stored[b.first:])
		clear(b.stored[n:])
		b.stored, b.first = b.stored[:n], 0
	}
	if pending <= 2*int(b.count.Load())+1024 {
		return
	}
	kept := b.stored[:b.first]
	for _, e := range b.stored[b.first:] {
		if e.seq >= e.t.oldest.Load() {
			kept = append(kept, e)
		}
	}
	clear(b.stored[len(kept):])
	b.stored = kept
	if n := len(kept) - b.first; cap(b.stored) > 4*n+4096 {
		// Far fewer than the list once held: let the big array go.
		b.stored = append(make([]storedEvent, 0, 2*n+1024), b.stored[b.first:]...)
		b.first = 0
	}
}

// evict drops the oldest events, across topics, until the history is
// within its budget again.
func (b *MemoryBroker) evict() {
	b.evictMu.Lock()
	defer b.evictMu.Unlock()
	for b.held.Load() > b.maxBytes {
		b.ageMu.Lock()
		if b.first == len(b.stored) {
			b.ageMu.Unlock()
			return
		}
		e := b.stored[b.first]
		b.stored[b.first] = storedEvent{}
		b.first++
		b.ageMu.Unlock()
		t := e.t
		t.mu.Lock()
		// Not there any more: its topic dropped it past its count.
		if len(t.msgs) > t.head && t.msgs[t.head].Seq == e.seq {
			b.dropOldest(t)
		}
		t.mu.Unlock()
	}
}

// HeldBytes is what the stored history counts as against the budget.
func (b *MemoryBroker) HeldBytes() int64 { return b.held.Load() }

// Listen implements Broker.
func (b *MemoryBroker) Listen(ctx context.Context, fn func(Message)) (func(), error) {
	b.lmu.Lock()
	id := b.nextID
	b.nextID++
	b.listeners[id] = fn
	b.lmu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.lmu.Lock()
			delete(b.listeners, id)
			b.lmu.Unlock()
		})
	}, nil
}

// History implements Broker.
func (b *MemoryBroker) History(ctx context.Context, topic string, since uint64) (History, error) {
	t := b.topic(topic)
	t.mu.Lock()
	defer t.mu.Unlock()
	h := History{Epoch: t.epoch, Latest: t.latest}
	if held := t.msgs[t.head:]; since < t.latest && len(held) > 0 {
		// The stored seqs are consecutive, up to latest.
		from := 0
		if oldest := held[0].Seq; since+1 > oldest {
			from = int(since + 1 - oldest)
		}
		h.Messages = append(make([]Message, 0, len(held)-from), held[from:]...)
	}
	h.Complete = completeHistory(h.Messages, since, h.Latest)
	return h, nil
}

// Latest implements Broker.
func (b *MemoryBroker) Latest(ctx context.Context, topic string) (Position, error) {
	t := b.topic(topic)
	t.mu.Lock()
	defer t.mu.Unlock()
	return Position{Epoch: t.epoch, Seq: t.latest}, nil
}
