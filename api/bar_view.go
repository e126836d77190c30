package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// orderViews keeps this instance's order.View: the unfinished orders,
// from which queue positions and the open-order counts are read without a
// query. It is
//   - rebuilt from the store on first use (a read of the open orders);
//   - kept by this instance's own writes, applied before their events go
//     out, so a guest reads their own order at once;
//   - kept by the order events of every instance on the bar topic;
//   - corrected from the store by the maintenance loop every refresh,
//     within a second when the bar topic's sequence shows a gap (an event
//     this instance never heard), and by every read of the bar's queue.
//
// What a stale view can get wrong is an estimate or a count for a moment;
// the open-order limit does not trust it beyond "this order is finished",
// which never stops being true (see app.Orders' openOrders).
type orderViews struct {
	view    *order.View
	store   *store.Store
	log     *slog.Logger
	refresh time.Duration

	buildMu sync.Mutex
	built   atomic.Bool
	// fixedAt is when the last correction's read began (UnixNano).
	fixedAt atomic.Int64
	doubt   atomic.Bool

	// The bar topic's last position heard, touched only by the hub's one
	// listener goroutine.
	epoch string
	seq   uint64
}

// defaultOrderViewRefresh spaces the corrections: each reads every open
// order once, which a busy bar's few dozen make cheap.
const defaultOrderViewRefresh = 10 * time.Second

func newOrderViews(st *store.Store, log *slog.Logger, refresh time.Duration) *orderViews {
	if refresh <= 0 {
		refresh = defaultOrderViewRefresh
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &orderViews{view: order.NewView(), store: st, log: log, refresh: refresh}
}

// orderEventData is what the view needs of an order event's data.
type orderEventData struct {
	ID        string       `json:"id"`
	GuestID   string       `json:"guestId"`
	Status    order.Status `json:"status"`
	Version   int          `json:"version"`
	CreatedAt time.Time    `json:"createdAt"`
	StartedAt *time.Time   `json:"startedAt"`
}

// onEvent hears every event on the bar topic, from every instance
// (this one's included), one at a time and in order.
func (v *orderViews) onEvent(ev hub.Event) {
	if ev.Epoch != v.epoch || (v.seq != 0 && ev.Seq != v.seq+1) {
		// A new epoch (the broker lost its history) or a gap: something
		// may have been missed. The first event heard says nothing.
		if v.seq != 0 || v.epoch != "" {
			v.doubt.Store(true)
		}
	}
	v.epoch, v.seq = ev.Epoch, ev.Seq
	if !strings.HasPrefix(ev.Event, "order.") {
		return
	}
	var d orderEventData
	if err := json.Unmarshal(ev.Data, &d); err != nil || d.ID == "" || d.Version == 0 {
		v.doubt.Store(true)
		return
	}
	v.view.Apply(order.Order{ID: d.ID, GuestID: d.GuestID, Status: d.Status, Version: d.Version, CreatedAt: d.CreatedAt, StartedAt: d.StartedAt})
}

// get returns the view, built.
func (v *orderViews) get(ctx context.Context) (*order.View, error) {
	if !v.built.Load() {
		v.buildMu.Lock()
		defer v.buildMu.Unlock()
		if !v.built.Load() {
			if err := v.correct(ctx); err != nil {
				return nil, err
			}
			v.built.Store(true)
			return v.view, nil
		}
	}
	return v.view, nil
}

// fixCheck is how often the maintenance loop asks whether a correction is
// due: at most a second after a gap shows.
func (v *orderViews) fixCheck() time.Duration { return min(v.refresh, time.Second) }

// fix corrects the view when a correction is due (every refresh) or a gap
// in the bar topic's sequence put it in doubt; the maintenance loop calls
// it every fixCheck. A view not built yet is left alone: its first use
// builds it.
func (v *orderViews) fix(ctx context.Context) error {
	if !v.built.Load() {
		return nil
	}
	due := time.Since(time.Unix(0, v.fixedAt.Load())) >= v.refresh
	if !due && !v.doubt.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return v.correct(ctx)
}

// correct reads the unfinished orders and makes the view agree.
func (v *orderViews) correct(ctx context.Context) error {
	v.doubt.Store(false)
	started := time.Now()
	orders, err := v.store.BarQueue(ctx)
	if err != nil {
		v.doubt.Store(true)
		return err
	}
	v.corrected(orders, started)
	return nil
}

// corrected takes in a full read of the unfinished orders begun at
// started (a correction's, or the bar queue's).
func (v *orderViews) corrected(orders []order.Order, started time.Time) {
	v.fixedAt.Store(started.UnixNano())
	if changed, removed := v.view.Correct(orders, started); (changed > 0 || removed > 0) && v.built.Load() {
		v.log.Debug("order view corrected", "changed", changed, "removed", removed)
	}
}
