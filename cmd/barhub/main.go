// Command barhub runs the guest side of a party or event: invitations and
// RSVPs, a drink menu guests order from, the bartender's live queue, the
// host's dashboard and an AI bartender. Run "barhub help" for usage.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "barhub:", err)
		os.Exit(1)
	}
}
