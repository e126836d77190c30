package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/barhub/barhub/cmd/apiload/crowd"
)

// A party of 300 on the default server (embedded database, in-process
// hub), as the night brings it: the doors opening, every phone at once,
// the door, two Wi-Fi blips, an order rush, an announcement, with the
// host's desk and /readyz watched throughout (package crowd says what is
// asserted). Before the embedded database's gate, "every phone at once"
// wedged the database for good while /readyz said ready.
func TestCrowdOnTheDefault(t *testing.T) {
	s := startServer(t, "", map[string]string{"BARHUB_TRUSTED_PROXIES": "127.0.0.1/32"})
	var log *os.File
	if testing.Verbose() {
		log = os.Stdout
	}
	cfg := crowd.Config{URLs: []string{s.URL}, AdminCode: s.Code, AdminLastName: s.LastName, Guests: 300, ForwardedFor: true}
	if log != nil {
		cfg.Log = log
	}
	// A wedged server is a failure, reported, not a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep, err := crowd.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep.Table())
	for _, p := range rep.Problems {
		t.Error(p)
	}
	if rep.Readyz == 0 {
		t.Error("/readyz was never asked")
	}
}
