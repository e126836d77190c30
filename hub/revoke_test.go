package hub

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// closeCode reads until the server closes c and returns the close code.
func (c *client) closeCode() websocket.StatusCode {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := c.ws.Read(ctx); err != nil {
			if ctx.Err() != nil {
				c.t.Fatal("socket still open")
			}
			return websocket.CloseStatus(err)
		}
	}
}

// TestEndSessions: ending a guest's sessions on one instance closes that
// guest's sockets on every instance with StatusSessionEnded, tells every
// instance's listeners, and leaves everyone else's sockets alone. No
// socket can subscribe to the control topic.
func TestEndSessions(t *testing.T) {
	for name, brokers := range map[string]brokerPair{"memory": memoryBrokers, "redis": redisBrokers} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, brokers, 100, Config{})
			heard := [2]chan string{make(chan string, 4), make(chan string, 4)}
			for i, h := range e.hubs {
				h.OnSessionsEnded(func(id string) { heard[i] <- id })
			}
			onA, onB := e.dial(0, bartender), e.dial(1, bartender)
			onB.subscribe(topicBar, nil)
			other := e.dial(1, admin)
			other.subscribe(topicBar, nil)
			other.send(map[string]string{"type": "subscribe", "topic": topicSessions})
			if m := other.read(); m.Type != "error" {
				t.Fatalf("subscribe to the control topic: %+v, want an error", m)
			}

			if err := e.hubs[0].EndSessions(context.Background(), bartender.ID); err != nil {
				t.Fatal(err)
			}
			for i, c := range []*client{onA, onB} {
				if code := c.closeCode(); code != StatusSessionEnded {
					t.Errorf("socket on hub %d closed with %d, want %d", i, code, StatusSessionEnded)
				}
			}
			for i := range heard {
				if id := <-heard[i]; id != bartender.ID {
					t.Errorf("hub %d heard %q, want %q", i, id, bartender.ID)
				}
			}
			// The admin's socket is untouched and still gets the bar's events.
			e.publish(0, topicBar, "order.created", nil)
			other.expectEvent(topicBar, 1)
			if n := e.hubs[1].CloseGuest(bartender.ID, StatusSessionEnded, "session ended"); n != 0 {
				t.Errorf("CloseGuest found %d more sockets", n)
			}
		})
	}
}

// TestInterruptedDeliveryForgetsSessions: when the broker's delivery was
// interrupted, listeners hear "" (forget everything), since an ended
// session may have been missed.
func TestInterruptedDeliveryForgetsSessions(t *testing.T) {
	e := newEnv(t, redisBrokers, 100, Config{})
	heard := make(chan string, 4)
	e.hubs[1].OnSessionsEnded(func(id string) { heard <- id })
	killPubSub(t, e.hubs[1].broker.(*RedisBroker).rdb)
	if id := <-heard; id != "" {
		t.Fatalf("heard %q, want \"\"", id)
	}
}
