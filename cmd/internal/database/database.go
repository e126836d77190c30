// Package database opens barhub's store the way its commands do: on the
// MongoDB a URI names, or on an embedded FerretDB the process starts for
// itself in the data folder and is then the only writer of.
package database

import (
	"cmp"
	"context"
	"log/slog"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// Config says which database to open.
type Config struct {
	// URI of a MongoDB deployment (or of barhub db); empty starts the
	// embedded database in DataDir.
	URI string
	// DataDir holds the embedded database's files (DataDir/db).
	DataDir string
	// Database name; "barhub" when empty.
	Database string
	// Sync is the embedded database's durability (embedded.Config.Sync).
	Sync string
}

// Open opens the store. On the embedded database it also returns the
// server, which the store stops when it closes; on MongoDB the server is
// nil.
func Open(ctx context.Context, cfg Config, logger *slog.Logger) (*store.Store, *embedded.Server, error) {
	if cfg.URI != "" {
		st, err := store.Open(ctx, store.Config{URI: cfg.URI, Database: cfg.Database}, logger)
		return st, nil, err
	}
	srv, err := embedded.Start(ctx, embedded.Config{DataDir: cmp.Or(cfg.DataDir, "data"), Addr: "127.0.0.1:0", Sync: cfg.Sync}, logger)
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(ctx, store.Config{URI: srv.URI(), Database: cfg.Database, SingleProcess: true, Gate: srv, OnClose: srv.Close}, logger)
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	// Now, not at the next round of the server's loop: a restart on a big
	// party's data is fast from the first request.
	if err := srv.IndexIDs(ctx); err != nil {
		logger.WarnContext(ctx, "index _id look-ups", "err", err)
	}
	return st, srv, nil
}
