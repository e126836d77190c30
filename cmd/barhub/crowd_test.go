package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/barhub/barhub/cmd/apiload/crowd"
	"github.com/barhub/barhub/store/storetest"
)

// A party of 300 on the default server (embedded database, in-process
// hub), as the night brings it: the doors opening, every phone at once,
// the door, two Wi-Fi blips, an order rush, an announcement, with the
// host's desk and /readyz watched throughout (package crowd says what is
// asserted). Before the embedded database's gate, "every phone at once"
// wedged the database for good while /readyz said ready.
func TestCrowdOnTheDefault(t *testing.T) {
	playCrowd(t, 300, map[string]string{"BARHUB_TRUSTED_PROXIES": "127.0.0.1/32"})
}

// The same party, smaller, with the live events on Redis: a phone's own
// topic has had no event yet when it subscribes, so Redis gives it no
// epoch, and every reconnect after a blip must still be taken (the load
// tool once sent such a position back as ":0", which the protocol
// refuses, and every phone failed to reconnect).
func TestCrowdOnRedis(t *testing.T) {
	redisURL := testRedisURL(t)
	playCrowd(t, 100, map[string]string{
		"BARHUB_TRUSTED_PROXIES": "127.0.0.1/32",
		"REDIS_URL":              redisURL,
		"BARHUB_REDIS_PREFIX":    "test-crowd-" + storetest.DatabaseName(),
	})
}

func playCrowd(t *testing.T, guests int, env map[string]string) {
	s := startServer(t, "", env)
	var log *os.File
	if testing.Verbose() {
		log = os.Stdout
	}
	cfg := crowd.Config{URLs: []string{s.URL}, AdminCode: s.Code, AdminLastName: s.LastName, Guests: guests, ForwardedFor: true}
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
