package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
)

type loadConfig struct {
	baseURL     string
	code, last  string
	token       string
	n           int
	mode        string
	rate        int
	duration    time.Duration
	rounds      int
	concurrency int
	publishers  int
	batch       int
	pid         int
	wait        time.Duration
	settle      time.Duration
	topicPrefix string
	cpuProfile  string
}

func parseLoadFlags(args []string) (loadConfig, error) {
	var c loadConfig
	fs := flag.NewFlagSet("hubload", flag.ContinueOnError)
	fs.StringVar(&c.baseURL, "url", "http://127.0.0.1:8080", "barhub base `url`")
	fs.StringVar(&c.code, "code", "", "admin sign-in `code`")
	fs.StringVar(&c.last, "last", "", "admin last name")
	fs.StringVar(&c.token, "token", "", "admin bearer `token` instead of -code/-last")
	fs.IntVar(&c.n, "n", 1000, "number of sockets")
	fs.StringVar(&c.mode, "mode", "broadcast", "broadcast: every socket on \"guests\"; guests: one guest topic per socket, one event each per round")
	fs.IntVar(&c.rate, "rate", 20, "broadcasts per second (broadcast mode)")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to publish (broadcast mode)")
	fs.IntVar(&c.rounds, "rounds", 5, "rounds (guests mode)")
	fs.IntVar(&c.concurrency, "concurrency", 32, "sockets opened at once")
	fs.IntVar(&c.publishers, "publishers", 32, "announcement requests in flight (guests mode)")
	fs.IntVar(&c.batch, "batch", 0, "guests mode: name this many guests in one announcement request (\"guestIds\")")
	fs.IntVar(&c.pid, "pid", 0, "server `pid`, to report its RSS and CPU")
	fs.DurationVar(&c.wait, "wait", 5*time.Second, "how long to wait for stragglers after the last publish")
	fs.DurationVar(&c.settle, "settle", 2*time.Second, "pause after connecting, before measuring idle memory")
	fs.StringVar(&c.topicPrefix, "guest-prefix", "load-", "guest id prefix (guests mode)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the measured phase to `file`")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.n < 1 || c.rate < 1 || c.rounds < 1 || c.concurrency < 1 || c.publishers < 1 {
		return c, errors.New("-n, -rate, -rounds, -concurrency and -publishers must be positive")
	}
	if c.mode != "broadcast" && c.mode != "guests" {
		return c, fmt.Errorf("unknown -mode %q", c.mode)
	}
	if c.token == "" && (c.code == "" || c.last == "") {
		return c, errors.New("give -code and -last of an admin, or -token")
	}
	return c, nil
}

// result is what one run measured.
type result struct {
	Sockets            int
	Expected           int64
	Delivered          int64
	Dups, Gaps         int
	Closed             int64
	P50, P95, P99, Max time.Duration
	Rounds             []time.Duration
	PublishErrors      atomic.Int64
	ToolCPU            float64 // share of one core while publishing
	ServerCPU          float64
	Wall               time.Duration // the measured phase
	// Connect runs from the first ticket request to the last socket's
	// subscription: a reconnect storm of N sockets, Concurrency at once.
	Connect time.Duration
	// ConnectCPU is the server's CPU time over the connect phase.
	ConnectCPU time.Duration
	// ConnectToolCPU is this tool's own, over the same phase: the two
	// share the cores, so the storm's wall time is their sum over two.
	ConnectToolCPU  time.Duration
	ServerRSSBefore int64
	ServerRSSIdle   int64
	ServerRSSEnd    int64
}

func load(ctx context.Context, cfg loadConfig, out io.Writer) (*result, error) {
	if err := raiseOpenFiles(uint64(cfg.n) + 1024); err != nil {
		return nil, err
	}
	base, err := url.Parse(cfg.baseURL)
	if err != nil {
		return nil, fmt.Errorf("-url: %w", err)
	}
	hc := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: max(cfg.concurrency, cfg.publishers) + 4},
	}
	api := &apiClient{hc: hc, base: strings.TrimRight(cfg.baseURL, "/"), token: cfg.token}
	if api.token == "" {
		if err := api.login(ctx, cfg.code, cfg.last); err != nil {
			return nil, err
		}
	}

	res := &result{Sockets: cfg.n}
	res.ServerRSSBefore = rss(cfg.pid)

	msgs := cfg.rate * int(cfg.duration/time.Second)
	if cfg.mode == "guests" {
		msgs = cfg.rounds
	}
	var t totals
	connect0, ccpu0, tcpu0 := time.Now(), procCPU(cfg.pid), selfCPU()
	rd, err := newReaders(cfg.n, &t)
	if err != nil {
		return nil, err
	}
	// After the sockets' net.Conns are closed (defers run last first).
	defer rd.close()
	socks, err := openSockets(ctx, cfg, api, base, msgs, rd)
	res.Connect = time.Since(connect0)
	res.ConnectCPU = procCPU(cfg.pid) - ccpu0
	res.ConnectToolCPU = selfCPU() - tcpu0
	defer func() {
		for _, s := range socks {
			s.nc.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "%d sockets subscribed in %s (%d at once: ticket, upgrade, subscribe); settling %s\n",
		len(socks), ms(res.Connect), cfg.concurrency, cfg.settle)
	time.Sleep(cfg.settle)
	res.ServerRSSIdle = rss(cfg.pid)

	if cfg.cpuProfile != "" {
		stop, err := startCPUProfile(cfg.cpuProfile)
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	cpu0, scpu0, wall0 := selfCPU(), procCPU(cfg.pid), time.Now()
	switch cfg.mode {
	case "broadcast":
		res.Expected = int64(msgs) * int64(cfg.n)
		broadcast(ctx, cfg, api, msgs, &res.PublishErrors)
		waitFor(ctx, &t, res.Expected, cfg.wait)
	case "guests":
		res.Expected = int64(cfg.rounds) * int64(cfg.n)
		for r := 0; r < cfg.rounds; r++ {
			before := t.delivered.Load()
			start := time.Now()
			guestRound(ctx, cfg, api, &res.PublishErrors)
			waitFor(ctx, &t, before+int64(cfg.n), cfg.wait)
			res.Rounds = append(res.Rounds, time.Duration(t.lastRecv.Load()-start.UnixNano()))
		}
	}
	wall := time.Since(wall0)
	res.Wall = wall
	res.ToolCPU = (selfCPU() - cpu0).Seconds() / wall.Seconds()
	if cfg.pid > 0 {
		res.ServerCPU = (procCPU(cfg.pid) - scpu0).Seconds() / wall.Seconds()
	}
	res.ServerRSSEnd = rss(cfg.pid)
	res.Delivered = t.delivered.Load()
	res.Closed = t.closed.Load()

	var lat []uint32
	for _, s := range socks {
		lat = append(lat, s.lat...)
		res.Dups += s.dups
		res.Gaps += s.gaps
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		i := min(int(p*float64(len(lat))), len(lat)-1)
		return time.Duration(lat[i]) * time.Microsecond
	}
	res.P50, res.P95, res.P99, res.Max = pct(.50), pct(.95), pct(.99), pct(1)
	report(out, cfg, res)
	return res, nil
}

func openSockets(ctx context.Context, cfg loadConfig, api *apiClient, base *url.URL, msgs int, rd *readers) ([]*sock, error) {
	ws := *base
	ws.Scheme = "ws"
	if base.Scheme == "https" {
		return nil, errors.New("hubload speaks plain ws:// only; point it at the instance, not a TLS proxy")
	}
	ws.Path = "/ws"
	socks := make([]*sock, cfg.n)
	jobs := make(chan int)
	errc := make(chan error, cfg.concurrency)
	var wg sync.WaitGroup
	for w := 0; w < cfg.concurrency; w++ {
		wg.Go(func() {
			tickets := newTicketConn(base.Host, api.token)
			defer tickets.close()
			for i := range jobs {
				topic := live.TopicGuests
				if cfg.mode == "guests" {
					topic = live.GuestTopic(cfg.topicPrefix + strconv.Itoa(i))
				}
				var err error
				for attempt := 0; attempt < 5; attempt++ {
					var ticket string
					ticket, err = tickets.ticket()
					if err != nil {
						continue
					}
					u := ws
					u.RawQuery = "ticket=" + url.QueryEscape(ticket)
					var s *sock
					s, err = dial(&u, topic, 30*time.Second, msgs)
					if err == nil {
						socks[i] = s
						err = rd.add(i, s)
						break
					}
					time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
				}
				if err != nil {
					select {
					case errc <- fmt.Errorf("socket %d: %w", i, err):
					default:
					}
				}
			}
		})
	}
	for i := 0; i < cfg.n; i++ {
		select {
		case jobs <- i:
		case err := <-errc:
			close(jobs)
			wg.Wait()
			return compact(socks), err
		case <-ctx.Done():
			close(jobs)
			wg.Wait()
			return compact(socks), ctx.Err()
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errc:
		return compact(socks), err
	default:
	}
	deadline := time.Now().Add(30 * time.Second)
	for rd.t.subscribed.Load() < int64(cfg.n) {
		if time.Now().After(deadline) {
			return socks, fmt.Errorf("only %d of %d sockets subscribed", rd.t.subscribed.Load(), cfg.n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return socks, nil
}

func compact(socks []*sock) []*sock {
	return slices.DeleteFunc(socks, func(s *sock) bool { return s == nil })
}

// broadcast publishes msgs announcements to "guests" at cfg.rate.
func broadcast(ctx context.Context, cfg loadConfig, api *apiClient, msgs int, errs *atomic.Int64) {
	interval := time.Second / time.Duration(cfg.rate)
	start := time.Now()
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := 0; i < msgs && ctx.Err() == nil; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := api.announce(ctx, []announcement{{Text: "load " + strconv.Itoa(i), SentAt: time.Now().UnixNano()}}, false); err != nil {
				errs.Add(1)
				fmt.Fprintln(os.Stderr, "publish:", err)
			}
		})
	}
	wg.Wait()
}

// guestRound sends one announcement to each socket's guest topic.
func guestRound(ctx context.Context, cfg loadConfig, api *apiClient, errs *atomic.Int64) {
	jobs := make(chan []int)
	var wg sync.WaitGroup
	for w := 0; w < cfg.publishers; w++ {
		wg.Go(func() {
			for ids := range jobs {
				batch := make([]announcement, len(ids))
				for k, i := range ids {
					batch[k] = announcement{Text: "round", GuestID: cfg.topicPrefix + strconv.Itoa(i)}
				}
				now := time.Now().UnixNano()
				for k := range batch {
					batch[k].SentAt = now
				}
				if err := api.announce(ctx, batch, cfg.batch > 0); err != nil {
					errs.Add(1)
					fmt.Fprintln(os.Stderr, "publish:", err)
				}
			}
		})
	}
	step := max(cfg.batch, 1)
	for i := 0; i < cfg.n; i += step {
		ids := make([]int, 0, step)
		for j := i; j < min(i+step, cfg.n); j++ {
			ids = append(ids, j)
		}
		jobs <- ids
	}
	close(jobs)
	wg.Wait()
}

func waitFor(ctx context.Context, t *totals, want int64, grace time.Duration) {
	deadline := time.Now().Add(grace)
	last := t.delivered.Load()
	for t.delivered.Load() < want && ctx.Err() == nil {
		// The grace period restarts while deliveries keep coming.
		if n := t.delivered.Load(); n != last {
			last, deadline = n, time.Now().Add(grace)
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func report(out io.Writer, cfg loadConfig, r *result) {
	fmt.Fprintf(out, "mode %s, %d sockets", cfg.mode, r.Sockets)
	if cfg.mode == "broadcast" {
		fmt.Fprintf(out, ", %d broadcasts at %d/s", r.Expected/int64(r.Sockets), cfg.rate)
	} else {
		fmt.Fprintf(out, ", %d rounds", cfg.rounds)
	}
	fmt.Fprintf(out, "\ndelivered %d/%d (lost %d), duplicates %d, gaps %d, sockets closed %d, publish errors %d\n",
		r.Delivered, r.Expected, r.Expected-r.Delivered, r.Dups, r.Gaps, r.Closed, r.PublishErrors.Load())
	fmt.Fprintf(out, "latency p50 %s p95 %s p99 %s max %s\n", ms(r.P50), ms(r.P95), ms(r.P99), ms(r.Max))
	fmt.Fprintf(out, "connect %d sockets %s; hubload CPU %.0f µs per connect\n", r.Sockets, ms(r.Connect),
		float64(r.ConnectToolCPU.Microseconds())/float64(max(r.Sockets, 1)))
	if cfg.pid > 0 && r.Sockets > 0 {
		fmt.Fprintf(out, "server CPU %.0f µs per connect (%.2f s over the connect phase)\n",
			float64(r.ConnectCPU.Microseconds())/float64(r.Sockets), r.ConnectCPU.Seconds())
	}
	if len(r.Rounds) > 0 {
		parts := make([]string, len(r.Rounds))
		for i, d := range r.Rounds {
			parts[i] = ms(d)
		}
		fmt.Fprintf(out, "rounds %s\n", strings.Join(parts, " "))
	}
	perDelivery := func(share float64) float64 {
		if r.Delivered == 0 {
			return 0
		}
		return share * r.Wall.Seconds() / float64(r.Delivered) * 1e6
	}
	fmt.Fprintf(out, "measured %.1fs; hubload CPU %.0f%% of a core (%.1f µs per delivery)\n", r.Wall.Seconds(), 100*r.ToolCPU, perDelivery(r.ToolCPU))
	if cfg.pid > 0 {
		fmt.Fprintf(out, "server CPU %.1f µs per delivery\n", perDelivery(r.ServerCPU))
		perSocket := float64(r.ServerRSSIdle-r.ServerRSSBefore) / float64(r.Sockets)
		fmt.Fprintf(out, "server CPU %.0f%% of a core; RSS %.1f MB before, %.1f MB idle with sockets (%.1f KB per socket), %.1f MB at the end\n",
			100*r.ServerCPU, mb(r.ServerRSSBefore), mb(r.ServerRSSIdle), perSocket/1024, mb(r.ServerRSSEnd))
	}
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + "ms" }
func mb(b int64) float64        { return float64(b) / (1 << 20) }

type announcement struct {
	Text     string   `json:"text"`
	GuestID  string   `json:"guestId,omitempty"`
	GuestIDs []string `json:"guestIds,omitempty"`
	SentAt   int64    `json:"sentAt"`
}

type apiClient struct {
	hc    *http.Client
	base  string
	token string
}

func (a *apiClient) do(ctx context.Context, path string, body, into any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if a.token != "" {
			req.Header.Set("Authorization", "Bearer "+a.token)
		}
		resp, err := a.hc.Do(req)
		if err != nil {
			return fmt.Errorf("POST %s: %w", path, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests && attempt < 50 {
			time.Sleep(retryWait(resp.Header.Get("Retry-After")))
			continue
		}
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("POST %s: %s: %s", path, resp.Status, bytes.TrimSpace(data))
		}
		if into != nil {
			if err := json.Unmarshal(data, into); err != nil {
				return fmt.Errorf("POST %s: decode %s: %w", path, data, err)
			}
		}
		return nil
	}
}

// retryWait is how long a 429 asks to wait: its Retry-After in seconds,
// or a tenth of a second without one.
func retryWait(retryAfter string) time.Duration {
	if s, err := strconv.Atoi(retryAfter); err == nil {
		return time.Duration(s) * time.Second
	}
	return 100 * time.Millisecond
}

func (a *apiClient) login(ctx context.Context, code, last string) error {
	var resp struct {
		Token string `json:"token"`
		Role  string `json:"role"`
	}
	if err := a.do(ctx, "/api/auth/login", map[string]string{"code": code, "lastName": last}, &resp); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if resp.Role != string(guest.RoleAdmin) {
		return fmt.Errorf("sign in: %s is a %s; hubload needs an admin, who may subscribe to any topic", code, resp.Role)
	}
	a.token = resp.Token
	return nil
}

// announce sends batch one request each, or, with asList, as one request
// naming every guest in "guestIds" (all with the first one's text).
func (a *apiClient) announce(ctx context.Context, batch []announcement, asList bool) error {
	if asList {
		one := announcement{Text: batch[0].Text, SentAt: batch[0].SentAt}
		for _, an := range batch {
			one.GuestIDs = append(one.GuestIDs, an.GuestID)
		}
		return a.do(ctx, "/api/admin/announcements", one, nil)
	}
	for _, an := range batch {
		if err := a.do(ctx, "/api/admin/announcements", an, nil); err != nil {
			return err
		}
	}
	return nil
}

// raiseOpenFiles lifts the soft limit on open files to need, or as far as
// the hard limit allows; it fails only when that is not enough.
func raiseOpenFiles(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("read open-files limit: %w", err)
	}
	if lim.Cur >= need {
		return nil
	}
	if lim.Max < need {
		// Only a privileged process may raise the hard limit.
		raised := lim
		raised.Max, raised.Cur = need, need
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			return nil
		}
	}
	lim.Cur = min(need, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("raise open-files limit: %w", err)
	}
	if lim.Cur < need {
		return fmt.Errorf("open-files limit is %d, %d needed: raise the hard limit (ulimit -Hn)", lim.Cur, need)
	}
	return nil
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU reads a process's user+system time from /proc/<pid>/stat.
func procCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name, which may contain spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// rss reads a process's resident set in bytes.
func rss(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
