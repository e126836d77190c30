// Command hubload measures barhub's live hub: it opens N WebSockets against
// a running barhub, publishes announcements through the real HTTP API and
// reports how many arrived and how long they took.
//
//	hubload -url http://127.0.0.1:8080 -code ABCD2345 -last Host -n 10000 -rate 20 -duration 10s -pid $(pgrep -n barhub)
//	hubload -mode guests -n 2000 -rounds 5 ...
//	hubload serve -addr 127.0.0.1:8090 [-redis-url redis://…]   # the hub alone, for comparison
//
// See docs/BENCHMARKS.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hubload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "serve" {
		return serve(ctx, args[1:], stdout)
	}
	cfg, err := parseLoadFlags(args)
	if err != nil {
		return err
	}
	_, err = load(ctx, cfg, stdout)
	return err
}
