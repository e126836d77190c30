package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/api/order"
)

const (
	collOrders      = "orders"
	collIdempotency = "idempotency"
)

// orderIndexes serve a guest's orders (guestId, createdAt), the bar's
// queue and the admin's status filter (status, createdAt), and the
// preparation-time sample (readyAt).
func orderIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "guestId", Value: 1}, {Key: "createdAt", Value: -1}}, Options: options.Index().SetName("guest_created")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "createdAt", Value: 1}}, Options: options.Index().SetName("status_created")},
		{Keys: bson.D{{Key: "readyAt", Value: -1}}, Options: options.Index().SetName("readyAt")},
	}
}

// idempotencyIndexes: the sweeper deletes by expiresAt.
func idempotencyIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "expiresAt", Value: 1}}, Options: options.Index().SetName("expiresAt")},
	}
}

// CreateOrder stores a new order.
func (s *Store) CreateOrder(ctx context.Context, o *order.Order) error {
	if o.ID == "" {
		o.ID = NewID()
	}
	if _, err := s.coll(collOrders).InsertOne(ctx, o); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("create order %s: %w", o.ID, ErrConflict)
		}
		return fmt.Errorf("create order %s: %w", o.ID, err)
	}
	return nil
}

// OrderByID loads one order.
func (s *Store) OrderByID(ctx context.Context, id string) (order.Order, error) {
	var o order.Order
	err := s.coll(collOrders).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&o)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return o, fmt.Errorf("load order %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("load order %s: %w", id, err)
	}
	return o, nil
}

// ReplaceOrder stores o over the stored order if that is still at
// version expected; otherwise ErrConflict. The caller holds the claim on
// "order/<id>/v<expected>" (see Claim), which is what makes the change
// safe on a database whose conditional update is not atomic; the version
// filter is the second line of defence.
func (s *Store) ReplaceOrder(ctx context.Context, o order.Order, expected int) error {
	res, err := s.coll(collOrders).ReplaceOne(ctx, bson.D{{Key: "_id", Value: o.ID}, {Key: "version", Value: expected}}, o)
	if err != nil {
		return fmt.Errorf("update order %s: %w", o.ID, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("update order %s from version %d: %w", o.ID, expected, ErrConflict)
	}
	return nil
}

// OrderClaimKey names the claim that guards moving order id on from
// version.
func OrderClaimKey(id string, version int) string {
	return fmt.Sprintf("order/%s/v%d", id, version)
}

func (s *Store) findOrders(ctx context.Context, q bson.D, opts *options.FindOptionsBuilder) ([]order.Order, error) {
	cur, err := s.coll(collOrders).Find(ctx, q, opts)
	if err != nil {
		return nil, err
	}
	out := []order.Order{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// OrdersByGuest lists a guest's orders, newest first.
func (s *Store) OrdersByGuest(ctx context.Context, guestID string, limit int) ([]order.Order, error) {
	out, err := s.findOrders(ctx, bson.D{{Key: "guestId", Value: guestID}},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("list orders of %s: %w", guestID, err)
	}
	return out, nil
}

// GuestOrdersSince lists a guest's orders created at or after since, for
// pacing.
func (s *Store) GuestOrdersSince(ctx context.Context, guestID string, since time.Time) ([]order.Order, error) {
	out, err := s.findOrders(ctx, bson.D{{Key: "guestId", Value: guestID}, {Key: "createdAt", Value: bson.D{{Key: "$gte", Value: since}}}},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list recent orders of %s: %w", guestID, err)
	}
	return out, nil
}

var openStatuses = bson.A{string(order.Queued), string(order.Preparing)}

// CountOpenOrders counts a guest's orders still waiting for the bar.
func (s *Store) CountOpenOrders(ctx context.Context, guestID string) (int, error) {
	n, err := s.coll(collOrders).CountDocuments(ctx, bson.D{{Key: "guestId", Value: guestID}, {Key: "status", Value: bson.D{{Key: "$in", Value: openStatuses}}}})
	if err != nil {
		return 0, fmt.Errorf("count open orders of %s: %w", guestID, err)
	}
	return int(n), nil
}

// BarQueue lists the orders the bar still has to deal with: queued,
// preparing and ready, oldest first.
func (s *Store) BarQueue(ctx context.Context) ([]order.Order, error) {
	out, err := s.findOrders(ctx,
		bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: bson.A{string(order.Queued), string(order.Preparing), string(order.Ready)}}}}},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("load the bar queue: %w", err)
	}
	return out, nil
}

// OpenQueue lists the queued and preparing orders with only what a
// queue estimate needs.
func (s *Store) OpenQueue(ctx context.Context) ([]order.Entry, error) {
	cur, err := s.coll(collOrders).Find(ctx, bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: openStatuses}}}},
		options.Find().SetProjection(bson.D{{Key: "status", Value: 1}, {Key: "createdAt", Value: 1}, {Key: "startedAt", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("load the queue: %w", err)
	}
	var docs []struct {
		ID        string       `bson:"_id"`
		Status    order.Status `bson:"status"`
		CreatedAt time.Time    `bson:"createdAt"`
		StartedAt *time.Time   `bson:"startedAt"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("load the queue: %w", err)
	}
	out := make([]order.Entry, len(docs))
	for i, d := range docs {
		out[i] = order.Entry{ID: d.ID, Status: d.Status, CreatedAt: d.CreatedAt, StartedAt: d.StartedAt}
	}
	return out, nil
}

// RecentPrepTimes returns how long the last n orders took from start to
// ready, newest first.
func (s *Store) RecentPrepTimes(ctx context.Context, n int) ([]time.Duration, error) {
	cur, err := s.coll(collOrders).Find(ctx, bson.D{{Key: "readyAt", Value: bson.D{{Key: "$exists", Value: true}}}},
		options.Find().SetSort(bson.D{{Key: "readyAt", Value: -1}}).SetLimit(int64(n)).
			SetProjection(bson.D{{Key: "startedAt", Value: 1}, {Key: "readyAt", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("load preparation times: %w", err)
	}
	var docs []struct {
		StartedAt *time.Time `bson:"startedAt"`
		ReadyAt   *time.Time `bson:"readyAt"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("load preparation times: %w", err)
	}
	out := make([]time.Duration, 0, len(docs))
	for _, d := range docs {
		if d.StartedAt != nil && d.ReadyAt != nil {
			out = append(out, d.ReadyAt.Sub(*d.StartedAt))
		}
	}
	return out, nil
}

// OrderCounts counts orders by status, with one accumulator (the embedded
// database returns zeros for every accumulator after the first).
func (s *Store) OrderCounts(ctx context.Context) (map[order.Status]int, error) {
	cur, err := s.coll(collOrders).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$status"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
	})
	if err != nil {
		return nil, fmt.Errorf("count orders: %w", err)
	}
	var rows []struct {
		Status order.Status `bson:"_id"`
		N      int          `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return nil, fmt.Errorf("count orders: %w", err)
	}
	out := map[order.Status]int{order.Queued: 0, order.Preparing: 0, order.Ready: 0, order.Served: 0, order.Cancelled: 0}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// OrderFilter selects orders for the admin's list.
type OrderFilter struct {
	Status  order.Status
	GuestID string
	Limit   int
	Offset  int
}

// ListOrders lists orders newest first, with the total matching.
func (s *Store) ListOrders(ctx context.Context, f OrderFilter) ([]order.Order, int, error) {
	q := bson.D{}
	if f.Status != "" {
		q = append(q, bson.E{Key: "status", Value: string(f.Status)})
	}
	if f.GuestID != "" {
		q = append(q, bson.E{Key: "guestId", Value: f.GuestID})
	}
	total, err := s.coll(collOrders).CountDocuments(ctx, q)
	if err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	out, err := s.findOrders(ctx, q, options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}}).
		SetSkip(int64(f.Offset)).SetLimit(int64(f.Limit)))
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	return out, int(total), nil
}

// IdempotencyRecord remembers an order request by its Idempotency-Key.
// Its _id is "<guestId>/<key>", so reserving it is an insert every
// backend refuses atomically on a duplicate: of any number of concurrent
// requests with one key, exactly one gets to place the order. OrderID is
// chosen before the order is stored, so the others can wait for it.
type IdempotencyRecord struct {
	ID        string    `bson:"_id"`
	GuestID   string    `bson:"guestId"`
	BodyHash  string    `bson:"bodyHash"`
	OrderID   string    `bson:"orderId"`
	CreatedAt time.Time `bson:"createdAt"`
	ExpiresAt time.Time `bson:"expiresAt"`
}

// IdempotencyID is the record id for a guest's key.
func IdempotencyID(guestID, key string) string { return guestID + "/" + key }

// ReserveIdempotencyKey inserts rec; ErrConflict when the key is taken.
func (s *Store) ReserveIdempotencyKey(ctx context.Context, rec IdempotencyRecord) error {
	if _, err := s.coll(collIdempotency).InsertOne(ctx, rec); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("reserve idempotency key: %w", ErrConflict)
		}
		return fmt.Errorf("reserve idempotency key: %w", err)
	}
	return nil
}

// IdempotencyRecordByID loads a record.
func (s *Store) IdempotencyRecordByID(ctx context.Context, id string) (IdempotencyRecord, error) {
	var rec IdempotencyRecord
	err := s.coll(collIdempotency).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&rec)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return rec, fmt.Errorf("load idempotency key: %w", ErrNotFound)
	}
	if err != nil {
		return rec, fmt.Errorf("load idempotency key: %w", err)
	}
	return rec, nil
}

// ReleaseIdempotencyKey frees a key whose request failed before placing
// an order, so a corrected retry may use it. Only the record with this
// order id is removed, never a later holder's.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, id, orderID string) error {
	if _, err := s.coll(collIdempotency).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "orderId", Value: orderID}}); err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// SweepIdempotency removes expired records.
func (s *Store) SweepIdempotency(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.coll(collIdempotency).DeleteMany(ctx, bson.D{{Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return 0, fmt.Errorf("sweep idempotency keys: %w", err)
	}
	return res.DeletedCount, nil
}
