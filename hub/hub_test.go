package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"
)

// ticketStore is a real single-use ticket store, as the auth package
// provides in production.
type ticketStore struct {
	mu sync.Mutex
	m  map[string]Identity
}

func newTicketStore() *ticketStore { return &ticketStore{m: make(map[string]Identity)} }

func (s *ticketStore) issue(id Identity) string {
	b := make([]byte, 16)
	rand.Read(b)
	t := hex.EncodeToString(b)
	s.mu.Lock()
	s.m[t] = id
	s.mu.Unlock()
	return t
}

func (s *ticketStore) RedeemTicket(ctx context.Context, ticket string) (Identity, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.m[ticket]
	if !ok {
		return Identity{}, errors.New("unknown or used ticket")
	}
	delete(s.m, ticket)
	return id, nil
}

// brokerPair returns one broker per instance; both share their state.
type brokerPair func(t *testing.T, history int) [2]Broker

func memoryBrokers(t *testing.T, history int) [2]Broker {
	b := NewMemoryBroker(history)
	return [2]Broker{b, b}
}

func redisBrokers(t *testing.T, history int) [2]Broker {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run `make test`, or start redis-server and set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("parse REDIS_URL: %v", err)
	}
	prefix := "barhub-test-hub:" + randomID()
	var out [2]Broker
	for i := range out {
		o := *opt
		// Named, so a test can find and cut this instance's connections.
		o.ClientName = fmt.Sprintf("%s-%d", strings.ReplaceAll(prefix, ":", "-"), i)
		rdb := redis.NewClient(&o)
		if err := rdb.Ping(context.Background()).Err(); err != nil {
			t.Fatalf("connect to Redis at %s: %v (is redis-server running?)", url, err)
		}
		t.Cleanup(func() { rdb.Close() })
		out[i] = NewRedisBroker(rdb, prefix, history)
	}
	t.Cleanup(func() {
		rdb := redis.NewClient(opt)
		defer rdb.Close()
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+":*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
	})
	return out
}

func randomID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

type testEnv struct {
	t       *testing.T
	hubs    [2]*Hub
	srvs    [2]*httptest.Server
	tickets *ticketStore
}

func newEnv(t *testing.T, brokers brokerPair, history int, cfg Config) *testEnv {
	t.Helper()
	e := &testEnv{t: t, tickets: newTicketStore()}
	bs := brokers(t, history)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for i := range e.hubs {
		h := New(testRules(cfg), bs[i], e.tickets, logger)
		if err := h.Start(context.Background()); err != nil {
			t.Fatalf("start hub %d: %v", i, err)
		}
		srv := httptest.NewServer(h)
		e.hubs[i], e.srvs[i] = h, srv
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := h.Shutdown(ctx); err != nil {
				t.Errorf("shut down hub %d: %v", i, err)
			}
			srv.Close()
		})
	}
	return e
}

func (e *testEnv) wsURL(i int, ticket string) string {
	return "ws" + strings.TrimPrefix(e.srvs[i].URL, "http") + "/ws?ticket=" + ticket
}

func (e *testEnv) publish(i int, topic, event string, data any) {
	e.t.Helper()
	if err := e.hubs[i].Publish(context.Background(), topic, event, data); err != nil {
		e.t.Fatalf("publish %s on %s: %v", event, topic, err)
	}
}

// serverMsg is any server message; fields absent from a type stay zero.
type serverMsg struct {
	Type     string          `json:"type"`
	Protocol int             `json:"protocol"`
	Topic    string          `json:"topic"`
	Seq      uint64          `json:"seq"`
	Epoch    string          `json:"epoch"`
	Event    string          `json:"event"`
	Time     string          `json:"time"`
	Data     json.RawMessage `json:"data"`
	Code     string          `json:"code"`
	Message  string          `json:"message"`
}

type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func (e *testEnv) dial(i int, id Identity, opts ...func(*websocket.DialOptions)) *client {
	e.t.Helper()
	o := &websocket.DialOptions{}
	for _, f := range opts {
		f(o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, e.wsURL(i, e.tickets.issue(id)), o)
	if err != nil {
		e.t.Fatalf("dial hub %d as %+v: %v", i, id, err)
	}
	ws.SetReadLimit(1 << 20)
	c := &client{t: e.t, ws: ws}
	e.t.Cleanup(func() { ws.CloseNow() })
	if m := c.read(); m.Type != "hello" || m.Protocol != ProtocolVersion {
		e.t.Fatalf("first message = %+v, want hello protocol %d", m, ProtocolVersion)
	}
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("send %s: %v", b, err)
	}
}

// read waits for the next message; the timeout only guards against a
// hung test.
func (c *client) read() serverMsg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	typ, b, err := c.ws.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText {
		c.t.Fatalf("got a %v frame, want text", typ)
	}
	var m serverMsg
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatalf("decode %s: %v", b, err)
	}
	return m
}

func (c *client) subscribe(topic string, since *uint64) serverMsg {
	c.t.Helper()
	msg := map[string]any{"type": "subscribe", "topic": topic}
	if since != nil {
		msg["since"] = *since
	}
	c.send(msg)
	m := c.read()
	if m.Type != "subscribed" || m.Topic != topic {
		c.t.Fatalf("subscribe %s: got %+v, want subscribed", topic, m)
	}
	return m
}

// expectEvent reads one message and checks it is event seq on topic.
func (c *client) expectEvent(topic string, seq uint64) serverMsg {
	c.t.Helper()
	m := c.read()
	if m.Type != "event" || m.Topic != topic || m.Seq != seq {
		c.t.Fatalf("got %+v, want event %s #%d", m, topic, seq)
	}
	return m
}

// expectNothingMore proves no message is queued: the reply to a ping
// comes after everything sent before it.
func (c *client) expectNothingMore() {
	c.t.Helper()
	c.send(map[string]string{"type": "ping"})
	if m := c.read(); m.Type != "pong" {
		c.t.Fatalf("got %+v, want pong (nothing else pending)", m)
	}
}

func ptr[T any](v T) *T { return &v }

var (
	guest1    = Identity{ID: "g1", Role: roleGuest, Name: "Ada"}
	guest2    = Identity{ID: "g2", Role: roleGuest, Name: "Bo"}
	bartender = Identity{ID: "b1", Role: roleBartender, Name: "Cy"}
	admin     = Identity{ID: "a1", Role: roleAdmin, Name: "Di"}
)

func TestHubMemoryBroker(t *testing.T) { runSuite(t, memoryBrokers) }

func TestHubRedisBroker(t *testing.T) { runSuite(t, redisBrokers) }

func runSuite(t *testing.T, brokers brokerPair) {
	t.Run("publish on one instance reaches both", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		a, b := e.dial(0, guest1), e.dial(1, guest2)
		if m := a.subscribe(topicGuests, nil); m.Seq != 0 {
			t.Fatalf("subscribed seq = %d, want 0 on a new topic", m.Seq)
		}
		b.subscribe(topicGuests, nil)
		e.publish(0, topicGuests, "announcement", map[string]string{"text": "cake in the garden"})
		e.publish(1, topicGuests, "announcement", map[string]string{"text": "speeches"})
		for _, c := range []*client{a, b} {
			m := c.expectEvent(topicGuests, 1)
			if m.Event != "announcement" || string(m.Data) != `{"text":"cake in the garden"}` {
				t.Fatalf("event = %+v", m)
			}
			if _, err := time.Parse(time.RFC3339Nano, m.Time); err != nil {
				t.Fatalf("time %q is not RFC 3339: %v", m.Time, err)
			}
			if m := c.expectEvent(topicGuests, 2); string(m.Data) != `{"text":"speeches"}` {
				t.Fatalf("second event = %+v", m)
			}
		}
	})

	t.Run("reconnect with since replays exactly what was missed", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		a := e.dial(0, bartender)
		a.subscribe(topicBar, nil)
		for i := 1; i <= 5; i++ {
			e.publish(0, topicBar, "order.placed", map[string]int{"n": i})
			a.expectEvent(topicBar, uint64(i))
		}
		a.ws.Close(websocket.StatusNormalClosure, "")
		for i := 6; i <= 55; i++ {
			e.publish(i%2, topicBar, "order.placed", map[string]int{"n": i})
		}
		b := e.dial(1, bartender)
		if m := b.subscribe(topicBar, ptr[uint64](5)); m.Seq != 55 {
			t.Fatalf("subscribed seq = %d, want 55", m.Seq)
		}
		for i := 6; i <= 55; i++ {
			m := b.expectEvent(topicBar, uint64(i))
			if string(m.Data) != fmt.Sprintf(`{"n":%d}`, i) {
				t.Fatalf("event %d data = %s", i, m.Data)
			}
		}
		e.publish(0, topicBar, "order.placed", map[string]int{"n": 56})
		b.expectEvent(topicBar, 56)
		b.expectNothingMore()
	})

	t.Run("resync when history no longer reaches back", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		for i := 1; i <= 150; i++ {
			e.publish(0, topicMenu, "menu.changed", nil)
		}
		c := e.dial(1, guest1)
		c.subscribe(topicMenu, ptr[uint64](10))
		if m := c.read(); m.Type != "resync" || m.Topic != topicMenu || m.Seq != 150 {
			t.Fatalf("got %+v, want resync of menu as of 150", m)
		}
		// Events 51..150 are still held: since=50 replays them all.
		d := e.dial(0, guest2)
		d.subscribe(topicMenu, ptr[uint64](50))
		for i := 51; i <= 150; i++ {
			d.expectEvent(topicMenu, uint64(i))
		}
		e.publish(0, topicMenu, "menu.changed", nil)
		c.expectEvent(topicMenu, 151)
		d.expectEvent(topicMenu, 151)
		// A seq from the future (a wiped backplane) also needs a resync.
		f := e.dial(1, guest1)
		f.subscribe(topicMenu, ptr[uint64](9999))
		if m := f.read(); m.Type != "resync" || m.Seq != 151 {
			t.Fatalf("got %+v, want resync as of 151", m)
		}
	})

	t.Run("replay and live delivery never gap or repeat", func(t *testing.T) {
		// The clients read only after the last publish, so their queues
		// must hold everything.
		e := newEnv(t, brokers, 1000, Config{QueueSize: 512})
		const total = 300
		topic := guestTopic("race")
		done := make(chan error, 1)
		go func() {
			for i := 1; i <= total; i++ {
				if err := e.hubs[i%2].Publish(context.Background(), topic, "order.updated", i); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		var clients []*client
		var sinces []uint64
		for i := 0; i < 8; i++ {
			c := e.dial(i%2, admin)
			// Resume a little behind the newest event, as a phone waking
			// up would, while publishing goes on.
			pos, err := e.hubs[0].broker.Latest(context.Background(), topic)
			if err != nil {
				t.Fatal(err)
			}
			since := pos.Seq - min(pos.Seq, uint64(i))
			c.subscribe(topic, &since)
			clients, sinces = append(clients, c), append(sinces, since)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		for i, c := range clients {
			for seq := sinces[i] + 1; seq <= total; seq++ {
				c.expectEvent(topic, seq)
			}
			c.expectNothingMore()
		}
	})

	t.Run("slow consumer is cut off, others keep receiving", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{QueueSize: 8})
		fast := e.dial(0, bartender)
		slow := e.dial(0, bartender, smallReceiveBuffer)
		fast.subscribe(topicBar, nil)
		slow.subscribe(topicBar, nil)
		seq := publishUntilCut(t, e, 1, fast, 64<<10, 2000)
		if got := e.hubs[0].Presence()[topicBar]; got != 1 {
			t.Fatalf("presence on bar = %d after the cut, want 1", got)
		}
		for i := 0; i < 5; i++ {
			seq++
			e.publish(1, topicBar, "order.placed", map[string]any{"n": seq})
			fast.expectEvent(topicBar, seq)
		}
		// The slow client finds its connection closed once it reads.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var err error
		for err == nil {
			_, _, err = slow.ws.Read(ctx)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal("slow client's connection was never closed")
		}
		if s := websocket.CloseStatus(err); s != StatusSlowConsumer && s != -1 {
			t.Fatalf("slow client closed with %v, want %d or a dropped connection", s, StatusSlowConsumer)
		}
	})

	t.Run("subscriptions are authorised by role", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		tests := []struct {
			who   Identity
			topic string
			ok    bool
		}{
			{guest1, guestTopic("g1"), true},
			{guest1, guestTopic("g2"), false},
			{guest1, topicGuests, true},
			{guest1, topicMenu, true},
			{guest1, topicBar, false},
			{guest1, topicAdmin, false},
			{bartender, topicBar, true},
			{bartender, topicGuests, true},
			{bartender, topicMenu, true},
			{bartender, topicAdmin, false},
			{bartender, guestTopic("g1"), false},
			{admin, topicAdmin, true},
			{admin, topicBar, true},
			{admin, guestTopic("g1"), true},
			{admin, topicGuests, true},
			{admin, topicMenu, true},
			{admin, topicBoard, true},
			{bartender, topicBoard, true},
			{guest1, topicBoard, false},
			{Identity{ID: "brd_1", Role: roleBoard}, topicBoard, true},
			{Identity{ID: "brd_1", Role: roleBoard}, topicBar, false},
			{Identity{ID: "brd_1", Role: roleBoard}, topicGuests, false},
			{Identity{ID: "brd_1", Role: roleBoard}, topicMenu, false},
		}
		for _, tt := range tests {
			c := e.dial(0, tt.who)
			c.send(map[string]string{"type": "subscribe", "topic": tt.topic})
			m := c.read()
			switch {
			case tt.ok && m.Type != "subscribed":
				t.Errorf("%s subscribing to %s: got %+v, want subscribed", tt.who.Role, tt.topic, m)
			case !tt.ok && (m.Type != "error" || m.Code != "forbidden"):
				t.Errorf("%s subscribing to %s: got %+v, want a forbidden error", tt.who.Role, tt.topic, m)
			}
			if !tt.ok {
				// Refused, yet nothing of the topic arrives and the socket
				// still works.
				e.publish(0, tt.topic, "probe", nil)
				c.expectNothingMore()
			}
			c.ws.Close(websocket.StatusNormalClosure, "")
		}
		c := e.dial(1, admin)
		c.send(map[string]string{"type": "subscribe", "topic": "guest:"})
		if m := c.read(); m.Code != "unknown_topic" {
			t.Fatalf("subscribe to guest: got %+v, want unknown_topic", m)
		}
		c.send(map[string]string{"type": "dance"})
		if m := c.read(); m.Type != "error" || m.Code != "bad_message" {
			t.Fatalf("unknown message type: got %+v, want bad_message", m)
		}
		c.expectNothingMore()
	})

	t.Run("unsubscribe stops delivery", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		c := e.dial(0, guest1)
		c.subscribe(topicMenu, nil)
		c.subscribe(guestTopic("g1"), nil)
		if p := e.hubs[0].Presence(); p[topicMenu] != 1 || p[guestTopic("g1")] != 1 {
			t.Fatalf("presence = %v", p)
		}
		c.send(map[string]string{"type": "unsubscribe", "topic": topicMenu})
		c.expectNothingMore()
		e.publish(1, topicMenu, "menu.changed", nil)
		e.publish(1, guestTopic("g1"), "order.ready", map[string]string{"orderId": "o1"})
		if m := c.expectEvent(guestTopic("g1"), 1); m.Event != "order.ready" {
			t.Fatalf("got %+v", m)
		}
		if p := e.hubs[0].Presence(); p[topicMenu] != 0 {
			t.Fatalf("presence on menu = %d after unsubscribe", p[topicMenu])
		}
	})

	t.Run("listeners see events from every instance", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		got := make(chan Event, 4)
		e.hubs[1].OnEvent(topicMenu, func(ev Event) { got <- ev })
		e.publish(0, topicMenu, "menu.changed", map[string]string{"drinkId": "d1"})
		select {
		case ev := <-got:
			if ev.Topic != topicMenu || ev.Seq != 1 || ev.Event != "menu.changed" || string(ev.Data) != `{"drinkId":"d1"}` {
				t.Fatalf("listener got %+v", ev)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("listener on the other instance never saw the event")
		}
	})

	t.Run("tickets and origins are checked before upgrading", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{AllowedOrigins: []string{"https://party.example.com", "*.barhub.test"}})
		ticket := e.tickets.issue(guest1)
		host := strings.TrimPrefix(e.srvs[0].URL, "http://")
		tests := []struct {
			name, ticket, origin string
			// proto is the X-Forwarded-Proto of a load balancer ending TLS.
			proto  string
			status int
			code   string
		}{
			{"no ticket", "", "", "", http.StatusUnauthorized, "invalid_ticket"},
			{"unknown ticket", "nope", "", "", http.StatusUnauthorized, "invalid_ticket"},
			{"foreign origin", ticket, "https://evil.example.org", "", http.StatusForbidden, "forbidden_origin"},
			// The refused origin did not spend the ticket.
			{"first use", ticket, e.srvs[0].URL, "", http.StatusSwitchingProtocols, ""},
			{"reused ticket", ticket, "", "", http.StatusUnauthorized, "invalid_ticket"},
			{"allowed origin", e.tickets.issue(guest1), "https://party.example.com", "", http.StatusSwitchingProtocols, ""},
			{"allowed pattern", e.tickets.issue(guest1), "https://tablet.barhub.test", "", http.StatusSwitchingProtocols, ""},
			// The scheme counts: a plain-http page must not reach a site
			// served over https, even on the same host.
			{"own host over https", e.tickets.issue(guest1), "https://" + host, "https", http.StatusSwitchingProtocols, ""},
			{"own host, http page, https site", e.tickets.issue(guest1), "http://" + host, "https", http.StatusForbidden, "forbidden_origin"},
			{"allowed origin, other scheme", e.tickets.issue(guest1), "http://party.example.com", "", http.StatusForbidden, "forbidden_origin"},
			{"allowed pattern, http page, https site", e.tickets.issue(guest1), "http://tablet.barhub.test", "https", http.StatusForbidden, "forbidden_origin"},
			{"own host, not a web scheme", e.tickets.issue(guest1), "ftp://" + host, "", http.StatusForbidden, "forbidden_origin"},
			{"pattern, not a web scheme", e.tickets.issue(guest1), "chrome-extension://tablet.barhub.test", "", http.StatusForbidden, "forbidden_origin"},
		}
		for _, tt := range tests {
			req, _ := http.NewRequest(http.MethodGet, e.srvs[0].URL+"/ws?ticket="+tt.ticket, nil)
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var body struct {
				Error struct{ Code, Message string }
			}
			if tt.code != "" {
				if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
					t.Errorf("%s: decode error body: %v", tt.name, err)
				}
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status || body.Error.Code != tt.code {
				t.Errorf("%s: got %d %q, want %d %q", tt.name, resp.StatusCode, body.Error.Code, tt.status, tt.code)
			}
		}
	})

	t.Run("shutdown closes sockets with going away", func(t *testing.T) {
		e := newEnv(t, brokers, 100, Config{})
		c := e.dial(0, guest1)
		c.subscribe(topicGuests, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		errc := make(chan error, 1)
		go func() {
			_, _, err := c.ws.Read(ctx)
			errc <- err
		}()
		if err := e.hubs[0].Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if s := websocket.CloseStatus(<-errc); s != websocket.StatusGoingAway {
			t.Fatalf("close status = %v, want going away", s)
		}
		if n := e.hubs[0].Connections(); n != 0 {
			t.Fatalf("%d connections left after shutdown", n)
		}
	})
}

// smallReceiveBuffer makes a client whose socket fills after a few KB.
func smallReceiveBuffer(o *websocket.DialOptions) {
	d := &net.Dialer{Control: func(network, address string, rc syscall.RawConn) error {
		var err error
		rc.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return err
	}}
	o.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

func TestGapInDeliveryTriggersResync(t *testing.T) {
	e := newEnv(t, memoryBrokers, 100, Config{})
	c := e.dial(0, admin)
	c.subscribe(topicAdmin, nil)
	e.publish(0, topicAdmin, "alert", nil)
	ep := c.expectEvent(topicAdmin, 1).Epoch
	// Seq 2 never arrives, as when a pub/sub connection drops.
	e.hubs[0].dispatch(Message{Topic: topicAdmin, Seq: 3, Epoch: ep, Wire: []byte(`{"type":"event","topic":"admin","seq":3,"epoch":"` + ep + `","event":"alert","time":"2026-01-01T00:00:00Z","data":null}`)})
	if m := c.read(); m.Type != "resync" || m.Seq != 2 || m.Epoch != ep {
		t.Fatalf("got %+v, want resync as of %s:2", m, ep)
	}
	c.expectEvent(topicAdmin, 3)
}

// publishUntilCut publishes padded events to the bar from instance pub
// until instance 0 cuts a slow consumer, checking that fast gets every one
// on the way; more than most events fail the test. It returns the last
// event's seq.
func publishUntilCut(t *testing.T, e *testEnv, pub int, fast *client, padBytes int, most uint64) uint64 {
	t.Helper()
	pad := strings.Repeat("x", padBytes)
	var seq uint64
	for counterValue(t, e.hubs[0].metrics.slowDrops) == 0 {
		if seq == most {
			t.Fatalf("the client that never reads is still subscribed after %d events of %d bytes", seq, padBytes)
		}
		seq++
		e.publish(pub, topicBar, "order.placed", map[string]any{"n": seq, "pad": pad})
		fast.expectEvent(topicBar, seq)
	}
	return seq
}

func counterValue(t testing.TB, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// TestRedisReconnectCatchesUp cuts one instance's pub/sub connection and
// publishes while it is down: the event must still reach that instance's
// socket and listeners, once.
func TestRedisReconnectCatchesUp(t *testing.T) {
	e := newEnv(t, redisBrokers, 100, Config{})
	c := e.dial(1, guest1)
	c.subscribe(guestTopic("g1"), nil)
	heard := make(chan uint64, 8)
	e.hubs[1].OnEvent(guestTopic("g1"), func(ev Event) { heard <- ev.Seq })
	e.publish(0, guestTopic("g1"), "order.preparing", nil)
	c.expectEvent(guestTopic("g1"), 1)
	if seq := <-heard; seq != 1 {
		t.Fatalf("listener heard %d, want 1", seq)
	}

	rdb := e.hubs[1].broker.(*RedisBroker).rdb
	killPubSub(t, rdb)
	// go-redis reconnects after a pause of the listen loop; this lands in it.
	e.publish(0, guestTopic("g1"), "order.ready", nil)
	if m := c.expectEvent(guestTopic("g1"), 2); m.Event != "order.ready" {
		t.Fatalf("got %+v", m)
	}
	if seq := <-heard; seq != 2 {
		t.Fatalf("listener heard %d, want 2", seq)
	}
	e.publish(0, guestTopic("g1"), "order.served", nil)
	c.expectEvent(guestTopic("g1"), 3)
	c.expectNothingMore()
	if seq := <-heard; seq != 3 {
		t.Fatalf("listener heard %d, want 3", seq)
	}
	if n := counterValue(t, e.hubs[1].metrics.catchUps); n < 1 {
		t.Fatalf("catch-ups = %v, want at least 1", n)
	}
}

// killPubSub closes, on the Redis server, the pub/sub connection of the
// client rdb.
func killPubSub(t *testing.T, rdb *redis.Client) {
	t.Helper()
	ctx := context.Background()
	list, err := rdb.Do(ctx, "CLIENT", "LIST", "TYPE", "pubsub").Text()
	if err != nil {
		t.Fatal(err)
	}
	name := rdb.Options().ClientName
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		if !strings.Contains(line, " name="+name+" ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if id, ok := strings.CutPrefix(f, "id="); ok {
				if err := rdb.Do(ctx, "CLIENT", "KILL", "ID", id).Err(); err != nil {
					t.Fatal(err)
				}
				killed++
			}
		}
	}
	if killed != 1 {
		t.Fatalf("killed %d pub/sub connections named %s, want 1", killed, name)
	}
}
