package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/order"
)

// The night's record (docs/REPORTS.md): what the host's report and the
// running-low estimate read.

// MaxReportOrders bounds the orders one report reads: a party's night is
// a few thousand; past the bound the newest are reported and the report
// says it is partial.
const MaxReportOrders = 50000

// ReportOrders returns every order, open and finished, newest first, at
// most MaxReportOrders; more reports whether there were more.
func (s *Store) ReportOrders(ctx context.Context) (orders []order.Order, more bool, err error) {
	out, err := s.both(ctx, bson.D{}, MaxReportOrders+1)
	if err != nil {
		return nil, false, fmt.Errorf("read the night's orders: %w", err)
	}
	if len(out) > MaxReportOrders {
		return out[:MaxReportOrders], true, nil
	}
	return out, false, nil
}

// ServedGlasses counts the glasses served per drink id, of the orders
// served at since or later (zero: all of them). Served orders are in the
// archive (one $group of a single accumulator), and an order just served
// may still be among the open ones until it is moved.
func (s *Store) ServedGlasses(ctx context.Context, since time.Time) (map[string]int, error) {
	match := bson.D{{Key: "status", Value: string(order.Served)}}
	if !since.IsZero() {
		match = append(match, bson.E{Key: "servedAt", Value: bson.D{{Key: "$gte", Value: since}}})
	}
	out := map[string]int{}
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$unwind", Value: "$items"}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$items.drinkId"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: "$items.qty"}}}}}},
	}
	cur, err := s.coll(collArchive).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, fmt.Errorf("count served glasses: %w", err)
	}
	var rows []struct {
		DrinkID string `bson:"_id"`
		N       int    `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return nil, fmt.Errorf("count served glasses: %w", err)
	}
	for _, r := range rows {
		out[r.DrinkID] += r.N
	}
	// A served order not moved to the archive yet (the move follows the
	// serve) is counted here unless its archived copy already was: a
	// look-up by _id each, and there are few.
	open, err := s.findOrders(ctx, collOrders, match, nil)
	if err != nil {
		return nil, fmt.Errorf("count served glasses: %w", err)
	}
	for _, o := range open {
		if _, err := s.findOrder(ctx, collArchive, o.ID); err == nil {
			continue
		}
		for _, it := range o.Items {
			out[it.DrinkID] += it.Qty
		}
	}
	return out, nil
}
