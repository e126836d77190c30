package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisBroker is the Broker for several barhub instances: Redis assigns
// each topic's seq (INCR), keeps the bounded history (a stream trimmed to
// MAXLEN) and fans events out to every instance over pub/sub.
type RedisBroker struct {
	rdb     *redis.Client
	prefix  string
	history int
	// ttl bounds how long an idle topic's seq and history are kept.
	ttl time.Duration
}

// NewRedisBroker returns a broker on rdb. prefix namespaces every key and
// channel, so several deployments (or tests) can share one Redis; history
// is the number of events kept per topic.
func NewRedisBroker(rdb *redis.Client, prefix string, history int) *RedisBroker {
	if history < 1 {
		history = 1
	}
	return &RedisBroker{rdb: rdb, prefix: prefix, history: history, ttl: 7 * 24 * time.Hour}
}

// Keys use a hash tag per topic so the script's keys share a cluster slot.
func (b *RedisBroker) seqKey(topic string) string  { return b.prefix + ":{" + topic + "}:seq" }
func (b *RedisBroker) histKey(topic string) string { return b.prefix + ":{" + topic + "}:hist" }
func (b *RedisBroker) channel() string             { return b.prefix + ":events" }

// publishScript assigns the seq, stores and publishes in one atomic step,
// so pub/sub carries each topic's events in seq order even when several
// instances publish at once. The stream entry id is the seq itself, which
// lets History read "everything after seq" with one XRANGE.
//
// KEYS: seq key, history key. ARGV: head, tail, maxlen, channel,
// publish time (unix nanos), topic, ttl seconds.
var publishScript = redis.NewScript(`
local seq = redis.call('INCR', KEYS[1])
if seq == 1 then
  redis.call('DEL', KEYS[2])
end
local s = string.format('%d', seq)
local wire = ARGV[1] .. s .. ARGV[2]
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], s .. '-0', 'w', wire)
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('PUBLISH', ARGV[4], s .. ' ' .. ARGV[5] .. ' ' .. ARGV[6] .. '\n' .. wire)
return seq
`)

// Publish implements Broker.
func (b *RedisBroker) Publish(ctx context.Context, ev Event) (uint64, error) {
	head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
	if err != nil {
		return 0, fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
	}
	seq, err := publishScript.Run(ctx, b.rdb,
		[]string{b.seqKey(ev.Topic), b.histKey(ev.Topic)},
		head, tail, b.history, b.channel(), ev.Time.UnixNano(), ev.Topic, int64(b.ttl/time.Second),
	).Uint64()
	if err != nil {
		return 0, fmt.Errorf("publish %s on %s to redis: %w", ev.Event, ev.Topic, err)
	}
	return seq, nil
}

// Listen implements Broker. A lost pub/sub connection is re-established by
// go-redis; fn then gets a Message without a topic, and the hub re-reads
// what it missed from the history.
func (b *RedisBroker) Listen(ctx context.Context, fn func(Message)) (func(), error) {
	ps := b.rdb.Subscribe(ctx)
	if err := ps.Subscribe(ctx, b.channel()); err != nil {
		ps.Close()
		return nil, fmt.Errorf("subscribe to %s: %w", b.channel(), err)
	}
	// Wait for the confirmation so nothing published after Listen returns
	// is missed.
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, fmt.Errorf("confirm subscription to %s: %w", b.channel(), err)
	}
	loopCtx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			msg, err := ps.Receive(loopCtx)
			if err != nil {
				if loopCtx.Err() != nil || errors.Is(err, redis.ErrClosed) {
					return
				}
				// go-redis reconnects on the next Receive; pause so a
				// Redis outage does not become a busy loop.
				select {
				case <-loopCtx.Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
				continue
			}
			switch m := msg.(type) {
			case *redis.Subscription:
				// A confirmation after the first one means go-redis
				// reconnected: whatever was published meanwhile is lost
				// to pub/sub and must be read from the history.
				if m.Kind == "subscribe" {
					fn(Message{})
				}
			case *redis.Message:
				if ev, ok := parsePubSubPayload(m.Payload); ok {
					fn(ev)
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			ps.Close()
			<-done
		})
	}, nil
}

// parsePubSubPayload reads "<seq> <unix nanos> <topic>\n<wire>".
func parsePubSubPayload(p string) (Message, bool) {
	nl := -1
	for i := 0; i < len(p); i++ {
		if p[i] == '\n' {
			nl = i
			break
		}
	}
	if nl < 0 {
		return Message{}, false
	}
	fields := bytes.Fields([]byte(p[:nl]))
	if len(fields) != 3 {
		return Message{}, false
	}
	seq, err := strconv.ParseUint(string(fields[0]), 10, 64)
	if err != nil {
		return Message{}, false
	}
	nanos, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return Message{}, false
	}
	return Message{
		Topic: string(fields[2]),
		Seq:   seq,
		Time:  time.Unix(0, nanos),
		Wire:  []byte(p[nl+1:]),
	}, true
}

// History implements Broker.
func (b *RedisBroker) History(ctx context.Context, topic string, since uint64) (History, error) {
	var (
		latestCmd *redis.StringCmd
		rangeCmd  *redis.XMessageSliceCmd
	)
	// MULTI/EXEC makes the seq and the history one snapshot.
	_, err := b.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		latestCmd = p.Get(ctx, b.seqKey(topic))
		rangeCmd = p.XRange(ctx, b.histKey(topic), strconv.FormatUint(since+1, 10)+"-0", "+")
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return History{}, fmt.Errorf("read history of %s after %d: %w", topic, since, err)
	}
	latest, err := latestCmd.Uint64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return History{}, fmt.Errorf("read seq of %s: %w", topic, err)
	}
	entries, err := rangeCmd.Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return History{}, fmt.Errorf("read history of %s after %d: %w", topic, since, err)
	}
	h := History{Latest: latest, Messages: make([]Message, 0, len(entries))}
	for _, e := range entries {
		seq, err := streamSeq(e.ID)
		if err != nil {
			return History{}, fmt.Errorf("history of %s: %w", topic, err)
		}
		w, _ := e.Values["w"].(string)
		h.Messages = append(h.Messages, Message{Topic: topic, Seq: seq, Wire: []byte(w)})
	}
	h.Complete = completeHistory(h.Messages, since, latest)
	return h, nil
}

func streamSeq(id string) (uint64, error) {
	for i := 0; i < len(id); i++ {
		if id[i] == '-' {
			id = id[:i]
			break
		}
	}
	seq, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad stream id %q: %w", id, err)
	}
	return seq, nil
}

// Latest implements Broker.
func (b *RedisBroker) Latest(ctx context.Context, topic string) (uint64, error) {
	n, err := b.rdb.Get(ctx, b.seqKey(topic)).Uint64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read seq of %s: %w", topic, err)
	}
	return n, nil
}
