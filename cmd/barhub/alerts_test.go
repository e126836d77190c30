package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
)

// A job that dies while two instances run on one database reaches the
// operators' webhook once, from whichever instance saw it first.
func TestAlertsReachTheWebhook(t *testing.T) {
	var mu sync.Mutex
	var got []map[string]any
	arrived := make(chan struct{}, 16)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		json.Unmarshal(b, &m)
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
		arrived <- struct{}{}
	}))
	defer recv.Close()

	uri := startDB(t)
	env := map[string]string{
		"MONGODB_URI":                 uri,
		"BARHUB_ALERT_WEBHOOK":        recv.URL + "/hook",
		"BARHUB_ALERT_FORMAT":         "json",
		"BARHUB_ALERT_CHECK_INTERVAL": "100ms",
	}
	startServer(t, "", env, "--no-worker")
	startServer(t, "", env, "--no-worker")

	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{URI: uri}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	j, err := st.EnqueueJob(ctx, store.NewJob{Kind: "image_prompt", Subject: "drink/hugo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DeadLetterJob(ctx, j, "model refused", store.TokenUsage{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(30 * time.Second):
		t.Fatal("no alert within 30 s of a dead job")
	}
	// Ten more rounds on each instance: still the one alert.
	time.Sleep(time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0]["key"] != "dead-jobs-1" || got[0]["severity"] != "critical" || got[0]["summary"] != "1 job failed every attempt" {
		t.Fatalf("alerts %v, want one about the dead job", got)
	}
}
