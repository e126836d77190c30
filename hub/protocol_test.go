package hub

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseClientMessage(t *testing.T) {
	tests := []struct {
		in      string
		want    clientMessage
		wantErr bool
	}{
		{in: `{"type":"ping"}`, want: clientMessage{Type: "ping"}},
		{in: `{"type":"subscribe","topic":"menu"}`, want: clientMessage{Type: "subscribe", Topic: "menu"}},
		{in: `{"type":"subscribe","topic":"menu","since":null}`, want: clientMessage{Type: "subscribe", Topic: "menu"}},
		{in: `{"type":"subscribe","topic":"guest:g1","since":42}`, want: clientMessage{Type: "subscribe", Topic: "guest:g1", Since: &Position{Seq: 42}}},
		{in: `{"type":"subscribe","topic":"bar","since":0}`, want: clientMessage{Type: "subscribe", Topic: "bar", Since: &Position{Seq: 0}}},
		{in: `{"type":"subscribe","topic":"bar","since":"k3v9a:41"}`, want: clientMessage{Type: "subscribe", Topic: "bar", Since: &Position{Epoch: "k3v9a", Seq: 41}}},
		{in: `{"type":"subscribe","topic":"bar","since":"k3v9a:0"}`, want: clientMessage{Type: "subscribe", Topic: "bar", Since: &Position{Epoch: "k3v9a", Seq: 0}}},
		{in: `{"type":"subscribe","topic":"bar","since":":41"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"k3v9a:"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"k3v9a:-1"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"k3:v9a:1"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"k 3:1"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"` + strings.Repeat("a", 33) + `:1"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"k3v9a:41`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":{"epoch":"k3v9a"}}`, wantErr: true},
		{in: `{"type":"unsubscribe","topic":"bar","since":7}`, want: clientMessage{Type: "unsubscribe", Topic: "bar"}},
		{in: `{"type":"subscribe","topic":"bar","extra":true}`, want: clientMessage{Type: "subscribe", Topic: "bar"}},
		{in: `{"type":"subscribe","topic":"bar","since":-1}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":1.5}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":"3"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":"bar","since":18446744073709551616}`, wantErr: true},
		{in: `{"type":"subscribe"}`, wantErr: true},
		{in: `{"type":"subscribe","topic":""}`, wantErr: true},
		{in: `{"type":"subscribe","topic":7}`, wantErr: true},
		{in: `{"type":"dance"}`, wantErr: true},
		{in: `{"topic":"bar"}`, wantErr: true},
		{in: `[]`, wantErr: true},
		{in: `null`, wantErr: true},
		{in: ``, wantErr: true},
		{in: `{"type":"ping"`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseClientMessage([]byte(tt.in))
		if tt.wantErr {
			if !errors.Is(err, errBadMessage) {
				t.Errorf("parse %s: err = %v, want a bad message error", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parse %s: %v", tt.in, err)
			continue
		}
		if got.Type != tt.want.Type || got.Topic != tt.want.Topic || (got.Since == nil) != (tt.want.Since == nil) ||
			(got.Since != nil && *got.Since != *tt.want.Since) {
			t.Errorf("parse %s = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"ping"}`,
		`{"type":"subscribe","topic":"guest:abc","since":12}`,
		`{"type":"subscribe","topic":"guest:abc","since":"0ab3kq:12"}`,
		`{"type":"subscribe","topic":"guest:abc","since":"\u0030:1"}`,
		`{"type":"unsubscribe","topic":"menu"}`,
		`{"type":"subscribe","topic":"bar","since":null}`,
		`{"type":"subscribe","topic":"\u0000","since":-0}`,
		`{"type":1}`,
		`nonsense`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseClientMessage(b)
		if err != nil {
			if !errors.Is(err, errBadMessage) {
				t.Fatalf("error %v does not wrap errBadMessage", err)
			}
			return
		}
		switch m.Type {
		case msgPing:
			if m.Topic != "" || m.Since != nil {
				t.Fatalf("ping carries %+v", m)
			}
		case msgSubscribe, msgUnsubscribe:
			if m.Topic == "" {
				t.Fatal("accepted a subscription message without a topic")
			}
			if m.Type == msgUnsubscribe && m.Since != nil {
				t.Fatal("unsubscribe carries since")
			}
		default:
			t.Fatalf("accepted unknown type %q", m.Type)
		}
		// What was accepted survives a round trip unchanged.
		out := map[string]any{"type": m.Type}
		if m.Topic != "" {
			out["topic"] = m.Topic
		}
		if m.Since != nil {
			if m.Since.Epoch == "" {
				out["since"] = m.Since.Seq
			} else {
				out["since"] = m.Since.Epoch + ":" + strconv.FormatUint(m.Since.Seq, 10)
			}
		}
		b2, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := parseClientMessage(b2)
		if err != nil {
			t.Fatalf("re-parse %s: %v", b2, err)
		}
		if m2.Type != m.Type || m2.Topic != m.Topic || (m2.Since == nil) != (m.Since == nil) || (m.Since != nil && *m.Since != *m2.Since) {
			t.Fatalf("round trip %+v -> %+v", m, m2)
		}
	})
}

func TestEventEncoding(t *testing.T) {
	at := time.Date(2026, 6, 21, 18, 30, 0, 123000000, time.UTC)
	head, tail, err := eventParts("guest:g1", "order.ready", at, json.RawMessage(`{"orderId":"o1"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := string(joinEvent(head, 17, "e7", tail))
	want := `{"type":"event","topic":"guest:g1","seq":17,"epoch":"e7","event":"order.ready","time":"2026-06-21T18:30:00.123Z","data":{"orderId":"o1"}}`
	if got != want {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	head, tail, _ = eventParts("menu", "menu.changed", at, nil)
	var ev Event
	if err := json.Unmarshal(joinEvent(head, 1, newEpoch(), tail), &ev); err != nil || string(ev.Data) != "null" || ev.Seq != 1 || !validEpoch(ev.Epoch) {
		t.Fatalf("nil data: %+v, %v", ev, err)
	}
}

func TestPubSubPayload(t *testing.T) {
	m, ok := parsePubSubPayload("42 1700000000000000000 guest:g1 e7\n{\"type\":\"event\"}")
	if !ok || m.Seq != 42 || m.Topic != "guest:g1" || m.Epoch != "e7" || m.Time.UnixNano() != 1700000000000000000 || string(m.Wire) != `{"type":"event"}` {
		t.Fatalf("parsed %+v, %v", m, ok)
	}
	for _, bad := range []string{"", "42 1 menu e7", "x 1 menu e7\n{}", "1 y menu e7\n{}", "1 2\n{}", "1 2 menu\n{}"} {
		if _, ok := parsePubSubPayload(bad); ok {
			t.Errorf("accepted %q", bad)
		}
	}
}
