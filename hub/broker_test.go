package hub

import (
	"context"
	"fmt"
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

// The history of all topics together stays within the broker's budget
// however many events and topics a night brings, the oldest events going
// first; each topic keeps its seq and epoch, and a client asking for what
// left the history is told it is incomplete (a resync), never given a gap.
func TestMemoryBrokerBudget(t *testing.T) {
	ctx := context.Background()
	const budget = 64 << 10
	b := NewMemoryBrokerSize(1000, budget)
	data := []byte(`{"id":"0123456789abcdef01234567","status":"ready"}`)
	one := eventCost(Message{Wire: make([]byte, 0)}, "x") // the fixed part
	var perEvent int64
	const topics, rounds = 200, 50
	for r := range rounds {
		for g := range topics {
			topic := fmt.Sprintf("guest:g%03d", g)
			if _, err := b.Publish(ctx, Event{Topic: topic, Event: "order.ready", Time: time.Now(), Data: data, ID: fmt.Sprintf("e%d-%d", r, g)}); err != nil {
				t.Fatal(err)
			}
			if held := b.HeldBytes(); held > budget {
				t.Fatalf("after %d events: %d bytes held, budget %d", r*topics+g+1, held, budget)
			}
		}
		if perEvent == 0 {
			perEvent = b.HeldBytes() / topics
		}
	}
	if perEvent <= one {
		t.Fatalf("an event counts %d bytes, no more than its fixed part %d", perEvent, one)
	}
	// Full, within about an event of the budget, and every byte counted
	// is held.
	held, n := b.HeldBytes(), b.count.Load()
	var sum, events int64
	for _, tp := range b.topics {
		for i := tp.head; i < len(tp.msgs); i++ {
			sum += eventCost(tp.msgs[i], tp.msgIDs[i])
			events++
		}
	}
	if held < budget-2*perEvent || held != sum || n != events {
		t.Fatalf("%d bytes in %d events counted, %d in %d held; want %d…%d", held, n, sum, events, budget-2*perEvent, budget)
	}
	// The budget's list names no more than it must.
	b.ageMu.Lock()
	pending := len(b.stored) - b.first
	b.ageMu.Unlock()
	if pending != int(n) {
		t.Fatalf("the budget's list has %d entries for %d events held", pending, n)
	}
	// The newest events are the ones kept: the last round entirely.
	last := "guest:g199"
	h, err := b.History(ctx, last, rounds-1)
	if err != nil || !h.Complete || len(h.Messages) != 1 || h.Messages[0].Seq != rounds || h.Latest != rounds {
		t.Fatalf("history of %s after %d: %+v %v, want its last event, complete", last, rounds-1, h, err)
	}
	// The oldest have gone: a reconnecting phone gets a resync, with the
	// topic's seq and epoch as they were.
	p0, _ := b.Latest(ctx, "guest:g000")
	h, err = b.History(ctx, "guest:g000", 1)
	if err != nil || h.Complete || h.Latest != rounds || h.Epoch != p0.Epoch {
		t.Fatalf("history of guest:g000 after 1: complete %v latest %d epoch %q, want incomplete, %d, %q", h.Complete, h.Latest, h.Epoch, rounds, p0.Epoch)
	}
	for i, m := range h.Messages {
		if m.Seq != h.Messages[0].Seq+uint64(i) || (i == len(h.Messages)-1 && m.Seq != rounds) {
			t.Fatalf("history of guest:g000 has a gap or misses the newest: %d at %d", m.Seq, i)
		}
	}
	// A publish repeated within the history is still recognised; the IDs
	// of events that left it are forgotten.
	again, err := b.Publish(ctx, Event{Topic: last, Event: "order.ready", Time: time.Now(), Data: data, ID: fmt.Sprintf("e%d-%d", rounds-1, topics-1)})
	if err != nil || again.Seq != rounds {
		t.Fatalf("repeat answered %+v, %v; want seq %d", again, err, rounds)
	}
	if ids := len(b.topic("guest:g000").ids); ids > rounds/2 {
		t.Fatalf("guest:g000 remembers %d ids with %d events held", ids, len(h.Messages))
	}
}

// Per-topic counts that drop events before the budget is reached leave
// entries in the budget's list; they are cleared, so the list stays about
// as long as the history, however many events pass.
func TestMemoryBrokerBudgetListBounded(t *testing.T) {
	ctx := context.Background()
	b := NewMemoryBrokerSize(2, 1<<30)
	for i := range 20000 {
		if _, err := b.Publish(ctx, Event{Topic: fmt.Sprintf("guest:g%d", i%10), Event: "order.ready", Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if n := b.count.Load(); n != 20 {
		t.Fatalf("%d events held, want 10 topics × 2", n)
	}
	b.ageMu.Lock()
	entries, capacity := len(b.stored)-b.first, cap(b.stored)
	b.ageMu.Unlock()
	if entries > 2*20+1024 || capacity > 4*(2*20+1024)+4096 {
		t.Fatalf("the budget's list has %d entries (capacity %d) for 20 events held", entries, capacity)
	}
}
