package hub

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisBroker is the Broker for several barhub instances: Redis assigns
// each topic's epoch and seq, keeps the bounded history (a stream trimmed
// to MAXLEN) and fans events out to every instance over pub/sub.
type RedisBroker struct {
	rdb     *redis.Client
	prefix  string
	history int
	// ttl bounds how long an idle topic's seq and history are kept.
	ttl time.Duration
	// idTTL is how long an Event.ID is remembered, so that a publish
	// retried (by go-redis, or by the caller) after a timeout is stored
	// once. A frozen Redis runs both copies as soon as it wakes, so a
	// short time is enough.
	idTTL time.Duration

	// fmu guards what Listen's connection follows (see Follower).
	fmu     sync.Mutex
	ps      *redis.PubSub // Listen's connection; nil when not listening
	follows map[string]*redisFollow
}

// redisFollow is one followed topic. ready closes when Redis confirmed the
// subscription to its channel, or when the connection came back (then the
// hub catches up from the history).
type redisFollow struct {
	ready     chan struct{}
	confirmed bool
}

func (f *redisFollow) confirm() {
	if !f.confirmed {
		f.confirmed = true
		close(f.ready)
	}
}

// NewRedisBroker returns a broker on rdb. prefix namespaces every key and
// channel, so several deployments (or tests) can share one Redis; history
// is the number of events kept per topic.
func NewRedisBroker(rdb *redis.Client, prefix string, history int) *RedisBroker {
	if history < 1 {
		history = 1
	}
	return &RedisBroker{rdb: rdb, prefix: prefix, history: history, ttl: 7 * 24 * time.Hour, idTTL: 5 * time.Minute,
		follows: make(map[string]*redisFollow)}
}

// Keys use a hash tag per topic so the script's keys share a cluster slot.
// The head is a hash of the topic's epoch and seq: one key, so Redis can
// only lose both together, and losing it starts a new epoch. The names
// differ from protocol 1's (":seq", ":hist", ":events"), so instances of
// both versions on one Redis never mix their seqs.
func (b *RedisBroker) headKey(topic string) string { return b.prefix + ":{" + topic + "}:head" }
func (b *RedisBroker) logKey(topic string) string  { return b.prefix + ":{" + topic + "}:log" }
func (b *RedisBroker) idKey(topic, id string) string {
	return b.prefix + ":{" + topic + "}:id:" + id
}

// Each topic has its own channel, so an instance receives only the topics
// it follows; the hash tag puts it in the slot of the topic's keys.
// Instances of protocol 2 (one ":events:2" channel for all) and of this
// one do not hear each other: upgrade every instance together.
func (b *RedisBroker) channel(topic string) string { return b.prefix + ":{" + topic + "}:ev" }

// topicOf is channel's inverse: "" for a channel that is not a topic's.
func (b *RedisBroker) topicOf(channel string) string {
	rest, ok := strings.CutPrefix(channel, b.prefix+":{")
	if !ok {
		return ""
	}
	topic, ok := strings.CutSuffix(rest, "}:ev")
	if !ok {
		return ""
	}
	return topic
}

// controlChannel is never published to. Listen subscribes to it first; a
// later confirmation of it means go-redis reconnected and subscribed to
// everything again, and whatever was published meanwhile is lost to
// pub/sub.
func (b *RedisBroker) controlChannel() string { return b.prefix + ":events:3" }

// publishScript assigns the seq, stores and publishes in one atomic step,
// so pub/sub carries each topic's events in seq order even when several
// instances publish at once. The stream entry id is the seq itself, which
// lets History read "everything after seq" with one XRANGE.
//
// When the head is missing (a new topic, a Redis that restarted empty or
// evicted it) the caller's candidate epoch becomes the topic's epoch and
// whatever is left of the old stream goes: seqs start again at 1 under a
// name no client has seen, and clients holding the old epoch resync.
//
// With an id key, a publish whose id was already stored answers with the
// first publish's position and stores nothing.
//
// KEYS: head, log[, id key]. ARGV: head, tail, maxlen, channel, publish
// time (unix nanos), topic, ttl seconds, candidate epoch, id ttl seconds.
// Returns "<epoch>:<seq>".
var publishScript = redis.NewScript(`
if #KEYS > 2 then
  local prev = redis.call('GET', KEYS[3])
  if prev then return prev end
end
local ep = redis.call('HGET', KEYS[1], 'epoch')
if not ep then
  ep = ARGV[8]
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'epoch', ep)
end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local s = string.format('%d', seq)
local wire = ARGV[1] .. s .. ',"epoch":"' .. ep .. '"' .. ARGV[2]
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], s .. '-0', 'w', wire)
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('PUBLISH', ARGV[4], s .. ' ' .. ARGV[5] .. ' ' .. ARGV[6] .. ' ' .. ep .. '\n' .. wire)
local pos = ep .. ':' .. s
if #KEYS > 2 then
  redis.call('SET', KEYS[3], pos, 'EX', ARGV[9])
end
return pos
`)

// Publish implements Broker.
func (b *RedisBroker) Publish(ctx context.Context, ev Event) (Position, error) {
	head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
	if err != nil {
		return Position{}, fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
	}
	keys := []string{b.headKey(ev.Topic), b.logKey(ev.Topic)}
	if ev.ID != "" {
		keys = append(keys, b.idKey(ev.Topic, ev.ID))
	}
	res, err := publishScript.Run(ctx, b.rdb, keys,
		head, tail, b.history, b.channel(ev.Topic), ev.Time.UnixNano(), ev.Topic, int64(b.ttl/time.Second),
		newEpoch(), int64(b.idTTL/time.Second),
	).Text()
	if err != nil {
		if unavailable(err) {
			return Position{}, fmt.Errorf("publish %s on %s to redis: %w: %w", ev.Event, ev.Topic, ErrUnavailable, err)
		}
		return Position{}, fmt.Errorf("publish %s on %s to redis: %w", ev.Event, ev.Topic, err)
	}
	epoch, seq, _ := strings.Cut(res, ":")
	n, err := strconv.ParseUint(seq, 10, 64)
	if err != nil {
		return Position{}, fmt.Errorf("publish %s on %s: bad position %q from redis", ev.Event, ev.Topic, res)
	}
	return Position{Epoch: epoch, Seq: n}, nil
}

// unavailable tells a Redis that cannot answer now (unreachable, timed
// out, loading, out of memory, read-only replica) from a command that is
// wrong, which retrying would not cure.
func unavailable(err error) bool {
	var re redis.Error
	if errors.As(err, &re) {
		return !strings.HasPrefix(re.Error(), "ERR ") && !strings.HasPrefix(re.Error(), "WRONGTYPE ")
	}
	return true
}

// Listen implements Broker: fn gets the events of the topics followed
// (see Follow). A lost pub/sub connection is re-established by go-redis,
// which subscribes to every followed topic again; fn then gets a Message
// without a topic, and the hub re-reads what it missed from the history.
// One Listen at a time per broker.
func (b *RedisBroker) Listen(ctx context.Context, fn func(Message)) (func(), error) {
	ps := b.rdb.Subscribe(ctx)
	b.fmu.Lock()
	if b.ps != nil {
		b.fmu.Unlock()
		ps.Close()
		return nil, errors.New("redis broker: already listening")
	}
	channels := []string{b.controlChannel()}
	for topic := range b.follows {
		channels = append(channels, b.channel(topic))
	}
	err := ps.Subscribe(ctx, channels...)
	if err == nil {
		b.ps = ps
	}
	b.fmu.Unlock()
	if err != nil {
		ps.Close()
		return nil, fmt.Errorf("subscribe to %s: %w", b.controlChannel(), err)
	}
	// Wait for the confirmation so nothing published after Listen returns
	// is missed. Redis confirms a SUBSCRIBE's channels in order, and
	// handles the command whole: once the control channel is confirmed,
	// so are the others.
	if _, err := ps.Receive(ctx); err != nil {
		b.detach(ps)
		return nil, fmt.Errorf("confirm subscription to %s: %w", b.controlChannel(), err)
	}
	b.confirmAll()
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
				if m.Kind != "subscribe" {
					continue
				}
				if m.Channel == b.controlChannel() {
					// Reconnected: every followed topic is subscribed
					// again, and what was published meanwhile must be
					// read from the history.
					b.confirmAll()
					fn(Message{})
					continue
				}
				b.fmu.Lock()
				if f := b.follows[b.topicOf(m.Channel)]; f != nil {
					f.confirm()
				}
				b.fmu.Unlock()
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
			b.detach(ps)
			<-done
		})
	}, nil
}

// detach closes Listen's connection; what is followed stays recorded for
// the next Listen.
func (b *RedisBroker) detach(ps *redis.PubSub) {
	b.fmu.Lock()
	if b.ps == ps {
		b.ps = nil
	}
	b.fmu.Unlock()
	ps.Close()
}

// confirmAll ends every wait for a subscription: the connection was (re)made
// with all of them.
func (b *RedisBroker) confirmAll() {
	b.fmu.Lock()
	defer b.fmu.Unlock()
	for _, f := range b.follows {
		f.confirm()
	}
}

// Follow implements Follower. When Redis cannot be reached, go-redis keeps
// the channel and subscribes when it reconnects; the reconnection ends the
// wait.
func (b *RedisBroker) Follow(topic string) <-chan struct{} {
	b.fmu.Lock()
	defer b.fmu.Unlock()
	if f := b.follows[topic]; f != nil {
		return f.ready
	}
	f := &redisFollow{ready: make(chan struct{})}
	b.follows[topic] = f
	if b.ps != nil {
		// An error leaves the channel recorded in go-redis, which
		// subscribes to it when it reconnects.
		_ = b.ps.Subscribe(context.Background(), b.channel(topic))
	}
	return f.ready
}

// Unfollow implements Follower.
func (b *RedisBroker) Unfollow(topic string) {
	b.fmu.Lock()
	defer b.fmu.Unlock()
	f := b.follows[topic]
	if f == nil {
		return
	}
	delete(b.follows, topic)
	f.confirm()
	if b.ps != nil {
		_ = b.ps.Unsubscribe(context.Background(), b.channel(topic))
	}
}

// parsePubSubPayload reads "<seq> <unix nanos> <topic> <epoch>\n<wire>".
func parsePubSubPayload(p string) (Message, bool) {
	line, wire, ok := strings.Cut(p, "\n")
	if !ok {
		return Message{}, false
	}
	fields := strings.Fields(line)
	if len(fields) != 4 {
		return Message{}, false
	}
	seq, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return Message{}, false
	}
	nanos, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return Message{}, false
	}
	return Message{
		Topic: fields[2],
		Seq:   seq,
		Epoch: fields[3],
		Time:  time.Unix(0, nanos),
		Wire:  []byte(wire),
	}, true
}

// History implements Broker.
func (b *RedisBroker) History(ctx context.Context, topic string, since uint64) (History, error) {
	var (
		headCmd  *redis.SliceCmd
		rangeCmd *redis.XMessageSliceCmd
	)
	// MULTI/EXEC makes the head and the history one snapshot.
	_, err := b.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		headCmd = p.HMGet(ctx, b.headKey(topic), "epoch", "seq")
		rangeCmd = p.XRange(ctx, b.logKey(topic), strconv.FormatUint(since+1, 10)+"-0", "+")
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return History{}, fmt.Errorf("read history of %s after %d: %w", topic, since, err)
	}
	pos, err := headPosition(headCmd)
	if err != nil {
		return History{}, fmt.Errorf("read seq of %s: %w", topic, err)
	}
	entries, err := rangeCmd.Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return History{}, fmt.Errorf("read history of %s after %d: %w", topic, since, err)
	}
	h := History{Epoch: pos.Epoch, Latest: pos.Seq}
	if pos.Epoch != "" {
		// Without a head, what is left of a stream belongs to a lost
		// epoch: the next publish deletes it.
		h.Messages = make([]Message, 0, len(entries))
		for _, e := range entries {
			seq, err := streamSeq(e.ID)
			if err != nil {
				return History{}, fmt.Errorf("history of %s: %w", topic, err)
			}
			w, _ := e.Values["w"].(string)
			h.Messages = append(h.Messages, Message{Topic: topic, Seq: seq, Epoch: pos.Epoch, Wire: []byte(w)})
		}
	}
	h.Complete = completeHistory(h.Messages, since, h.Latest)
	return h, nil
}

// headPosition reads the reply of HMGET head epoch seq.
func headPosition(cmd *redis.SliceCmd) (Position, error) {
	vals, err := cmd.Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return Position{}, err
	}
	if len(vals) != 2 {
		return Position{}, nil
	}
	epoch, _ := vals[0].(string)
	if epoch == "" {
		return Position{}, nil
	}
	var seq uint64
	if s, ok := vals[1].(string); ok {
		if seq, err = strconv.ParseUint(s, 10, 64); err != nil {
			return Position{}, fmt.Errorf("bad seq %q: %w", s, err)
		}
	}
	return Position{Epoch: epoch, Seq: seq}, nil
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
func (b *RedisBroker) Latest(ctx context.Context, topic string) (Position, error) {
	pos, err := headPosition(b.rdb.HMGet(ctx, b.headKey(topic), "epoch", "seq"))
	if err != nil {
		return Position{}, fmt.Errorf("read seq of %s: %w", topic, err)
	}
	return pos, nil
}

// PublishBatch stores and publishes evs with one pipelined round trip: the
// same script as Publish for each event, so each topic's seq, history and
// pub/sub order are exactly as if they had been published one by one.
func (b *RedisBroker) PublishBatch(ctx context.Context, evs []Event) error {
	type call struct {
		keys []string
		args []any
	}
	calls := make([]call, len(evs))
	for i, ev := range evs {
		head, tail, err := eventParts(ev.Topic, ev.Event, ev.Time, ev.Data)
		if err != nil {
			return fmt.Errorf("encode event %s on %s: %w", ev.Event, ev.Topic, err)
		}
		keys := []string{b.headKey(ev.Topic), b.logKey(ev.Topic)}
		if ev.ID != "" {
			keys = append(keys, b.idKey(ev.Topic, ev.ID))
		}
		calls[i] = call{keys, []any{head, tail, b.history, b.channel(ev.Topic), ev.Time.UnixNano(), ev.Topic,
			int64(b.ttl / time.Second), newEpoch(), int64(b.idTTL / time.Second)}}
	}
	run := func(evalsha bool) error {
		_, err := b.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, c := range calls {
				if evalsha {
					publishScript.EvalSha(ctx, p, c.keys, c.args...)
				} else {
					publishScript.Eval(ctx, p, c.keys, c.args...)
				}
			}
			return nil
		})
		return err
	}
	err := run(true)
	if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
		// The script is not cached yet (first use, or Redis restarted):
		// send it in full. The event ids make a second run of an event
		// that did land a no-op.
		err = run(false)
	}
	if err != nil {
		if unavailable(err) {
			return fmt.Errorf("publish %d events to redis: %w: %w", len(evs), ErrUnavailable, err)
		}
		return fmt.Errorf("publish %d events to redis: %w", len(evs), err)
	}
	return nil
}
