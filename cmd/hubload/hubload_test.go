package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func startHarness(t *testing.T, redisURL string) *httptest.Server {
	t.Helper()
	h, stop, err := newHarness(context.Background(), redisURL, 100)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		stop()
	})
	return srv
}

func TestLoadBroadcast(t *testing.T) {
	srv := startHarness(t, "")
	var out bytes.Buffer
	cfg, err := parseLoadFlags([]string{"-url", srv.URL, "-code", "X", "-last", "Y", "-n", "50", "-rate", "20", "-duration", "1s", "-settle", "0s", "-pid", itoa(os.Getpid())})
	if err != nil {
		t.Fatal(err)
	}
	res, err := load(context.Background(), cfg, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Expected != 50*20 || res.Delivered != res.Expected || res.Dups != 0 || res.Gaps != 0 || res.PublishErrors.Load() != 0 {
		t.Fatalf("delivered %d/%d, dups %d, gaps %d, publish errors %d\n%s", res.Delivered, res.Expected, res.Dups, res.Gaps, res.PublishErrors.Load(), out.String())
	}
	if res.Max <= 0 || res.P50 > res.P99 || res.P99 > res.Max {
		t.Fatalf("latency percentiles out of order: %v %v %v", res.P50, res.P99, res.Max)
	}
	if !strings.Contains(out.String(), "delivered 1000/1000 (lost 0)") || res.ServerRSSIdle == 0 {
		t.Fatalf("report:\n%s", out.String())
	}
}

func TestLoadGuestRounds(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run `make test`, or start redis-server and set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	for _, batch := range []string{"0", "25"} {
		srv := startHarness(t, url)
		var out bytes.Buffer
		cfg, err := parseLoadFlags([]string{"-url", srv.URL, "-token", harnessToken, "-mode", "guests", "-n", "100", "-rounds", "3", "-batch", batch, "-settle", "0s"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := load(context.Background(), cfg, &out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if res.Delivered != 300 || res.Expected != 300 || len(res.Rounds) != 3 || res.Dups+res.Gaps != 0 {
			t.Fatalf("batch %s: delivered %d/%d in %d rounds\n%s", batch, res.Delivered, res.Expected, len(res.Rounds), out.String())
		}
	}
}

func TestSockSkipsOversizedFrames(t *testing.T) {
	var tot totals
	s := &sock{lat: make([]uint32, 0, 4)}
	big := make([]byte, 10000)
	frame := func(p []byte) []byte {
		h := []byte{0x81, 126, byte(len(p) >> 8), byte(len(p))}
		if len(p) < 126 {
			h = []byte{0x81, byte(len(p))}
		}
		return append(h, p...)
	}
	ev := []byte(`{"type":"event","topic":"guests","seq":1,"event":"announcement","time":"t","data":{"sentAt":` + itoa(int(time.Now().UnixNano())) + `}}`)
	stream := append(frame(big), frame(ev)...)
	// Feed the stream in chunks, as reads would.
	for len(stream) > 0 {
		n := copy(s.buf[s.w:], stream)
		stream = stream[n:]
		if err := s.took(n, &tot); err != nil {
			t.Fatal(err)
		}
	}
	if tot.delivered.Load() != 1 || len(s.lat) != 1 || s.lastSeq != 1 {
		t.Fatalf("delivered %d, latencies %d, seq %d", tot.delivered.Load(), len(s.lat), s.lastSeq)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
