package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// testServer is barhub started in-process through run(), as a user starts it.
type testServer struct {
	URL      string
	Code     string // the first admin's code, when this start created it
	LastName string
	Data     string
	stop     context.CancelFunc
	done     chan error
	mu       sync.Mutex
	output   strings.Builder
}

var (
	readyLine = regexp.MustCompile(`barhub is ready:.*?(?:Local|Network) (http://\S+)`)
	adminLine = regexp.MustCompile(`admin login: code=(\S+) lastName=(\S+)`)
)

// startServer runs "barhub serve" on a free port with dataDir (a fresh
// temp dir when empty) and extra environment.
func startServer(t testing.TB, dataDir string, env map[string]string, args ...string) *testServer {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		switch k {
		case "BARHUB_LOG_LEVEL":
			if v := os.Getenv("BARHUB_TEST_LOG"); v != "" {
				return v
			}
			return "error"
		case "REDIS_URL", "MONGODB_URI", "BARHUB_DATABASE", "AWS_REGION", "BARHUB_BEDROCK_ENDPOINT":
			return "" // only what the test asks for (no real AWS from a developer's shell)
		case "BARHUB_PUBLIC_MENU":
			// The tests read the menu as a stranger may with the public
			// menu on; TestBrowserPublicMenu starts with it off.
			return "1"
		}
		return os.Getenv(k)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &testServer{Data: dataDir, stop: cancel, done: make(chan error, 1)}
	full := append([]string{"barhub", "serve", "--addr", "127.0.0.1:0", "--data", dataDir}, args...)
	go func() {
		err := run(ctx, full, getenv, pw)
		pw.CloseWithError(io.EOF)
		s.done <- err
	}()
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.output.WriteString(line + "\n")
			if m := adminLine.FindStringSubmatch(line); m != nil {
				s.Code, s.LastName = m[1], m[2]
			}
			if m := readyLine.FindStringSubmatch(line); m != nil {
				s.URL = m[1]
				close(ready)
			}
			s.mu.Unlock()
		}
	}()
	select {
	case <-ready:
	case err := <-s.done:
		t.Fatalf("barhub stopped before it was ready: %v\n%s", err, s.Output())
	case <-time.After(60 * time.Second):
		t.Fatalf("barhub not ready after 60s\n%s", s.Output())
	}
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Output is what barhub printed to stdout so far.
func (s *testServer) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.output.String()
}

// Stop shuts barhub down as SIGTERM would and checks it exits cleanly.
func (s *testServer) Stop(t testing.TB) {
	t.Helper()
	if s.stop == nil {
		return
	}
	s.stop()
	s.stop = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("barhub exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("barhub did not stop within 30s")
	}
}

// get is a plain GET for tests.
func get(t testing.TB, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// testRedisURL is the Redis the test uses: make test starts a throwaway
// one; a test needing Redis fails without it, rather than skip.
func testRedisURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	return url
}
