package hub

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/redis/go-redis/v9"
)

// numSub is how many connections Redis has subscribed to channel.
func numSub(t testing.TB, rdb *redis.Client, channel string) int64 {
	t.Helper()
	m, err := rdb.PubSubNumSub(context.Background(), channel).Result()
	if err != nil {
		t.Fatal(err)
	}
	return m[channel]
}

// TestRedisInstanceHearsOnlyFollowedTopics: on Redis each instance
// receives only the topics its sockets (or listeners) hold, stops
// following a topic once its last socket has left (after the grace), and
// picks it up again, with nothing lost, when a socket comes back.
func TestRedisInstanceHearsOnlyFollowedTopics(t *testing.T) {
	e := newEnv(t, redisBrokers, 100, Config{FollowGrace: 20 * time.Millisecond})
	g1, g2 := guestTopic("g1"), guestTopic("g2")
	c0 := e.dial(0, guest1)
	c0.subscribe(g1, nil)
	c0.subscribe(topicGuests, nil)
	c1 := e.dial(1, guest2)
	c1.subscribe(g2, nil)

	for range 3 {
		e.publish(1, g1, "order.preparing", nil)
	}
	for range 2 {
		e.publish(0, g2, "order.ready", nil)
	}
	for seq := uint64(1); seq <= 3; seq++ {
		c0.expectEvent(g1, seq)
	}
	c1.expectEvent(g2, 1)
	c1.expectEvent(g2, 2)
	c0.expectNothingMore()
	c1.expectNothingMore()
	if n := counterValue(t, e.hubs[0].metrics.published); n != 3 {
		t.Errorf("instance 0 received %v events, want the 3 of %s only", n, g1)
	}
	if n := counterValue(t, e.hubs[1].metrics.published); n != 2 {
		t.Errorf("instance 1 received %v events, want the 2 of %s only", n, g2)
	}

	// The last socket of g1 on instance 0 leaves: after the grace, Redis
	// no longer sends g1 there.
	c0.send(map[string]string{"type": "unsubscribe", "topic": g1})
	c0.expectNothingMore()
	b0 := e.hubs[0].broker.(*RedisBroker)
	deadline := time.Now().Add(10 * time.Second)
	for numSub(t, b0.rdb, b0.channel(g1)) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s still subscribed on Redis after its last socket left", g1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.publish(1, g1, "order.served", nil) // seq 4, not for instance 0
	// Redis delivers one connection's messages in publish order: once this
	// announcement is in, g1's event would have been too.
	e.publish(1, topicGuests, "announcement", nil)
	c0.expectEvent(topicGuests, 1)
	if n := counterValue(t, e.hubs[0].metrics.published); n != 4 {
		t.Errorf("instance 0 received %v events, want 4 (3 of %s before it left, 1 announcement)", n, g1)
	}

	// Back: the replay brings what was published meanwhile, and live
	// delivery resumes.
	c0.subscribe(g1, ptr(uint64(3)))
	if m := c0.expectEvent(g1, 4); m.Event != "order.served" {
		t.Fatalf("replayed %+v, want order.served", m)
	}
	e.publish(1, g1, "order.ready", nil)
	c0.expectEvent(g1, 5)
	c0.expectNothingMore()
}

// TestRedisFollowRace subscribes and leaves one topic over and over on one
// instance while another publishes to it, with a grace short enough for
// Unfollow and Follow to cross: every subscription that ends up live gets
// every later event.
func TestRedisFollowRace(t *testing.T) {
	e := newEnv(t, redisBrokers, 100, Config{FollowGrace: time.Millisecond})
	g1 := guestTopic("g1")
	for i := range 30 {
		c := e.dial(0, guest1)
		m := c.subscribe(g1, nil)
		e.publish(1, g1, "order.preparing", map[string]int{"round": i})
		c.expectEvent(g1, m.Seq+1)
		c.ws.Close(websocket.StatusNormalClosure, "")
		time.Sleep(time.Duration(i%3) * time.Millisecond)
	}
}

// BenchmarkFourInstancesGuestTraffic runs four instances on one Redis,
// each holding the sockets of a quarter of the guests, and publishes
// per-guest events round-robin from all four. It reports the events each
// instance received per event published: 1 when every instance receives
// everything, 0.25 when each receives only its own guests'.
//
//	go test -run '^$' -bench FourInstances -benchtime 2000x ./hub/
func BenchmarkFourInstancesGuestTraffic(b *testing.B) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		b.Fatal("REDIS_URL is not set: run `make bench`, or start redis-server and set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	const instances, guestsPerInstance = 4, 50
	prefix := "barhub-bench-hub:" + randomID()
	tickets := newTicketStore()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	hubs := make([]*Hub, instances)
	for i := range hubs {
		rdb := redis.NewClient(opt)
		b.Cleanup(func() { rdb.Close() })
		h := New(testRules(Config{}), NewRedisBroker(rdb, prefix, 100), tickets, logger)
		if err := h.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(h)
		b.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			h.Shutdown(ctx)
			srv.Close()
		})
		hubs[i] = h
		for g := range guestsPerInstance {
			id := Identity{ID: fmt.Sprintf("i%dg%d", i, g), Role: roleGuest}
			ws, _, err := websocket.Dial(context.Background(),
				"ws"+strings.TrimPrefix(srv.URL, "http")+"/ws?ticket="+tickets.issue(id), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { ws.CloseNow() })
			ctx := context.Background()
			ws.Read(ctx) // hello
			sub := `{"type":"subscribe","topic":"` + guestTopic(id.ID) + `"}`
			if err := ws.Write(ctx, websocket.MessageText, []byte(sub)); err != nil {
				b.Fatal(err)
			}
			if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"subscribed"`) {
				b.Fatalf("subscribe: %s, %v", msg, err)
			}
			go func() {
				for {
					if _, _, err := ws.Read(context.Background()); err != nil {
						return
					}
				}
			}()
		}
	}
	before := make([]float64, instances)
	for i, h := range hubs {
		before[i] = counterValue(b, h.metrics.published)
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() {
			for n := i; n < b.N; n += instances {
				topic := guestTopic(fmt.Sprintf("i%dg%d", n%instances, (n/instances)%guestsPerInstance))
				if err := hubs[(n+1)%instances].Publish(context.Background(), topic, "order.ready", nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// Let the last events reach the instances before counting.
	time.Sleep(200 * time.Millisecond)
	b.StopTimer()
	var received float64
	for i, h := range hubs {
		received += counterValue(b, h.metrics.published) - before[i]
	}
	b.ReportMetric(received/instances/float64(b.N), "received/instance/published")
}
