package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/order"
)

// Orders live in two collections. orders holds what the bar still has to
// deal with (queued, preparing, ready); an order that is served or
// cancelled moves to orderarchive. Every hot query (placing, the limit,
// the queue, each move behind the bar) touches only the first, which stays
// as small as the bar is busy, however long the night: on the embedded
// database even an _id look-up reads the whole collection (FerretDB v1's
// SQLite backend filters on an expression its _id index does not cover).
const (
	collOrders      = "orders"
	collArchive     = "orderarchive"
	collPrepSamples = "prepsamples"
	collIdempotency = "idempotency"
)

// orderIndexes serve, on MongoDB, a guest's orders (guestId, createdAt)
// and the queue and the admin's status filter (status, createdAt), in both
// collections.
func orderIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "guestId", Value: 1}, {Key: "createdAt", Value: -1}}, Options: options.Index().SetName("guest_created")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "createdAt", Value: 1}}, Options: options.Index().SetName("status_created")},
	}
}

// prepSampleIndexes: the latest samples first, and the sweep by age.
func prepSampleIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
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
	coll := collOrders
	if o.Status.Final() {
		coll = collArchive
	}
	if err := s.noteGuestOrder(ctx, o); err != nil {
		return fmt.Errorf("create order %s: %w", o.ID, err)
	}
	var err error
	if s.single != nil && coll == collArchive {
		finishing := s.single.finished.archiving()
		defer func() { finishing(o.Status, err == nil) }()
	}
	if s.single != nil && coll == collOrders {
		var werr error
		werr, err = s.single.inserts.do(ctx, o, s.insertOrders)
		err = cmp.Or(err, werr)
	} else {
		err = s.retry(ctx, onBusy, func() error { _, err := s.coll(coll).InsertOne(ctx, o); return err })
	}
	if err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("create order %s: %w", o.ID, ErrConflict)
		}
		return fmt.Errorf("create order %s: %w", o.ID, err)
	}
	return nil
}

// insertOrders stores new open orders in one insert command: on the
// embedded database the placements waiting for its one writer share one
// transaction and one commit (inserts, a groupCommit). It returns each
// order's failure (a duplicate _id: that key's order is stored already).
// When the command had to be tried again, an order found stored as a
// duplicate may be the first try's, which is this placement's own.
func (s *Store) insertOrders(ctx context.Context, batch []*order.Order) ([]error, error) {
	docs := make([]any, len(batch))
	for i, o := range batch {
		docs[i] = o
	}
	werrs, retried, err := s.insertEach(ctx, collOrders, docs)
	if err != nil || !retried {
		return werrs, err
	}
	for i, o := range batch {
		if !mongo.IsDuplicateKeyError(werrs[i]) {
			continue
		}
		stored, err := s.findOrder(ctx, collOrders, o.ID)
		if err == nil && stored.GuestID == o.GuestID && stored.CreatedAt.UnixMilli() == o.CreatedAt.UnixMilli() {
			werrs[i] = nil
		}
	}
	return werrs, nil
}

func (s *Store) findOrder(ctx context.Context, coll, id string) (order.Order, error) {
	var o order.Order
	err := s.coll(coll).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&o)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return o, fmt.Errorf("load order %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("load order %s: %w", id, err)
	}
	return o, nil
}

// OrderByID loads one order, open or finished.
func (s *Store) OrderByID(ctx context.Context, id string) (order.Order, error) {
	o, err := s.findOrder(ctx, collOrders, id)
	if errors.Is(err, ErrNotFound) {
		return s.findOrder(ctx, collArchive, id)
	}
	return o, err
}

// ReplaceOrder stores o over the stored order if that is still at
// version expected; otherwise ErrConflict. An order that reaches served or
// cancelled moves to the archive. The caller holds the claim on
// "order/<id>/v<expected>" (see Claim), which is what makes the change
// safe on a database whose conditional writes are not atomic; the version
// filter is the second line of defence.
//
// On the embedded database the version is compared under the order's
// lock instead (orderLocks) and every write is by _id alone.
func (s *Store) ReplaceOrder(ctx context.Context, o order.Order, expected int) error {
	if err := s.replaceOrder(ctx, o, expected); err != nil {
		return err
	}
	if o.Status.Final() {
		// Outside the order's lock: this may write part of the guest's
		// list to its document.
		s.noteFinished(ctx, o)
	}
	return nil
}

func (s *Store) replaceOrder(ctx context.Context, o order.Order, expected int) error {
	conflict := fmt.Errorf("update order %s from version %d: %w", o.ID, expected, ErrConflict)
	current := bson.D{{Key: "_id", Value: o.ID}, {Key: "version", Value: expected}}
	if s.single != nil {
		mu := s.single.orderLocks.of(o.ID)
		mu.Lock()
		defer mu.Unlock()
		version, err := s.orderVersion(ctx, o.ID)
		if errors.Is(err, ErrNotFound) || (err == nil && version != expected) {
			return conflict
		}
		if err != nil {
			return fmt.Errorf("update order %s: %w", o.ID, err)
		}
		current = current[:1]
	}
	if !o.Status.Final() {
		var res *mongo.UpdateResult
		err := s.retry(ctx, onBusy, func() (err error) {
			res, err = s.coll(collOrders).ReplaceOne(ctx, current, o)
			return err
		})
		if err != nil {
			return fmt.Errorf("update order %s: %w", o.ID, err)
		}
		if res.MatchedCount == 0 {
			return conflict
		}
		return nil
	}
	// archived says whether the archive holds this copy, for its counts.
	archived := false
	if s.single != nil {
		finishing := s.single.finished.archiving()
		defer func() { finishing(o.Status, archived) }()
	}
	// Archive first, then remove from the open orders: a crash in between
	// leaves the order in both, which readers and ReconcileOrders resolve
	// to the archived (newer) copy; never in neither.
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collArchive).InsertOne(ctx, o); return err }); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			// Finished already: whoever archived it moved it on first.
			return conflict
		}
		return fmt.Errorf("archive order %s: %w", o.ID, err)
	}
	archived = true
	removed, err := s.removeOpen(ctx, o.ID, expected)
	if err != nil {
		return fmt.Errorf("archive order %s: %w", o.ID, err)
	}
	if !removed {
		// Someone else moved it on; take our copy back out (its _id was
		// ours alone: the insert would have failed otherwise).
		err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collArchive).DeleteOne(ctx, bson.D{{Key: "_id", Value: o.ID}, {Key: "version", Value: o.Version}})
			return err
		})
		archived = err != nil
		return conflict
	}
	return nil
}

// orderVersion reads the version of open order id (ErrNotFound: not
// open), asking for the version alone.
func (s *Store) orderVersion(ctx context.Context, id string) (int, error) {
	var cur struct {
		Version int `bson:"version"`
	}
	err := s.coll(collOrders).FindOne(ctx, bson.D{{Key: "_id", Value: id}},
		options.FindOne().SetProjection(bson.D{{Key: "version", Value: 1}})).Decode(&cur)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, ErrNotFound
	}
	return cur.Version, err
}

// orderLocks make, on the embedded database, each order's compare (a read
// by _id) and set (a write by _id) one step: every writer of the orders is
// in this process (moveclaims.go). The embedded database looks a document
// up through the _id index only when _id is the whole filter; with the
// version in the filter too, each move of an order read every open order
// (a queue of 300 made every start and ready decode 300 documents).
type orderLocks [64]sync.Mutex

func (l *orderLocks) of(id string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(id))
	return &l[h.Sum32()%uint32(len(l))]
}

// removeOpen removes order id at version from the open orders, once its
// archived copy is stored, and reports whether it was there to remove.
func (s *Store) removeOpen(ctx context.Context, id string, version int) (bool, error) {
	if s.single != nil {
		return s.single.removals.do(ctx, openRemoval{id: id, version: version}, s.deleteOpen)
	}
	removed, err := s.deleteOpen(ctx, []openRemoval{{id: id, version: version}})
	if err != nil {
		return false, err
	}
	return removed[0], nil
}

type openRemoval struct {
	id      string
	version int
}

// deleteOpen removes each order of batch at its version from the open
// orders in one command (a batch of more than one only on the embedded
// database, whose callers compared the versions under the orders' locks),
// and reports for each whether it was there. When the command removes
// fewer than it was given, the open orders are read again: an order still
// there (at another version) was moved on by someone else; one gone was
// removed, by this command or by ReconcileOrders, which removes an open
// copy only when its archived copy (the caller's) is there.
func (s *Store) deleteOpen(ctx context.Context, batch []openRemoval) ([]bool, error) {
	// On the embedded database the versions were compared under the
	// orders' locks (orderLocks), and each order is deleted by its _id
	// alone, which the database looks up through the index: one delete
	// statement per order, all in one command. An $in of the ids would be
	// one statement, but read every open order.
	models := make([]mongo.WriteModel, len(batch))
	for i, r := range batch {
		q := bson.D{{Key: "_id", Value: r.id}}
		if s.single == nil {
			q = append(q, bson.E{Key: "version", Value: r.version})
		}
		models[i] = mongo.NewDeleteOneModel().SetFilter(q)
	}
	var res *mongo.BulkWriteResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collOrders).BulkWrite(ctx, models)
		return err
	})
	if err != nil {
		return nil, err
	}
	removed := make([]bool, len(batch))
	for i := range removed {
		removed[i] = true
	}
	if int(res.DeletedCount) == len(batch) {
		return removed, nil
	}
	if len(batch) == 1 {
		removed[0] = false
		return removed, nil
	}
	for i, r := range batch {
		_, err := s.findOrder(ctx, collOrders, r.id)
		if err == nil {
			removed[i] = false
		} else if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return removed, nil
}

// OrderClaimKey names the claim that guards moving order id on from
// version.
func OrderClaimKey(id string, version int) string {
	return fmt.Sprintf("order/%s/v%d", id, version)
}

func (s *Store) findOrders(ctx context.Context, coll string, q bson.D, opts *options.FindOptionsBuilder) ([]order.Order, error) {
	cur, err := s.coll(coll).Find(ctx, q, opts)
	if err != nil {
		return nil, err
	}
	out := []order.Order{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// newestFirst sorts orders by creation, newest first (ids break ties).
func newestFirst(orders []order.Order) {
	sort.Slice(orders, func(i, j int) bool {
		if !orders[i].CreatedAt.Equal(orders[j].CreatedAt) {
			return orders[i].CreatedAt.After(orders[j].CreatedAt)
		}
		return orders[i].ID > orders[j].ID
	})
}

// both runs q on the open orders and the archive and merges the results
// newest first, keeping the open copy's place of an order found in both
// only when it is not older than the archived one.
func (s *Store) both(ctx context.Context, q bson.D, limit int) ([]order.Order, error) {
	opts := options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}})
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	open, err := s.findOrders(ctx, collOrders, q, opts)
	if err != nil {
		return nil, err
	}
	done, err := s.findOrders(ctx, collArchive, q, opts)
	if err != nil {
		return nil, err
	}
	archived := make(map[string]int, len(done))
	for _, o := range done {
		archived[o.ID] = o.Version
	}
	out := done
	for _, o := range open {
		if v, ok := archived[o.ID]; ok && v >= o.Version {
			continue
		}
		out = append(out, o)
	}
	newestFirst(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
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
	out, err := s.findOrders(ctx, collOrders, bson.D{}, options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}))
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

// ReconcileOrders repairs what a crash between archiving an order and
// removing it from the open orders leaves: the open copy of an order that
// is also archived (with a newer version) goes. It returns how many.
func (s *Store) ReconcileOrders(ctx context.Context) (int, error) {
	open, err := s.findOrders(ctx, collOrders, bson.D{}, options.Find().SetProjection(bson.D{{Key: "version", Value: 1}}))
	if err != nil {
		return 0, fmt.Errorf("reconcile orders: %w", err)
	}
	fixed := 0
	for _, o := range open {
		a, err := s.findOrder(ctx, collArchive, o.ID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return fixed, fmt.Errorf("reconcile orders: %w", err)
		}
		if a.Version >= o.Version {
			if err := s.retry(ctx, onBusy, func() error {
				_, err := s.coll(collOrders).DeleteOne(ctx, bson.D{{Key: "_id", Value: o.ID}, {Key: "version", Value: o.Version}})
				return err
			}); err != nil {
				return fixed, fmt.Errorf("reconcile orders: %w", err)
			}
			fixed++
		}
	}
	return fixed, nil
}

// prepSample is one measured preparation. Samples sit in a ring of
// prepSlots documents, so the estimate reads a few small documents and the
// collection never grows, however many drinks the night serves.
type prepSample struct {
	Slot      string    `bson:"_id"`
	OrderID   string    `bson:"orderId"`
	StartedAt time.Time `bson:"startedAt"`
	ReadyAt   time.Time `bson:"readyAt"`
}

// prepSlots is the ring's size. The slot is the second the drink was
// readied in, modulo the ring: a rush keeps one sample a second, a quiet
// bar keeps every one, and the newest are always there.
const prepSlots = 256

// RecordPrepTime keeps how long an order took from start to ready. The
// ring keeps one sample a second, so this process writes only the first
// drink readied in each second and skips the rest: at a rush of 50 drinks
// a second, one fsynced write instead of 50 that would overwrite each
// other. (Instances sharing a database may each write a second's slot;
// the last one stays, as before.)
func (s *Store) RecordPrepTime(ctx context.Context, orderID string, startedAt, readyAt time.Time) error {
	if sec := readyAt.Unix(); s.prepSecond.Swap(sec) == sec {
		return nil
	}
	slot := fmt.Sprintf("slot-%d", readyAt.Unix()%prepSlots)
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collPrepSamples).ReplaceOne(ctx, bson.D{{Key: "_id", Value: slot}},
			prepSample{Slot: slot, OrderID: orderID, StartedAt: startedAt, ReadyAt: readyAt}, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("record preparation time of %s: %w", orderID, err)
	}
	return nil
}

// RecentPrepTimes returns how long the last n orders took from start to
// ready, newest first.
func (s *Store) RecentPrepTimes(ctx context.Context, n int) ([]time.Duration, error) {
	cur, err := s.coll(collPrepSamples).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "readyAt", Value: -1}}).SetLimit(int64(n)))
	if err != nil {
		return nil, fmt.Errorf("load preparation times: %w", err)
	}
	var docs []prepSample
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("load preparation times: %w", err)
	}
	out := make([]time.Duration, len(docs))
	for i, d := range docs {
		out[i] = d.ReadyAt.Sub(d.StartedAt)
	}
	return out, nil
}

// SweepPrepTimes removes samples older than before, so a quiet bar's
// estimate is not built from the rush hours ago.
func (s *Store) SweepPrepTimes(ctx context.Context, before time.Time) (int64, error) {
	var res *mongo.DeleteResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collPrepSamples).DeleteMany(ctx, bson.D{{Key: "readyAt", Value: bson.D{{Key: "$lt", Value: before}}}})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sweep preparation times: %w", err)
	}
	return res.DeletedCount, nil
}

func (s *Store) countByStatus(ctx context.Context, coll string, out map[order.Status]int) error {
	cur, err := s.coll(coll).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$status"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
	})
	if err != nil {
		return fmt.Errorf("count orders: %w", err)
	}
	var rows []struct {
		Status order.Status `bson:"_id"`
		N      int          `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return fmt.Errorf("count orders: %w", err)
	}
	for _, r := range rows {
		out[r.Status] += r.N
	}
	return nil
}

func zeroCounts() map[order.Status]int {
	return map[order.Status]int{order.Queued: 0, order.Preparing: 0, order.Ready: 0, order.Served: 0, order.Cancelled: 0}
}

// OpenOrderCounts counts the orders the bar still has, by status (one
// accumulator: the embedded database returns zeros for every accumulator
// after the first).
func (s *Store) OpenOrderCounts(ctx context.Context) (map[order.Status]int, error) {
	out := zeroCounts()
	return out, s.countByStatus(ctx, collOrders, out)
}

// FinishedOrderCounts counts served and cancelled orders.
func (s *Store) FinishedOrderCounts(ctx context.Context) (map[order.Status]int, error) {
	out := zeroCounts()
	return out, s.countFinished(ctx, out)
}

// OrderCounts counts all orders by status.
func (s *Store) OrderCounts(ctx context.Context) (map[order.Status]int, error) {
	out := zeroCounts()
	if err := s.countByStatus(ctx, collOrders, out); err != nil {
		return nil, err
	}
	if err := s.countFinished(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

// countFinished adds the archive's counts by status to out. On the
// embedded database they are counted in memory after one read: a count
// reads every archived order into memory (FerretDB v1 groups in the
// process), which a dashboard asking every half minute made a spike of
// the archive's whole size, larger with every order of the night.
func (s *Store) countFinished(ctx context.Context, out map[order.Status]int) error {
	if s.single == nil {
		return s.countByStatus(ctx, collArchive, out)
	}
	return s.single.finished.addTo(ctx, s, out)
}

// finishedCounts are the embedded database's archive counts by status.
// Every write of the archive is in this process (moveclaims.go): each
// holds mu for reading while it archives and counts, and the one read
// of the archive holds it for writing, so none is counted twice or missed.
type finishedCounts struct {
	mu     sync.RWMutex
	loaded bool
	// addMu guards n among the writers, which hold mu for reading.
	addMu sync.Mutex
	n     map[order.Status]int
}

// archiving is called before an order is written to the archive; the
// function it returns after, with whether the archive holds it.
func (f *finishedCounts) archiving() func(st order.Status, archived bool) {
	f.mu.RLock()
	return func(st order.Status, archived bool) {
		defer f.mu.RUnlock()
		if archived && f.loaded {
			f.add(st)
		}
	}
}

// add counts one more order of st; the caller holds mu for reading.
func (f *finishedCounts) add(st order.Status) {
	f.addMu.Lock()
	f.n[st]++
	f.addMu.Unlock()
}

func (f *finishedCounts) addTo(ctx context.Context, s *Store, out map[order.Status]int) error {
	f.mu.RLock()
	if f.loaded {
		f.addMu.Lock()
		for st, n := range f.n {
			out[st] += n
		}
		f.addMu.Unlock()
		f.mu.RUnlock()
		return nil
	}
	f.mu.RUnlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.loaded {
		n := map[order.Status]int{}
		if err := s.countByStatus(ctx, collArchive, n); err != nil {
			return err
		}
		f.n, f.loaded = n, true
	}
	for st, n := range f.n {
		out[st] += n
	}
	return nil
}

// OrderFilter selects orders for the admin's list.
type OrderFilter struct {
	Status  order.Status
	GuestID string
	// DrinkID keeps the orders holding that drink; ActorID those the
	// person moved (a bartender's: started, made, served or cancelled).
	DrinkID string
	ActorID string
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
	// Dotted paths into arrays: safe on both databases (docs/DESIGN.md,
	// "Store rules"); neither is by _id, so the embedded database reads
	// the collection, as it does for the other filters.
	if f.DrinkID != "" {
		q = append(q, bson.E{Key: "items.drinkId", Value: f.DrinkID})
	}
	if f.ActorID != "" {
		q = append(q, bson.E{Key: "history.actorId", Value: f.ActorID})
	}
	total := 0
	for _, coll := range []string{collOrders, collArchive} {
		if f.Status != "" && f.Status.Final() != (coll == collArchive) {
			continue
		}
		n, err := s.coll(coll).CountDocuments(ctx, q)
		if err != nil {
			return nil, 0, fmt.Errorf("count orders: %w", err)
		}
		total += int(n)
	}
	page, err := s.both(ctx, q, f.Offset+f.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	if f.Offset >= len(page) {
		return []order.Order{}, total, nil
	}
	return page[f.Offset:], total, nil
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

// OrderIDFor is the _id of the order a guest places with an
// Idempotency-Key: 24 hex digits, like every other id, of a SHA-256 of
// the guest and the key. The order itself is then the key's record, and
// inserting it is the insert of a unique _id that every backend refuses a
// second time: a placement writes no separate idempotency record. Ids of
// different guests or keys collide with odds of 2⁻⁹⁶.
func OrderIDFor(guestID, key string) string {
	sum := sha256.Sum256([]byte("order\x00" + guestID + "\x00" + key))
	return hex.EncodeToString(sum[:12])
}

// legacyRecords remembers, on the embedded database, that the
// idempotency collection is empty. Placements no longer write records
// (OrderIDFor), so once it is seen empty it stays empty, and a
// placement's look-up of its key's record, one read each, can be skipped:
// every writer of the embedded database is in this process
// (moveclaims.go). A shared database is always read: an instance of an
// older barhub may still write records there.
type legacyRecords struct {
	state atomic.Int32 // recordsUnknown, recordsNone or recordsSome
}

const (
	recordsUnknown = iota
	recordsNone
	recordsSome
)

// noIdempotencyRecords reports whether the embedded database is known to
// hold no idempotency record, looking once.
func (s *Store) noIdempotencyRecords(ctx context.Context) bool {
	if s.single == nil {
		return false
	}
	r := &s.single.idempotency
	switch r.state.Load() {
	case recordsNone:
		return true
	case recordsSome:
		return false
	}
	n, err := s.coll(collIdempotency).CountDocuments(ctx, bson.D{}, options.Count().SetLimit(1))
	if err != nil || n > 0 {
		if err == nil {
			r.state.CompareAndSwap(recordsUnknown, recordsSome)
		}
		return false
	}
	// A record reserved meanwhile has set recordsSome, which stays.
	return r.state.CompareAndSwap(recordsUnknown, recordsNone)
}

// ReserveIdempotencyKey inserts rec; ErrConflict when the key is taken.
func (s *Store) ReserveIdempotencyKey(ctx context.Context, rec IdempotencyRecord) error {
	if s.single != nil {
		// Before the insert: no look-up may skip a record once it exists.
		s.single.idempotency.state.Store(recordsSome)
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collIdempotency).InsertOne(ctx, rec); return err }); err != nil {
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
	if s.noIdempotencyRecords(ctx) {
		return rec, fmt.Errorf("load idempotency key: %w", ErrNotFound)
	}
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
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collIdempotency).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "orderId", Value: orderID}})
		return err
	}); err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// SweepIdempotency removes expired records.
func (s *Store) SweepIdempotency(ctx context.Context, now time.Time) (int64, error) {
	var res *mongo.DeleteResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collIdempotency).DeleteMany(ctx, bson.D{{Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: now}}}})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sweep idempotency keys: %w", err)
	}
	return res.DeletedCount, nil
}
