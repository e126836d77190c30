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
	tickets := newTicketStore()
	h := New(Config{QueueSize: 4096}, NewMemoryBroker(16), tickets, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := h.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Shutdown(context.Background())
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws?ticket="

	var received atomic.Int64
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": TopicGuests})
	for i := 0; i < n; i++ {
		// One person per socket, as at a party: the hub caps sockets per
		// person.
		ws, _, err := websocket.Dial(ctx, url+tickets.issue(Identity{ID: fmt.Sprintf("a%d", i), Role: RoleAdmin}), nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := ws.Write(ctx, websocket.MessageText, sub); err != nil {
			b.Fatal(err)
		}
		ready := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer ws.CloseNow()
			for {
				_, r, err := ws.Reader(ctx)
				if err != nil {
					return
				}
				var buf [512]byte
				nr, _ := io.ReadFull(r, buf[:])
				if strings.Contains(string(buf[:nr]), `"subscribed"`) {
					close(ready)
				} else if strings.Contains(string(buf[:nr]), `"event"`) {
					received.Add(1)
				}
			}
		}()
		<-ready
	}
	data := map[string]string{"text": "cake in the garden in 5 minutes"}
	b.ResetTimer()
	start := time.Now()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		// Keep each queue at most half full: this measures throughput,
		// not the slow-consumer cut-off.
		for int64(i)*int64(n)-received.Load() > int64(n)*512 {
			time.Sleep(100 * time.Microsecond)
		}
		if err := h.Publish(ctx, TopicGuests, "announcement", data); err != nil {
			b.Fatal(err)
		}
	}
	want := int64(b.N) * int64(n)
	for received.Load() < want {
		if counterValue(b, h.metrics.slowDrops) > 0 {
			b.Fatal("a benchmark client was cut off as a slow consumer")
		}
		time.Sleep(100 * time.Microsecond)
	}
	b.StopTimer()
	b.ReportMetric(float64(want)/time.Since(start).Seconds(), "deliveries/s")
	// CPU time holds up better than wall time on a shared machine. It
	// includes the clients, which run in this process.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(want), "cpu-ns/delivery")
	cancel()
	wg.Wait()
}

// BenchmarkFanOut measures the shard fan-out alone: queueing one event to
// n subscribers, and taking it off their queues, without sockets.
func BenchmarkFanOut(b *testing.B) {
	const n = 10000
	h := New(Config{Shards: 1, QueueSize: 256}, NewMemoryBroker(1), nil, nil)
	s := h.shards[0]
	conns := make([]*conn, n)
	for i := range conns {
		c := &conn{hub: h, shard: s, queue: make(chan *outMsg, 256), done: make(chan struct{})}
		// No socket behind it: the benchmark drains the queue itself.
		c.writing.Store(true)
		conns[i] = c
		s.mu.Lock()
		s.addSubLocked(c, TopicGuests, &sub{live: true})
		s.mu.Unlock()
	}
	out := newOut([]byte(`{}`), 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.fanOut(&delivery{topic: TopicGuests, seq: uint64(i + 1), out: out})
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
