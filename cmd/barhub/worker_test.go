package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/store/storetest"
)

// TestWorkerCommand runs the web instance with --no-worker and the job
// worker as its own "barhub worker" process on the same database; the
// worker's result reaches the host's socket on the web instance through
// Redis.
func TestWorkerCommand(t *testing.T) {
	redisURL := testRedisURL(t)
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
	// A second event, whose jobs are in its own database: the worker
	// started below works them too, and its results reach that event's
	// host on that event's topic.
	var party struct{ ID string }
	if status := admin.call("POST", "/api/admin/events", map[string]any{"name": "Second party"}, &party); status != 201 {
		t.Fatalf("new event: %d", status)
	}
	hostThere := admin
	hostThere.token = switchTo(t, barClient{t: t, base: web.URL, token: admin.token}, party.ID).token
	liveThere := dialLive(t, hostThere, "e:"+party.ID+":admin")
	var there struct{ ID string }
	if status := hostThere.call("POST", "/api/admin/drinks", newDrink("Spritz"), &there); status != 201 {
		t.Fatalf("create drink in the second event: %d", status)
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

	ev = liveThere.next("drink.prompt_ready", forDrink(there.ID))
	json.Unmarshal(ev.Data, &p)
	if !strings.Contains(p.ImagePrompt.Text, "Spritz") {
		t.Fatalf("the second event's prompt %+v", p.ImagePrompt)
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

// Reproduction: seeded drinks never got an image prompt. Now "barhub
// seed menu" queues one for each drink without one, the running server's
// worker writes them, and seeding again queues none.
func TestSeededDrinksGetImagePrompts(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	admin := signInAdmin(t, s)
	getenv := func(k string) string {
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return ""
	}
	seed := func() string {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"barhub", "seed", "menu", "--data", dir}, getenv, &out); err != nil {
			t.Fatalf("seed menu: %v\n%s", err, out.String())
		}
		return out.String()
	}
	if out := seed(); !strings.Contains(out, "37 image prompts queued") {
		t.Fatalf("seed menu said: %s", out)
	}
	var jobs struct {
		Counts map[string]int64 `json:"counts"`
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if status := admin.call("GET", "/api/admin/jobs?kind=image_prompt", nil, &jobs); status != 200 {
			t.Fatalf("jobs: %d", status)
		}
		if jobs.Counts["done"] == 37 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("image prompt jobs %v, want 37 done", jobs.Counts)
		}
	}
	var d struct {
		ImagePrompt *struct{ Text, Source string } `json:"imagePrompt"`
	}
	for deadline := time.Now().Add(10 * time.Second); d.ImagePrompt == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		menuGet(t, s.URL+"/api/drinks/mojito", &d)
	}
	if d.ImagePrompt == nil || d.ImagePrompt.Source != "local" || !strings.Contains(d.ImagePrompt.Text, "Mojito") {
		t.Errorf("mojito's prompt %+v", d.ImagePrompt)
	}
	if out := seed(); !strings.Contains(out, "0 image prompts queued") {
		t.Errorf("seeding again said: %s", out)
	}
}
