package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/api/order"
)

// A guest's own orders (the phone's "my orders", pacing, the AI's view of
// past drinks) are found through one document per guest listing their
// order ids, oldest first, and then one _id look-up per order. Filtering
// the orders by guestId instead reads every order of the night on the
// embedded database, which filters nothing but _id in SQL: 271 ms for one
// guest's list at 2,500 orders, against a few ms this way
// (BenchmarkOrdersByGuest2500).
const collGuestOrders = "guestorders"

type guestOrdersDoc struct {
	GuestID string   `bson:"_id"`
	Orders  []string `bson:"orders"`
}

// noteGuestOrder adds orderID to guestID's list. CreateOrder calls it
// before it stores the order, so no stored order is ever missing from its
// guest's list; an id whose order was never stored is skipped on reading.
func (s *Store) noteGuestOrder(ctx context.Context, guestID, orderID string) error {
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collGuestOrders).UpdateOne(ctx, bson.D{{Key: "_id", Value: guestID}},
			bson.D{{Key: "$addToSet", Value: bson.D{{Key: "orders", Value: orderID}}}},
			options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("list order %s for guest %s: %w", orderID, guestID, err)
	}
	return nil
}

// GuestOrderIDs returns the ids on guestID's order list, oldest first.
// CreateOrder lists an id before it stores the order, so every stored
// order of the guest is on it (an id whose order was never stored may be
// too).
func (s *Store) GuestOrderIDs(ctx context.Context, guestID string) ([]string, error) {
	return s.guestOrderIDs(ctx, guestID)
}

// guestOrderIDs returns guestID's order ids, oldest first.
func (s *Store) guestOrderIDs(ctx context.Context, guestID string) ([]string, error) {
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
	ids, err := s.guestOrderIDs(ctx, guestID)
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
	ids, err := s.guestOrderIDs(ctx, guestID)
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
