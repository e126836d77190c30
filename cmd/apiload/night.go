package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	httppprof "net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// nightOptions are the night scenario's own flags.
type nightOptions struct {
	orders      int
	sampleEvery int
	heapDir     string
	readEvery   int
	pprofAddr   string
}

func (n *nightOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&n.orders, "orders", 100000, "orders placed, made and served in the night scenario")
	fs.IntVar(&n.sampleEvery, "sample-every", 10000, "orders between the night scenario's memory samples")
	fs.Func("heapprofile-dir", "write a heap profile at each of the night's samples to `dir` (heap-<orders>.pb.gz), sampling an allocation every 32 KB", func(v string) error {
		n.heapDir = v
		// Set while the flags are read, before the server starts: the
		// default of one sample per 512 KB sees too little of the small
		// objects a night keeps, and a rate changed later would weigh the
		// earlier samples wrongly.
		runtime.MemProfileRate = 32 << 10
		return nil
	})
	fs.StringVar(&n.pprofAddr, "pprof-addr", "", "serve net/http/pprof on this loopback `host:port` during the night, to look inside a run that grows or stalls")
	fs.IntVar(&n.readEvery, "read-every", 10, "in the night scenario, every n-th order's guest also reads their orders (GET /api/orders) once it is served (0: never)")
}

// memSample is the process's memory at one moment of the night. Server
// and load share this process, so the figures hold both; the load's own
// state is bounded (a window's latencies, the phones), so what grows is
// the server's.
type memSample struct {
	orders     int
	elapsed    time.Duration
	heapInuse  uint64 // bytes in in-use heap spans, after a collection
	heapLive   uint64 // bytes of live objects, after a collection
	rss        uint64 // resident set, from /proc/self/status
	goroutines int
	// The window that ended with the sample: its achieved rate and the
	// ready → phone latency.
	rate     float64
	p50, p99 time.Duration
}

// readRSS reads the process's resident set size (Linux).
func readRSS() (uint64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("read VmRSS %q: %w", v, err)
			}
			return kb * 1024, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no VmRSS in /proc/self/status")
}

// sampleMemory collects the garbage first, so two samples compare what
// is kept rather than where the collector happened to be, and writes a
// heap profile when asked to.
func sampleMemory(orders int, heapDir string) (memSample, error) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss, err := readRSS()
	if err != nil {
		return memSample{}, err
	}
	if heapDir != "" {
		f, err := os.Create(filepath.Join(heapDir, fmt.Sprintf("heap-%d.pb.gz", orders)))
		if err != nil {
			return memSample{}, err
		}
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return memSample{}, fmt.Errorf("heap profile: %w", err)
		}
	}
	return memSample{orders: orders, heapInuse: m.HeapInuse, heapLive: m.HeapAlloc, rss: rss, goroutines: runtime.NumGoroutine()}, nil
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

func (m memSample) row() string {
	lat := "—"
	if m.orders > 0 {
		lat = fmt.Sprintf("%.0f/s, p50 %.1f ms, p99 %.1f ms", m.rate, ms(m.p50), ms(m.p99))
	}
	return fmt.Sprintf("| %d | %s | %.1f | %.1f | %.1f | %d | %s |",
		m.orders, m.elapsed.Truncate(time.Second), mb(m.heapInuse), mb(m.heapLive), mb(m.rss), m.goroutines, lat)
}

// nightLoad is a night compressed: every guest's phone connected, and
// -orders orders placed at -rate, each started, readied and served by the
// bar, as the ready scenario does, with a guest now and then reading
// their own orders. Every -sample-every orders it lets the orders in
// flight finish, collects the garbage and samples the process's memory
// and goroutines, so a table shows whether anything grows with the
// orders. Unlike the ready scenario it skips no order: at -inflight
// orders under way it waits, and the rate achieved says how fast the
// machine went.
func nightLoad(ctx context.Context, s *server, o options, out io.Writer) (result, error) {
	n := o.night
	if n.orders <= 0 || n.sampleEvery <= 0 {
		return result{}, fmt.Errorf("-orders and -sample-every must be positive")
	}
	if n.heapDir != "" {
		if err := os.MkdirAll(n.heapDir, 0o755); err != nil {
			return result{}, err
		}
	}
	if n.pprofAddr != "" {
		ln, err := net.Listen("tcp", n.pprofAddr)
		if err != nil {
			return result{}, fmt.Errorf("pprof: %w", err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", httppprof.Index)
		mux.HandleFunc("/debug/pprof/profile", httppprof.Profile)
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(ln)
		defer srv.Close()
	}
	var sent sync.Map // order id → time the ready request was sent
	var mu sync.Mutex
	var lat []time.Duration // this window's ready → phone
	var all []time.Duration // every window's p99, to summarise the night
	var arrived atomic.Int64
	onReady := func(id string, _, at time.Time) {
		if v, ok := sent.LoadAndDelete(id); ok {
			mu.Lock()
			lat = append(lat, at.Sub(v.(time.Time)))
			mu.Unlock()
			arrived.Add(1)
		}
	}
	phones, err := s.connectAll(ctx, onReady)
	defer closePhones(phones)
	if err != nil {
		return result{}, err
	}

	fmt.Fprintf(out, "night: %d orders at %.0f/s asked (at most %d in flight), %d phones connected; a sample every %d orders\n\n",
		n.orders, o.rate, o.inflight, len(phones), n.sampleEvery)
	fmt.Fprintln(out, "| orders | elapsed | Go heap in use MB | live heap MB | RSS MB | goroutines | the window: rate, ready → phone |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	first, err := sampleMemory(0, n.heapDir)
	if err != nil {
		return result{}, err
	}
	fmt.Fprintln(out, first.row())

	var failed, reads atomic.Int64
	var firstErr atomic.Value
	fail := func(err error) {
		failed.Add(1)
		firstErr.CompareAndSwap(nil, err.Error())
	}
	interval := time.Duration(float64(time.Second) / o.rate)
	inflight := make(chan struct{}, o.inflight)
	start := time.Now()
	samples := []memSample{first}
	placed := 0
	for placed < n.orders && ctx.Err() == nil {
		windowStart, window := time.Now(), min(n.sampleEvery, n.orders-placed)
		arrived.Store(0)
		failed0 := failed.Load()
		var pipelines sync.WaitGroup
		next := time.Now()
		for range window {
			// Paced, but never skipping: a server behind its rate makes
			// the night longer, not smaller.
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
			next = next.Add(interval)
			select {
			case inflight <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				break
			}
			i := placed
			placed++
			pipelines.Add(1)
			go func() {
				defer pipelines.Done()
				defer func() { <-inflight }()
				if err := s.orderToReady(ctx, i, &sent, func(time.Duration) {}); err != nil {
					fail(err)
					return
				}
				if n.readEvery > 0 && i%n.readEvery == 0 {
					if err := s.checkMyOrders(ctx, i, o.inflight); err != nil {
						fail(err)
						return
					}
					reads.Add(1)
				}
			}()
		}
		pipelines.Wait()
		done := int64(window) - (failed.Load() - failed0)
		for wait := time.Now().Add(5 * time.Second); arrived.Load() < done && time.Now().Before(wait); {
			time.Sleep(10 * time.Millisecond)
		}
		elapsed := time.Since(windowStart)
		mu.Lock()
		w := summarize("window", lat, 0, elapsed)
		all = append(all, w.p99)
		lat = nil
		mu.Unlock()
		m, err := sampleMemory(placed, n.heapDir)
		if err != nil {
			return result{}, err
		}
		m.elapsed, m.rate, m.p50, m.p99 = time.Since(start), float64(window)/elapsed.Seconds(), w.p50, w.p99
		samples = append(samples, m)
		fmt.Fprintln(out, m.row())
	}
	elapsed := time.Since(start)
	fmt.Fprintln(out)
	missing := 0
	sent.Range(func(_, _ any) bool { missing++; return true })
	r := summarize("night", all, int(failed.Load())+missing, elapsed)
	r.n = placed
	r.perSecond = float64(placed) / elapsed.Seconds()
	r.note = fmt.Sprintf("%d orders placed, made and served with %d phones connected; %d reads of a guest's orders checked; p50/p99/max are of the windows' ready → phone p99", placed, len(phones), reads.Load())
	if len(samples) > 2 {
		// The figure the night is judged by: the last sample against the
		// one at 20 % of the night (the warm-up over).
		base := samples[max(1, len(samples)/5)]
		last := samples[len(samples)-1]
		r.note += fmt.Sprintf("; from %d to %d orders: Go heap in use %+.0f %%, RSS %+.0f %%, goroutines %+d",
			base.orders, last.orders, pct(base.heapInuse, last.heapInuse), pct(base.rss, last.rss), last.goroutines-base.goroutines)
	}
	if missing > 0 {
		r.note += fmt.Sprintf("; %d ready events never arrived", missing)
	}
	if e, ok := firstErr.Load().(string); ok {
		r.note += "; first error: " + e
	}
	return r, nil
}

func pct(from, to uint64) float64 { return 100 * (float64(to) - float64(from)) / float64(from) }

// connectAll connects every guest's phone, 32 at a time.
func (s *server) connectAll(ctx context.Context, onReady func(string, time.Time, time.Time)) ([]*phone, error) {
	phones := make([]*phone, len(s.guests))
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	var connErr atomic.Value
	for i, g := range s.guests {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, err := s.connect(ctx, g, onReady)
			if err != nil {
				connErr.CompareAndSwap(nil, err.Error())
				return
			}
			phones[i] = p
		}()
	}
	wg.Wait()
	if e, ok := connErr.Load().(string); ok {
		return phones, fmt.Errorf("connect %d phones: %s", len(s.guests), e)
	}
	return phones, nil
}

func closePhones(phones []*phone) {
	for _, p := range phones {
		if p != nil {
			p.ws.CloseNow()
		}
	}
}

// checkMyOrders reads the orders of order i's guest, as their phone's
// "my orders" does, and checks that the night so far is there: the
// guest's orders come round every len(guests) orders, so by order i the
// guest has placed i/len(guests)+1, the newest 50 of them listed, newest
// first. All are served but the few that may still be under way (i
// itself, and with fewer guests than orders in flight, the guest's next
// ones): served orders must still be listed however long ago they left
// the bar.
func (s *server) checkMyOrders(ctx context.Context, i, inflight int) error {
	g := s.guests[i%len(s.guests)]
	status, b, err := s.do(ctx, "GET", "/api/orders", g.token, nil)
	if err != nil || status != 200 {
		return fmt.Errorf("my orders: %d %v %.120s", status, err, b)
	}
	var resp struct {
		Orders []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"orders"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		return fmt.Errorf("my orders: %w", err)
	}
	want := min(50, i/len(s.guests)+1)
	if len(resp.Orders) < want {
		return fmt.Errorf("my orders after order %d: %d listed, want %d", i, len(resp.Orders), want)
	}
	underWay := 1 + inflight/len(s.guests) + 1
	for _, o := range resp.Orders[min(underWay, len(resp.Orders)):] {
		if o.Status != "served" {
			return fmt.Errorf("my orders after order %d: an earlier order is %s, want served", i, o.Status)
		}
	}
	return nil
}
