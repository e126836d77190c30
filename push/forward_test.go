package push

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/hub"
)

type recorder struct {
	to []string
	ns []Notification
}

func (r *recorder) Notify(guestID string, n Notification) {
	r.to, r.ns = append(r.to, guestID), append(r.ns, n)
}
func (r *recorder) NotifyEveryone(n Notification) { r.Notify("*", n) }

type nopPublisher struct{}

func (nopPublisher) Publish(context.Context, string, string, any) error { return nil }
func (nopPublisher) PublishMany(context.Context, []hub.Outgoing) error  { return nil }

// A personal announcement to many guests is one PublishMany; each guest
// it names gets one notification when the host asked for push, none
// otherwise.
func TestForwardMany(t *testing.T) {
	batch := func(push bool) []hub.Outgoing {
		a := map[string]any{"text": "Your cab is here", "from": "Hal", "push": push}
		return []hub.Outgoing{{Topic: "guest:g1", Event: "announcement", Data: a}, {Topic: "guest:g2", Event: "announcement", Data: a}}
	}
	r := &recorder{}
	if err := Forward(nopPublisher{}, r).PublishMany(context.Background(), batch(true)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.to, []string{"g1", "g2"}) || r.ns[0].Body != "Your cab is here" {
		t.Fatalf("notified %v %+v, want g1 and g2", r.to, r.ns)
	}
	r = &recorder{}
	if err := Forward(nopPublisher{}, r).PublishMany(context.Background(), batch(false)); err != nil {
		t.Fatal(err)
	}
	if len(r.ns) != 0 {
		t.Fatalf("notified %v without push", r.to)
	}
}

func TestForward(t *testing.T) {
	order := func(status, actor, reason string) map[string]any {
		return map[string]any{"id": "o1", "guestId": "g1", "status": status,
			"items":   []map[string]any{{"name": "Mojito", "qty": 2}, {"name": "Negroni", "qty": 1}},
			"history": []map[string]any{{"actorId": "g1"}, {"actorId": actor, "reason": reason}}}
	}
	for _, tt := range []struct {
		name, topic, event string
		data               any
		to                 string // "" means no notification
		title, body        string
	}{
		{"ready", "guest:g1", "order.ready", order("ready", "b1", ""), "g1", "Your drink is ready", "2× Mojito, Negroni — collect it at the bar."},
		{"ready with ticket", "guest:g1", "order.ready", map[string]any{"id": "o1", "ticket": 42, "items": []map[string]any{{"name": "Mojito", "qty": 1}}}, "g1", "Your drink is ready (#42)", "Mojito — collect it at the bar."},
		{"bar cancels", "guest:g1", "order.cancelled", order("cancelled", "b1", "out of mint"), "g1", "Your order was cancelled", "2× Mojito, Negroni was cancelled: out of mint"},
		{"guest cancels", "guest:g1", "order.cancelled", order("cancelled", "g1", "oops"), "", "", ""},
		{"bar topic", "bar", "order.ready", order("ready", "b1", ""), "", "", ""},
		{"placed", "guest:g1", "order.placed", order("queued", "g1", ""), "", "", ""},
		{"announcement without push", "guests", "announcement", map[string]any{"text": "Cake", "from": "Hal"}, "", "", ""},
		{"announcement with push", "guests", "announcement", map[string]any{"text": "Cake", "from": "Hal", "push": true}, "*", "From Hal", "Cake"},
		{"announcement to one", "guest:g2", "announcement", map[string]any{"text": "Your cab", "push": true}, "g2", "Announcement", "Your cab"},
		{"recommendation", "guest:g1", "recommendation.ready", map[string]any{"status": "done", "drinks": []map[string]any{{"name": "Mojito"}, {"name": "Paloma"}}}, "g1", "The bartender has picked drinks for you", "Mojito, Paloma"},
		{"failed recommendation", "guest:g1", "recommendation.ready", map[string]any{"status": "failed"}, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			if err := Forward(nopPublisher{}, r).Publish(context.Background(), tt.topic, tt.event, tt.data); err != nil {
				t.Fatal(err)
			}
			if tt.to == "" {
				if len(r.ns) != 0 {
					t.Fatalf("notified %v: %+v", r.to, r.ns)
				}
				return
			}
			if len(r.ns) != 1 || r.to[0] != tt.to || r.ns[0].Title != tt.title || r.ns[0].Body != tt.body {
				t.Fatalf("notified %v %+v, want %s %q %q", r.to, r.ns, tt.to, tt.title, tt.body)
			}
			if !strings.HasPrefix(r.ns[0].URL, "/") {
				t.Errorf("url %q is not a path of the app", r.ns[0].URL)
			}
		})
	}
}

// BenchmarkForwardReady is what the push wrapper adds to a bartender's
// Ready on the request path: reading the event and queueing it.
func BenchmarkForwardReady(b *testing.B) {
	s := New(nil, Config{Queue: 1 << 20}, nil, nil)
	f := Forward(nopPublisher{}, s)
	o := map[string]any{"id": "o1", "guestId": "g1", "status": "ready", "version": 3,
		"items":   []map[string]any{{"drinkId": "mojito", "name": "Mojito", "qty": 2, "standardDrinks": 1.2}},
		"history": []map[string]any{{"to": "queued", "actorId": "g1"}, {"to": "preparing", "actorId": "b1"}, {"to": "ready", "actorId": "b1"}}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		f.Publish(ctx, "guest:g1", "order.ready", o)
		if d, ok := s.q.pop(); ok {
			s.q.done(d.guestID)
			s.pending.Add(-1)
		}
	}
}
