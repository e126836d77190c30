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
	if n, _ := b.Latest(ctx, "bar"); n != 0 {
		t.Fatalf("latest of an unused topic = %d", n)
	}
}
