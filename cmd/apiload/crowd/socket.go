package crowd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/live"
)

// phone is a guest's phone: their person and live socket, and what it
// heard.
type phone struct {
	who  *person
	sock *socket

	mu   sync.Mutex
	seen map[string]bool // "ready:<order>", and announcement texts
}

func (ph *phone) heard(m frame) {
	var key string
	switch m.Event {
	case live.EventOrderReady:
		var d struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(m.Data, &d) == nil {
			key = "ready:" + d.ID
		}
	case live.EventAnnouncement:
		var d struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Data, &d) == nil {
			key = d.Text
		}
	}
	if key == "" {
		return
	}
	ph.mu.Lock()
	ph.seen[key] = true
	ph.mu.Unlock()
}

func (ph *phone) has(key string) bool {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	return ph.seen[key]
}

// frame is a server message of the live protocol (docs/PROTOCOL.md).
type frame struct {
	Type  string          `json:"type"`
	Topic string          `json:"topic"`
	Seq   int64           `json:"seq"`
	Epoch string          `json:"epoch"`
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
	Code  string          `json:"code"`
}

// socket is one live connection and where it is in each topic.
type socket struct {
	ws   *websocket.Conn
	done chan struct{}

	mu     sync.Mutex
	last   map[string]string // topic → "<epoch>:<seq>" last seen
	placed map[string]bool   // the bar's "placed:<order>"
}

// open takes a ticket, connects, and subscribes to topics (from where
// since says, when given: one "<epoch>:<seq>" per topic, or "" for now),
// returning once every subscription is confirmed. onEvent hears every
// event from then on.
func (p *party) open(ctx context.Context, who *person, topics []string, onEvent func(frame), since ...string) (*socket, error) {
	var tk struct {
		Ticket string `json:"ticket"`
	}
	if err := p.callJSON(ctx, who, "POST", "/api/ws/ticket", nil, 200, &tk); err != nil {
		return nil, err
	}
	url := who.url
	if url == "" {
		url = p.cfg.URLs[0]
	}
	header := http.Header{}
	if who.addr != "" {
		header.Set("X-Forwarded-For", who.addr)
	}
	dialCtx, cancel := context.WithTimeout(ctx, p.cfg.Deadline)
	defer cancel()
	ws, _, err := websocket.Dial(dialCtx, "ws"+strings.TrimPrefix(url, "http")+"/ws?ticket="+tk.Ticket,
		&websocket.DialOptions{HTTPClient: p.client, HTTPHeader: header})
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	ws.SetReadLimit(1 << 20)
	s := &socket{ws: ws, done: make(chan struct{}), last: map[string]string{}, placed: map[string]bool{}}
	for i, topic := range topics {
		msg := map[string]any{"type": "subscribe", "topic": topic}
		if i < len(since) && since[i] != "" {
			msg["since"] = since[i]
			if seq, err := strconv.ParseUint(since[i], 10, 64); err == nil {
				msg["since"] = seq // a topic with no epoch yet: the bare seq
			}
		}
		b, _ := json.Marshal(msg)
		if err := ws.Write(dialCtx, websocket.MessageText, b); err != nil {
			ws.CloseNow()
			return nil, fmt.Errorf("subscribe to %s: %w", topic, err)
		}
	}
	// Read until every topic is confirmed; events that arrive meanwhile
	// (replays) are heard in order.
	pending := map[string]bool{}
	for _, t := range topics {
		pending[t] = true
	}
	for len(pending) > 0 {
		m, err := s.read(dialCtx)
		if err != nil {
			ws.CloseNow()
			return nil, fmt.Errorf("wait for the subscriptions: %w", err)
		}
		switch m.Type {
		case "subscribed":
			delete(pending, m.Topic)
		case "error":
			ws.CloseNow()
			return nil, fmt.Errorf("subscribe to %s: %s", m.Topic, m.Code)
		}
		s.note(m, onEvent)
	}
	go func() {
		defer close(s.done)
		for {
			m, err := s.read(context.Background())
			if err != nil {
				return
			}
			s.note(m, onEvent)
		}
	}()
	return s, nil
}

func (s *socket) read(ctx context.Context) (frame, error) {
	_, b, err := s.ws.Read(ctx)
	if err != nil {
		return frame{}, err
	}
	var m frame
	err = json.Unmarshal(b, &m)
	return m, err
}

// note keeps where the socket is in m's topic and hands events on.
func (s *socket) note(m frame, onEvent func(frame)) {
	switch m.Type {
	case "subscribed", "resync", "event":
	default:
		return
	}
	s.mu.Lock()
	if m.Type != "subscribed" || s.last[m.Topic] == "" {
		// A topic that never had an event has no epoch on Redis; the
		// protocol then takes the bare seq, as the web app sends it.
		s.last[m.Topic] = strconv.FormatInt(m.Seq, 10)
		if m.Epoch != "" {
			s.last[m.Topic] = m.Epoch + ":" + s.last[m.Topic]
		}
	}
	if m.Type == "event" && m.Event == live.EventOrderPlaced {
		var d struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(m.Data, &d) == nil {
			s.placed["placed:"+d.ID] = true
		}
	}
	s.mu.Unlock()
	if m.Type == "event" && onEvent != nil {
		onEvent(m)
	}
}

// since is where the socket was in each of a phone's two topics.
func (s *socket) since() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var guestTopic string
	for t := range s.last {
		if _, ok := live.GuestOf(t); ok {
			guestTopic = t
		}
	}
	return []string{s.last[guestTopic], s.last[live.TopicGuests]}
}

func (s *socket) has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.placed[key]
}

// close drops the connection at once, as a phone losing Wi-Fi does, and
// waits for its reader.
func (s *socket) close() {
	if s == nil {
		return // a phone whose reconnect failed has no socket
	}
	s.ws.CloseNow()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
}
