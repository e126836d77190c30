package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Outgoing is one event of a PublishMany.
type Outgoing struct {
	Topic string
	Event string
	Data  any
}

// batchBroker is a Broker that stores several events in one exchange
// (Redis: one pipelined round trip instead of one per event). Each event
// is still ordered within its own topic.
type batchBroker interface {
	PublishBatch(ctx context.Context, evs []Event) error
}

// PublishMany publishes every event of evs, as Publish would one by one,
// in one exchange with the broker where it can: a personal message to two
// thousand guests is one pipelined round trip to Redis, not two thousand.
// Events on one topic keep their order; nothing is promised between
// topics. It returns when the broker has stored them all. On an error some
// may have been stored; publishing the same call again is not
// deduplicated (each call makes new event ids).
func (h *Hub) PublishMany(ctx context.Context, out []Outgoing) error {
	if len(out) == 0 {
		return nil
	}
	now := time.Now()
	evs := make([]Event, len(out))
	for i, o := range out {
		if !h.knownTopic(o.Topic) {
			return fmt.Errorf("publish %s: %w %q", o.Event, ErrUnknownTopic, o.Topic)
		}
		if o.Event == "" {
			return fmt.Errorf("publish on %s: empty event name", o.Topic)
		}
		raw, err := json.Marshal(o.Data)
		if err != nil {
			return fmt.Errorf("publish %s on %s: encode data: %w", o.Event, o.Topic, err)
		}
		evs[i] = Event{Topic: o.Topic, Event: o.Event, Time: now, Data: raw, ID: newEventID()}
	}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.PublishTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.publishBatch(ctx, evs) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("publish %d events: %w", len(evs), err)
		}
		return fmt.Errorf("publish %d events: %w: no answer within %s", len(evs), ErrUnavailable, h.cfg.PublishTimeout)
	}
}

func (h *Hub) publishBatch(ctx context.Context, evs []Event) error {
	if b, ok := h.broker.(batchBroker); ok {
		return b.PublishBatch(ctx, evs)
	}
	for _, ev := range evs {
		if _, err := h.broker.Publish(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}
