package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// Each durability setting opens a working database that keeps what is
// written across a restart; anything else is refused before start.
func TestEmbeddedSync(t *testing.T) {
	ctx := context.Background()
	for _, sync := range append([]string{""}, embedded.SyncModes...) {
		t.Run("sync="+sync, func(t *testing.T) {
			cfg := embedded.Config{DataDir: t.TempDir(), Sync: sync}
			s := openSingle(t, cfg, store.Config{})
			if _, err := s.DB().Collection("notes").InsertOne(ctx, bson.D{{Key: "_id", Value: "n1"}, {Key: "text", Value: sync}}); err != nil {
				t.Fatal(err)
			}
			s.Close(ctx)
			s = openSingle(t, cfg, store.Config{})
			var got struct{ Text string }
			if err := s.DB().Collection("notes").FindOne(ctx, bson.D{{Key: "_id", Value: "n1"}}).Decode(&got); err != nil || got.Text != sync {
				t.Errorf("after a restart: %+v, %v", got, err)
			}
		})
	}
	_, err := embedded.Start(ctx, embedded.Config{DataDir: t.TempDir(), Sync: "sometimes"}, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "full or normal") {
		t.Errorf("sync=sometimes: err = %v, want one naming the choices", err)
	}
}

// BenchmarkEmbeddedWrite is one small insert, the unit every order move is
// made of, under each durability setting: what --db-sync trades.
func BenchmarkEmbeddedWrite(b *testing.B) {
	ctx := context.Background()
	for _, sync := range embedded.SyncModes {
		b.Run("sync="+sync, func(b *testing.B) {
			s := openSingle(b, embedded.Config{DataDir: b.TempDir(), Sync: sync}, store.Config{})
			notes := s.DB().Collection("notes")
			b.ResetTimer()
			for i := range b.N {
				if _, err := notes.InsertOne(ctx, bson.D{{Key: "_id", Value: i}, {Key: "text", Value: "order moved"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Every collection of the embedded database, those created after start
// included, gets an index for the expression FerretDB looks documents up
// by _id with, and SQLite's plan for such a look-up uses it. Should a
// FerretDB upgrade change the expression, this fails.
func TestEmbeddedIDLookupsUseAnIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	emb, err := embedded.Start(ctx, embedded.Config{DataDir: dir}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	s, err := store.Open(ctx, store.Config{URI: emb.URI(), Database: "party"}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	// A collection nobody created at start.
	if _, err := s.DB().Collection("late").InsertOne(ctx, bson.D{{Key: "_id", Value: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := emb.IndexIDs(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "db", "party.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := map[string]string{}
	rows, err := db.Query(`SELECT name, table_name FROM _ferretdb_collections`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, table string
		if err := rows.Scan(&name, &table); err != nil {
			t.Fatal(err)
		}
		tables[name] = table
	}
	rows.Close()
	for _, name := range []string{"guests", "orders", "claims", "late"} {
		table, ok := tables[name]
		if !ok {
			t.Errorf("no table for collection %s in %v", name, tables)
			continue
		}
		// The statement FerretDB's SQLite backend runs for a find by _id.
		var id, parent, notused int
		var plan string
		q := fmt.Sprintf(`EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM %q WHERE _ferretdb_sjson->'$._id' = ?`, table)
		if err := db.QueryRow(q, `"x"`).Scan(&id, &parent, &notused, &plan); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan, "USING INDEX") {
			t.Errorf("%s: a look-up by _id scans: %s", name, plan)
		}
	}
}

// openSingle starts an embedded server of its own with srv and opens a
// store on it as barhub serve does on its defaults (the only writer,
// stopping the server when it closes); cfg adds the rest of the store's
// settings, and logger hears both (nothing when nil). Both stop when the
// test ends.
func openSingle(t testing.TB, srv embedded.Config, cfg store.Config, logger ...*slog.Logger) *store.Store {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	if len(logger) > 0 {
		log = logger[0]
	}
	e, err := embedded.Start(ctx, srv, log)
	if err != nil {
		t.Fatal(err)
	}
	cfg.URI, cfg.SingleProcess, cfg.Gate, cfg.OnClose = e.URI(), true, e, e.Close
	s, err := store.Open(ctx, cfg, log)
	if err != nil {
		e.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}
