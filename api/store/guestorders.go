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

	"github.com/barhub/barhub/api/order"
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
// process (moveclaims.go says why), so the lists are kept in memory
// instead, built from the orders and the archive at first use and kept by
// CreateOrder: a placement writes the order alone, where the document
// cost a second fsynced write each.
const collGuestOrders = "guestorders"

type guestOrdersDoc struct {
	GuestID string   `bson:"_id"`
	Orders  []string `bson:"orders"`
}

// guestOrderLists are the embedded database's lists of each guest's
// order ids, in order of creation.
type guestOrderLists struct {
	mu     sync.Mutex
	loaded bool
	lists  map[string][]listedOrder // guestId → orders, oldest first
}

type listedOrder struct {
	id      string
	created time.Time
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

// loadLocked builds the lists from every stored order, once; the caller
// holds l.mu. Nothing is inserted meanwhile: CreateOrder lists an order,
// which waits for this, before it stores it.
func (l *guestOrderLists) loadLocked(ctx context.Context, s *Store) error {
	if l.loaded {
		return nil
	}
	lists, err := s.readGuestOrderLists(ctx)
	if err != nil {
		return err
	}
	l.lists, l.loaded = lists, true
	return nil
}

// readGuestOrderLists reads every stored order's guest and creation and
// returns each guest's orders, oldest first. The open orders are read
// before the archive: an order moving to the archive meanwhile is archived
// before it leaves the open orders (ReplaceOrder), so it is in one of the
// two reads, never missed.
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
			lists[d.GuestID] = append(lists[d.GuestID], listedOrder{id: d.ID, created: d.CreatedAt})
		}
	}
	for _, list := range lists {
		slices.SortFunc(list, listedOrder.compare)
	}
	return lists, nil
}

// add lists an order of guestID, in its place by creation (the end, but
// for orders stored out of order). An id listed already stays where it is,
// as $addToSet leaves it on a shared database.
func (l *guestOrderLists) add(ctx context.Context, s *Store, guestID string, o listedOrder) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.loadLocked(ctx, s); err != nil {
		return err
	}
	list := l.lists[guestID]
	if slices.ContainsFunc(list, func(x listedOrder) bool { return x.id == o.id }) {
		return nil
	}
	i := len(list)
	for i > 0 && o.compare(list[i-1]) < 0 {
		i--
	}
	l.lists[guestID] = slices.Insert(list, i, o)
	return nil
}

// ids returns a copy of guestID's list.
func (l *guestOrderLists) ids(ctx context.Context, s *Store, guestID string) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.loadLocked(ctx, s); err != nil {
		return nil, err
	}
	list := l.lists[guestID]
	if len(list) == 0 {
		return nil, nil
	}
	return idsOf(list), nil
}

// noteGuestOrder adds o to its guest's list. CreateOrder calls it before
// it stores the order, so no stored order is ever missing from its
// guest's list; an id whose order was never stored is skipped on reading
// (and, on the embedded database, gone after a restart).
func (s *Store) noteGuestOrder(ctx context.Context, o *order.Order) error {
	if s.embedded != nil {
		if err := s.embedded.guestOrders.add(ctx, s, o.GuestID, listedOrder{id: o.ID, created: o.CreatedAt}); err != nil {
			return fmt.Errorf("list order %s for guest %s: %w", o.ID, o.GuestID, err)
		}
		return nil
	}
	if err := s.listGuestOrders(ctx, o.GuestID, []string{o.ID}); err != nil {
		return fmt.Errorf("list order %s for guest %s: %w", o.ID, o.GuestID, err)
	}
	return nil
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
	if s.embedded != nil {
		ids, err := s.embedded.guestOrders.ids(ctx, s, guestID)
		if err != nil {
			return nil, fmt.Errorf("order list of guest %s: %w", guestID, err)
		}
		return ids, nil
	}
	doc, err := findByID[guestOrdersDoc](ctx, s, collGuestOrders, "order list of guest", guestID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return doc.Orders, nil
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
	ids, err := s.GuestOrderIDs(ctx, guestID)
	if err != nil {
		return nil, err
	}
	out := []order.Order{}
	for _, id := range slices.Backward(ids) {
		if limit > 0 && len(out) == limit {
			break
		}
		o, ok, err := s.guestOrder(ctx, guestID, id)
		if err != nil {
			return nil, fmt.Errorf("list orders of %s: %w", guestID, err)
		}
		if ok {
			out = append(out, o)
		}
	}
	newestFirst(out)
	return out, nil
}

// GuestOrdersSince lists a guest's orders created at or after since,
// oldest first, for pacing. The list is in order of creation, so the walk
// back from the newest stops at the first older order.
func (s *Store) GuestOrdersSince(ctx context.Context, guestID string, since time.Time) ([]order.Order, error) {
	ids, err := s.GuestOrderIDs(ctx, guestID)
	if err != nil {
		return nil, err
	}
	var out []order.Order
	for _, id := range slices.Backward(ids) {
		o, ok, err := s.guestOrder(ctx, guestID, id)
		if err != nil {
			return nil, fmt.Errorf("list recent orders of %s: %w", guestID, err)
		}
		if !ok {
			continue
		}
		if o.CreatedAt.Before(since) {
			break
		}
		out = append(out, o)
	}
	slices.Reverse(out)
	return out, nil
}

// GuestUnfinishedOrders reads, each by _id, the orders of ids (guestID's
// list, GuestOrderIDs) that finished does not name as served or
// cancelled, and returns those the bar still has (queued, preparing,
// ready) and the ids found finished. It is what the open-order limit
// counts: one read per order not known to be finished, where a count by
// guestId reads every open order on the embedded database. An id whose
// order is in neither collection (its placement failed, or is still being
// stored) is in neither result.
func (s *Store) GuestUnfinishedOrders(ctx context.Context, guestID string, ids []string, finished func(id string) bool) (unfinished []order.Order, done []string, err error) {
	for _, id := range ids {
		if finished != nil && finished(id) {
			continue
		}
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
