// Package embedded runs FerretDB v1 inside the process, speaking the
// MongoDB wire protocol on loopback over SQLite files, so barhub needs no
// database server of its own. Only cmd/ and the test kit start it; the
// store reaches it through the driver like any MongoDB.
package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	_ "modernc.org/sqlite" // the driver FerretDB's SQLite backend uses, for IndexIDs
)

// Config configures the embedded FerretDB.
type Config struct {
	// DataDir is the folder that holds the SQLite files (DataDir/db).
	DataDir string
	// Addr is the loopback TCP address to listen on; port 0 picks one.
	Addr string
	// Sync is SQLite's synchronous setting: "full" (the default) makes
	// every write durable before it is acknowledged, one fsync each;
	// "normal" leaves the fsync to checkpoints, which takes far more writes
	// a second but may lose the last moments' writes to a power cut or an
	// operating-system crash (never to a crash of barhub itself, and the
	// database stays intact either way).
	Sync string
	// MaxUpdateStatements refuses update commands with more statements
	// than this. Zero allows as many as the database can finish;
	// storetest sets the store's own MaxUpdateStatements so a batch the
	// store forgot to split fails its tests.
	MaxUpdateStatements int
	// GateWait is how long a command may wait for room before it is
	// answered busy; zero is 30 s. Tests of a crowd set more: what they
	// claim is that every command finishes, and under the race detector
	// on a loaded machine three hundred writes, one at a time, took longer.
	GateWait time.Duration
}

// SyncModes are the values Config.Sync accepts.
var SyncModes = []string{"full", "normal"}

// sqliteCacheKiB caps each SQLite connection's page cache. FerretDB keeps
// up to 100 connections to each database open, and SQLite's default cache
// of 2,000 KiB a connection fills as a connection reads a large collection,
// so a burst of connections could hold up to 200 MB a database for good,
// with little to show for it: the pages are in the operating system's file
// cache anyway, and the hot ones (the _id indexes, the open orders) fit in
// far less (docs/BENCHMARKS.md, "A long night: memory").
const sqliteCacheKiB = 256

// sqliteURL is FerretDB's SQLite URL for the folder dir with sync. Every
// connection gets a capped page cache and no memory map (mmap_size 0, as
// SQLite's default, said so that a build of the driver with another
// default does not map the database files into the process, where every
// page read would count towards its memory).
func sqliteURL(dir, sync string) (string, error) {
	u := fmt.Sprintf("file:%s/?_pragma=cache_size(-%d)&_pragma=mmap_size(0)", dir, sqliteCacheKiB)
	switch sync {
	case "", "full":
		return u, nil
	case "normal":
		return u + "&_pragma=synchronous(normal)", nil
	}
	return "", fmt.Errorf("database sync %q: use full or normal", sync)
}

// Server is a FerretDB v1 server running inside this process, speaking
// the MongoDB wire protocol on loopback with a SQLite backend.
type Server struct {
	f      *ferretdb.FerretDB
	cancel context.CancelFunc
	done   chan struct{}
	uri    string
	dir    string
	log    *slog.Logger
	// gate admits each client's commands to FerretDB only while SQLite's
	// connection pool can finish them (gate.go).
	gate *gate
}

// FerretDB v1's SQLite backend finds, updates and deletes a document by
// _id with the expression _ferretdb_sjson->'$._id', but indexes _id on
// _ferretdb_sjson->"_id". SQLite uses an index only for the very
// expression it was built on, so every _id look-up read the whole
// collection: 4.7 ms per find and 23 ms per update at 10,000 documents,
// 0.4 ms and 0.2 ms with the matching index this file adds to every
// collection table (TestEmbeddedIDLookupsUseAnIndex checks the plan).

// idIndexEvery is how soon a collection created after start gets its
// index.
const idIndexEvery = 2 * time.Second

// idIndexSuffix names the added index after its table.
const idIndexSuffix = "_barhub_id"

// keepIDIndexes adds the _id index to new collections until ctx ends.
func (e *Server) keepIDIndexes(ctx context.Context) {
	t := time.NewTicker(idIndexEvery)
	defer t.Stop()
	for {
		if err := e.IndexIDs(ctx); err != nil && ctx.Err() == nil {
			e.log.WarnContext(ctx, "index _id look-ups", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// IndexIDs adds the _id index to every collection that lacks it, in every
// database of this server.
func (e *Server) IndexIDs(ctx context.Context) error { return indexIDsInDir(ctx, e.dir) }

// IndexIDsOf does what IndexIDs does for the server that Start gave dataDir
// (Config.DataDir), which may run in another process: the indexes are in
// its files.
func IndexIDsOf(ctx context.Context, dataDir string) error {
	dir, err := filepath.Abs(filepath.Join(dataDir, "db"))
	if err != nil {
		return fmt.Errorf("embedded database dir: %w", err)
	}
	return indexIDsInDir(ctx, dir)
}

func indexIDsInDir(ctx context.Context, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range files {
		if err := indexIDsIn(ctx, f); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Base(f), err))
		}
	}
	return errors.Join(errs...)
}

func indexIDsIn(ctx context.Context, file string) error {
	// mode=rw: a database dropped since the Glob must not be created again.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT c.table_name FROM _ferretdb_collections c
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'index' AND m.name = c.table_name || ?)`, idIndexSuffix)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "unable to open") {
			return nil // a database FerretDB is still setting up, or has just dropped
		}
		return err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, t)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, t+idIndexSuffix, t)
		if _, err := db.ExecContext(ctx, q); err != nil && !strings.Contains(err.Error(), "no such table") {
			return fmt.Errorf("index %s: %w", t, err)
		}
	}
	return nil
}

// Start starts FerretDB and returns once it accepts connections.
// Its own logs go to logger at warn level and above, so a party host sees
// problems but not every connection.
func Start(ctx context.Context, cfg Config, logger *slog.Logger) (*Server, error) {
	if cfg.DataDir == "" {
		cfg.DataDir = "data"
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "db"))
	if err != nil {
		return nil, fmt.Errorf("embedded database dir: %w", err)
	}
	// FerretDB wants the folder to exist and the URL to end with a slash.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create embedded database dir: %w", err)
	}
	sqlite, err := sqliteURL(dir, cfg.Sync)
	if err != nil {
		return nil, err
	}
	fdbLogger := slog.New(levelFloor{Handler: logger.Handler(), min: slog.LevelWarn}).With("component", "ferretdb")
	// Clients connect to the gate at cfg.Addr; FerretDB itself listens on
	// a loopback port only the gate dials.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("start embedded database: %w", err)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: sqlite,
		Logger:    fdbLogger,
	})
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("start embedded database: %w", err)
	}
	inner, err := url.Parse(f.MongoDBURI())
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("start embedded database: %w", err)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e := &Server{f: f, cancel: cancel, done: make(chan struct{}), dir: dir, log: fdbLogger, gate: newGate(cfg.MaxUpdateStatements, fdbLogger)}
	if cfg.GateWait > 0 {
		e.gate.wait = cfg.GateWait
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		f.Run(runCtx)
	}()
	go func() {
		defer wg.Done()
		e.keepIDIndexes(runCtx)
	}()
	go func() {
		defer wg.Done()
		e.gate.serve(runCtx, ln, inner.Host)
	}()
	stop := context.AfterFunc(runCtx, func() { ln.Close() })
	go func() {
		defer close(e.done)
		wg.Wait()
		stop()
	}()
	e.uri = "mongodb://" + ln.Addr().String() + "/"
	return e, nil
}

// GateStats reports the gate in front of the embedded database.
func (e *Server) GateStats() GateStats { return e.gate.stats() }

// URI is the mongodb:// address of the embedded server.
func (e *Server) URI() string { return e.uri }

// Close stops the server and waits for it.
func (e *Server) Close() {
	e.cancel()
	<-e.done
}

// Wait blocks until the server stops.
func (e *Server) Wait() { <-e.done }

// levelFloor drops records below min so a chatty dependency's INFO logs stay out.
type levelFloor struct {
	slog.Handler
	min slog.Level
}

func (h levelFloor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// Handle drops FerretDB's dumps of every unsupported command's reply
// (the driver's endSessions at each disconnect, for one), which it logs at
// warn level and which say nothing a host can act on.
func (h levelFloor) Handle(ctx context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, "Response header") || strings.HasPrefix(r.Message, "Response message") {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h levelFloor) WithAttrs(attrs []slog.Attr) slog.Handler {
	return levelFloor{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h levelFloor) WithGroup(name string) slog.Handler {
	return levelFloor{Handler: h.Handler.WithGroup(name), min: h.min}
}

// LogValue describes the gate for the store's watchdog lines.
func (e *Server) LogValue() slog.Value {
	st := e.gate.stats()
	return slog.GroupValue(slog.Int64("inUse", st.InUse), slog.Int64("waiting", st.Waiting),
		slog.Int64("refused", st.Refused), slog.Int64("timedOut", st.TimedOut))
}
