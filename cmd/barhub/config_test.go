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

// The public menu is off unless the flag or the environment turns it on
// (the host's switch, kept in the settings, wins over either at run time);
// a value that is not a truth value stops the start.
func TestPublicMenuDefault(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want bool
		err  bool
	}{
		{nil, nil, false, false},
		{[]string{"--public-menu"}, nil, true, false},
		{nil, map[string]string{"BARHUB_PUBLIC_MENU": "1"}, true, false},
		{nil, map[string]string{"BARHUB_PUBLIC_MENU": "true"}, true, false},
		{[]string{"--public-menu=false"}, map[string]string{"BARHUB_PUBLIC_MENU": "1"}, false, false},
		{nil, map[string]string{"BARHUB_PUBLIC_MENU": "yes please"}, false, true},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg, done := serveFlags(fs, func(k string) string { return tc.env[k] })
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := done()
		if (err != nil) != tc.err {
			t.Errorf("%v %v: error %v, want one: %v", tc.args, tc.env, err, tc.err)
			continue
		}
		if err == nil && cfg.PublicMenu != tc.want {
			t.Errorf("%v %v: PublicMenu %v, want %v", tc.args, tc.env, cfg.PublicMenu, tc.want)
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

// The generated pictures' model, size and quality come from flags or the
// environment; a size or quality Nova Canvas would refuse is refused at
// start, with the variable's name.
func TestImageFlags(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		env           map[string]string
		model         string
		width, height int
		quality       string
		err           string
	}{
		{nil, nil, "amazon.nova-canvas-v1:0", 1024, 768, "standard", ""},
		{[]string{"--image-size", "768x960", "--image-quality", "premium"}, nil, "amazon.nova-canvas-v1:0", 768, 960, "premium", ""},
		{nil, map[string]string{"BARHUB_IMAGE_MODEL": "off", "BARHUB_IMAGE_SIZE": "2048X2048"}, "off", 2048, 2048, "standard", ""},
		{nil, map[string]string{"BARHUB_IMAGE_SIZE": "1000x750"}, "", 0, 0, "", "BARHUB_IMAGE_SIZE"},
		{[]string{"--image-size", "4096x4096"}, nil, "", 0, 0, "", "BARHUB_IMAGE_SIZE"},
		{[]string{"--image-size", "big"}, nil, "", 0, 0, "", "BARHUB_IMAGE_SIZE"},
		{[]string{"--image-size", "160x160"}, nil, "", 0, 0, "", "BARHUB_IMAGE_SIZE"},
		{nil, map[string]string{"BARHUB_IMAGE_QUALITY": "best"}, "", 0, 0, "", "BARHUB_IMAGE_QUALITY"},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg, validate := serveFlags(fs, func(k string) string { return tc.env[k] })
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := validate()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v %v: %v, want an error naming %s", tc.args, tc.env, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.ImageModel != tc.model || cfg.ImageWidth != tc.width || cfg.ImageHeight != tc.height || cfg.ImageQuality != tc.quality {
			t.Errorf("%v %v: %s %dx%d %s, %v", tc.args, tc.env, cfg.ImageModel, cfg.ImageWidth, cfg.ImageHeight, cfg.ImageQuality, err)
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
