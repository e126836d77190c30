package main

import (
	"flag"
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
