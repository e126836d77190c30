package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/api"
	"github.com/barhub/barhub/api/publicurl"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/cmd/internal/database"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `barhub runs the guest side of a party: RSVPs, a drink menu, the bar queue.

Usage:
  barhub [serve] [flags]     run the server (the default; see "barhub serve -h")
  barhub db [flags]          run the embedded database alone, for several instances
  barhub admin add|list|code add an admin, list them, or give one a new code (lost code)
  barhub check --url URL     check a running deployment end to end (see "barhub check -h")
  barhub keys rotate         add a new token signing key; old tokens stay valid until they expire
  barhub worker [flags]      run the AI job worker alone (serve runs one too, unless --no-worker)
  barhub seed menu [flags]   load the starter menu of cocktails and alcohol-free drinks
  barhub version             print the version
  barhub help                print this help

Every flag has an environment variable; the README lists them all.
`

// run is the whole program; main only wires it to the process, so tests
// can start barhub in-process with their own arguments and environment.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cmd, rest := "serve", []string{}
	if len(args) > 1 {
		rest = args[1:]
		if !strings.HasPrefix(args[1], "-") {
			cmd, rest = args[1], args[2:]
		}
	}
	switch cmd {
	case "serve":
		return serve(ctx, rest, getenv, stdout)
	case "db":
		return runDB(ctx, rest, getenv, stdout)
	case "admin":
		return runAdmin(ctx, rest, getenv, stdout)
	case "check":
		return runCheck(ctx, rest, getenv, stdout)
	case "keys":
		return runKeys(ctx, rest, getenv, stdout)
	case "worker":
		return runWorker(ctx, rest, getenv, stdout)
	case "seed":
		return runSeed(ctx, rest, getenv, stdout)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "barhub", version)
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		return fmt.Errorf("unknown command %q; run \"barhub help\"", cmd)
	}
}

func newLogger(cfg *config, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, fmt.Errorf("log level %q: use debug, info, warn or error", cfg.LogLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}

// parseServe parses serve-style flags.
func parseServe(name string, args []string, getenv func(string) string, stdout io.Writer) (*config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	cfg, finish := serveFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg, finish()
}

// app is a running barhub's parts, for serve and the commands that need
// the store.
type app struct {
	cfg   *config
	log   *slog.Logger
	store *store.Store
	// db is the embedded database this process started; nil on MongoDB.
	db   *embedded.Server
	keys *auth.Keys
	// event is the key of the event store holds ("" the first), and
	// control the installation's database (docs/EVENTS.md): an event's
	// runtime has a copy of app with its own store.
	event   string
	control *store.Store
	// modelSlots are the installation's calls to the model at once,
	// shared by every event's AI bartender.
	modelSlots *ai.ModelSlots
}

func openApp(ctx context.Context, cfg *config, logger *slog.Logger) (*app, error) {
	st, db, err := database.Open(ctx, database.Config{URI: cfg.MongoURI, DataDir: cfg.DataDir, Database: cfg.Database, Sync: cfg.DBSync}, logger)
	if err != nil {
		return nil, err
	}
	keys, err := auth.NewKeys(ctx, st, auth.KeysConfig{TokenTTL: cfg.TokenTTL})
	if err != nil {
		st.Close(context.Background())
		return nil, err
	}
	return &app{cfg: cfg, log: logger, store: st, db: db, keys: keys, control: st, modelSlots: ai.NewModelSlots(cfg.AIModelSlots)}, nil
}

// openCommand parses a command's serve-style flags and opens the store and
// keys, the start shared by every command that works on the database. It
// returns nil and no error when the user only asked for help.
func openCommand(ctx context.Context, name string, args []string, getenv func(string) string, stdout io.Writer) (*app, error) {
	cfg, err := parseServe(name, args, getenv, stdout)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	logger, err := newLogger(cfg, os.Stderr)
	if err != nil {
		return nil, err
	}
	return openApp(ctx, cfg, logger)
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := parseServe("serve", args, getenv, stdout)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	logger, err := newLogger(cfg, os.Stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	a, err := openApp(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.store.Close(context.Background())
	if err := bootstrapAdmin(ctx, a.store, stdout); err != nil {
		return err
	}

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	watchDatabase(ctx, a.store, a.db, registry)
	ready := map[string]api.Pinger{"database": dbProbe{a.store}}
	var rdb *redis.Client // the hub's backplane, shared rate limits and the menu version
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return fmt.Errorf("REDIS_URL: %w", err)
		}
		rdb = redis.NewClient(opts)
		defer rdb.Close()
		if err := rdb.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("connect to redis: %w", err)
		}
		ready["redis"] = redisPinger{rdb}
	}
	// 1 while a dependency answers, read at each scrape: alert rules see a
	// lost Redis or database without waiting for requests to fail.
	for name, p := range ready {
		registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "barhub_dependency_up", Help: "Whether a dependency answers a ping (1) or not (0), checked at each scrape.",
			ConstLabels: prometheus.Labels{"dependency": name},
		}, func() float64 {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			if p.Ping(ctx) != nil {
				return 0
			}
			return 1
		}))
	}
	lh, err := livehub.Start(ctx, a.store, livehub.Config{
		Hub: hub.Config{
			AllowedOrigins:        cfg.AllowedOrigins,
			MaxSocketsPerIdentity: cfg.SocketsPerGuest,
			MaxReplaysPerMinute:   cfg.ReplaysPerMinute,
			// One person's replays over all their sockets here: past them a
			// replay is a resync (docs/PROTOCOL.md).
			ReplayMessagesPerMinute: cfg.ReplayMessagesPerMinute,
			ReplayBytesPerMinute:    cfg.ReplayBytesPerMinute,
		},
		Redis: rdb, RedisPrefix: cfg.RedisPrefix,
		History: cfg.HubHistory, HistoryBytes: int64(cfg.HubHistoryMB) << 20,
		TicketTTL: cfg.TicketTTL,
	}, logger)
	if err != nil {
		return err
	}
	live := lh.Hub
	registry.MustRegister(live.Collectors()...)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	defer ln.Close() // Serve closes it too; this covers a failed start
	if !cfg.PublicURLSet {
		// The address it listens on: with port 0, the port it was given.
		cfg.PublicURL = "http://" + ln.Addr().String()
	}

	// Every event is served by a runtime of its own (events.go): the
	// first, in the database barhub was started on, now; the others when
	// a request first needs them.
	inst := &installation{cfg: cfg, app: a, log: logger, rdb: rdb, live: lh, ready: ready, listenAddr: ln.Addr().String()}
	events, err := newEventRuntimes(ctx, inst)
	if err != nil {
		return err
	}
	first, err := inst.startEvent(ctx, a.store, "", registry, events)
	if err != nil {
		return err
	}
	events.first = first
	defer events.stopAll()
	lh.ServeEvents(events.sessionsOf)
	go events.startAll()
	handler, host := first.api, first.host

	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		// A body gets a deadline of its own in place of this one:
		// --body-timeout plus its length at 100 KB/s, set per request
		// (api.Config.BodyTimeout), so a trickled body is cut after about
		// 10 s and the WebSocket upgrade, which has no body, never is.
		ReadTimeout: 60 * time.Second,
		IdleTimeout: 120 * time.Second,
		ErrorLog:    slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if err := startAlerts(ctx, cfg, a.store, rdb, registry, hostAlerts(host, logger), logger); err != nil {
		return err
	}
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(ctx, cfg.MetricsAddr, registry, logger, stdout)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	db := "embedded (" + cfg.DataDir + ")"
	if a.db == nil {
		db = "MongoDB"
	}
	pubsub := "in-process"
	if cfg.RedisURL != "" {
		pubsub = "Redis"
	}
	warnPublicURL(ctx, a.store, cfg, ln.Addr().String(), logger)
	warnProxies(cfg, getenv, logger)
	logger.Info("barhub started", "addr", ln.Addr().String(), "database", db, "pubsub", pubsub, "startupMs", time.Since(start).Milliseconds(), "version", version)
	fmt.Fprintln(stdout, readyMessage(ln.Addr().String(), cfg.lanAddrs()))

	select {
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", cfg.ShutdownGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	// Sockets first with "going away", so phones reconnect to another
	// instance while this one drains its HTTP requests.
	if err := live.Shutdown(shutdownCtx); err != nil {
		logger.Warn("close sockets", "err", err)
	}
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("drain requests: %w", err)
	}
	return nil
}

// bootstrapAdmin creates the first admin on an empty database and prints
// its login once. The claim makes sure two instances starting together on
// one database create only one.
func bootstrapAdmin(ctx context.Context, st *store.Store, stdout io.Writer) error {
	n, err := st.CountGuests(ctx, nil)
	if err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if err := st.Claim(ctx, "bootstrap/admin", 100*365*24*time.Hour); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil
		}
		return err
	}
	admin := guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin}
	if err := st.CreateGuest(ctx, &admin); err != nil {
		return fmt.Errorf("create first admin: %w", err)
	}
	fmt.Fprintf(stdout, "admin login: code=%s lastName=%s\n", admin.Code, admin.LastName)
	return nil
}

// scheduleSweeps registers the removal of what has expired (the store
// rules use sweepers, not TTL indexes, because the embedded database has
// none) and the recount of the host's figures.
func scheduleSweeps(m *jobs.Maintenance, st *store.Store, logger *slog.Logger) {
	m.Every("sweep claims", time.Minute, func(ctx context.Context) error {
		_, err := st.SweepClaims(ctx, time.Now().UTC())
		return err
	})
	m.Every("sweep audit log", time.Minute, func(ctx context.Context) error {
		_, err := st.SweepAudit(ctx, time.Now().UTC().Add(-audit.Retention))
		return err
	})
	m.Every("recount guest stats", statsRecountEvery, recountGuestStats(st, logger))
}

// runMaintenance runs m until ctx ends or the returned function is
// called; the function returns once m's runs under way are done.
func runMaintenance(ctx context.Context, m *jobs.Maintenance) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// serveMetrics serves /metrics alone on addr, a port for the scraper
// that guests cannot reach, and returns the function that stops it.
func serveMetrics(ctx context.Context, addr string, reg *prometheus.Registry, logger *slog.Logger, stdout io.Writer) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:    slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "metrics at http://%s/metrics\n", ln.Addr())
	return func() { srv.Close() }, nil
}

type redisPinger struct{ rdb *redis.Client }

func (p redisPinger) Ping(ctx context.Context) error { return p.rdb.Ping(ctx).Err() }

// runDB runs the embedded database alone, so several barhub instances on
// one machine can share it through MONGODB_URI.
func runDB(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("db", flag.ContinueOnError)
	fs.SetOutput(stdout)
	e := &envDefault{getenv: getenv}
	addr := fs.String("addr", e.str("BARHUB_DB_ADDR", "127.0.0.1:27017"), "listen address `host:port` (BARHUB_DB_ADDR)")
	dir := fs.String("data", e.str("BARHUB_DATA", "data"), "data `dir` (BARHUB_DATA)")
	sync := fs.String("db-sync", e.str("BARHUB_DB_SYNC", "full"), "durability: full or normal (BARHUB_DB_SYNC; see barhub help serve)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	emb, err := embedded.Start(ctx, embedded.Config{DataDir: *dir, Addr: *addr, Sync: *sync}, logger)
	if err != nil {
		return err
	}
	// Served by one process, the folder kept the guests' order lists in
	// memory; the instances about to share it read them from documents.
	if err := saveGuestOrderLists(ctx, emb.URI(), logger); err != nil {
		emb.Close()
		return err
	}
	fmt.Fprintf(stdout, "embedded database ready: MONGODB_URI=%s\n", emb.URI())
	<-ctx.Done()
	emb.Close()
	return nil
}

func saveGuestOrderLists(ctx context.Context, uri string, logger *slog.Logger) error {
	st, err := store.Open(ctx, store.Config{URI: uri}, logger)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	n, err := st.SaveGuestOrderLists(ctx)
	if err != nil {
		return err
	}
	logger.Info("guests' order lists saved for shared use", "guests", n)
	return nil
}

func runKeys(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "rotate" {
		return errors.New(`usage: barhub keys rotate [--data DIR | --mongodb-uri URI]`)
	}
	a, err := openCommand(ctx, "keys rotate", args[1:], getenv, stdout)
	if err != nil || a == nil {
		return err
	}
	defer a.store.Close(context.Background())
	kid, err := a.keys.Rotate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new signing key %s; tokens signed by older keys stay valid until they expire (%s)\n", kid, a.cfg.TokenTTL)
	return nil
}

// readyMessage is what barhub prints once it listens on listen: the
// addresses to open, as this machine (Local) and as a phone on the same
// network (Network), never the 0.0.0.0 or [::] it listens on.
func readyMessage(listen string, lan []netip.Addr) string {
	local, network := publicurl.LocalURLs(listen, lan)
	var parts []string
	if local != "" {
		parts = append(parts, "Local "+local)
	}
	for _, u := range network {
		parts = append(parts, "Network "+u)
	}
	if local != "" && len(network) == 0 {
		host, _, _ := net.SplitHostPort(listen)
		if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
			parts = append(parts, "(no network address found: phones cannot reach it)")
		}
	}
	return "barhub is ready: " + strings.Join(parts, "  ")
}

// warnPublicURL says at start when invitation links would not open on a
// phone (docs/INVITATIONS.md), and which addresses would.
func warnPublicURL(ctx context.Context, st *store.Store, cfg *config, listen string, logger *slog.Logger) {
	flag, chosen := "", ""
	if cfg.PublicURLSet {
		flag = cfg.PublicURL
	}
	c, err := st.PublicURLChoice(ctx)
	if err == nil {
		chosen = c
	}
	lan := cfg.lanAddrs()
	u, source := publicurl.Resolve(flag, chosen, listen, lan)
	if source == publicurl.SourceFlag && chosen != "" && chosen != flag {
		logger.Info("--public-url wins over the address picked on the admin page", "publicUrl", flag, "picked", chosen)
	}
	r := publicurl.Check(u, listen, lan)
	switch r.Level {
	case "warning":
		logger.Warn("invitation links will not open on phones: "+r.Problem, "publicUrl", r.URL, "try", strings.Join(r.Suggestions, " "), "fix", "--public-url, or pick an address on the admin page")
	case "info":
		logger.Info(r.Problem, "publicUrl", r.URL)
	default:
		logger.Info("invitation links use "+r.URL, "publicUrl", r.URL, "source", source)
	}
}
