package hub

import (
	"context"
	"encoding/json"
	"testing"
)

// PublishMany delivers each event to its topic's subscribers on every
// instance, in order within a topic, and stores each in its topic's
// history, as separate Publish calls would; through Redis it is one
// pipelined round trip (the script not yet cached included).
func TestPublishMany(t *testing.T) {
	for name, brokers := range map[string]brokerPair{"memory": memoryBrokers, "redis": redisBrokers} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, brokers, 10, Config{})
			admin := e.dial(1, Identity{ID: "a1", Role: roleAdmin, Name: "Host"})
			admin.subscribe("guest:g1", nil)
			admin.subscribe("guest:g2", nil)
			g2 := e.dial(0, guest2)
			g2.subscribe("guest:g2", nil)
			if name == "redis" {
				// The script must be loaded on the pipelined path too.
				rb := e.hubs[0].broker.(*RedisBroker)
				rb.rdb.ScriptFlush(context.Background())
			}
			err := e.hubs[0].PublishMany(context.Background(), []Outgoing{
				{Topic: "guest:g1", Event: "announcement", Data: map[string]int{"n": 1}},
				{Topic: "guest:g2", Event: "announcement", Data: map[string]int{"n": 2}},
				{Topic: "guest:g1", Event: "announcement", Data: map[string]int{"n": 3}},
			})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]int{}
			for range 3 {
				m := admin.read()
				var d struct{ N int }
				json.Unmarshal(m.Data, &d)
				got[m.Topic] = append(got[m.Topic], d.N)
				if m.Type != "event" || m.Seq != uint64(len(got[m.Topic])) {
					t.Fatalf("got %+v, want event #%d of %s", m, len(got[m.Topic]), m.Topic)
				}
			}
			if len(got["guest:g1"]) != 2 || got["guest:g1"][0] != 1 || got["guest:g1"][1] != 3 || len(got["guest:g2"]) != 1 {
				t.Fatalf("admin got %v, want g1 [1 3] and g2 [2]", got)
			}
			g2.expectEvent("guest:g2", 1)
			g2.expectNothingMore()
			h, err := e.hubs[1].broker.History(context.Background(), "guest:g1", 0)
			if err != nil || len(h.Messages) != 2 || h.Latest != 2 {
				t.Fatalf("history of guest:g1: %+v, %v; want 2 events", h, err)
			}
			if err := e.hubs[0].PublishMany(context.Background(), []Outgoing{{Topic: "nope", Event: "x"}}); err == nil {
				t.Fatal("an unknown topic was published")
			}
		})
	}
}
