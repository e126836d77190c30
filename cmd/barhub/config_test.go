package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
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

// The addresses phones reach barhub at are configuration (a container's
// host), not a package variable tests swap; a mistyped one is refused.
func TestLANAddrs(t *testing.T) {
	for _, tc := range []struct {
		env     string
		want    string
		refused bool
	}{
		{"192.0.2.10, 198.51.100.7", "[192.0.2.10 198.51.100.7]", false},
		{"192.0.2.300", "", true},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg, finish := serveFlags(fs, func(k string) string { return map[string]string{"BARHUB_LAN_ADDRS": tc.env}[k] })
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		err := finish()
		if tc.refused {
			if err == nil || !strings.Contains(err.Error(), "BARHUB_LAN_ADDRS") {
				t.Errorf("%q: %v, want a refusal naming BARHUB_LAN_ADDRS", tc.env, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.env, err)
		}
		if got := fmt.Sprint(cfg.lanAddrs()); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.env, got, tc.want)
		}
	}
}
