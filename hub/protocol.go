package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ProtocolVersion is sent in the hello message that opens every connection.
// Version 2 added epochs; everything a version 1 client sends still works.
const ProtocolVersion = 2

// maxTopicLen bounds a topic's length, whatever the application's rules.
const maxTopicLen = 128

// ErrUnknownTopic and ErrForbidden are the refusals an Authorize function
// returns; the client gets "unknown_topic" or "forbidden".
var (
	ErrUnknownTopic = errors.New("unknown topic")
	ErrForbidden    = errors.New("forbidden")
)

// knownTopic reports whether topic may be published and subscribed to:
// safe to carry as it is (validName), not the hub's own, and one of the
// application's.
func (h *Hub) knownTopic(topic string) bool {
	return len(topic) <= maxTopicLen && validName(topic, true) && topic != topicSessions &&
		h.cfg.KnownTopic != nil && h.cfg.KnownTopic(topic)
}

// authorize asks the application whether id may hear topic.
func (h *Hub) authorize(id Identity, topic string) error {
	if h.cfg.Authorize == nil {
		return ErrForbidden
	}
	return h.cfg.Authorize(id, topic)
}

// validName keeps topics and identity ids to characters that are safe in
// Redis keys, log lines and the broker's framing without any escaping;
// colon allows ':' as well.
func validName(s string, colon bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', colon && c == ':':
		default:
			return false
		}
	}
	return true
}

// maxIDLen bounds an identity id in EndSessions.
const maxIDLen = 64

func validID(id string) bool { return len(id) <= maxIDLen && validName(id, false) }

// Client message types.
const (
	msgSubscribe   = "subscribe"
	msgUnsubscribe = "unsubscribe"
	msgPing        = "ping"
)

// clientMessage is one message a browser sends.
type clientMessage struct {
	Type  string
	Topic string
	// Since is nil when the client wants only live events. Its Epoch is
	// empty when the client sent a bare seq (protocol 1).
	Since *Position
}

var errBadMessage = errors.New("bad message")

// parseClientMessage decodes and validates one client frame. Unknown
// fields are ignored so newer clients can talk to older servers.
func parseClientMessage(b []byte) (clientMessage, error) {
	var raw struct {
		Type  string          `json:"type"`
		Topic *string         `json:"topic"`
		Since json.RawMessage `json:"since"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return clientMessage{}, fmt.Errorf("%w: not a JSON object", errBadMessage)
	}
	m := clientMessage{Type: raw.Type}
	switch raw.Type {
	case msgPing:
		return m, nil
	case msgSubscribe, msgUnsubscribe:
	case "":
		return clientMessage{}, fmt.Errorf("%w: missing type", errBadMessage)
	default:
		return clientMessage{}, fmt.Errorf("%w: unknown type %q", errBadMessage, truncate(raw.Type, 32))
	}
	if raw.Topic == nil || *raw.Topic == "" {
		return clientMessage{}, fmt.Errorf("%w: %s needs a topic", errBadMessage, raw.Type)
	}
	m.Topic = *raw.Topic
	if raw.Type == msgSubscribe {
		since := bytes.TrimSpace(raw.Since)
		if len(since) > 0 && !bytes.Equal(since, []byte("null")) {
			p, err := parseSince(since)
			if err != nil {
				return clientMessage{}, err
			}
			m.Since = &p
		}
	}
	return m, nil
}

// maxEpochLen bounds an epoch a client may send back; the brokers make
// 13-character ones.
const maxEpochLen = 32

// parseSince reads since: a bare seq (protocol 1) or "<epoch>:<seq>".
func parseSince(b []byte) (Position, error) {
	if b[0] != '"' {
		n, err := strconv.ParseUint(string(b), 10, 64)
		if err != nil {
			return Position{}, fmt.Errorf("%w: since must be \"<epoch>:<seq>\" or a non-negative integer", errBadMessage)
		}
		return Position{Seq: n}, nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return Position{}, fmt.Errorf("%w: since must be \"<epoch>:<seq>\" or a non-negative integer", errBadMessage)
	}
	epoch, seq, ok := strings.Cut(s, ":")
	if !ok || !validEpoch(epoch) {
		return Position{}, fmt.Errorf("%w: since must be \"<epoch>:<seq>\" with the epoch the server sent", errBadMessage)
	}
	n, err := strconv.ParseUint(seq, 10, 64)
	if err != nil {
		return Position{}, fmt.Errorf("%w: the seq in since must be a non-negative integer", errBadMessage)
	}
	return Position{Epoch: epoch, Seq: n}, nil
}

func validEpoch(e string) bool {
	if e == "" || len(e) > maxEpochLen {
		return false
	}
	for i := 0; i < len(e); i++ {
		c := e[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Server messages other than events are rare, so they are encoded with
// encoding/json; events are encoded once per publish by encodeEvent.

type helloMessage struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
}

type subscribedMessage struct {
	Type  string `json:"type"`
	Topic string `json:"topic"`
	Seq   uint64 `json:"seq"`
	Epoch string `json:"epoch"`
}

type unsubscribedMessage struct {
	Type  string `json:"type"`
	Topic string `json:"topic"`
}

// resyncMessage carries the seq the client's state should be refetched
// as of: live events after it follow.
type resyncMessage struct {
	Type  string `json:"type"`
	Topic string `json:"topic"`
	Seq   uint64 `json:"seq"`
	Epoch string `json:"epoch"`
}

type errorMessage struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Topic   string `json:"topic,omitempty"`
}

var (
	helloFrame = mustMarshal(helloMessage{Type: "hello", Protocol: ProtocolVersion})
	pongFrame  = mustMarshal(struct {
		Type string `json:"type"`
	}{Type: "pong"})
)

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// eventParts returns an event message split around its seq, so a broker
// can assign the seq while appending and publishing atomically and still
// hand out bytes that are encoded exactly once.
func eventParts(topic, event string, t time.Time, data json.RawMessage) (head, tail []byte, err error) {
	if len(data) == 0 {
		data = json.RawMessage("null")
	}
	topicJSON, err := json.Marshal(topic)
	if err != nil {
		return nil, nil, err
	}
	eventJSON, err := json.Marshal(event)
	if err != nil {
		return nil, nil, err
	}
	head = make([]byte, 0, 40+len(topicJSON))
	head = append(head, `{"type":"event","topic":`...)
	head = append(head, topicJSON...)
	head = append(head, `,"seq":`...)

	tail = make([]byte, 0, 64+len(eventJSON)+len(data))
	tail = append(tail, `,"event":`...)
	tail = append(tail, eventJSON...)
	tail = append(tail, `,"time":"`...)
	tail = t.UTC().AppendFormat(tail, time.RFC3339Nano)
	tail = append(tail, `","data":`...)
	tail = append(tail, data...)
	tail = append(tail, '}')
	return head, tail, nil
}

// joinEvent builds the wire bytes of an event from its parts, seq and
// epoch. The Redis publish script builds the same bytes.
func joinEvent(head []byte, seq uint64, epoch string, tail []byte) []byte {
	b := make([]byte, 0, len(head)+20+len(epochField)+len(epoch)+1+len(tail))
	b = append(b, head...)
	b = strconv.AppendUint(b, seq, 10)
	b = append(b, epochField...)
	b = append(b, epoch...)
	b = append(b, '"')
	return append(b, tail...)
}

// epochField follows the seq in an event message; the epoch and a closing
// quote come next. Epochs need no JSON escaping (see epochEncoding).
const epochField = `,"epoch":"`
