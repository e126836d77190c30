package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/api/order"
)

// Serving or cancelling an order moves it to the archive: its archived
// copy is written first, then its open copy removed (ReplaceOrder). On the
// embedded database every writer and reader of the orders is in this
// process (moveclaims.go), so the removal need not hold up the serve: the
// open copy is known here to be on its way out, every read of the open
// orders leaves it out (findOrder, findOrders, stillOpen), and a
// background writer removes the open copies of every order finished
// meanwhile in one write. A serve is then one write, and the removals of a
// busy bar a write now and then instead of one per order.
//
// A crash before that write leaves those orders in both collections, as a
// crash between the two writes always could: the archived copy is the
// newer, which the readers of both prefer and ReconcileOrders keeps,
// removing the open one.

// openRemovals are the open copies of archived orders still to remove.
type openRemovals struct {
	mu       sync.Mutex
	pending  map[string]int // order id → version of its open copy
	flushing bool           // the background writer is running
	// hold, when set (tests), is received from before each removal write.
	hold chan struct{}
}

// removeFailures is how many failed writes in a row stop the background
// writer (the database is gone: the store closed); the next removal
// starts it again, and the orders stay left out meanwhile.
const removeFailures = 5

// removalTimeout bounds one removal write.
const removalTimeout = 30 * time.Second

func (m *openRemovals) has(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.pending[id]
	return ok
}

func (m *openRemovals) ids() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.pending) == 0 {
		return nil
	}
	out := make([]string, 0, len(m.pending))
	for id := range m.pending {
		out = append(out, id)
	}
	return out
}

// add notes that order id's open copy at version is to go, and starts
// the background writer unless it runs.
func (m *openRemovals) add(s *Store, id string, version int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending == nil {
		m.pending = map[string]int{}
	}
	m.pending[id] = version
	if !m.flushing {
		m.flushing = true
		go m.flush(s)
	}
}

// flush removes the pending open copies, a batch per write, until none is
// left. An entry leaves the pending set only once its removal is stored,
// so a reader that sees it gone from the set finds it gone from the
// database too.
func (m *openRemovals) flush(s *Store) {
	// Not urgent: nobody waits for it, and the longer it waits behind
	// the bar's moves, the more removals its write takes.
	ctx := context.Background()
	failures := 0
	for {
		if m.hold != nil {
			<-m.hold
		}
		m.mu.Lock()
		if len(m.pending) == 0 {
			m.flushing = false
			m.mu.Unlock()
			return
		}
		batch := make(map[string]int, len(m.pending))
		or := make(bson.A, 0, len(m.pending))
		for id, v := range m.pending {
			batch[id] = v
			or = append(or, bson.D{{Key: "_id", Value: id}, {Key: "version", Value: v}})
		}
		m.mu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, removalTimeout)
		err := s.retry(wctx, onBusy, func() error {
			_, err := s.coll(collOrders).DeleteMany(wctx, bson.D{{Key: "$or", Value: or}})
			return err
		})
		cancel()
		if err != nil {
			failures++
			if failures >= removeFailures {
				s.log.Warn("remove finished orders from the open orders", "orders", len(batch), "err", err)
				m.mu.Lock()
				m.flushing = false
				m.mu.Unlock()
				return
			}
			time.Sleep(time.Duration(failures) * 100 * time.Millisecond)
			continue
		}
		failures = 0
		m.mu.Lock()
		for id, v := range batch {
			if m.pending[id] == v {
				delete(m.pending, id)
			}
		}
		m.mu.Unlock()
	}
}

// stillOpen narrows a query of the open orders to those not archived
// (on the embedded database, the open copies still to remove are left
// out). It returns a new filter; q is not changed.
func (s *Store) stillOpen(q bson.D) bson.D {
	if s.embedded == nil {
		return q
	}
	ids := s.embedded.removals.ids()
	if len(ids) == 0 {
		return q
	}
	out := make(bson.D, 0, len(q)+1)
	out = append(out, q...)
	return append(out, bson.E{Key: "_id", Value: bson.D{{Key: "$nin", Value: ids}}})
}

// archiveEmbedded is ReplaceOrder's move of a finished order on the
// embedded database: a read of the open copy (the version filter, which
// the removal write no longer applies), the archived copy, and the open
// copy left to the background writer.
func (s *Store) archiveEmbedded(ctx context.Context, o order.Order, expected int) error {
	conflict := fmt.Errorf("update order %s from version %d: %w", o.ID, expected, ErrConflict)
	cur, err := s.findOrder(ctx, collOrders, o.ID)
	if errors.Is(err, ErrNotFound) || (err == nil && cur.Version != expected) {
		return conflict
	}
	if err != nil {
		return fmt.Errorf("archive order %s: %w", o.ID, err)
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collArchive).InsertOne(ctx, o); return err }); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return conflict // finished already
		}
		return fmt.Errorf("archive order %s: %w", o.ID, err)
	}
	s.embedded.removals.add(s, o.ID, expected)
	return nil
}
