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

// The public registration page's guards are on by default
// (docs/REGISTRATION.md, "The challenge"), and the flags reach the API.
func TestRegistrationGuardsDefault(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		rate float64
		work int
	}{
		{nil, nil, 0.1, 14},
		{[]string{"--rate-register", "0", "--registration-work", "8"}, nil, 0, 8},
		{nil, map[string]string{"BARHUB_RATE_REGISTER": "1", "BARHUB_REGISTRATION_WORK": "20"}, 1, 20},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg, _ := serveFlags(fs, func(k string) string { return tc.env[k] })
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := barConfig(cfg, nil, nil, nil).RateRegister; got != tc.rate || cfg.RegistrationWork != tc.work {
			t.Errorf("%v %v: RateRegister %v, RegistrationWork %d; want %v, %d", tc.args, tc.env, got, cfg.RegistrationWork, tc.rate, tc.work)
		}
	}
}
