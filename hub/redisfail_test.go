package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/redis/go-redis/v9"
)

// testRedis is a redis-server of the test's own, on a free port and
// without persistence, so the test may stop it, start it again empty and
// freeze it without touching the shared Redis.
type testRedis struct {
	t    *testing.T
	bin  string
	port int
	dir  string

	mu  sync.Mutex
	cmd *exec.Cmd
	out bytes.Buffer
}

func startTestRedis(t *testing.T) *testRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is not on PATH: install it (`make test` installs it) to run the Redis failure tests")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &testRedis{t: t, bin: bin, port: port, dir: t.TempDir()}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *testRedis) url() string { return "redis://127.0.0.1:" + strconv.Itoa(r.port) + "/0" }

// start runs redis-server, empty, and waits until it answers.
func (r *testRedis) start() {
	r.t.Helper()
	r.mu.Lock()
	r.out.Reset()
	cmd := exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir, "--protected-mode", "no")
	cmd.Stdout, cmd.Stderr = &r.out, &r.out
	if err := cmd.Start(); err != nil {
		r.mu.Unlock()
		r.t.Fatalf("start redis-server: %v", err)
	}
	r.cmd = cmd
	r.mu.Unlock()
	opt, _ := redis.ParseURL(r.url())
	opt.MaxRetries = -1
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	for i := 0; ; i++ {
		if err := rdb.Ping(context.Background()).Err(); err == nil {
			return
		} else if i == 200 {
			r.t.Fatalf("redis-server on port %d does not answer: %v\n%s", r.port, err, r.output())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *testRedis) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// stop kills redis-server, frozen or not, with everything it held.
func (r *testRedis) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}

func (r *testRedis) signal(sig syscall.Signal) {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatalf("signal redis-server: %v", err)
	}
}

// freeze stops the process without closing its sockets, as a Redis stuck
// on a slow disk or a paused VM would; thaw lets it go on.
func (r *testRedis) freeze() { r.signal(syscall.SIGSTOP) }
func (r *testRedis) thaw()   { r.signal(syscall.SIGCONT) }

// brokers returns a brokerPair on this Redis, each instance with its own
// client configured as barhub configures it from REDIS_URL.
func (r *testRedis) brokers(t *testing.T, history int) [2]Broker {
	var out [2]Broker
	for i := range out {
		opt, err := redis.ParseURL(r.url())
		if err != nil {
			t.Fatal(err)
		}
		rdb := redis.NewClient(opt)
		t.Cleanup(func() { rdb.Close() })
		out[i] = NewRedisBroker(rdb, "barhub-test", history)
	}
	return out
}

// received is what one socket got: events (by the n their data carries)
// and resyncs, in order.
type received struct {
	typ   string
	n     int
	epoch string
	seq   uint64
}

// record reads every message of c until ctx ends.
func record(ctx context.Context, c *client, out *[]received, mu *sync.Mutex) {
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		var m serverMsg
		if err := json.Unmarshal(b, &m); err != nil {
			continue
		}
		r := received{typ: m.Type, epoch: m.Epoch, seq: m.Seq}
		if m.Type == "event" {
			var d struct{ N int }
			json.Unmarshal(m.Data, &d)
			r.n = d.N
		}
		if m.Type == "event" || m.Type == "resync" {
			mu.Lock()
			*out = append(*out, r)
			mu.Unlock()
		}
	}
}

// checkDelivery holds one socket's messages to the live protocol's
// promise: events in publish order and never twice; each event either
// the next seq of the position the client holds or preceded by a resync;
// and every accepted event either received or covered by a resync that
// came after the last event before it.
func checkDelivery(got []received, accepted map[int]bool, last int) error {
	var (
		pos     Position
		known   bool
		prevN   int
		pending bool // a resync came since the last event
		covered = make(map[int]bool)
		have    = make(map[int]bool)
	)
	for i, r := range got {
		switch r.typ {
		case "resync":
			pos, known, pending = Position{Epoch: r.epoch, Seq: r.seq}, true, true
		case "event":
			if !accepted[r.n] {
				// A publish refused at its deadline while Redis was frozen
				// may still be run by Redis when it wakes, after later
				// ones: its caller was told it failed, as with any timed
				// out request, so it may show up, out of place, but once.
				if have[r.n] {
					return fmt.Errorf("message %d: refused event n=%d twice", i, r.n)
				}
				have[r.n] = true
				pos, known = Position{Epoch: r.epoch, Seq: r.seq}, true
				continue
			}
			if r.n <= prevN {
				return fmt.Errorf("message %d: event n=%d after n=%d: out of order or repeated", i, r.n, prevN)
			}
			if known && !pending && (r.epoch != pos.Epoch || r.seq != pos.Seq+1) {
				return fmt.Errorf("message %d: event n=%d at %s:%d follows %s:%d without a resync", i, r.n, r.epoch, r.seq, pos.Epoch, pos.Seq)
			}
			if pending {
				for n := prevN + 1; n < r.n; n++ {
					covered[n] = true
				}
			}
			have[r.n] = true
			prevN, pos, known, pending = r.n, Position{Epoch: r.epoch, Seq: r.seq}, true, false
		}
	}
	for n := 1; n <= last; n++ {
		if accepted[n] && !have[n] && !covered[n] {
			return fmt.Errorf("accepted event n=%d never arrived and no resync covers it", n)
		}
	}
	return nil
}

// TestDeliveryAcrossRedisFailures runs two instances on a Redis that is
// stopped, started again empty, and frozen, while announcements go out
// through one of them: every socket on both gets every accepted event in
// order, or a resync in its place; none silently missing, none twice.
func TestDeliveryAcrossRedisFailures(t *testing.T) {
	rs := startTestRedis(t)
	e := newEnv(t, rs.brokers, 1000, Config{PublishTimeout: time.Second})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const perHub = 3
	logs := make([][]received, 2*perHub)
	var mu sync.Mutex
	var readers sync.WaitGroup
	for i := range logs {
		c := e.dial(i%2, guest1)
		c.subscribe(topicGuests, nil)
		readers.Go(func() { record(ctx, c, &logs[i], &mu) })
	}

	// The publisher: one announcement every 150 ms through instance 0.
	var (
		pmu      sync.Mutex
		accepted = make(map[int]bool)
		failures []error
		nAcc     atomic.Int64
		nFail    atomic.Int64
		last     int
	)
	stopPub := make(chan struct{})
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		tick := time.NewTicker(150 * time.Millisecond)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-stopPub:
				return
			case <-tick.C:
			}
			err := e.hubs[0].Publish(context.Background(), topicGuests, "announcement", map[string]int{"n": n})
			pmu.Lock()
			last = n
			if err == nil {
				accepted[n] = true
				nAcc.Add(1)
			} else {
				failures = append(failures, err)
				nFail.Add(1)
			}
			pmu.Unlock()
		}
	}()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for i := 0; !cond(); i++ {
			if i == 600 {
				t.Fatalf("waited for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	more := func(c *atomic.Int64, n int64) func() bool {
		from := c.Load()
		return func() bool { return c.Load() >= from+n }
	}

	waitFor("events before the outage", more(&nAcc, 5))
	rs.stop()
	waitFor("publishes failing while Redis is down", more(&nFail, 3))
	rs.start()
	waitFor("events after Redis came back empty", more(&nAcc, 5))
	rs.freeze()
	// These fail while Redis is still frozen: Publish gives up at its
	// deadline rather than waiting for Redis.
	waitFor("publishes failing while Redis is frozen", more(&nFail, 2))
	rs.thaw()
	waitFor("events after Redis woke up", more(&nAcc, 5))
	close(stopPub)
	<-pubDone

	pmu.Lock()
	final := last + 1
	pmu.Unlock()
	if err := e.hubs[0].Publish(context.Background(), topicGuests, "announcement", map[string]int{"n": final}); err != nil {
		t.Fatalf("publish after recovery: %v", err)
	}
	accepted[final] = true
	for i := range logs {
		waitFor(fmt.Sprintf("socket %d to receive the last event", i), func() bool {
			mu.Lock()
			defer mu.Unlock()
			l := logs[i]
			return len(l) > 0 && l[len(l)-1].n == final
		})
	}
	cancel()
	readers.Wait()

	for _, err := range failures {
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("publish failed with %v, want an ErrUnavailable error", err)
		}
	}
	t.Logf("%d events accepted, %d refused while Redis was down or frozen", nAcc.Load()+1, nFail.Load())
	for i, got := range logs {
		if err := checkDelivery(got, accepted, final); err != nil {
			t.Errorf("socket %d on instance %d: %v\nreceived %+v", i, i%2, err, got)
		}
	}
}

// TestRedisPublishRetryStoredOnce publishes one event twice with the same
// ID while Redis is frozen, as a client retrying after a timeout does:
// once Redis wakes, the event is stored and delivered once, and both
// calls answer with its one position.
func TestRedisPublishRetryStoredOnce(t *testing.T) {
	rs := startTestRedis(t)
	bs := rs.brokers(t, 100)
	b := bs[0].(*RedisBroker)
	heard := make(chan Message, 8)
	stop, err := bs[1].Listen(context.Background(), func(m Message) {
		if m.Topic == topicBar {
			heard <- m
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	<-bs[1].(*RedisBroker).Follow(topicBar)
	ctx := context.Background()
	first, err := b.Publish(ctx, Event{Topic: topicBar, Event: "order.placed", Time: time.Now(), ID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	<-heard

	rs.freeze()
	ev := Event{Topic: topicBar, Event: "order.placed", Time: time.Now(), ID: "b", Data: json.RawMessage(`{"n":2}`)}
	type result struct {
		pos Position
		err error
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			p, err := b.Publish(ctx, ev)
			results <- result{p, err}
		}()
		// The second copy goes out on another connection while the first
		// is still unanswered.
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	rs.thaw()
	var positions []Position
	for range 2 {
		r := <-results
		if r.err == nil {
			positions = append(positions, r.pos)
		}
	}
	// A third try, after the fact, also finds the first.
	again, err := b.Publish(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	want := Position{Epoch: first.Epoch, Seq: 2}
	if again != want {
		t.Fatalf("retried publish at %+v, want %+v", again, want)
	}
	for _, p := range positions {
		if p != want {
			t.Fatalf("publish answered %+v, want %+v", p, want)
		}
	}
	hist, err := b.History(ctx, topicBar, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist.Messages) != 2 || hist.Latest != 2 {
		t.Fatalf("history holds %d events up to %d, want 2 up to 2", len(hist.Messages), hist.Latest)
	}
	if m := <-heard; m.Seq != 2 {
		t.Fatalf("delivered seq %d, want 2", m.Seq)
	}
	if _, err := b.Publish(ctx, Event{Topic: topicBar, Event: "order.placed", Time: time.Now(), ID: "c"}); err != nil {
		t.Fatal(err)
	}
	if m := <-heard; m.Seq != 3 {
		t.Fatalf("delivered seq %d after the retried event, want 3 (the retry was delivered twice)", m.Seq)
	}
}

// TestRedisEpochs: a topic's epoch stays while Redis holds the topic, and a
// new one begins when Redis lost it; a since in the old epoch then gets a
// resync even though its seq lies within the new epoch's history.
func TestRedisEpochs(t *testing.T) {
	rs := startTestRedis(t)
	e := newEnv(t, rs.brokers, 100, Config{})
	for range 5 {
		e.publish(0, topicMenu, "menu.changed", nil)
	}
	c := e.dial(1, guest1)
	old := c.subscribe(topicMenu, nil)
	if old.Seq != 5 || old.Epoch == "" {
		t.Fatalf("subscribed at %s:%d, want an epoch at 5", old.Epoch, old.Seq)
	}
	c.ws.Close(websocket.StatusNormalClosure, "")

	rs.stop()
	rs.start()
	for range 8 {
		e.publish(0, topicMenu, "menu.changed", nil)
	}
	d := e.dial(1, guest1)
	d.send(map[string]any{"type": "subscribe", "topic": topicMenu, "since": old.Epoch + ":3"})
	m := d.read()
	if m.Type != "subscribed" || m.Seq != 8 || m.Epoch == old.Epoch || m.Epoch == "" {
		t.Fatalf("got %+v, want subscribed at 8 in a new epoch", m)
	}
	if r := d.read(); r.Type != "resync" || r.Seq != 8 || r.Epoch != m.Epoch {
		t.Fatalf("got %+v, want resync as of %s:8", r, m.Epoch)
	}
	e.publish(0, topicMenu, "menu.changed", nil)
	if ev := d.expectEvent(topicMenu, 9); ev.Epoch != m.Epoch {
		t.Fatalf("event in epoch %q, want %q", ev.Epoch, m.Epoch)
	}
	// The current epoch replays as before.
	f := e.dial(0, guest1)
	f.send(map[string]any{"type": "subscribe", "topic": topicMenu, "since": m.Epoch + ":7"})
	if s := f.read(); s.Type != "subscribed" || s.Seq != 9 {
		t.Fatalf("got %+v, want subscribed at 9", s)
	}
	f.expectEvent(topicMenu, 8)
	f.expectEvent(topicMenu, 9)
	f.expectNothingMore()
}
