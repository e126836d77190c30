package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// crowdServer starts an embedded database of its own (a wedged one must
// not take the other tests' shared server with it) and a store on it. Its
// commands wait for room up to crowdWait rather than 30 s: these tests
// claim that every command of a crowd finishes, and the server here runs
// under the race detector, several times slower than a party's.
func crowdServer(t *testing.T) (*embedded.Server, *store.Store) {
	t.Helper()
	ctx := context.Background()
	emb, err := embedded.Start(ctx, embedded.Config{DataDir: t.TempDir(), GateWait: crowdWait}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Close)
	s, err := store.Open(ctx, store.Config{URI: emb.URI(), Database: "party"}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return emb, s
}

// crowdWait bounds a crowd test's command's wait for room: long enough for
// a loaded machine under the race detector, short enough that a wedge
// (a command that never finishes) still fails the test.
const crowdWait = 3 * time.Minute

// insertCrowd puts n guests straight into the collection.
func insertCrowd(t *testing.T, s *store.Store, n int) []string {
	t.Helper()
	ids := make([]string, n)
	docs := make([]any, n)
	for i := range n {
		ids[i] = fmt.Sprintf("g%04d", i)
		docs[i] = bson.D{{Key: "_id", Value: ids[i]}, {Key: "firstName", Value: "Guest"}, {Key: "lastName", Value: fmt.Sprint(i)}, {Key: "role", Value: "guest"}, {Key: "status", Value: "pending"}}
	}
	if _, err := s.DB().Collection("guests").InsertMany(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	return ids
}

// stillAnswers fails the test unless the database reads and writes within
// a few seconds: a wedged embedded database answers ping but nothing that
// touches SQLite.
func stillAnswers(t *testing.T, s *store.Store, when string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := s.DB().Collection("health")
	if _, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: "probe"}}, bson.D{{Key: "$set", Value: bson.D{{Key: "at", Value: time.Now()}}}}, options.UpdateOne().SetUpsert(true)); err != nil {
		t.Fatalf("%s: the database no longer writes: %v", when, err)
	}
	if err := c.FindOne(ctx, bson.D{{Key: "_id", Value: "probe"}}).Err(); err != nil {
		t.Fatalf("%s: the database no longer reads: %v", when, err)
	}
}

// The wedge: the activity of 300 guests flushed at once. FerretDB
// v1 keeps one SQLite connection per statement of an update command until
// the command ends, from a pool of 100, so a flush of 100 or more guests
// waited forever for a connection it held itself, and every later call
// of the instance waited behind it.
func TestEmbeddedActivityOfACrowd(t *testing.T) {
	_, s := crowdServer(t)
	ids := insertCrowd(t, s, 300)
	now := time.Now().UTC().Truncate(time.Millisecond)
	batch := make([]store.Activity, len(ids))
	for i, id := range ids {
		batch[i] = store.Activity{GuestID: id, LastLogin: &now, LastAccess: &now}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	first, err := s.RecordActivity(ctx, batch)
	if err != nil {
		t.Fatalf("activity of %d guests: %v", len(batch), err)
	}
	if first != len(ids) {
		t.Errorf("first sign-ins = %d, want %d", first, len(ids))
	}
	n, err := s.DB().Collection("guests").CountDocuments(ctx, bson.D{{Key: "lastAccess", Value: now}})
	if err != nil || n != int64(len(ids)) {
		t.Errorf("guests with the flushed time = %d (%v), want %d", n, err, len(ids))
	}
	stillAnswers(t, s, "after the flush")
}

// A client other than the store (barhub db serves any) cannot wedge the
// database with an update too big for it: the command is refused with a
// message that says what to do, and everything else goes on.
func TestEmbeddedRefusesAnUpdateItCannotFinish(t *testing.T) {
	_, s := crowdServer(t)
	ids := insertCrowd(t, s, 150)
	models := make([]mongo.WriteModel, len(ids))
	for i, id := range ids {
		models[i] = mongo.NewUpdateOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}).SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: "seen", Value: true}}}})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.DB().Collection("guests").BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	if err == nil || !strings.Contains(err.Error(), "statements") {
		t.Errorf("an update of %d statements: err = %v, want a refusal naming the statements", len(models), err)
	}
	stillAnswers(t, s, "after the refusal")
	// Below the limit the same write goes through.
	if _, err := s.DB().Collection("guests").BulkWrite(ctx, models[:store.MaxUpdateStatements], options.BulkWrite().SetOrdered(false)); err != nil {
		t.Errorf("an update of %d statements: %v", store.MaxUpdateStatements, err)
	}
}

// A crowd of clients each updating one document at once: every update
// needs two of SQLite's connections (its read, held, and its write), so
// more than 50 at a time could each hold one and wait for another.
func TestEmbeddedManyUpdatesAtOnce(t *testing.T) {
	emb, s := crowdServer(t)
	ids := insertCrowd(t, s, 300)
	// A client of its own with no pool limit, as several instances
	// sharing barhub db add up to.
	client, err := mongo.Connect(options.Client().ApplyURI(emb.URI()).SetMaxPoolSize(0).SetMaxConnecting(300))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	guests := client.Database("party").Collection("guests")
	ctx, cancel := context.WithTimeout(context.Background(), 2*crowdWait)
	defer cancel()
	for round := range 2 {
		var wg sync.WaitGroup
		errs := make(chan error, len(ids))
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := guests.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "round", Value: round}}}})
				if err == nil {
					err = guests.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Err()
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", id, err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		n, err := guests.CountDocuments(ctx, bson.D{{Key: "round", Value: round}})
		if err != nil || n != int64(len(ids)) {
			t.Fatalf("round %d: %d updated (%v), want %d", round, n, err, len(ids))
		}
	}
	stillAnswers(t, s, "after the crowd")
}

// An open cursor keeps its SQLite read until it is drained, killed, or its
// client goes away, and the gate counts it that long: no more, or the
// pool could be overcommitted; no longer, or the room would leak.
func TestEmbeddedGateCountsCursors(t *testing.T) {
	emb, s := crowdServer(t)
	insertCrowd(t, s, 10)
	ctx := context.Background()
	inUse := func(want int64, when string) {
		t.Helper()
		if got := emb.GateStats().InUse; got != want {
			t.Errorf("%s: room in use = %d, want %d", when, got, want)
		}
	}
	guests := s.DB().Collection("guests")
	find := func() *mongo.Cursor {
		cur, err := guests.Find(ctx, bson.D{}, options.Find().SetBatchSize(3))
		if err != nil {
			t.Fatal(err)
		}
		return cur
	}
	inUse(0, "at rest")
	cur := find()
	inUse(1, "with a cursor open")
	var all []bson.M
	if err := cur.All(ctx, &all); err != nil || len(all) != 10 {
		t.Fatalf("drained %d guests: %v", len(all), err)
	}
	inUse(0, "after draining it")
	cur = find()
	cur.Next(ctx)
	cur.Close(ctx)
	inUse(0, "after closing it")

	client, err := mongo.Connect(options.Client().ApplyURI(emb.URI()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Database("party").Collection("guests").Find(ctx, bson.D{}, options.Find().SetBatchSize(2)); err != nil {
		t.Fatal(err)
	}
	inUse(1, "with another client's cursor open")
	client.Disconnect(ctx)
	deadline := time.Now().Add(5 * time.Second)
	for emb.GateStats().InUse != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	inUse(0, "after that client went away")
	if st := emb.GateStats(); st.Refused != 0 || st.TimedOut != 0 || st.Waiting != 0 {
		t.Errorf("gate = %+v", st)
	}
}

// A database that stops writing is seen: the probe /readyz runs fails
// within its deadline, and the watchdog names the call that waits, while
// the ping that /readyz used to run still answers. Another process holding
// SQLite's write lock stands in for any storage that stalls.
func TestWatchdogSeesAStuckDatabase(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	s := openSingle(t, embedded.Config{DataDir: dir}, store.Config{StuckAfter: 300 * time.Millisecond}, logger)
	if err := s.Probe(ctx); err != nil {
		t.Fatalf("probe of a well database: %v", err)
	}
	// The collection exists before the lock: the write below waits for
	// the lock alone, not for FerretDB's own bookkeeping of a new one.
	if _, err := s.DB().Collection("notes").InsertOne(ctx, bson.D{{Key: "_id", Value: "first"}}); err != nil {
		t.Fatal(err)
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	var alerted atomic.Int32
	go s.Watch(watchCtx, 50*time.Millisecond, func(stuck []store.Call) { alerted.Add(1) })

	lock, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "db", "barhub.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	// A write that waits for the lock, as a request's would.
	writeDone := make(chan error, 1)
	go func() {
		_, err := s.DB().Collection("notes").InsertOne(ctx, bson.D{{Key: "_id", Value: "waits"}})
		writeDone <- err
	}()
	probeCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
	err = s.Probe(probeCtx)
	cancel()
	if err == nil {
		t.Error("probe while the database cannot write: no error")
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping: %v (it answers without the storage)", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Health().Stuck) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	h := s.Health()
	if len(h.Stuck) == 0 || h.Stuck[0].Command != "insert" || h.Stuck[0].Collection != "notes" || h.StuckTotal == 0 {
		t.Errorf("health while stuck = %+v, want the insert into notes", h)
	}
	for alerted.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alerted.Load() == 0 {
		t.Error("the watchdog told nobody")
	}
	mu.Lock()
	logged := logs.String()
	mu.Unlock()
	if !strings.Contains(logged, "database call stuck") || !strings.Contains(logged, "insert on barhub.notes") {
		t.Errorf("log = %s", logged)
	}
	if err := s.Probe(ctx); err == nil || !strings.Contains(err.Error(), "stuck") {
		t.Errorf("probe with a call stuck = %v", err)
	}

	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	// SQLite's own busy timeout (10 s) may have run out on a slow
	// machine: the write answered either way.
	if err := <-writeDone; err != nil && !store.Busy(err) {
		t.Errorf("the waiting write, once the lock is free: %v", err)
	}
	if h := s.Health(); len(h.Stuck) != 0 || h.InFlight != 0 {
		t.Errorf("health after = %+v", h)
	}
	if err := s.Probe(ctx); err != nil {
		t.Errorf("probe after: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
