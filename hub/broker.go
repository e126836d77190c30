package hub

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
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
type MemoryBroker struct {
	history int

	mu     sync.Mutex // guards topics
	topics map[string]*memTopic

	lmu       sync.RWMutex // guards listeners
	listeners map[int]func(Message)
	nextID    int
}

type memTopic struct {
	mu     sync.Mutex
	epoch  string
	latest uint64
	// ring holds the last len(ring) events; ring[(start+i)%cap] is the
	// i-th oldest. ringIDs holds their Event.IDs, and ids the seq of each
	// ID still in the ring, so a repeated publish is recognised.
	ring    []Message
	ringIDs []string
	ids     map[string]uint64
	start   int
}

// NewMemoryBroker returns an in-process broker keeping the last history
// events of each topic.
func NewMemoryBroker(history int) *MemoryBroker {
	if history < 1 {
		history = 1
	}
	return &MemoryBroker{
		history:   history,
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
		// a resync rather than the new process's unrelated seqs.
		t = &memTopic{epoch: newEpoch(), ids: make(map[string]uint64)}
		b.topics[name] = t
	}
	return t
}

// Publish implements Broker.
func (b *MemoryBroker) Publish(ctx context.Context, ev Event) (Position, error) {
	head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
	if err != nil {
		return Position{}, fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
	}
	t := b.topic(ev.Topic)
	// Holding the topic lock across delivery keeps listeners' view in seq
	// order; listeners only hand the message over, so this stays short.
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev.ID != "" {
		if seq, ok := t.ids[ev.ID]; ok {
			return Position{Epoch: t.epoch, Seq: seq}, nil
		}
	}
	t.latest++
	m := Message{Topic: ev.Topic, Seq: t.latest, Epoch: t.epoch, Time: ev.Time, Wire: joinEvent(head, t.latest, t.epoch, tail)}
	if len(t.ring) < b.history {
		t.ring = append(t.ring, m)
		t.ringIDs = append(t.ringIDs, ev.ID)
	} else {
		if old := t.ringIDs[t.start]; old != "" {
			delete(t.ids, old)
		}
		t.ring[t.start] = m
		t.ringIDs[t.start] = ev.ID
		t.start = (t.start + 1) % len(t.ring)
	}
	if ev.ID != "" {
		t.ids[ev.ID] = m.Seq
	}
	b.lmu.RLock()
	for _, fn := range b.listeners {
		fn(m)
	}
	b.lmu.RUnlock()
	return Position{Epoch: t.epoch, Seq: m.Seq}, nil
}

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
	if since < t.latest {
		n := len(t.ring)
		oldest := t.latest - uint64(n) + 1
		from := 0
		if since+1 > oldest {
			from = int(since + 1 - oldest)
		}
		h.Messages = make([]Message, 0, n-from)
		for i := from; i < n; i++ {
			h.Messages = append(h.Messages, t.ring[(t.start+i)%n])
		}
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
