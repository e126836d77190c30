package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Event is one published event, as in-process listeners see it.
type Event struct {
	Topic string          `json:"topic"`
	Seq   uint64          `json:"seq"`
	Event string          `json:"event"`
	Time  time.Time       `json:"time"`
	Data  json.RawMessage `json:"data"`
}

// Message is an event as a Broker delivers and stores it: already encoded
// as the protocol's event message, so the hub writes the same bytes to every
// socket without encoding anything per subscriber.
type Message struct {
	Topic string
	Seq   uint64
	// Time is when the event was published, for latency metrics.
	Time time.Time
	// Wire is the complete {"type":"event",...} message.
	Wire []byte
}

// History is what a Broker still holds of a topic after a given seq.
type History struct {
	// Messages are the stored events after the requested seq, in order.
	Messages []Message
	// Latest is the topic's latest seq (0 before the first event).
	Latest uint64
	// Complete is false when events after the requested seq were
	// already dropped from the history, or the seq lies in the future.
	Complete bool
}

// Broker orders, stores and delivers events for every Hub attached to it.
// Implementations assign each topic's seq, keep a bounded history per topic
// and deliver events to listeners in seq order per topic.
type Broker interface {
	// Publish assigns ev the topic's next seq, appends it to the history
	// and delivers it to every listener on every instance. ev.Seq is
	// ignored. It does not wait for delivery to sockets.
	Publish(ctx context.Context, ev Event) (uint64, error)
	// Listen calls fn for every event published from now on, on any
	// instance, in seq order per topic. fn must not block for long. When
	// delivery was interrupted and events may have been missed, fn gets a
	// Message with an empty Topic. Listen returns once delivery is set up;
	// stop ends it.
	Listen(ctx context.Context, fn func(Message)) (stop func(), err error)
	// History returns the stored events of topic after since, and the
	// topic's latest seq, as one consistent snapshot.
	History(ctx context.Context, topic string, since uint64) (History, error)
	// Latest returns the topic's latest seq.
	Latest(ctx context.Context, topic string) (uint64, error)
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
	latest uint64
	// ring holds the last len(ring) events; ring[(start+i)%cap] is the
	// i-th oldest.
	ring  []Message
	start int
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
		t = &memTopic{}
		b.topics[name] = t
	}
	return t
}

// Publish implements Broker.
func (b *MemoryBroker) Publish(ctx context.Context, ev Event) (uint64, error) {
	head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
	if err != nil {
		return 0, fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
	}
	t := b.topic(ev.Topic)
	// Holding the topic lock across delivery keeps listeners' view in seq
	// order; listeners only hand the message over, so this stays short.
	t.mu.Lock()
	defer t.mu.Unlock()
	t.latest++
	m := Message{Topic: ev.Topic, Seq: t.latest, Time: ev.Time, Wire: joinEvent(head, t.latest, tail)}
	if len(t.ring) < b.history {
		t.ring = append(t.ring, m)
	} else {
		t.ring[t.start] = m
		t.start = (t.start + 1) % len(t.ring)
	}
	b.lmu.RLock()
	for _, fn := range b.listeners {
		fn(m)
	}
	b.lmu.RUnlock()
	return m.Seq, nil
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
	h := History{Latest: t.latest}
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
func (b *MemoryBroker) Latest(ctx context.Context, topic string) (uint64, error) {
	t := b.topic(topic)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.latest, nil
}
