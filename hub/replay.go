package hub

import (
	"context"
	"sync"
	"time"
)

// replayBudgets is what each person (an Identity.ID, over all their
// sockets on this instance) may be sent in history replays: a token bucket
// of messages and one of bytes, each holding a minute's worth and refilled
// continuously. The per-socket replay count does not bound this on its
// own: a new socket starts with a full count, and tickets allow 30 new
// sockets a minute, so one guest churning sockets was sent 247.6 MB of
// replays in a minute. A person's budget outlives their sockets, and is
// forgotten only once it is full again (a fresh one is the same).
type replayBudgets struct {
	msgsPerMin  float64
	bytesPerMin float64
	now         func() time.Time

	mu      sync.Mutex
	m       map[string]*replayBudget
	sweepAt time.Time
}

type replayBudget struct {
	msgs, bytes float64
	at          time.Time
}

func newReplayBudgets(msgsPerMin, bytesPerMin int, now func() time.Time) *replayBudgets {
	return &replayBudgets{
		msgsPerMin:  float64(msgsPerMin),
		bytesPerMin: float64(bytesPerMin),
		now:         now,
		m:           make(map[string]*replayBudget),
	}
}

// refillLocked returns who's budget as of now.
func (r *replayBudgets) refillLocked(who string, now time.Time) *replayBudget {
	r.sweepLocked(now)
	b := r.m[who]
	if b == nil {
		b = &replayBudget{msgs: r.msgsPerMin, bytes: r.bytesPerMin, at: now}
		r.m[who] = b
		return b
	}
	if d := now.Sub(b.at).Minutes(); d > 0 {
		b.msgs = min(r.msgsPerMin, b.msgs+d*r.msgsPerMin)
		b.bytes = min(r.bytesPerMin, b.bytes+d*r.bytesPerMin)
		b.at = now
	}
	return b
}

// reserve takes msgs messages from who's budget before a history holding
// at most that many is read, so reads too are bounded by the budget; false
// (nothing taken) when they do not fit or no byte is left.
func (r *replayBudgets) reserve(who string, msgs uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.refillLocked(who, r.now())
	if float64(msgs) > b.msgs || b.bytes < 1 {
		return false
	}
	b.msgs -= float64(msgs)
	return true
}

// settle finishes a reservation of reserved messages for a history read
// that held read messages of size bytes: the messages not read are given
// back (or those read beyond the reservation taken), and the bytes are taken if they fit. When they do not (false), the
// replay is not sent, and the messages read stay spent.
func (r *replayBudgets) settle(who string, reserved, read uint64, bytes int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.refillLocked(who, r.now())
	// Events published while the history was read make it longer than
	// the gap reserved for: they are paid for too.
	b.msgs = min(r.msgsPerMin, b.msgs+float64(reserved)-float64(read))
	if float64(bytes) > b.bytes {
		return false
	}
	b.bytes -= float64(bytes)
	return true
}

// sweepLocked forgets, at most once a minute, the budgets that are full
// again, so the map holds only the people who replayed in the last minute
// or so.
func (r *replayBudgets) sweepLocked(now time.Time) {
	if now.Before(r.sweepAt) {
		return
	}
	r.sweepAt = now.Add(time.Minute)
	for who, b := range r.m {
		if d := now.Sub(b.at).Minutes(); b.msgs+d*r.msgsPerMin >= r.msgsPerMin && b.bytes+d*r.bytesPerMin >= r.bytesPerMin {
			delete(r.m, who)
		}
	}
}

// replayFrom is where a subscription to topic with since starts for id:
// the history after since to replay (replay true), or, when the history no
// longer reaches back to since, since lies in another epoch or ahead of
// the topic, or id's replay budget does not cover it, the topic's latest
// position for a resync (replay false). The topic is followed before
// anything is read, so every event stored after the read arrives live.
func (h *Hub) replayFrom(ctx context.Context, id Identity, topic string, since Position) (hist History, replay bool, err error) {
	if err := h.awaitFollow(ctx, topic); err != nil {
		return History{}, false, err
	}
	// The latest position first: it tells how many events the replay can
	// hold, so an over-budget one is refused before the history is read.
	pos, err := h.broker.Latest(ctx, topic)
	if err != nil {
		return History{}, false, err
	}
	latest := History{Epoch: pos.Epoch, Latest: pos.Seq, Complete: true}
	// A bare seq (protocol 1) is taken to be in the current epoch.
	if (since.Epoch != "" && since.Epoch != pos.Epoch) || since.Seq > pos.Seq {
		return latest, false, nil
	}
	if since.Seq == pos.Seq {
		return latest, true, nil // nothing missed
	}
	gap := pos.Seq - since.Seq
	if !h.replays.reserve(id.ID, gap) {
		h.metrics.replaysOverBudget.Inc()
		return latest, false, nil
	}
	hist, err = h.broker.History(ctx, topic, since.Seq)
	if err != nil {
		h.replays.settle(id.ID, gap, 0, 0)
		return History{}, false, err
	}
	size := 0
	for _, m := range hist.Messages {
		size += len(m.Wire)
	}
	read := uint64(len(hist.Messages))
	if !hist.Complete || (since.Epoch != "" && since.Epoch != hist.Epoch) {
		h.replays.settle(id.ID, gap, read, 0)
		return History{Epoch: hist.Epoch, Latest: hist.Latest, Complete: hist.Complete}, false, nil
	}
	if !h.replays.settle(id.ID, gap, read, size) {
		h.metrics.replaysOverBudget.Inc()
		return History{Epoch: hist.Epoch, Latest: hist.Latest, Complete: true}, false, nil
	}
	return hist, true, nil
}
