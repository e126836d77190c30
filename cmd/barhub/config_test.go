package main

import (
	"flag"
	"io"
	"testing"
)

// The RSVP form's preview of dietary words has its own budget per guest,
// on by default (docs/SECURITY.md, "Limits per client"), and the flag and
// environment reach the API's configuration.
func TestRateDietaryDefault(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want float64
	}{
		{nil, nil, 2},
		{[]string{"--rate-dietary", "0.5"}, nil, 0.5},
		{nil, map[string]string{"BARHUB_RATE_DIETARY": "5"}, 5},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg, _ := serveFlags(fs, func(k string) string { return tc.env[k] })
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := barConfig(cfg, nil, nil, nil).RateDietary; got != tc.want {
			t.Errorf("%v %v: RateDietary %v, want %v", tc.args, tc.env, got, tc.want)
		}
	}
}
