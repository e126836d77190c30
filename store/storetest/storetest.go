// Package storetest gives tests a real database: the embedded FerretDB
// through the real driver, or the MongoDB at MONGODB_URI when set.
//
// The embedded server is the one make test starts for the whole run
// (storetest/testdb, at BARHUB_TEST_DB_URI) when there is one, else one
// started in this test process. The difference is speed, not behaviour:
// built with the race detector, as the test binary is, the embedded
// database's own code (FerretDB and its SQLite, which are not barhub's to
// race) ran several times slower, and made most of make test's time.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"sync"
	"testing"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

type shared struct {
	once sync.Once
	uri  string
	emb  *embedded.Server
	// dataDir is the external embedded server's data folder, for IndexIDs.
	dataDir string
	err     error
}

// The environment of an embedded server started for the whole test run
// (see storetest/testdb and .ci/testenv.sh).
const (
	envURI  = "BARHUB_TEST_DB_URI"
	envData = "BARHUB_TEST_DB_DATA"
)

// db is started once per test binary: one embedded server, a fresh
// database per test. It is test scaffolding and lives as long as the test
// process.
var db shared

// URI returns the address of a running database for this test binary.
func URI(t testing.TB) string {
	t.Helper()
	if uri := os.Getenv("MONGODB_URI"); uri != "" {
		return uri
	}
	db.once.Do(func() {
		if uri := os.Getenv(envURI); uri != "" {
			db.uri, db.dataDir = uri, os.Getenv(envData)
			return
		}
		dir, err := os.MkdirTemp("", "barhub-storetest-")
		if err != nil {
			db.err = err
			return
		}
		emb, err := embedded.Start(context.Background(), embedded.Config{DataDir: dir, MaxUpdateStatements: store.MaxUpdateStatements}, slog.New(slog.DiscardHandler))
		if err != nil {
			db.err = err
			return
		}
		db.uri, db.emb = emb.URI(), emb
	})
	if db.err != nil {
		t.Fatalf("start embedded database: %v", db.err)
	}
	return db.uri
}

// IndexIDs gives every collection of the embedded server its _id index
// now rather than within its loop's two seconds (see package embedded), for
// benchmarks that load data straight into a collection. It does nothing
// against MONGODB_URI.
func IndexIDs(t testing.TB) {
	t.Helper()
	URI(t)
	var err error
	switch {
	case db.emb != nil:
		err = db.emb.IndexIDs(context.Background())
	case db.dataDir != "":
		err = embedded.IndexIDsOf(context.Background(), db.dataDir)
	}
	if err != nil {
		t.Fatalf("index _id look-ups: %v", err)
	}
}

// DatabaseName returns a fresh random database name.
func DatabaseName() string {
	var b [6]byte
	rand.Read(b[:])
	return "test_" + hex.EncodeToString(b[:])
}

// New opens a store on a fresh database and closes it when the test ends.
func New(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Config{URI: URI(t), Database: DatabaseName()}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() {
		s.DB().Drop(context.Background())
		s.Close(context.Background())
	})
	return s
}

// Instance opens another store on s's database, as a second barhub
// instance sharing it would, and closes it when the test ends. Its
// in-memory state (locks, ticket hints, caches) starts empty, so it also
// stands for s after a restart.
func Instance(t testing.TB, s *store.Store) *store.Store {
	t.Helper()
	other, err := store.Open(context.Background(), store.Config{URI: URI(t), Database: s.DB().Name()}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("open a second store on %s: %v", s.DB().Name(), err)
	}
	t.Cleanup(func() { other.Close(context.Background()) })
	return other
}

// SingleProcess opens a store as barhub serve does on its defaults: an
// embedded server of its own on the data folder dir (a fresh one when
// dir is empty), with the store as its only writer. Both stop when the
// test ends; Close stops them sooner (a restart, say).
func SingleProcess(t testing.TB, dir string) *store.Store {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	logger := slog.New(slog.DiscardHandler)
	srv, err := embedded.Start(context.Background(), embedded.Config{DataDir: dir, MaxUpdateStatements: store.MaxUpdateStatements}, logger)
	if err != nil {
		t.Fatalf("start embedded database: %v", err)
	}
	s, err := store.Open(context.Background(), store.Config{URI: srv.URI(), SingleProcess: true, Gate: srv, OnClose: srv.Close}, logger)
	if err != nil {
		srv.Close()
		t.Fatalf("open store: %v", err)
	}
	if err := srv.IndexIDs(context.Background()); err != nil {
		t.Fatalf("index _id look-ups: %v", err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}
