// Command apiload measures barhub's API under load: menu reads per second,
// order placements per second, and how long an order's "ready" takes to
// reach the guest's phone while a thousand phones are connected.
//
// It starts barhub's API in this process on a real listener, with the
// embedded database (or MONGODB_URI) and the in-process hub (or Redis with
// -redis), seeds the starter menu and creates the guests, then drives it
// over HTTP and WebSockets like phones and a bar tablet would:
//
//	go run ./cmd/apiload                       # every scenario, embedded store, in-process hub
//	go run ./cmd/apiload -redis "$REDIS_URL"   # the same with Redis
//	go run ./cmd/apiload -scenario ready -guests 1000 -rate 100 -duration 20s
//	go run ./cmd/apiload -scenario night -orders 100000 -rate 120   # memory over a long night
//
// Client and server share the machine, as they do in barhub's other
// benchmarks; the figures are for comparing runs on one machine.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"
)

type options struct {
	scenario    string
	dbSync      string
	duration    time.Duration
	concurrency int
	guests      int
	bartenders  int
	inflight    int
	rate        float64
	redisURL    string
	mongoURI    string
	limiter     bool
	logLevel    string
	cpuProfile  string
	push        bool
	deskGuests  int
	// events spreads the guests over that many events (events.go).
	events     int
	importRows int
	// The crowd scenario plays against running instances (crowdload.go).
	urls, code, last string
	signInOver       time.Duration
	night            nightOptions
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "apiload:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("apiload", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.scenario, "scenario", "all", "menu, orders, ready, desk, night, crowd or all (all but desk, night and crowd)")
	fs.IntVar(&o.deskGuests, "desk-guests", 10000, "guests on the list in the desk scenario (stored straight into the database)")
	fs.IntVar(&o.importRows, "import", 2000, "rows of the CSV imported in one request at the start of the desk scenario (0: none)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long each scenario runs")
	fs.IntVar(&o.concurrency, "concurrency", 32, "clients sending requests at once (menu, orders)")
	fs.IntVar(&o.bartenders, "bartenders", 4, "bartenders making and serving the orders placed (orders)")
	fs.IntVar(&o.inflight, "inflight", 64, "most orders in flight at once in the ready scenario; beyond it orders are skipped and counted")
	fs.IntVar(&o.guests, "guests", 1000, "guests, each with a phone connected over WebSocket in the ready scenario")
	fs.IntVar(&o.events, "events", 1, "events on the server, each made from the first with its guests and menu; guest i is signed in to event i mod events, and each event's bartender serves its orders (crowd: the others are made over the API with the hosts and menu, and the crowd is the first's)")
	fs.Float64Var(&o.rate, "rate", 100, "orders per second in the ready scenario")
	fs.StringVar(&o.redisURL, "redis", "", "Redis `url` for the hub's backplane, the rate limits and the menu version (empty: in-process)")
	fs.StringVar(&o.dbSync, "db-sync", "full", "embedded database durability: full or normal (as barhub's --db-sync)")
	fs.StringVar(&o.mongoURI, "mongodb-uri", os.Getenv("MONGODB_URI"), "MongoDB `uri` (empty: embedded FerretDB in a temporary directory)")
	fs.BoolVar(&o.limiter, "rate-limits", true, "keep the rate limiter in the path (set so high it never refuses)")
	fs.BoolVar(&o.push, "push", false, "every guest also has a Web Push device at a test push service in this process, so each ready is encrypted and sent")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (server included) to `file`")
	fs.StringVar(&o.logLevel, "log", "", "log the server at this `level` (debug, info, warn, error) to stderr; empty logs nothing")
	fs.StringVar(&o.urls, "urls", "", "crowd: comma-separated `URLs` of running barhub instances (started with --trusted-proxies 127.0.0.1/32)")
	fs.StringVar(&o.code, "code", "", "crowd: the host's sign-in `code`")
	fs.StringVar(&o.last, "last", "", "crowd: the host's last `name`")
	fs.DurationVar(&o.signInOver, "sign-in-over", 10*time.Second, "crowd: every guest signs in within this")
	o.night.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.scenario == "crowd" {
		return crowdLoad(ctx, o, out)
	}
	scenarios := []string{o.scenario}
	if o.scenario == "all" {
		scenarios = []string{"menu", "orders", "ready"}
	}
	for _, s := range scenarios {
		switch s {
		case "menu", "orders", "ready", "desk", "night":
		default:
			return fmt.Errorf("unknown scenario %q: use menu, orders, ready, desk, night or all", s)
		}
	}

	backend := "embedded FerretDB (SQLite)"
	if o.mongoURI != "" {
		backend = "MongoDB"
	}
	hubKind := "in-process hub"
	if o.redisURL != "" {
		hubKind = "Redis"
	}
	pushNote := ""
	if o.push {
		pushNote = ", each with a Web Push device"
	}
	fmt.Fprintf(out, "apiload: %s, %s, %d guests%s\n", backend, hubKind, o.guests, pushNote)

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	srv, err := startServer(ctx, o)
	if err != nil {
		return err
	}
	defer srv.close()

	var results []result
	for _, s := range scenarios {
		var r result
		var err error
		cpu0 := cpuTime()
		switch s {
		case "menu":
			r, err = menuLoad(ctx, srv, o)
		case "orders":
			r, err = orderLoad(ctx, srv, o)
		case "ready":
			r, err = readyLoad(ctx, srv, o)
		case "night":
			r, err = nightLoad(ctx, srv, o, out)
		case "desk":
			var rs []result
			if rs, err = deskLoad(ctx, srv, o); err == nil {
				for _, r := range rs[:len(rs)-1] {
					results = append(results, r)
					fmt.Fprintln(out, r.String())
				}
				r = rs[len(rs)-1]
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
		if r.n > 0 {
			// This process is server and client: on a shared machine the
			// CPU a request costs says more than its wall-clock time.
			cpu := cpuTime() - cpu0
			r.note += noteSep(fmt.Sprintf("%.1f ms of CPU (server and client) per %s", ms(cpu)/float64(r.n), r.name))
			r.note = strings.TrimPrefix(r.note, "; ")
		}
		results = append(results, r)
		fmt.Fprintln(out, r.String())
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| scenario | store / pub-sub | requests | errors | per second | p50 ms | p99 ms | max ms |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		fmt.Fprintf(out, "| %s | %s / %s | %d | %d | %.0f | %.2f | %.2f | %.2f |\n",
			r.name, strings.Split(backend, " ")[0], hubKind, r.n, r.errors, r.perSecond, ms(r.p50), ms(r.p99), ms(r.max))
	}
	return nil
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
