package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/barhub/barhub/cmd/apiload/crowd"
)

// crowdLoad plays a whole party (package crowd) against the running
// instances at -urls, as the host -code/-last, with -guests guests and the
// order rush of -rate orders in one second, and prints each step.
func crowdLoad(ctx context.Context, o options, out io.Writer) error {
	if o.urls == "" || o.code == "" || o.last == "" {
		return fmt.Errorf("crowd: give -urls, -code and -last of running barhub instances")
	}
	urls := strings.Split(o.urls, ",")
	fmt.Fprintf(out, "apiload: crowd of %d guests on %d instance(s), %d event(s)\n", o.guests, len(urls), max(o.events, 1))
	rep, err := crowd.Run(ctx, crowd.Config{
		URLs: urls, AdminCode: o.code, AdminLastName: o.last,
		Guests: o.guests, SignInOver: o.signInOver, Rush: int(o.rate), Events: o.events,
		ForwardedFor: true, Log: out,
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(out)
	fmt.Fprint(out, rep.Table())
	for _, p := range rep.Problems {
		fmt.Fprintln(out, "PROBLEM:", p)
	}
	if len(rep.Problems) > 0 {
		return fmt.Errorf("crowd: %d problems", len(rep.Problems))
	}
	return nil
}
