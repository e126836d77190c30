package hub

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestReplayBudgets plays one person's budget of replayed messages and
// bytes against a clock.
func TestReplayBudgets(t *testing.T) {
	type step struct {
		advance time.Duration
		// reserve msgs, then, when reserved, settle with read and bytes.
		reserve     uint64
		read        uint64
		bytes       int
		wantReserve bool
		wantSettle  bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"a replay within the budget is paid in messages and bytes", []step{
			{reserve: 40, read: 40, bytes: 600, wantReserve: true, wantSettle: true},
			{reserve: 60, read: 60, bytes: 400, wantReserve: true, wantSettle: true},
			// Both spent: nothing more this minute.
			{reserve: 1, wantReserve: false},
		}},
		{"more messages than are left are refused before the read", []step{
			{reserve: 80, read: 80, bytes: 10, wantReserve: true, wantSettle: true},
			{reserve: 21, wantReserve: false},
			{reserve: 20, read: 20, bytes: 10, wantReserve: true, wantSettle: true},
		}},
		{"a replay larger in bytes than is left is not sent, and its messages stay spent", []step{
			{reserve: 10, read: 10, bytes: 900, wantReserve: true, wantSettle: true},
			{reserve: 50, read: 50, bytes: 101, wantReserve: true, wantSettle: false},
			{reserve: 41, wantReserve: false},
			{reserve: 40, read: 40, bytes: 100, wantReserve: true, wantSettle: true},
		}},
		{"messages not read are given back, and those read beyond the reservation are paid", []step{
			{reserve: 90, read: 30, bytes: 10, wantReserve: true, wantSettle: true},
			{reserve: 70, read: 75, bytes: 10, wantReserve: true, wantSettle: true},
			{reserve: 1, wantReserve: false},
		}},
		{"the budget refills continuously, a minute's worth at most", []step{
			{reserve: 100, read: 100, bytes: 1000, wantReserve: true, wantSettle: true},
			{advance: 30 * time.Second, reserve: 51, wantReserve: false},
			{reserve: 50, read: 50, bytes: 500, wantReserve: true, wantSettle: true},
			{advance: time.Hour, reserve: 101, wantReserve: false},
			{reserve: 100, read: 100, bytes: 1000, wantReserve: true, wantSettle: true},
		}},
		{"no byte left refuses even an empty-looking replay", []step{
			{reserve: 1, read: 1, bytes: 1000, wantReserve: true, wantSettle: true},
			{reserve: 1, wantReserve: false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 6, 19, 18, 0, 0, 0, time.UTC)
			r := newReplayBudgets(100, 1000, func() time.Time { return now })
			for i, s := range tt.steps {
				now = now.Add(s.advance)
				if got := r.reserve("g1", s.reserve); got != s.wantReserve {
					t.Fatalf("step %d: reserve %d = %v, want %v", i, s.reserve, got, s.wantReserve)
				}
				if !s.wantReserve {
					continue
				}
				if got := r.settle("g1", s.reserve, s.read, s.bytes); got != s.wantSettle {
					t.Fatalf("step %d: settle %d of %d, %d bytes = %v, want %v", i, s.read, s.reserve, s.bytes, got, s.wantSettle)
				}
			}
			// Another person's budget is their own.
			if !r.reserve("g2", 100) {
				t.Error("another person's budget was spent too")
			}
		})
	}
}

// TestReplayBudgetsForgetFullOnes: the map keeps only people whose budget
// is not full again, so it does not grow with everyone who ever replayed.
func TestReplayBudgetsForgetFullOnes(t *testing.T) {
	now := time.Date(2026, 6, 19, 18, 0, 0, 0, time.UTC)
	r := newReplayBudgets(100, 1000, func() time.Time { return now })
	for _, who := range []string{"a", "b", "c"} {
		r.reserve(who, 50)
		r.settle(who, 50, 50, 500)
	}
	now = now.Add(2 * time.Minute)
	r.reserve("d", 50)
	r.settle("d", 50, 50, 500)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.m) != 1 || r.m["d"] == nil {
		t.Errorf("after two minutes the budgets held are %v, want only d's", r.m)
	}
}

// TestReplayBudgetPerPerson: one guest opens socket after socket (each
// with a fresh per-socket replay count, as a ticket allows 30 a minute)
// and asks each for the whole history. Once the guest's budget of
// messages or bytes for the minute is spent, the replay is a resync at
// the topic's latest seq, never silence and never the events; another
// guest's replay is not touched. Before the budget, every socket got the
// whole history: 39 sockets × 10 replays sent one guest 247.6 MB a minute.
func TestReplayBudgetPerPerson(t *testing.T) {
	const events, pad = 20, 10 << 10
	tests := []struct {
		name string
		cfg  Config
		// replays is how many whole histories the budget covers in a
		// minute; the test allows what refills while it runs on top.
		replays func(replayBytes int) float64
	}{
		{"bytes", Config{ReplayBytesPerMinute: 500 << 10, ReplayMessagesPerMinute: 100_000}, func(b int) float64 { return float64(500<<10) / float64(b) }},
		{"messages", Config{ReplayBytesPerMinute: 100 << 20, ReplayMessagesPerMinute: 50}, func(int) float64 { return 50.0 / events }},
	}
	for _, brokers := range []struct {
		name string
		b    brokerPair
	}{{"memory", memoryBrokers}, {"redis", redisBrokers}} {
		for _, tt := range tests {
			t.Run(brokers.name+"/"+tt.name, func(t *testing.T) {
				e := newEnv(t, brokers.b, 100, tt.cfg)
				text := strings.Repeat("x", pad)
				for range events {
					e.publish(0, topicGuests, "announcement", map[string]string{"text": text})
				}
				// replay subscribes a new socket of id on hub i with since
				// 0 and reports whether it got the history (and its size)
				// or a resync.
				replay := func(i int, id Identity) (full bool, size int) {
					t.Helper()
					c := e.dial(i, id)
					defer c.ws.Close(websocket.StatusNormalClosure, "")
					sub := c.subscribe(topicGuests, ptr[uint64](0))
					m := c.read()
					switch m.Type {
					case "resync":
						if m.Topic != topicGuests || m.Seq != events || m.Epoch != sub.Epoch {
							t.Fatalf("resync %+v, want one at seq %d of epoch %q", m, events, sub.Epoch)
						}
					case "event":
						size = len(m.Data)
						for seq := uint64(2); seq <= events; seq++ {
							size += len(c.expectEvent(topicGuests, seq).Data)
						}
						full = true
					default:
						t.Fatalf("after subscribed: %+v, want the history or a resync", m)
					}
					c.expectNothingMore()
					return full, size
				}
				start := time.Now()
				full, size := replay(0, guest1)
				if !full {
					t.Fatal("the first replay of the minute was refused")
				}
				const sockets = 8
				fulls, resyncs := 1, 0
				for range sockets - 1 {
					if full, _ := replay(0, guest1); full {
						fulls++
					} else {
						resyncs++
					}
				}
				elapsed := time.Since(start)
				// The budget holds a minute's worth and refills while the
				// test runs: that many whole histories, and no more.
				most := int(tt.replays(size) * (1 + elapsed.Minutes()))
				t.Logf("%d whole histories and %d resyncs of %d sockets in %v (at most %d histories; %d bytes of data each)", fulls, resyncs, sockets, elapsed.Round(time.Millisecond), most, size)
				if fulls > most {
					t.Errorf("one guest was sent %d whole histories in %v, more than the budget's %d", fulls, elapsed, most)
				}
				if resyncs == 0 {
					t.Error("no replay was refused: one guest can pull the history on every new socket")
				}
				// Another guest has a budget of their own; so has this one
				// on another instance.
				if full, _ := replay(0, guest2); !full {
					t.Error("another guest's replay was refused for guest1's budget")
				}
				if full, _ := replay(1, guest1); !full {
					t.Error("guest1's replay on another instance was refused")
				}
			})
		}
	}
}

// TestSocketsPerIdentityUnderABurst: twenty sockets of one guest dialled
// at once leave exactly MaxSocketsPerIdentity open; the rest are closed
// with 4008 before they get a hello.
func TestSocketsPerIdentityUnderABurst(t *testing.T) {
	e := newEnv(t, memoryBrokers, 100, Config{})
	const dials = 20
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var mu sync.Mutex
	open, refused := 0, 0
	var wg sync.WaitGroup
	for range dials {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, _, err := websocket.Dial(ctx, e.wsURL(0, e.tickets.issue(guest1)), nil)
			if err != nil {
				t.Errorf("dial: %v", err)
				return
			}
			t.Cleanup(func() { ws.CloseNow() })
			_, b, err := ws.Read(ctx)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && strings.Contains(string(b), `"hello"`):
				open++
			case websocket.CloseStatus(err) == StatusTooMany:
				refused++
			default:
				t.Errorf("first message %q, %v: want hello or close %d", b, err, StatusTooMany)
			}
		}()
	}
	wg.Wait()
	want := e.hubs[0].cfg.MaxSocketsPerIdentity
	if open != want || refused != dials-want {
		t.Errorf("%d open and %d refused of %d, want %d open", open, refused, dials, want)
	}
	if n := e.hubs[0].Connections(); n != want {
		t.Errorf("the hub holds %d connections, want %d", n, want)
	}
}
