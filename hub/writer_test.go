package hub

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// Frames reach the client whole and in order whether they go out one by
// one to a socket that keeps up or in batches to one that fills (a full
// socket, a partial write), with the library's own control frames (pongs
// to the client's pings) between them, never inside one.
func TestWriterFramesStayWholeAndInOrder(t *testing.T) {
	tests := []struct {
		name   string
		events int
		pad    int
		// pause is how long the client sleeps between reads while events
		// are published: long enough that the socket fills.
		pause time.Duration
	}{
		{"small events, reader keeps up", 500, 0, 0},
		{"small events, slow reader", 2000, 100, time.Millisecond},
		{"large events, slow reader", 300, 20 << 10, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, memoryBrokers, 10, Config{QueueSize: 4096})
			rc := dialRaw(t, e, 0, bartender)
			rc.send(t, `{"type":"subscribe","topic":"bar"}`)
			frames := make(chan rawFrame, 64)
			errc := make(chan error, 1)
			go func() { errc <- readFrames(rc, frames, tt.pause) }()
			next := func() rawFrame {
				t.Helper()
				select {
				case f := <-frames:
					return f
				case err := <-errc:
					t.Fatalf("reading frames: %v", err)
				case <-time.After(20 * time.Second):
					t.Fatal("no frame for 20 s")
				}
				return rawFrame{}
			}
			for _, want := range []string{"hello", "subscribed"} {
				if f := next(); !strings.Contains(string(f.payload), `"type":"`+want+`"`) {
					t.Fatalf("got %q, want %s", f.payload, want)
				}
			}
			pad := strings.Repeat("x", tt.pad)
			pings := 0
			go func() {
				for i := 1; i <= tt.events; i++ {
					if err := e.hubs[0].Publish(t.Context(), topicBar, "order.placed", map[string]any{"n": i, "pad": pad}); err != nil {
						t.Errorf("publish %d: %v", i, err)
						return
					}
				}
			}()
			for seq := 1; seq <= tt.events; {
				if seq%50 == 0 && pings < seq/50 {
					// A ping, answered by the library through the same
					// connection while events are being written.
					pings++
					rc.sendControl(t, 0x9, fmt.Sprintf("p%d", pings))
				}
				f := next()
				if f.op == 0xA {
					continue
				}
				var m struct {
					Type string
					Seq  uint64
					Data struct{ N int }
				}
				if f.op != 0x1 || json.Unmarshal(f.payload, &m) != nil {
					t.Fatalf("frame %d: op %#x, payload %.80q: not a whole event", seq, f.op, f.payload)
				}
				if m.Type != "event" || m.Seq != uint64(seq) || m.Data.N != seq {
					t.Fatalf("got %s #%d (n %d), want event #%d", m.Type, m.Seq, m.Data.N, seq)
				}
				seq++
			}
			if drops := counterValue(t, e.hubs[0].metrics.slowDrops); drops != 0 {
				t.Fatalf("%v slow-consumer drops", drops)
			}
		})
	}
}

// A peer that stops reading has its frames queued once its socket is
// full, then is cut off as a slow consumer, while every other subscriber
// gets every event: the fan-out never waits for it.
func TestStuckPeerIsCutWithoutHoldingOthers(t *testing.T) {
	for _, pad := range []int{100, 16 << 10} {
		t.Run(fmt.Sprintf("pad %d", pad), func(t *testing.T) {
			e := newEnv(t, memoryBrokers, 10, Config{QueueSize: 16, WriteTimeout: time.Minute})
			fast := e.dial(0, bartender)
			fast.subscribe(topicBar, nil)
			stuck := dialRaw(t, e, 0, bartender)
			stuck.send(t, `{"type":"subscribe","topic":"bar"}`)
			for e.hubs[0].Presence()[topicBar] != 2 {
				time.Sleep(10 * time.Millisecond)
			}
			seq := publishUntilCut(t, e, 0, fast, pad, 20000)
			if got := e.hubs[0].Presence()[topicBar]; got != 1 {
				t.Fatalf("presence on bar = %d after the cut, want 1", got)
			}
			for range 5 {
				seq++
				e.publish(0, topicBar, "order.placed", map[string]any{"n": seq})
				fast.expectEvent(topicBar, seq)
			}
		})
	}
}

type rawFrame struct {
	op      byte
	payload []byte
}

// readFrames parses server frames off rc, pausing between reads of at
// most 4 KB, until the connection ends.
func readFrames(rc *rawClient, out chan<- rawFrame, pause time.Duration) error {
	r := io.Reader(rc.br)
	if pause > 0 {
		r = &slowReader{r: rc.br, pause: pause}
	}
	var h [10]byte
	for {
		if _, err := io.ReadFull(r, h[:2]); err != nil {
			return err
		}
		if h[0]&0x80 == 0 || h[1]&0x80 != 0 {
			return fmt.Errorf("bad frame header %x", h[:2])
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			if _, err := io.ReadFull(r, h[2:4]); err != nil {
				return err
			}
			n = uint64(binary.BigEndian.Uint16(h[2:4]))
		case 127:
			if _, err := io.ReadFull(r, h[2:10]); err != nil {
				return err
			}
			n = binary.BigEndian.Uint64(h[2:10])
		}
		if n > 1<<20 {
			return fmt.Errorf("frame of %d bytes", n)
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(r, p); err != nil {
			return err
		}
		out <- rawFrame{op: h[0] & 0x0f, payload: p}
	}
}

type slowReader struct {
	r     io.Reader
	pause time.Duration
}

func (s *slowReader) Read(p []byte) (int, error) {
	time.Sleep(s.pause)
	return s.r.Read(p[:min(len(p), 4096)])
}

// sendControl writes one masked control frame.
func (r *rawClient) sendControl(t *testing.T, op byte, payload string) {
	t.Helper()
	f := []byte{0x80 | op, 0x80 | byte(len(payload)), 0, 0, 0, 0}
	f = append(f, payload...)
	if _, err := r.nc.Write(f); err != nil {
		t.Fatal(err)
	}
}
