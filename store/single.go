package store

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/order"
)

// single is what a process that is its database's only writer keeps in
// memory instead of in shared documents, and the writes it batches
// (Config.SingleProcess).
type single struct {
	// guestOrders are the guests' order lists (guestorders.go).
	guestOrders guestOrderLists
	// idempotency says whether the idempotency collection may hold records
	// (orders.go).
	idempotency legacyRecords
	// removals batches the removal of finished orders from the open
	// orders: serving (or cancelling) an order is two writes, its archived
	// copy and its removal, and a crash between them leaves both copies,
	// which ReconcileOrders resolves to the archived one (orders.go).
	removals groupCommit[openRemoval, bool]
	// inserts batches the placements' inserts of new orders (orders.go).
	inserts groupCommit[*order.Order, error]
	// orderLocks make each move of an order one step (orders.go).
	orderLocks orderLocks
	// finished counts the archive by status (orders.go).
	finished finishedCounts
}

// MaxUpdateStatements is the most statements the store sends in one update
// command; bigger batches go in parts of this size. In tests the embedded
// database refuses anything bigger (storetest), so a new batch that forgot
// to split fails there rather than at a party.
const MaxUpdateStatements = 32

// updateInParts runs update models (updates only) on coll as unordered
// bulk writes of at most MaxUpdateStatements each, so no command holds
// more of the embedded database's connections than it can finish with.
// Each part is retried on its own, as policy says; a failed part stops
// the rest.
func (s *Store) updateInParts(ctx context.Context, coll *mongo.Collection, policy retryPolicy, models []mongo.WriteModel) error {
	for part := range slices.Chunk(models, MaxUpdateStatements) {
		if err := s.retry(ctx, policy, func() error {
			_, err := coll.BulkWrite(ctx, part, options.BulkWrite().SetOrdered(false))
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}
