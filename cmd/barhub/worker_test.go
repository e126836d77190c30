package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/api/store/storetest"
)

// TestWorkerCommand runs the web instance with --no-worker and the job
// worker as its own "barhub worker" process on the same database; the
// worker's result reaches the host's socket on the web instance through
// Redis.
func TestWorkerCommand(t *testing.T) {
	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	env := map[string]string{
		"MONGODB_URI":         startDB(t),
		"REDIS_URL":           redisURL,
		"BARHUB_REDIS_PREFIX": "test-worker-" + storetest.DatabaseName(),
		"AWS_REGION":          "",
	}
	web := startServer(t, "", env, "--no-worker")
	admin := signInAdmin(t, web)
	live := dialLive(t, admin, "admin")

	var d struct{ ID string }
	if status := admin.call("POST", "/api/admin/drinks", newDrink("Hugo"), &d); status != 201 {
		t.Fatalf("create drink: %d", status)
	}
	// Nobody works the queue yet.
	var jobs struct {
		Jobs []struct{ Status string }
	}
	admin.call("GET", "/api/admin/jobs?subject=drink:"+d.ID, nil, &jobs)
	if len(jobs.Jobs) != 1 || jobs.Jobs[0].Status != "queued" {
		t.Fatalf("before the worker: %+v", jobs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return ""
	}
	go func() {
		err := run(ctx, []string{"barhub", "worker", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, getenv, pw)
		pw.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("barhub worker: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("barhub worker did not stop within 30s")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.Contains(line, "barhub worker is running (local)") {
		t.Fatalf("worker said %q (%v)", line, err)
	}
	go io.Copy(io.Discard, pr)
	_, probes, ok := strings.Cut(strings.TrimSpace(line), "health and metrics at ")
	if !ok {
		t.Fatalf("worker did not say where its probes are: %q", line)
	}

	ev := live.next("drink.prompt_ready", forDrink(d.ID))
	var p promptReady
	json.Unmarshal(ev.Data, &p)
	if p.ImagePrompt.Source != "local" || !strings.Contains(p.ImagePrompt.Text, "Hugo") {
		t.Fatalf("prompt %+v", p.ImagePrompt)
	}

	// The worker alone is probed and scraped like the server.
	if res, body := get(t, probes+"/readyz"); res.StatusCode != 200 || !strings.Contains(body, `"database":"ok"`) || !strings.Contains(body, `"redis":"ok"`) {
		t.Errorf("GET /readyz = %d %s", res.StatusCode, body)
	}
	// The job is counted once it is recorded as done, just after its event.
	const ran = `barhub_jobs_total{kind="image_prompt",outcome="done"} 1`
	var metrics string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !strings.Contains(metrics, ran); time.Sleep(20 * time.Millisecond) {
		_, metrics = get(t, probes+"/metrics")
	}
	if !strings.Contains(metrics, ran) {
		t.Errorf("GET /metrics lacks %s:\n%.2000s", ran, metrics)
	}
}
