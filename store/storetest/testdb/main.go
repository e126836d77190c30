// Command testdb serves the embedded database for a whole test run: make
// test starts it once, built without the race detector, and hands its
// address to every test binary as BARHUB_TEST_DB_URI (see storetest).
//
// The tests raced the embedded server's own code before, FerretDB and its
// SQLite, which barhub does not write; under the detector that code ran
// several times slower and made most of make test's time. It serves with
// the same admission gate as storetest's in-process server, so a batch the
// store forgot to split fails the tests here too.
//
// It prints BARHUB_TEST_DB_URI=… on its first line once it accepts
// connections, and runs until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "testdb:", err)
		os.Exit(1)
	}
}

func run() error {
	dataDir := flag.String("data", "", "data `dir` (required; BARHUB_TEST_DB_DATA for storetest)")
	flag.Parse()
	if *dataDir == "" {
		return fmt.Errorf("-data is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	emb, err := embedded.Start(ctx, embedded.Config{DataDir: *dataDir, MaxUpdateStatements: store.MaxUpdateStatements}, logger)
	if err != nil {
		return err
	}
	defer emb.Close()
	fmt.Printf("BARHUB_TEST_DB_URI=%s\n", emb.URI())
	<-ctx.Done()
	return nil
}
