package hub

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// rawClient speaks just enough WebSocket to subscribe, and then never
// reads: a phone whose app froze, or a client that wants to hold the
// server's buffers.
type rawClient struct {
	nc net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, e *testEnv, i int, id Identity) *rawClient {
	t.Helper()
	d := &net.Dialer{Control: func(network, address string, rc syscall.RawConn) error {
		var err error
		rc.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return err
	}}
	addr := strings.TrimPrefix(e.srvs[i].URL, "http://")
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	req := "GET /ws?ticket=" + e.tickets.issue(id) + " HTTP/1.1\r\nHost: " + addr +
		"\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := nc.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade answered %d", resp.StatusCode)
	}
	return &rawClient{nc: nc, br: br}
}

// send writes one masked text frame, as a client must.
func (r *rawClient) send(t *testing.T, payload string) {
	t.Helper()
	f := []byte{0x81}
	switch n := len(payload); {
	case n < 126:
		f = append(f, 0x80|byte(n))
	default:
		f = append(f, 0x80|126)
		f = binary.BigEndian.AppendUint16(f, uint16(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	f = append(f, mask[:]...)
	for i := 0; i < len(payload); i++ {
		f = append(f, payload[i]^mask[i%4])
	}
	if _, err := r.nc.Write(f); err != nil {
		t.Fatal(err)
	}
}

// A socket cut as a slow consumer gives its TCP connection back within
// the write timeout, even when the peer never reads again: it must not
// keep the kernel's buffers until the client goes away.
func TestSlowConsumerReleasesConnection(t *testing.T) {
	e := newEnv(t, memoryBrokers, 100, Config{QueueSize: 8, WriteTimeout: 300 * time.Millisecond})
	fast := e.dial(0, bartender)
	fast.subscribe(topicBar, nil)
	stuck := dialRaw(t, e, 0, bartender)
	stuck.send(t, `{"type":"subscribe","topic":"bar"}`)
	fast.expectNothingMore() // both subscriptions are in place
	for e.hubs[0].Presence()[topicBar] != 2 {
		time.Sleep(10 * time.Millisecond)
	}

	publishUntilCut(t, e, 0, fast, 64<<10, 2000)
	for i := 0; e.hubs[0].Connections() != 1; i++ {
		if i == 300 {
			t.Fatalf("%d connections are still open after the slow consumer was cut; want 1", e.hubs[0].Connections())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The connection is closed on the server's side: the client, reading
	// at last, finds the end of it after what was already in flight.
	stuck.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64<<10)
	var err error
	for err == nil {
		_, err = stuck.br.Read(buf)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed) {
		t.Fatalf("the server never closed the connection: %v", err)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server never closed the connection: %v", err)
	}
}

// One identity may hold MaxSocketsPerIdentity sockets on an instance; one
// more is closed with 4008, while others are not affected.
func TestSocketsPerIdentityCap(t *testing.T) {
	e := newEnv(t, memoryBrokers, 100, Config{MaxSocketsPerIdentity: 2})
	a := e.dial(0, guest1)
	e.dial(0, guest1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	over := func() error {
		ws, _, err := websocket.Dial(ctx, e.wsURL(0, e.tickets.issue(guest1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		_, _, err = ws.Read(ctx)
		return err
	}
	if err := over(); websocket.CloseStatus(err) != StatusTooMany {
		t.Fatalf("third socket of one guest: %v, want close %d", err, StatusTooMany)
	}
	// Another guest, and the same guest on another instance, are not
	// held to this guest's count here.
	e.dial(0, guest2).subscribe(topicGuests, nil)
	e.dial(1, guest1).subscribe(topicGuests, nil)
	// A closed socket frees its place.
	a.ws.Close(websocket.StatusNormalClosure, "")
	for i := 0; e.hubs[0].Connections() != 2; i++ {
		if i == 200 {
			t.Fatalf("%d connections, want 2", e.hubs[0].Connections())
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.dial(0, guest1).subscribe(topicGuests, nil)
	if err := over(); websocket.CloseStatus(err) != StatusTooMany {
		t.Fatalf("socket over the cap again: %v, want close %d", err, StatusTooMany)
	}
}

// Asking for the history over and over (each subscribe with since replays
// up to all of it) closes the socket with 4008 once the socket's replays
// for the minute are spent; subscribing without since does not count.
func TestReplaysPerSocketCap(t *testing.T) {
	e := newEnv(t, memoryBrokers, 100, Config{MaxReplaysPerMinute: 3})
	pad := strings.Repeat("x", 10<<10)
	for i := 0; i < 20; i++ {
		e.publish(0, topicGuests, "announcement", map[string]string{"text": pad})
	}
	c := e.dial(0, guest1)
	for i := 0; i < 5; i++ {
		c.subscribe(topicMenu, nil)
	}
	for i := 0; i < 3; i++ {
		c.subscribe(topicGuests, ptr[uint64](0))
		for seq := uint64(1); seq <= 20; seq++ {
			c.expectEvent(topicGuests, seq)
		}
	}
	c.send(map[string]any{"type": "subscribe", "topic": topicGuests, "since": 0})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for err == nil {
		_, _, err = c.ws.Read(ctx)
	}
	if websocket.CloseStatus(err) != StatusTooMany {
		t.Fatalf("fourth replay in a minute: %v, want close %d", err, StatusTooMany)
	}
	// Another socket of the same guest has its own replays.
	d := e.dial(0, guest1)
	d.subscribe(topicGuests, ptr[uint64](19))
	d.expectEvent(topicGuests, 20)
}
