package hub

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

const livePage = `<!doctype html><meta charset="utf-8"><title>live</title>
<script type="module">
import { connect } from "/static/js/live.js";
localStorage.setItem("barhub.token", "t0k");
window.got = [];
window.resyncs = [];
window.statuses = [];
const live = connect();
window.live = live;
live.onStatus((s) => window.statuses.push(s));
live.on("announcement", (data, msg) => window.got.push(msg.seq));
live.onResync("guests", (topic) => window.resyncs.push(topic));
live.subscribe("guests");
</script>`

// TestLiveJS drives web/static/js/live.js in Chromium through a server
// restart and a page reload: every event arrives once, in order.
func TestLiveJS(t *testing.T) {
	var broker atomic.Pointer[MemoryBroker]
	broker.Store(NewMemoryBroker(100))
	tickets := newTicketStore()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	newHub := func() *Hub {
		h := New(testRules(Config{}), broker.Load(), tickets, logger)
		if err := h.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Shutdown(context.Background()) })
		return h
	}
	var current atomic.Pointer[Hub]
	current.Store(newHub())

	script, err := os.ReadFile("../web/static/js/live.js")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, livePage)
	})
	mux.HandleFunc("GET /static/js/live.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(script)
	})
	mux.HandleFunc("POST /api/ws/ticket", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t0k" {
			writeError(w, http.StatusUnauthorized, "unauthorized", "sign in")
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"ticket": tickets.issue(guest1), "expiresIn": 30})
	})
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		current.Load().ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	publish := func(n int) {
		for i := 0; i < n; i++ {
			if err := current.Load().Publish(context.Background(), topicGuests, "announcement", map[string]string{"text": "hello"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, ctx, srv.URL+"/")
	waitJS(t, ctx, `window.live && window.live.lastSeq("guests") === 0`)

	publish(3)
	waitJS(t, ctx, `window.got.join() === "1,2,3"`)

	// The instance goes away; events keep being published meanwhile.
	old := current.Load()
	old.Shutdown(context.Background())
	waitJS(t, ctx, `window.statuses.includes("reconnecting")`)
	publish(5)
	current.Store(newHub())
	waitJS(t, ctx, `window.got.join() === "1,2,3,4,5,6,7,8"`)
	publish(1)
	waitJS(t, ctx, `window.got.join() === "1,2,3,4,5,6,7,8,9"`)

	// A reload keeps the last seq, so what is published while the page
	// loads is replayed, and nothing before it.
	browsertest.Navigate(t, ctx, "about:blank")
	publish(2)
	browsertest.Navigate(t, ctx, srv.URL+"/")
	waitJS(t, ctx, `window.got.join() === "10,11"`)
	if n := browsertest.Eval[int](t, ctx, `window.resyncs.length`); n != 0 {
		t.Fatalf("%d resyncs, want none", n)
	}

	// More missed than the history holds: the page is told to refetch.
	browsertest.Navigate(t, ctx, "about:blank")
	publish(150)
	browsertest.Navigate(t, ctx, srv.URL+"/")
	waitJS(t, ctx, `window.resyncs.join() === "guests"`)
	publish(1)
	waitJS(t, ctx, `window.got.join() === "162"`)

	// barhub restarts on its in-process broker: the history the page's
	// seq counted in is gone, and the new process's seqs run past it.
	// The page must refetch, not take event 163 of another history as
	// the next one.
	browsertest.Navigate(t, ctx, "about:blank")
	old = current.Load()
	old.Shutdown(context.Background())
	broker.Store(NewMemoryBroker(100))
	current.Store(newHub())
	publish(163)
	browsertest.Navigate(t, ctx, srv.URL+"/")
	waitJS(t, ctx, `window.resyncs.join() === "guests"`)
	if got := browsertest.Eval[string](t, ctx, `window.got.join()`); got != "" {
		t.Fatalf("events %s replayed from another history", got)
	}
	publish(1)
	waitJS(t, ctx, `window.got.join() === "164"`)
	if ep := browsertest.Eval[string](t, ctx, `window.live.lastEpoch("guests") || ""`); ep == "" {
		t.Fatal("the page keeps no epoch")
	}
}

func waitJS(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	deadline := time.Now().Add(browsertest.StepTimeout)
	for {
		if browsertest.Eval[bool](t, ctx, "Boolean("+cond+")") {
			return
		}
		if time.Now().After(deadline) {
			state := browsertest.Eval[string](t, ctx, `JSON.stringify({got: window.got, resyncs: window.resyncs, statuses: window.statuses})`)
			t.Fatalf("waited for %s; page state %s", cond, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
