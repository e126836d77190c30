package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
)

// serve runs the hub alone behind the three endpoints hubload uses, with
// an in-memory ticket store and no database: it measures the hub without
// the rest of barhub, and accepts arrays of announcements (-batch).
func serve(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("hubload serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen `address`")
	redisURL := fs.String("redis-url", "", "Redis `url`; empty uses the in-process broker")
	history := fs.Int("history", 1000, "events kept per topic")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	// As many sockets as the hard limit allows.
	raiseOpenFiles(1 << 20)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	h, stop, err := newHarness(ctx, *redisURL, *history)
	if err != nil {
		ln.Close()
		return err
	}
	defer stop()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "hubload serve: http://%s pid %d\n", ln.Addr(), os.Getpid())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// harness is the hub with sign-in, tickets and announcements around it.
type harness struct {
	mux  *http.ServeMux
	hub  *hub.Hub
	mu   sync.Mutex
	tick map[string]struct{}
}

const harnessToken = "hubload-serve"

func newHarness(ctx context.Context, redisURL string, history int) (*harness, func(), error) {
	var broker hub.Broker
	closeRedis := func() {}
	if redisURL != "" {
		opt, err := redis.ParseURL(redisURL)
		if err != nil {
			return nil, nil, fmt.Errorf("-redis-url: %w", err)
		}
		rdb := redis.NewClient(opt)
		if err := rdb.Ping(ctx).Err(); err != nil {
			return nil, nil, fmt.Errorf("connect to redis: %w", err)
		}
		closeRedis = func() { rdb.Close() }
		broker = hub.NewRedisBroker(rdb, "hubload:"+randomHex(), history)
	} else {
		broker = hub.NewMemoryBroker(history)
	}
	h := &harness{mux: http.NewServeMux(), tick: make(map[string]struct{})}
	h.hub = hub.New(livehub.Rules(hub.Config{}), broker, h, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err := h.hub.Start(ctx); err != nil {
		closeRedis()
		return nil, nil, err
	}
	h.mux.HandleFunc("POST /api/auth/login", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"token": harnessToken, "role": string(guest.RoleAdmin)})
	})
	h.mux.HandleFunc("POST /api/ws/ticket", h.authed(func(w http.ResponseWriter, r *http.Request) {
		t := randomHex()
		h.mu.Lock()
		h.tick[t] = struct{}{}
		h.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"ticket": t, "expiresIn": 30})
	}))
	h.mux.HandleFunc("POST /api/admin/announcements", h.authed(h.announce))
	h.mux.Handle("GET /ws", h.hub)
	// After a forced GC, what the Go runtime holds: tells live memory per
	// socket apart from garbage not yet collected.
	h.mux.HandleFunc("GET /debug/mem", func(w http.ResponseWriter, r *http.Request) {
		runtime.GC()
		debug.FreeOSMemory()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		writeJSON(w, http.StatusOK, map[string]any{
			"connections": h.hub.Connections(), "goroutines": runtime.NumGoroutine(),
			"heapInuse": m.HeapInuse, "stackInuse": m.StackInuse, "sys": m.Sys,
		})
	})
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h.hub.Shutdown(sctx)
		closeRedis()
	}
	return h, stop, nil
}

func (h *harness) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// RedeemTicket implements hub.TicketRedeemer: single use, always an admin,
// a different one for every ticket.
func (h *harness) RedeemTicket(ctx context.Context, ticket string) (hub.Identity, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.tick[ticket]; !ok {
		return hub.Identity{}, errors.New("unknown ticket")
	}
	delete(h.tick, ticket)
	// One person per socket, as at a party: the hub caps sockets per
	// person.
	return hub.Identity{ID: "hubload-" + ticket, Role: string(guest.RoleAdmin), Name: "hubload"}, nil
}

func (h *harness) authed(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+harnessToken {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]string{"code": "unauthorized", "message": "sign in first"}})
			return
		}
		next(w, r)
	}
}

// announce mirrors barhub's POST /api/admin/announcements: to everyone,
// to one guestId, or to every guest of guestIds in one publish.
func (h *harness) announce(w http.ResponseWriter, r *http.Request) {
	var a announcement
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<22)).Decode(&a); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]string{"code": "bad_json", "message": err.Error()}})
		return
	}
	ids := a.GuestIDs
	if a.GuestID != "" {
		ids = append(ids, a.GuestID)
	}
	data := announcement{Text: a.Text, SentAt: a.SentAt}
	var err error
	if len(ids) == 0 {
		err = h.hub.Publish(r.Context(), live.TopicGuests, live.EventAnnouncement, data)
	} else {
		out := make([]hub.Outgoing, len(ids))
		for i, id := range ids {
			out[i] = hub.Outgoing{Topic: live.GuestTopic(id), Event: live.EventAnnouncement, Data: data}
		}
		err = h.hub.PublishMany(r.Context(), out)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]string{"code": "publish_failed", "message": err.Error()}})
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]int{"guests": len(ids)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func randomHex() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("start CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
