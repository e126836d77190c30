package livehub

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
)

// TestEventHubKeepsEventsApart: what one event publishes through its view
// of the hub reaches that event's listeners under the event's topic, and
// no other event's, the first event's included; the names are ones the
// hub carries (its own rules refuse some characters).
func TestEventHubKeepsEventsApart(t *testing.T) {
	ctx := context.Background()
	h := hub.New(Rules(hub.Config{}), hub.NewMemoryBroker(100), nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Shutdown(ctx) })
	l := &Live{Hub: h}
	const wedding, rehearsal = "6b11aa00ff00ee00dd00cc00", ""
	heard := map[string]chan hub.Event{}
	for _, ev := range []string{wedding, rehearsal, "7c22bb11ee11dd11cc11bb11"} {
		ch := make(chan hub.Event, 4)
		heard[ev] = ch
		l.ForEvent(ev).OnEvent(live.TopicBar, func(e hub.Event) { ch <- e })
	}
	if err := l.ForEvent(wedding).Publish(ctx, live.TopicBar, live.EventOrderPlaced, map[string]string{"id": "o1"}); err != nil {
		t.Fatalf("publish on the wedding's bar: %v", err)
	}
	if err := l.ForEvent(wedding).PublishMany(ctx, []hub.Outgoing{{Topic: live.TopicBar, Event: live.EventOrderReady, Data: map[string]string{"id": "o1"}}}); err != nil {
		t.Fatalf("publish many on the wedding's bar: %v", err)
	}
	for _, want := range []string{live.EventOrderPlaced, live.EventOrderReady} {
		select {
		case e := <-heard[wedding]:
			if e.Event != want || e.Topic != live.InEvent(wedding, live.TopicBar) {
				t.Errorf("the wedding heard %s on %s, want %s on %s", e.Event, e.Topic, want, live.InEvent(wedding, live.TopicBar))
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the wedding's bar did not hear %s", want)
		}
	}
	time.Sleep(100 * time.Millisecond)
	for ev, ch := range heard {
		if ev != wedding && len(ch) > 0 {
			t.Errorf("event %q heard the wedding's order: %+v", ev, <-ch)
		}
	}
}
