package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// BarStore is what the bar's use cases read and write.
type BarStore interface {
	OrderByID(ctx context.Context, id string) (order.Order, error)
	ClaimOrderMove(ctx context.Context, id string, version int, ttl time.Duration) error
	ReleaseOrderMove(ctx context.Context, id string, version int) error
	ReplaceOrder(ctx context.Context, o order.Order, expected int) error
	RecordPrepTime(ctx context.Context, orderID string, startedAt, readyAt time.Time) error
	RecentPrepTimes(ctx context.Context, n int) ([]time.Duration, error)
	BarQueue(ctx context.Context) ([]order.Order, error)
	FinishedOrderCounts(ctx context.Context) (map[order.Status]int, error)
	OrderCounts(ctx context.Context) (map[order.Status]int, error)
	ListOrders(ctx context.Context, f store.OrderFilter) ([]order.Order, int, error)
}

// OrderViews is this instance's read model of the unfinished orders
// (order.View), kept by events and corrected from the store.
type OrderViews interface {
	// View returns the view, built on first use.
	View(ctx context.Context) (*order.View, error)
	// Apply takes in a change this instance made, before its events go
	// out, so the next read here already sees it.
	Apply(o order.Order)
	// Corrected takes in a full read of the unfinished orders begun at
	// started.
	Corrected(orders []order.Order, started time.Time)
}

// Who is the person a use case acts for, as orders and their history
// name them.
type Who struct {
	GuestID string
	Name    string
}

// BarDeps is what NewBar builds the bar from.
type BarDeps struct {
	Store BarStore
	Views OrderViews
	// Publish sends the live events; nil sends none.
	Publish LivePublisher
	// OnOrder hears every change of an order after the bar and the
	// guest's phone were told (the pick-up board's event); nil does
	// nothing.
	OnOrder func(ctx context.Context, o order.Order)
	Logger  *slog.Logger
}

// Bar is the bartenders' side of the orders: the queue, the moves of an
// order (start, ready, serve, recall, cancel) and the counts the host
// watches.
type Bar struct {
	store   BarStore
	views   OrderViews
	publish LivePublisher
	onOrder func(ctx context.Context, o order.Order)
	log     *slog.Logger

	prep prepCache

	summaryRunning atomic.Bool
	summaryDirty   atomic.Bool

	// finished caches the served and cancelled totals: counting them reads
	// the whole archive, so it is refreshed now and then and moved on by
	// this instance's own finishing moves in between.
	finishedMu sync.Mutex
	finished   map[order.Status]int
	finishedAt time.Time
}

// NewBar returns the bar of d.Store.
func NewBar(d BarDeps) *Bar {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	return &Bar{store: d.Store, views: d.Views, publish: d.Publish, onOrder: d.OnOrder, log: d.Logger}
}

// Queue is the bartenders' list of unfinished orders.
type Queue struct {
	Orders []order.Order
	Counts OrderSummary
	// TypicalPrep is the median of recent preparation times, the basis
	// of every guest's estimate.
	TypicalPrep time.Duration
}

// Queue reads the unfinished orders, oldest first, and the counts.
func (b *Bar) Queue(ctx context.Context) (Queue, error) {
	started := time.Now()
	orders, err := b.store.BarQueue(ctx)
	if err != nil {
		return Queue{}, err
	}
	// A full read of the unfinished orders: it corrects the order view.
	b.views.Corrected(orders, started)
	counts, err := b.Summary(ctx)
	if err != nil {
		return Queue{}, err
	}
	for i := range orders {
		orders[i] = Tidy(orders[i])
	}
	return Queue{Orders: orders, Counts: counts, TypicalPrep: b.TypicalPrep(ctx)}, nil
}

// OrderList is a page of every order, with the counts.
type OrderList struct {
	Orders []order.Order
	Total  int
	Counts OrderSummary
}

// Orders lists every order matching f, newest first, for the host.
func (b *Bar) Orders(ctx context.Context, f store.OrderFilter) (OrderList, error) {
	orders, total, err := b.store.ListOrders(ctx, f)
	if err != nil {
		return OrderList{}, err
	}
	counts, err := b.store.OrderCounts(ctx)
	if err != nil {
		return OrderList{}, err
	}
	for i := range orders {
		orders[i] = Tidy(orders[i])
	}
	return OrderList{Orders: orders, Total: total, Counts: summaryOf(counts)}, nil
}

var errOrderChanged = NewError(Conflict, "order_changed", "someone else changed this order a moment ago; refresh and try again")

// Move moves order id by action for the bartender by. A version other
// than zero is the one the bartender's screen showed: an order that moved
// on since is a Conflict. Two bartenders pressing the same button at
// once: the claim on the order's version lets exactly one through (one
// event); the other gets a Conflict.
func (b *Bar) Move(ctx context.Context, by Who, id string, action order.Action, reason string, version int) (order.Order, error) {
	// A guest is waiting on this move: its writes go first on the
	// embedded database.
	uctx := store.Urgent(ctx)
	o, err := b.store.OrderByID(uctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return order.Order{}, NewError(NotFound, "not_found", "there is no such order")
		}
		return order.Order{}, err
	}
	if version != 0 && version != o.Version {
		return order.Order{}, NewError(Conflict, "order_changed", "this order changed since your screen showed it (now "+string(o.Status)+"); refresh")
	}
	to, err := order.Next(o.Status, action)
	if err != nil {
		return order.Order{}, transitionError(err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	next := o
	next.Status = to
	switch action {
	case order.Start:
		next.StartedAt = &now
	case order.MarkReady:
		next.ReadyAt = &now
	case order.Serve:
		next.ServedAt = &now
	case order.Recall:
		next.ReadyAt = nil
	}
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: to, At: now, ActorID: by.GuestID, ActorName: by.Name, Reason: reason})
	next, err = b.move(uctx, o, next)
	if err != nil {
		return order.Order{}, err
	}
	event := live.OrderEvent(to)
	if action == order.Recall {
		// Back to preparing, but the phone should know why its "ready"
		// went away.
		event = live.EventOrderUpdated
	}
	b.orderEvent(uctx, next, event)
	if action == order.MarkReady && next.StartedAt != nil {
		// After the event: the guest hears "ready" one write sooner. The
		// estimate learns from every drink made; a lost sample only makes
		// it a little less sharp.
		if err := b.store.RecordPrepTime(context.WithoutCancel(ctx), next.ID, *next.StartedAt, now); err != nil {
			b.log.WarnContext(uctx, "record preparation time", "err", err)
		}
	}
	return Tidy(next), nil
}

// transitionError makes a move the order's state does not allow a
// Conflict.
func transitionError(err error) error {
	var te *order.TransitionError
	if errors.As(err, &te) {
		return NewError(Conflict, "illegal_transition", te.Error())
	}
	return err
}

// orderClaimTTL outlives any transition's write by far, and is short so
// that a claim left by a writer that crashed mid-move holds that order
// back for a minute at most. Claims are not released after the write: the
// sweeper removes them, and once the order has moved on its old version's
// claim is never asked for again (a late writer is refused by the claim,
// or by the version filter).
const orderClaimTTL = time.Minute

// move is the compare-and-set every change of an order goes through:
// claim the move from the order's version — only one writer in the whole
// deployment gets it (store.ClaimOrderMove) — then replace the order
// filtered on that version.
func (b *Bar) move(ctx context.Context, o order.Order, next order.Order) (order.Order, error) {
	if err := b.store.ClaimOrderMove(ctx, o.ID, o.Version, orderClaimTTL); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return order.Order{}, errOrderChanged
		}
		return order.Order{}, err
	}
	next.Version = o.Version + 1
	next.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
	if err := b.store.ReplaceOrder(ctx, next, o.Version); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return order.Order{}, errOrderChanged
		}
		// The move did not happen: free the version for the next try.
		rctx := context.WithoutCancel(ctx)
		if rerr := b.store.ReleaseOrderMove(rctx, o.ID, o.Version); rerr != nil {
			b.log.WarnContext(ctx, "release order claim", "order", o.ID, "version", o.Version, "err", rerr)
		}
		return order.Order{}, err
	}
	if next.Status.Final() {
		b.finishedOne(next.Status)
	}
	return next, nil
}

// orderEvent tells the bar and the guest's phone, and counts for the host.
func (b *Bar) orderEvent(ctx context.Context, o order.Order, event string) {
	o = Tidy(o)
	// This instance's view first: the answer to this call, and the next
	// read here, must already see the change.
	b.views.Apply(o)
	publishLive(ctx, b.publish, b.log, live.TopicBar, event, o)
	publishLive(ctx, b.publish, b.log, live.GuestTopic(o.GuestID), event, o)
	if b.onOrder != nil {
		b.onOrder(ctx, o)
	}
	b.summaryChanged()
}

// Tidy gives o empty lists for none, as the API shows them.
func Tidy(o order.Order) order.Order {
	if o.Items == nil {
		o.Items = []order.Item{}
	}
	if o.History == nil {
		o.History = []order.Transition{}
	}
	return o
}

// prepCache keeps the typical preparation time for a few seconds: every
// queue estimate needs it and it changes slowly.
type prepCache struct {
	mu  sync.Mutex
	val time.Duration
	at  time.Time
}

const prepSample = 20

// TypicalPrep is the median of recent preparation times.
func (b *Bar) TypicalPrep(ctx context.Context) time.Duration {
	c := &b.prep
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < 10*time.Second {
		return c.val
	}
	samples, err := b.store.RecentPrepTimes(ctx, prepSample)
	if err != nil {
		b.log.WarnContext(ctx, "load preparation times", "err", err)
		if c.val == 0 {
			return order.DefaultPrep
		}
		return c.val
	}
	c.val, c.at = order.TypicalPrep(samples), time.Now()
	return c.val
}

// summaryInterval spaces the host's order counts: each is a pass over all
// orders, and a dashboard needs no more than one a second.
const summaryInterval = time.Second

// summaryChanged sends the admin dashboard fresh order counts. Bursts of
// changes are coalesced into one count a second at most, off the
// caller's path.
func (b *Bar) summaryChanged() {
	b.summaryDirty.Store(true)
	if !b.summaryRunning.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			for b.summaryDirty.Swap(false) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				sum, err := b.Summary(ctx)
				if err != nil {
					b.log.Warn("count orders", "err", err)
				} else {
					publishLive(ctx, b.publish, b.log, live.TopicAdmin, live.EventOrdersSummary, sum)
				}
				cancel()
				time.Sleep(summaryInterval)
			}
			b.summaryRunning.Store(false)
			// A change that arrived after the last count but before the
			// flag dropped would otherwise wait for the next one.
			if !b.summaryDirty.Load() || !b.summaryRunning.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// finishedTTL is how stale the served and cancelled totals may get from
// other instances' moves.
const finishedTTL = 30 * time.Second

// Summary counts the orders by status: the unfinished ones from the
// order view, the finished ones from a cache refreshed every finishedTTL.
func (b *Bar) Summary(ctx context.Context) (OrderSummary, error) {
	view, err := b.views.View(ctx)
	if err != nil {
		return OrderSummary{}, err
	}
	open := view.Counts()
	b.finishedMu.Lock()
	defer b.finishedMu.Unlock()
	if b.finished == nil || time.Since(b.finishedAt) > finishedTTL {
		done, err := b.store.FinishedOrderCounts(ctx)
		if err != nil {
			return OrderSummary{}, err
		}
		b.finished, b.finishedAt = done, time.Now()
	}
	open[order.Served], open[order.Cancelled] = b.finished[order.Served], b.finished[order.Cancelled]
	return summaryOf(open), nil
}

// finishedOne counts this instance's own finishing move into the cache.
func (b *Bar) finishedOne(st order.Status) {
	b.finishedMu.Lock()
	if b.finished != nil {
		b.finished[st]++
	}
	b.finishedMu.Unlock()
}

// OrderSummary is the orders counted by status.
type OrderSummary struct {
	Queued    int       `json:"queued"`
	Preparing int       `json:"preparing"`
	Ready     int       `json:"ready"`
	Served    int       `json:"served"`
	Cancelled int       `json:"cancelled"`
	Open      int       `json:"open"`
	Total     int       `json:"total"`
	At        time.Time `json:"at"`
}

func summaryOf(c map[order.Status]int) OrderSummary {
	s := OrderSummary{Queued: c[order.Queued], Preparing: c[order.Preparing], Ready: c[order.Ready], Served: c[order.Served], Cancelled: c[order.Cancelled], At: time.Now().UTC()}
	s.Open = s.Queued + s.Preparing + s.Ready
	s.Total = s.Open + s.Served + s.Cancelled
	return s
}
