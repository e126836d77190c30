package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/order"
)

// A guest's own orders (the phone's "my orders", pacing, the AI's view of
// past drinks, the open-order limit) are found through a list of the
// guest's order ids, oldest first, and then one _id look-up per order.
// Filtering the orders by guestId instead reads every order of the night
// on the embedded database, which filters nothing but _id in SQL: 271 ms
// for one guest's list at 2,500 orders, against a few ms this way
// (BenchmarkOrdersByGuest2500).
//
// On a shared database the list is one document per guest, which every
// instance updates. On the embedded database every writer is in this
// process (moveclaims.go says why), so the newest part of each list is
// kept in memory instead, built from the orders and the archive at first
// use and kept by CreateOrder: a placement writes the order alone, where
// the document cost a second fsynced write each. The older part, finished
// orders only, goes to the guest's document, guestSaveBatch ids in one
// write once the memory holds that many more than guestKeep: a list held
// whole would grow with every order of the night (every guest's whole
// history, a few MB an hour at a busy bar), and a guest's served orders
// are read from the database anyway.
const collGuestOrders = "guestorders"

// What stays of a guest's list in memory on the embedded database: every
// order that may be unfinished, and the guestKeep newest finished ones; a
// finished order older than those goes to the guest's document, with the
// others due, once guestSaveBatch are due. So a list holds at most
// guestKeep+guestSaveBatch-1 finished orders, besides those behind an
// older unfinished one (the list's front goes to the document in order,
// and waits for the bar to finish its oldest order).
const (
	guestKeep      = 4
	guestSaveBatch = 8
)

type guestOrdersDoc struct {
	GuestID string   `bson:"_id"`
	Orders  []string `bson:"orders"`
}

// guestOrderLists are the embedded database's lists of each guest's
// order ids, in order of creation.
type guestOrderLists struct {
	mu     sync.Mutex
	loaded bool
	lists  map[string]*guestList // guestId → the list's newest part
}

// guestList is what memory holds of one guest's list.
type guestList struct {
	// orders are the list's newest part, oldest first.
	orders []listedOrder
	// saved: the list's older part is on the guest's document; every
	// order on it is finished.
	saved bool
	// saving is how many of the first orders are being written to the
	// document; they stay here until the write has succeeded.
	saving int
}

type listedOrder struct {
	id      string
	created time.Time
	// finished: served or cancelled, archived and gone from the open
	// orders, so the open-order limit need not read it.
	finished bool
}

// compare orders the lists: by creation, ids breaking ties.
func (a listedOrder) compare(b listedOrder) int {
	return cmp.Or(a.created.Compare(b.created), strings.Compare(a.id, b.id))
}

// idsOf lists the orders' ids.
func idsOf(list []listedOrder) []string {
	out := make([]string, len(list))
	for i, o := range list {
		out[i] = o.id
	}
	return out
}

// loadLocked builds the lists once from every stored order and the
// guests' documents; the caller holds l.mu. Nothing is inserted
// meanwhile: CreateOrder lists an order, which waits for this, before it
// stores it. A finished order already on its guest's document stays
// there; any other older than what memory keeps is saved to it now (the
// first start after an upgrade, or a save lost to a crash), so memory
// holds no more than it would have had the night run in this process.
func (l *guestOrderLists) loadLocked(ctx context.Context, s *Store) error {
	if l.loaded {
		return nil
	}
	all, err := s.readGuestOrderLists(ctx)
	if err != nil {
		return err
	}
	onDocs, err := s.readGuestOrderDocs(ctx)
	if err != nil {
		return err
	}
	lists := make(map[string]*guestList, len(all))
	for guestID, list := range all {
		saved := onDocs[guestID]
		g := &guestList{saved: len(saved) > 0, orders: make([]listedOrder, 0, len(list))}
		for _, o := range list {
			if !o.finished || !saved[o.id] {
				g.orders = append(g.orders, o)
			}
		}
		if n := g.dueLocked(); n > 0 {
			if err := s.listGuestOrders(ctx, guestID, idsOf(g.orders[:n])); err != nil {
				return fmt.Errorf("save the order list of guest %s: %w", guestID, err)
			}
			g.orders, g.saved = slices.Delete(g.orders, 0, n), true
		}
		g.orders = slices.Clip(g.orders)
		lists[guestID] = g
	}
	for guestID := range onDocs {
		if lists[guestID] == nil {
			lists[guestID] = &guestList{saved: true} // ids whose orders were never stored
		}
	}
	l.lists, l.loaded = lists, true
	return nil
}

// dueLocked is how many of the list's first orders are due to go to the
// guest's document: the finished ones at its front, leaving guestKeep
// orders, once they are guestSaveBatch or more.
func (g *guestList) dueLocked() int {
	n := 0
	for n < len(g.orders)-guestKeep && g.orders[n].finished {
		n++
	}
	if n < guestSaveBatch {
		return 0
	}
	return n
}

// readGuestOrderLists reads every stored order's guest and creation and
// returns each guest's orders, oldest first. The open orders are read
// before the archive: an order moving to the archive meanwhile is archived
// before it leaves the open orders (ReplaceOrder), so it is in one of the
// two reads, never missed. An order found in the archive only is
// finished; one found in both (a crash between archiving and removal,
// which ReconcileOrders repairs) is not yet, as the open-order limit
// counts it until then.
func (s *Store) readGuestOrderLists(ctx context.Context) (map[string][]listedOrder, error) {
	seen := map[string]bool{}
	lists := map[string][]listedOrder{}
	for _, coll := range []string{collOrders, collArchive} {
		cur, err := s.coll(coll).Find(ctx, bson.D{},
			options.Find().SetProjection(bson.D{{Key: "guestId", Value: 1}, {Key: "createdAt", Value: 1}}))
		if err != nil {
			return nil, fmt.Errorf("build the guests' order lists: %w", err)
		}
		var docs []struct {
			ID        string    `bson:"_id"`
			GuestID   string    `bson:"guestId"`
			CreatedAt time.Time `bson:"createdAt"`
		}
		if err := cur.All(ctx, &docs); err != nil {
			return nil, fmt.Errorf("build the guests' order lists: %w", err)
		}
		for _, d := range docs {
			if seen[d.ID] {
				continue // in both: a crash between archiving and removal (ReconcileOrders)
			}
			seen[d.ID] = true
			lists[d.GuestID] = append(lists[d.GuestID], listedOrder{id: d.ID, created: d.CreatedAt, finished: coll == collArchive})
		}
	}
	for _, list := range lists {
		slices.SortFunc(list, listedOrder.compare)
	}
	return lists, nil
}

// readGuestOrderDocs reads every guest's list document: the ids on each.
func (s *Store) readGuestOrderDocs(ctx context.Context) (map[string]map[string]bool, error) {
	cur, err := s.coll(collGuestOrders).Find(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("read the guests' order lists: %w", err)
	}
	var docs []guestOrdersDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read the guests' order lists: %w", err)
	}
	out := make(map[string]map[string]bool, len(docs))
	for _, d := range docs {
		if len(d.Orders) == 0 {
			continue
		}
		ids := make(map[string]bool, len(d.Orders))
		for _, id := range d.Orders {
			ids[id] = true
		}
		out[d.GuestID] = ids
	}
	return out, nil
}

// add lists an order of guestID, in its place by creation (the end, but
// for orders stored out of order; never before orders being saved). An id
// listed already stays where it is, as $addToSet leaves it on a shared
// database.
func (l *guestOrderLists) add(ctx context.Context, s *Store, guestID string, o listedOrder) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.loadLocked(ctx, s); err != nil {
		return err
	}
	g := l.lists[guestID]
	if g == nil {
		g = &guestList{}
		l.lists[guestID] = g
	}
	if slices.ContainsFunc(g.orders, func(x listedOrder) bool { return x.id == o.id }) {
		return nil
	}
	i := len(g.orders)
	for i > g.saving && o.compare(g.orders[i-1]) < 0 {
		i--
	}
	g.orders = slices.Insert(g.orders, i, o)
	return nil
}

// finish marks guestID's order id finished and, when the guest's list has
// enough finished orders to spare, writes the oldest to the guest's
// document and lets them go from memory. A failed write leaves them here,
// for the next finish to try again.
func (l *guestOrderLists) finish(ctx context.Context, s *Store, guestID, id string) error {
	l.mu.Lock()
	if err := l.loadLocked(ctx, s); err != nil {
		l.mu.Unlock()
		return err
	}
	g := l.lists[guestID]
	if g == nil {
		l.mu.Unlock()
		return nil
	}
	if i := slices.IndexFunc(g.orders, func(x listedOrder) bool { return x.id == id }); i >= 0 {
		g.orders[i].finished = true
	}
	n := 0
	if g.saving == 0 {
		n = g.dueLocked()
	}
	if n == 0 {
		l.mu.Unlock()
		return nil
	}
	g.saving = n
	ids := idsOf(g.orders[:n])
	l.mu.Unlock()

	err := s.listGuestOrders(ctx, guestID, ids)

	l.mu.Lock()
	defer l.mu.Unlock()
	g.saving = 0
	if err != nil {
		return fmt.Errorf("save the order list of guest %s: %w", guestID, err)
	}
	// Nothing is inserted before orders being saved (add), so they are
	// still the first n.
	clear(g.orders[:n])
	g.orders = slices.Clip(g.orders[n:])
	g.saved = true
	return nil
}

// recent returns guestID's orders held in memory, oldest first, and
// whether the guest has older ones on the document.
func (l *guestOrderLists) recent(ctx context.Context, s *Store, guestID string) ([]string, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.loadLocked(ctx, s); err != nil {
		return nil, false, err
	}
	g := l.lists[guestID]
	if g == nil {
		return nil, false, nil
	}
	var ids []string
	if len(g.orders) > 0 {
		ids = idsOf(g.orders)
	}
	return ids, g.saved, nil
}

// finished reports whether guestID's order id is known here to be
// finished.
func (l *guestOrderLists) finished(guestID, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.lists[guestID]
	if g == nil {
		return false
	}
	i := slices.IndexFunc(g.orders, func(x listedOrder) bool { return x.id == id })
	return i >= 0 && g.orders[i].finished
}

// noteGuestOrder adds o to its guest's list. CreateOrder calls it before
// it stores the order, so no stored order is ever missing from its
// guest's list; an id whose order was never stored is skipped on reading
// (and, on the embedded database, gone after a restart).
func (s *Store) noteGuestOrder(ctx context.Context, o *order.Order) error {
	if s.single != nil {
		err := s.single.guestOrders.add(ctx, s, o.GuestID, listedOrder{id: o.ID, created: o.CreatedAt, finished: o.Status.Final()})
		if err != nil {
			return fmt.Errorf("list order %s for guest %s: %w", o.ID, o.GuestID, err)
		}
		return nil
	}
	if err := s.listGuestOrders(ctx, o.GuestID, []string{o.ID}); err != nil {
		return fmt.Errorf("list order %s for guest %s: %w", o.ID, o.GuestID, err)
	}
	return nil
}

// noteFinished tells the embedded database's lists that o has been
// archived and removed from the open orders. Failing to save part of a
// list to its document fails nothing: the orders stay in memory until
// the next try.
func (s *Store) noteFinished(ctx context.Context, o order.Order) {
	if s.single == nil {
		return
	}
	if err := s.single.guestOrders.finish(ctx, s, o.GuestID, o.ID); err != nil {
		s.log.WarnContext(ctx, "keep a guest's order list", "guest", o.GuestID, "err", err)
	}
}

// listGuestOrders adds ids to guestID's shared list document, in order,
// leaving an id listed already where it is.
func (s *Store) listGuestOrders(ctx context.Context, guestID string, ids []string) error {
	return s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collGuestOrders).UpdateOne(ctx, bson.D{{Key: "_id", Value: guestID}},
			bson.D{{Key: "$addToSet", Value: bson.D{{Key: "orders", Value: bson.D{{Key: "$each", Value: ids}}}}}},
			options.UpdateOne().SetUpsert(true))
		return err
	})
}

// SaveGuestOrderLists writes every guest's order list, built from the
// orders and the archive, to the shared documents, and returns how many
// guests have orders. A data folder served by one process keeps its lists
// in memory only, so "barhub db" runs this before several instances share
// the folder: without it their "my orders", pacing and open-order limit
// would miss the orders placed before. Ids already on a document stay
// where they are ($addToSet, as a placement adds them), so it is safe
// while instances place orders.
func (s *Store) SaveGuestOrderLists(ctx context.Context) (int, error) {
	lists, err := s.readGuestOrderLists(ctx)
	if err != nil {
		return 0, err
	}
	for guestID, list := range lists {
		if err := s.listGuestOrders(ctx, guestID, idsOf(list)); err != nil {
			return 0, fmt.Errorf("save the order list of guest %s: %w", guestID, err)
		}
	}
	return len(lists), nil
}

// GuestOrderIDs returns the ids on guestID's order list, oldest first.
// CreateOrder lists an id before it stores the order, so every stored
// order of the guest is on it (an id whose order was never stored may be
// too).
func (s *Store) GuestOrderIDs(ctx context.Context, guestID string) ([]string, error) {
	var ids []string
	err := s.eachGuestOrderID(ctx, guestID, func(id string) (bool, error) {
		ids = append(ids, id)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	slices.Reverse(ids)
	return ids, nil
}

// GuestRecentOrderIDs returns what a placement reads of guestID's order
// list: the newest ids, oldest first, every order that may be unfinished
// among them, and whether the guest has older orders, all finished, not
// among them. On a shared database that is the whole list; on the
// embedded database, what memory holds of it, without a read.
func (s *Store) GuestRecentOrderIDs(ctx context.Context, guestID string) (ids []string, older bool, err error) {
	if s.single != nil {
		ids, older, err = s.single.guestOrders.recent(ctx, s, guestID)
		if err != nil {
			return nil, false, fmt.Errorf("order list of guest %s: %w", guestID, err)
		}
		return ids, older, nil
	}
	ids, err = s.savedGuestOrderIDs(ctx, guestID)
	return ids, false, err
}

// savedGuestOrderIDs reads guestID's list document.
func (s *Store) savedGuestOrderIDs(ctx context.Context, guestID string) ([]string, error) {
	doc, err := findByID[guestOrdersDoc](ctx, s, collGuestOrders, "order list of guest", guestID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return doc.Orders, nil
}

// eachGuestOrderID calls fn with the ids on guestID's order list, newest
// first, until fn says stop: on the embedded database those in memory,
// then, only when fn wants more, those on the guest's document.
func (s *Store) eachGuestOrderID(ctx context.Context, guestID string, fn func(id string) (more bool, err error)) error {
	ids, older, err := s.GuestRecentOrderIDs(ctx, guestID)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range slices.Backward(ids) {
		seen[id] = true
		if more, err := fn(id); err != nil || !more {
			return err
		}
	}
	if !older {
		return nil
	}
	saved, err := s.savedGuestOrderIDs(ctx, guestID)
	if err != nil {
		return err
	}
	for _, id := range slices.Backward(saved) {
		if seen[id] {
			continue
		}
		if more, err := fn(id); err != nil || !more {
			return err
		}
	}
	return nil
}

// guestOrder loads one of guestID's orders by id: the archived copy when
// there is one (finished, so the newest), else the open one. ok is false
// for an id that was never stored or belongs to someone else.
func (s *Store) guestOrder(ctx context.Context, guestID, id string) (o order.Order, ok bool, err error) {
	o, err = s.findOrder(ctx, collArchive, id)
	if errors.Is(err, ErrNotFound) {
		o, err = s.findOrder(ctx, collOrders, id)
	}
	if errors.Is(err, ErrNotFound) {
		return o, false, nil
	}
	if err != nil {
		return o, false, err
	}
	return o, o.GuestID == guestID, nil
}

// OrdersByGuest lists a guest's orders, newest first, at most limit (0:
// all).
func (s *Store) OrdersByGuest(ctx context.Context, guestID string, limit int) ([]order.Order, error) {
	out := []order.Order{}
	err := s.eachGuestOrderID(ctx, guestID, func(id string) (bool, error) {
		o, ok, err := s.guestOrder(ctx, guestID, id)
		if err != nil {
			return false, err
		}
		if ok {
			out = append(out, o)
		}
		return limit <= 0 || len(out) < limit, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list orders of %s: %w", guestID, err)
	}
	newestFirst(out)
	return out, nil
}

// GuestOrdersSince lists a guest's orders created at or after since,
// oldest first, for pacing. The list is in order of creation, so the walk
// back from the newest stops at the first older order.
func (s *Store) GuestOrdersSince(ctx context.Context, guestID string, since time.Time) ([]order.Order, error) {
	var out []order.Order
	err := s.eachGuestOrderID(ctx, guestID, func(id string) (bool, error) {
		o, ok, err := s.guestOrder(ctx, guestID, id)
		if err != nil || !ok {
			return err == nil, err
		}
		if o.CreatedAt.Before(since) {
			return false, nil
		}
		out = append(out, o)
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list recent orders of %s: %w", guestID, err)
	}
	slices.Reverse(out)
	return out, nil
}

// maxDoubtReads is how many orders in doubt a shared database's open-order
// count reads one by one; more are looked for in one query.
const maxDoubtReads = 4

// GuestUnfinishedOrders reads, each by _id, the orders of ids (guestID's
// list, GuestRecentOrderIDs) that finished does not name as served or
// cancelled, and returns those the bar still has (queued, preparing,
// ready) and the ids found finished. It is what the open-order limit
// counts: one read per order not known to be finished, where a count by
// guestId reads every open order on the embedded database. An id whose
// order is in neither collection (its placement failed, or is still being
// stored) is in neither result. On the embedded database an order this
// process saw finish needs no read either (guestOrderLists). On a shared
// database, whose list holds the guest's whole night, more than a few
// orders in doubt are looked for among the open orders in one query (by
// _id, through its index on MongoDB), and none is reported done.
func (s *Store) GuestUnfinishedOrders(ctx context.Context, guestID string, ids []string, finished func(id string) bool) (unfinished []order.Order, done []string, err error) {
	var doubt []string
	for _, id := range ids {
		switch {
		case finished != nil && finished(id):
		case s.single != nil && s.single.guestOrders.finished(guestID, id):
			done = append(done, id)
		default:
			doubt = append(doubt, id)
		}
	}
	if s.single == nil && len(doubt) > maxDoubtReads {
		open, err := s.findOrders(ctx, collOrders, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: doubt}}}}, options.Find())
		if err != nil {
			return nil, nil, fmt.Errorf("open orders of %s: %w", guestID, err)
		}
		for _, o := range open {
			if o.GuestID == guestID {
				unfinished = append(unfinished, o)
			}
		}
		return unfinished, nil, nil
	}
	for _, id := range doubt {
		o, err := s.findOrder(ctx, collOrders, id)
		if err == nil {
			if o.GuestID == guestID {
				unfinished = append(unfinished, o)
			}
			continue
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, nil, fmt.Errorf("open orders of %s: %w", guestID, err)
		}
		if _, err = s.findOrder(ctx, collArchive, id); err == nil {
			done = append(done, id)
		} else if !errors.Is(err, ErrNotFound) {
			return nil, nil, fmt.Errorf("open orders of %s: %w", guestID, err)
		}
	}
	return unfinished, done, nil
}
