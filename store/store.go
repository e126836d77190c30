// Package store keeps barhub's state in MongoDB through mongo-driver v2.
//
// The same code talks to MongoDB (MONGODB_URI) or to an embedded FerretDB v1
// with a SQLite backend under the data directory. Queries stay inside the
// subset both implement correctly (see docs/DESIGN.md, "Store rules"): single
// document atomicity instead of transactions, one accumulator per $group,
// hot lookups by _id, expiry by sweepers instead of TTL indexes.
package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
)

// ErrNotFound is returned when a document does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a unique value is already taken or a
// compare-and-set lost its race.
var ErrConflict = errors.New("conflict")

// ErrBusy is returned when a step waited its whole bound for another
// writer and gave up: the caller may try again in a moment (Busy is true).
var ErrBusy = errors.New("busy: another writer did not finish in time")

// Config says where the database is and how this process shares it.
type Config struct {
	// URI of the database: MongoDB, or the embedded server's loopback
	// address (package embedded, which only cmd/ starts).
	URI string
	// Database name; "barhub" when empty.
	Database string
	// SingleProcess says this process is the database's only writer, as
	// with the embedded server barhub serve starts for itself: the store
	// then keeps what every writer would otherwise share through documents
	// (each guest's order list, the order locks, the archive's totals) in
	// memory, and batches its writes (single.go).
	SingleProcess bool
	// Gate, when set, describes what stands between the store and the
	// database (the embedded server's admission gate) in the watchdog's
	// log lines.
	Gate slog.LogValuer
	// OnClose runs after the store disconnects: stopping the embedded
	// server the store was opened on, say.
	OnClose func()
	// StuckAfter is how old a database call is when the watchdog calls it
	// stuck; zero means StuckAfter.
	StuckAfter time.Duration
}

// Store is the connection to the database and the home of every query.
type Store struct {
	client *mongo.Client
	db     *mongo.Database
	// single holds the state of a process that is the database's only
	// writer; nil when others share the database (single.go).
	single  *single
	gate    slog.LogValuer
	onClose func()
	log     *slog.Logger
	// writes are this process's turns on the embedded database (retry.go),
	// shared by every event's store (OpenEvent): the bar's urgent moves go
	// first across events, as within one.
	writes *writeQueue
	// written counts the write attempts made through retry, for the load
	// tool's writes per order (Writes).
	written atomic.Int64
	// guestWrites lets a recount of the host's figures see this process's
	// guest writes that overlap it (guests_stats.go).
	guestWrites guestWriteGate
	// firstRecount lets one of this process's Stats callers make the
	// summary when there is none yet.
	firstRecount sync.Mutex
	// locks are this process's turns on each Lock name (locks.go).
	locks sync.Map // name → chan struct{}
	// moves are the order-move claims on the embedded database (moveclaims.go).
	moves moveClaims
	// prepSecond is the second of the last preparation sample written
	// (RecordPrepTime).
	prepSecond atomic.Int64
	// tickets remembers the last order ticket number per night (ordertickets.go).
	tickets ticketHints
	// guestIdx answers the host's guest list on FerretDB (guests_index.go).
	guestIdx guestIndex
	// onMongoDB: the server is MongoDB, with TTL and extra indexes (mongodb.go).
	onMongoDB bool
	// calls are the commands in flight, for the watchdog (watchdog.go).
	calls *calls
	// instance names this host in the health probe's document.
	instance string
	// stuckAfter is Config.StuckAfter (watchdog.go).
	stuckAfter time.Duration
	// shared marks a store opened by OpenEvent on its owner's client:
	// closing it leaves the client, and the owner's OnClose, to the owner.
	shared bool
	// codeIndex is the control database's index of sign-in codes, where
	// the store of an event besides the control one notes its codes
	// (codeindex.go); nil on the control store.
	codeIndex *mongo.Collection
	// codesIndexed holds, on the control store, the databases known to
	// have their codes indexed (indexedEvents).
	codesIndexed sync.Map // database → struct{}
}

// Open connects to the configured database and makes sure every index
// exists.
func Open(ctx context.Context, cfg Config, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.Default()
	}
	name := cmp.Or(cfg.Database, "barhub")
	s, err := connect(ctx, cfg.URI, name, logger)
	if err != nil {
		return nil, err
	}
	if cfg.SingleProcess {
		s.single = &single{}
	}
	s.gate, s.onClose = cfg.Gate, cfg.OnClose
	s.stuckAfter = cmp.Or(cfg.StuckAfter, StuckAfter)
	if err := s.EnsureIndexes(ctx); err != nil {
		s.Close(context.Background())
		return nil, err
	}
	// A database written before there were events becomes the first
	// event (docs/EVENTS.md). Like the upgrade below, a failure leaves the
	// party served as before and is said in the log.
	if _, err := s.EnsureFirstEvent(ctx); err != nil {
		logger.WarnContext(ctx, "register the first event", "err", err)
	}
	if n, err := s.UpgradeDietary(ctx); err != nil {
		logger.WarnContext(ctx, "upgrade dietary answers", "err", err)
	} else if n > 0 {
		logger.InfoContext(ctx, "dietary answers read again", "guests", n)
	}
	return s, nil
}

func connect(ctx context.Context, uri, database string, logger *slog.Logger) (*Store, error) {
	calls := newCalls()
	opts := options.Client().ApplyURI(uri).
		SetServerSelectionTimeout(10 * time.Second).
		SetConnectTimeout(5 * time.Second).
		SetMonitor(calls.monitor())
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := client.Ping(pingCtx, readpref.Primary()); err != nil {
		client.Disconnect(context.Background())
		return nil, fmt.Errorf("ping database: %w", err)
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return &Store{client: client, db: client.Database(database), log: logger, calls: calls, instance: host, writes: &writeQueue{}}, nil
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return s.client.Ping(ctx, readpref.Primary())
}

// DB gives packages that own their collections (the job queue, for
// example) the database handle.
func (s *Store) DB() *mongo.Database { return s.db }

// SingleProcess reports whether this process is the database's only
// writer (Config.SingleProcess).
func (s *Store) SingleProcess() bool { return s.single != nil }

// Close gives back the ticket numbers claimed but not handed out,
// disconnects, then runs Config.OnClose. A store of OpenEvent only gives
// back its tickets: the connection is its owner's.
func (s *Store) Close(ctx context.Context) error {
	err := s.returnUnusedTickets(ctx)
	if s.shared {
		return err
	}
	err = errors.Join(err, s.client.Disconnect(ctx))
	if s.onClose != nil {
		s.onClose()
	}
	return err
}

func (s *Store) coll(name string) *mongo.Collection { return s.db.Collection(name) }

// findByID loads the document of collection coll whose _id is id; what
// names it in errors, which wrap ErrNotFound when there is none.
func findByID[T any](ctx context.Context, s *Store, coll, what, id string) (T, error) {
	var doc T
	err := s.coll(coll).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return doc, fmt.Errorf("load %s %s: %w", what, id, ErrNotFound)
	}
	if err != nil {
		return doc, fmt.Errorf("load %s %s: %w", what, id, err)
	}
	return doc, nil
}

// Collection names, in one place so a reader sees the whole schema.
const (
	collGuests   = "guests"
	collCodes    = "codes"
	collKeys     = "keys"
	collSettings = "settings"
)

// EnsureIndexes creates every index barhub relies on. It is idempotent, so
// every instance runs it at start.
func (s *Store) EnsureIndexes(ctx context.Context) error {
	// Every collection exists from the start, indexed or not: embedded
	// FerretDB learns of collections when it starts, so one that another
	// process (barhub seed, barhub worker) creates later on the same data
	// would stay invisible to a server already running.
	have, err := s.db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("list collections: %w", err)
	}
	for _, coll := range collections {
		if slices.Contains(have, coll) {
			continue
		}
		err := s.db.CreateCollection(ctx, coll)
		var ce mongo.CommandError
		if err != nil && !(errors.As(err, &ce) && ce.Code == namespaceExists) {
			return fmt.Errorf("create collection %s: %w", coll, err)
		}
	}
	for coll, models := range indexModels() {
		// One call per index: FerretDB v1 panics when a single
		// createIndexes names two or more indexes that already exist.
		for _, m := range models {
			if _, err := s.coll(coll).Indexes().CreateOne(ctx, m); err != nil {
				return fmt.Errorf("create index on %s: %w", coll, err)
			}
		}
	}
	return s.ensureMongoFeatures(ctx)
}

// namespaceExists is the server's error code for a collection created
// meanwhile by someone else.
const namespaceExists = 48

// collections lists every collection barhub uses.
var collections = []string{
	collGuests, collCodes, collKeys, collSettings, collStats, collSecrets,
	collSections, collDrinks, collStock, collImages, collVersions,
	collOrders, collArchive, collPrepSamples, collIdempotency, collGuestOrders, collClaims,
	collJobs, collRecommendations, collAudit, collPush, collBoards,
	collDeliveries, collReminders, collGuestChanges, collHealth,
	collRegistrations, collEvents, collCodeIndex,
}

// indexModels lists every index per collection. Each file that owns a
// collection declares its indexes next to the queries that use them; add
// its function here.
func indexModels() map[string][]mongo.IndexModel {
	return map[string][]mongo.IndexModel{
		collGuests: guestIndexes(),
		// The public registrations and their waiting list (registrations.go).
		collRegistrations: registrationIndexes(),
		collClaims:        claimIndexes(),
		collDrinks:        drinkIndexes(), collOrders: orderIndexes(), collArchive: orderIndexes(), collPrepSamples: prepSampleIndexes(), collIdempotency: idempotencyIndexes(),

		// The AI worker's queue and its answers.
		collJobs:            jobIndexes(),
		collRecommendations: recommendationIndexes(),

		// What the host and the bar changed (audit.go).
		collAudit: auditIndexes(),

		// Invitations and reminders sent (deliveries.go, reminders.go).
		collDeliveries: deliveryIndexes(),

		// The registry of events, one per database (events.go).
		collEvents: eventIndexes(),
	}
}
