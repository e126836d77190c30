package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkBroadcast publishes b.N events to one topic with n real
// sockets subscribed over loopback, and waits for every delivery.
func BenchmarkBroadcast(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("sockets=%d", n), func(b *testing.B) {
			benchmarkBroadcast(b, n)
		})
	}
}

func benchmarkBroadcast(b *testing.B, n int) {
	r := newBenchRig(b, n, func(int) string { return topicGuests })
	data := map[string]string{"text": "cake in the garden in 5 minutes"}
	b.ResetTimer()
	start := time.Now()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		// Keep each queue at most half full: this measures throughput,
		// not the slow-consumer cut-off.
		for int64(i)*int64(n)-r.received.Load() > int64(n)*512 {
			time.Sleep(100 * time.Microsecond)
		}
		if err := r.h.Publish(r.ctx, topicGuests, "announcement", data); err != nil {
			b.Fatal(err)
		}
	}
	want := int64(b.N) * int64(n)
	r.await(b, want)
	b.StopTimer()
	b.ReportMetric(float64(want)/time.Since(start).Seconds(), "deliveries/s")
	// CPU time holds up better than wall time on a shared machine. It
	// includes the clients, which run in this process.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(want)/1e3, "cpu-µs/delivery")
}

// BenchmarkPublishMany is a personal announcement round: one PublishMany
// of one event to each of 2,000 guest topics, each with one socket, until
// every socket has its event. ns/op is the round's time.
func BenchmarkPublishMany(b *testing.B) {
	const n = 2000
	r := newBenchRig(b, n, func(i int) string { return guestTopic(fmt.Sprintf("g%d", i)) })
	out := make([]Outgoing, n)
	for i := range out {
		out[i] = Outgoing{Topic: guestTopic(fmt.Sprintf("g%d", i)), Event: "announcement", Data: map[string]string{"text": "your cocktail is ready"}}
	}
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		if err := r.h.PublishMany(r.ctx, out); err != nil {
			b.Fatal(err)
		}
		r.await(b, int64(i+1)*n)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N*n)/1e3, "cpu-µs/delivery")
}

// benchRig is a hub on the in-process broker with n real sockets over
// loopback, socket i subscribed to topic(i), counting the events they
// receive.
type benchRig struct {
	h        *Hub
	ctx      context.Context
	received atomic.Int64
}

func newBenchRig(b *testing.B, n int, topic func(int) string) *benchRig {
	tickets := newTicketStore()
	h := New(testRules(Config{QueueSize: 4096}), NewMemoryBroker(16), tickets, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := h.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	ctx, cancel := context.WithCancel(context.Background())
	r := &benchRig{h: h, ctx: ctx}
	var wg sync.WaitGroup
	b.Cleanup(func() {
		cancel()
		wg.Wait()
		h.Shutdown(context.Background())
		srv.Close()
	})
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws?ticket="
	for i := 0; i < n; i++ {
		// One person per socket, as at a party: the hub caps sockets per
		// person.
		ws, _, err := websocket.Dial(ctx, url+tickets.issue(Identity{ID: fmt.Sprintf("a%d", i), Role: roleAdmin}), nil)
		if err != nil {
			b.Fatal(err)
		}
		sub, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": topic(i)})
		if err := ws.Write(ctx, websocket.MessageText, sub); err != nil {
			b.Fatal(err)
		}
		ready := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer ws.CloseNow()
			for {
				_, rd, err := ws.Reader(ctx)
				if err != nil {
					return
				}
				var buf [512]byte
				nr, _ := io.ReadFull(rd, buf[:])
				if strings.Contains(string(buf[:nr]), `"subscribed"`) {
					close(ready)
				} else if strings.Contains(string(buf[:nr]), `"event"`) {
					r.received.Add(1)
				}
			}
		}()
		<-ready
	}
	return r
}

// await waits until the sockets have received want events in all.
func (r *benchRig) await(b *testing.B, want int64) {
	for r.received.Load() < want {
		if counterValue(b, r.h.metrics.slowDrops) > 0 {
			b.Fatal("a benchmark client was cut off as a slow consumer")
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// BenchmarkFanOut measures the shard fan-out alone: queueing one event to
// n subscribers, and taking it off their queues, without sockets.
func BenchmarkFanOut(b *testing.B) {
	const n = 10000
	h := New(testRules(Config{Shards: 1, QueueSize: 256}), NewMemoryBroker(1), nil, nil)
	s := h.shards[0]
	conns := make([]*conn, n)
	for i := range conns {
		c := &conn{hub: h, shard: s, queue: make(chan *outMsg, 256), done: make(chan struct{})}
		// No socket behind it: the benchmark drains the queue itself.
		c.writing.Store(true)
		conns[i] = c
		s.mu.Lock()
		s.addSubLocked(c, topicGuests, &sub{live: true})
		s.mu.Unlock()
	}
	out := newOut([]byte(`{}`), 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.fanOut(&delivery{topic: topicGuests, seq: uint64(i + 1), out: out})
		if (i+1)%128 == 0 {
			// Counted in: a writer would receive each delivery too.
			for _, c := range conns {
				for len(c.queue) > 0 {
					<-c.queue
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/delivery")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
