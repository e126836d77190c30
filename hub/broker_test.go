package hub

import (
	"context"
	"testing"
	"time"
)

func TestMemoryBrokerHistory(t *testing.T) {
	ctx := context.Background()
	b := NewMemoryBroker(5)
	for i := 0; i < 8; i++ {
		if _, err := b.Publish(ctx, Event{Topic: "menu", Event: "menu.changed", Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		since    uint64
		seqs     []uint64
		complete bool
	}{
		{since: 8, seqs: nil, complete: true},
		{since: 7, seqs: []uint64{8}, complete: true},
		{since: 3, seqs: []uint64{4, 5, 6, 7, 8}, complete: true},
		{since: 2, seqs: []uint64{4, 5, 6, 7, 8}, complete: false},
		{since: 0, seqs: []uint64{4, 5, 6, 7, 8}, complete: false},
		{since: 9, seqs: nil, complete: false},
	}
	for _, tt := range tests {
		h, err := b.History(ctx, "menu", tt.since)
		if err != nil {
			t.Fatal(err)
		}
		var seqs []uint64
		for _, m := range h.Messages {
			seqs = append(seqs, m.Seq)
		}
		if h.Latest != 8 || h.Complete != tt.complete || len(seqs) != len(tt.seqs) {
			t.Errorf("since %d: latest %d complete %v seqs %v, want 8 %v %v", tt.since, h.Latest, h.Complete, seqs, tt.complete, tt.seqs)
			continue
		}
		for i := range seqs {
			if seqs[i] != tt.seqs[i] {
				t.Errorf("since %d: seqs %v, want %v", tt.since, seqs, tt.seqs)
				break
			}
		}
	}
	if p, _ := b.Latest(ctx, "bar"); p.Seq != 0 || p.Epoch == "" {
		t.Fatalf("latest of an unused topic = %+v, want seq 0 in an epoch", p)
	}
}

// A publish repeated with the same ID (a retry after a timeout) is stored
// once, and answers with the first position.
func TestMemoryBrokerPublishIDOnce(t *testing.T) {
	ctx := context.Background()
	b := NewMemoryBroker(2)
	var heard []uint64
	stop, _ := b.Listen(ctx, func(m Message) { heard = append(heard, m.Seq) })
	defer stop()
	ev := Event{Topic: "menu", Event: "menu.changed", Time: time.Now(), ID: "x"}
	first, err := b.Publish(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	again, err := b.Publish(ctx, ev)
	if err != nil || again != first {
		t.Fatalf("repeat answered %+v, %v; want %+v", again, err, first)
	}
	if len(heard) != 1 {
		t.Fatalf("delivered %d times, want once", len(heard))
	}
	// Once the event has left the bounded history, its ID is forgotten too.
	for _, id := range []string{"y", "z"} {
		b.Publish(ctx, Event{Topic: "menu", Event: "menu.changed", Time: time.Now(), ID: id})
	}
	if n := len(b.topic("menu").ids); n != 2 {
		t.Fatalf("%d ids remembered with a history of 2", n)
	}
}
