package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/live"
)

type result struct {
	name      string
	n, errors int
	elapsed   time.Duration
	perSecond float64
	p50, p99  time.Duration
	max       time.Duration
	note      string
}

func (r result) String() string {
	s := fmt.Sprintf("%-7s %7d ok %5d errors in %5.1fs: %8.0f/s  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms",
		r.name, r.n, r.errors, r.elapsed.Seconds(), r.perSecond, ms(r.p50), ms(r.p99), ms(r.max))
	if r.note != "" {
		s += "  (" + r.note + ")"
	}
	return s
}

func summarize(name string, lat []time.Duration, errors int, elapsed time.Duration) result {
	r := result{name: name, n: len(lat), errors: errors, elapsed: elapsed}
	if len(lat) == 0 {
		return r
	}
	slices.Sort(lat)
	r.perSecond = float64(len(lat)) / elapsed.Seconds()
	r.p50 = lat[len(lat)/2]
	r.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
	r.max = lat[len(lat)-1]
	return r
}

// do sends one request and drains the answer.
func (s *server) do(ctx context.Context, method, path, token string, body []byte, header ...string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", s.appKey)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// closedLoop runs fn from concurrency workers until the duration is over
// and summarises the latencies of the calls that succeeded.
func closedLoop(ctx context.Context, name string, o options, fn func(ctx context.Context, worker, i int) error) result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var mu sync.Mutex
	var all []time.Duration
	var errs atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for w := range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 4096)
			for i := 0; ctx.Err() == nil; i++ {
				t0 := time.Now()
				err := fn(ctx, w, i)
				if ctx.Err() != nil {
					break // cut off by the deadline: neither a result nor an error
				}
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r := summarize(name, all, int(errs.Load()), time.Since(start))
	if e, ok := firstErr.Load().(string); ok {
		r.note = "first error: " + e
	}
	return r
}

// menuLoad: phones reading the whole menu (signed in, as the guest page
// does), each read a full 200 answer.
func menuLoad(ctx context.Context, s *server, o options) (result, error) {
	// Warm up: every guest's first read verifies their token and looks up
	// their dietary answer once; the measurement is of the reads after.
	sem := make(chan struct{}, o.concurrency)
	var wg sync.WaitGroup
	for _, g := range s.guests {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			s.do(ctx, "GET", "/api/drinks", g.token, nil)
		}()
	}
	wg.Wait()
	r := closedLoop(ctx, "menu", o, func(ctx context.Context, w, i int) error {
		g := s.guests[(w*7919+i)%len(s.guests)]
		status, body, err := s.do(ctx, "GET", "/api/drinks", g.token, nil)
		if err != nil {
			return err
		}
		if status != 200 || len(body) < 1000 {
			return fmt.Errorf("GET /api/drinks: %d %.80s", status, body)
		}
		return nil
	})
	return r, nil
}

// orderLoad: guests placing orders, each with its own Idempotency-Key,
// while bartenders make and serve them, so the queue stays as long as a
// busy bar's rather than growing without end.
func orderLoad(ctx context.Context, s *server, o options) (result, error) {
	var seq atomic.Int64
	placed := make(chan placedOrder, 100000)
	var bar sync.WaitGroup
	var barErrs, served atomic.Int64
	barCtx, stopBar := context.WithCancel(ctx)
	defer stopBar()
	for range o.bartenders {
		bar.Add(1)
		go func() {
			defer bar.Done()
			for {
				select {
				case <-barCtx.Done():
					return
				case o := <-placed:
					for _, action := range []string{"start", "ready", "serve"} {
						status, _, err := s.do(barCtx, "POST", "/api/bar/orders/"+o.id+"/"+action, s.bartenders[o.event].token, nil)
						if err != nil || status != 200 {
							if barCtx.Err() == nil {
								barErrs.Add(1)
							}
							break
						}
					}
					served.Add(1)
				}
			}
		}()
	}
	writes0 := s.store.Writes()
	r := closedLoop(ctx, "orders", o, func(ctx context.Context, w, i int) error {
		n := seq.Add(1)
		g := s.guests[int(n)%len(s.guests)]
		body := fmt.Sprintf(`{"items":[{"drinkId":%q,"qty":1}]}`, s.drinks[int(n)%len(s.drinks)])
		status, b, err := s.do(ctx, "POST", "/api/orders", g.token, []byte(body), "Idempotency-Key", fmt.Sprintf("load-%d", n))
		if err != nil {
			return err
		}
		if status != 201 {
			return fmt.Errorf("POST /api/orders: %d %.120s", status, b)
		}
		var o struct{ ID string }
		if json.Unmarshal(b, &o) == nil {
			select {
			case placed <- placedOrder{id: o.ID, event: g.event}:
			default:
			}
		}
		return nil
	})
	writes := s.store.Writes() - writes0
	stopBar()
	bar.Wait()
	r.note = fmt.Sprintf("%d bartenders served %d meanwhile, %d still waiting, %d bar errors", o.bartenders, served.Load(), len(placed), barErrs.Load()) + noteSep(r.note)
	if r.n > 0 {
		// With -bartenders 0 this is what a placement writes; otherwise
		// the bar's moves of the same time are in it too.
		r.note += noteSep(fmt.Sprintf("%d database writes, %.2f per placement", writes, float64(writes)/float64(r.n)))
	}
	return r, nil
}

// placedOrder is an order for its event's bartender to make.
type placedOrder struct {
	id    string
	event int
}

func noteSep(s string) string {
	if s == "" {
		return ""
	}
	return "; " + s
}

// phone is one guest's WebSocket.
type phone struct {
	ws *websocket.Conn
}

func (s *server) connect(ctx context.Context, g person, onReady func(orderID string, published, at time.Time)) (*phone, error) {
	status, b, err := s.do(ctx, "POST", "/api/ws/ticket", g.token, nil)
	if err != nil || status != 200 {
		return nil, fmt.Errorf("ticket: %d %v %s", status, err, b)
	}
	var tk struct{ Ticket string }
	if err := json.Unmarshal(b, &tk); err != nil {
		return nil, err
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		return nil, err
	}
	sub, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": live.InEvent(s.events[g.event], live.GuestTopic(g.id))})
	if err := ws.Write(ctx, websocket.MessageText, sub); err != nil {
		ws.CloseNow()
		return nil, err
	}
	for {
		_, msg, err := ws.Read(ctx)
		if err != nil {
			ws.CloseNow()
			return nil, err
		}
		if bytes.Contains(msg, []byte(`"type":"subscribed"`)) {
			break
		}
	}
	go func() {
		var ev struct {
			Event string    `json:"event"`
			Time  time.Time `json:"time"`
			Data  struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		for {
			_, msg, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			at := time.Now()
			if !bytes.Contains(msg, []byte(`"order.ready"`)) {
				continue
			}
			if json.Unmarshal(msg, &ev) == nil && ev.Event == live.EventOrderReady {
				onReady(ev.Data.ID, ev.Time, at)
			}
		}
	}()
	return &phone{ws: ws}, nil
}

// readyLoad: every guest's phone connected; orders placed at a steady
// rate, each started and readied by the bar over HTTP; the latency is from
// just before the bar's "ready" request to the guest's socket receiving
// order.ready for that order.
func readyLoad(ctx context.Context, s *server, o options) (result, error) {
	var sent sync.Map // order id → time the ready request was sent
	var mu sync.Mutex
	var lat, hubLat, readyReq []time.Duration
	onReady := func(id string, published, at time.Time) {
		if v, ok := sent.LoadAndDelete(id); ok {
			mu.Lock()
			lat = append(lat, at.Sub(v.(time.Time)))
			hubLat = append(hubLat, at.Sub(published))
			mu.Unlock()
		}
	}
	connectStart := time.Now()
	phones, err := s.connectAll(ctx, onReady)
	defer func() {
		for _, p := range phones {
			if p != nil {
				p.ws.Close(websocket.StatusNormalClosure, "")
			}
		}
	}()
	if err != nil {
		return result{}, err
	}
	connected := time.Since(connectStart)

	var failed atomic.Int64
	var firstErr atomic.Value
	interval := time.Duration(float64(time.Second) / o.rate)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	deadline := time.Now().Add(o.duration)
	start := time.Now()
	var pipelines sync.WaitGroup
	placed, skipped := 0, 0
	// Open loop, but with a ceiling on orders in flight: a server that
	// cannot keep up shows as skipped orders and a lower achieved rate,
	// not as a queue that grows until every latency is minutes.
	inflight := make(chan struct{}, o.inflight)
	for now := range tick.C {
		if now.After(deadline) || ctx.Err() != nil {
			break
		}
		select {
		case inflight <- struct{}{}:
		default:
			skipped++
			continue
		}
		n := placed
		placed++
		pipelines.Add(1)
		go func() {
			defer pipelines.Done()
			defer func() { <-inflight }()
			err := s.orderToReady(ctx, n, &sent, func(d time.Duration) {
				mu.Lock()
				readyReq = append(readyReq, d)
				mu.Unlock()
			})
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}()
	}
	pipelines.Wait()
	// Events still on their way.
	wait := time.Now().Add(5 * time.Second)
	for time.Now().Before(wait) {
		mu.Lock()
		got := len(lat)
		mu.Unlock()
		if got+int(failed.Load()) >= placed {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	missing := 0
	sent.Range(func(_, _ any) bool { missing++; return true })
	r := summarize("ready", lat, int(failed.Load())+missing, elapsed)
	r.perSecond = float64(placed) / elapsed.Seconds()
	hub := summarize("hub", hubLat, 0, elapsed)
	req := summarize("request", readyReq, 0, elapsed)
	r.note = fmt.Sprintf("%d phones connected in %.1fs; %.0f orders/s asked, %d placed, %d skipped with %d in flight; latency = bar's ready request → order.ready on the phone; of which publish → phone p50 %.2f ms, p99 %.2f ms; the ready request itself p50 %.2f ms, p99 %.2f ms",
		len(phones), connected.Seconds(), o.rate, placed, skipped, o.inflight, ms(hub.p50), ms(hub.p99), ms(req.p50), ms(req.p99))
	if s.pushes != nil {
		// Pushes go out behind the requests: give the last ones a moment.
		pushed := 0
		for wait := time.Now().Add(10 * time.Second); time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
			pushed = 0
			for _, d := range s.devices {
				pushed += len(d.Messages())
			}
			if pushed >= len(lat) {
				break
			}
		}
		r.note += fmt.Sprintf("; %d Web Push notifications decrypted at the push service", pushed)
		if errs := s.pushes.Errors(); len(errs) > 0 {
			r.note += fmt.Sprintf("; %d push protocol errors, first: %s", len(errs), errs[0])
		}
	}
	if missing > 0 {
		r.note += fmt.Sprintf("; %d events never arrived", missing)
	}
	if e, ok := firstErr.Load().(string); ok {
		r.note += "; first error: " + e
	}
	return r, nil
}

func (s *server) orderToReady(ctx context.Context, n int, sent *sync.Map, readyTook func(time.Duration)) error {
	g := s.guests[n%len(s.guests)]
	body := fmt.Sprintf(`{"items":[{"drinkId":%q,"qty":1}]}`, s.drinks[n%len(s.drinks)])
	status, b, err := s.do(ctx, "POST", "/api/orders", g.token, []byte(body), "Idempotency-Key", fmt.Sprintf("ready-%d", n))
	if err != nil || status != 201 {
		return fmt.Errorf("place: %d %v %.120s", status, err, b)
	}
	var o struct{ ID string }
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	bar := s.bartenders[g.event].token
	if status, b, err := s.do(ctx, "POST", "/api/bar/orders/"+o.ID+"/start", bar, nil); err != nil || status != 200 {
		return fmt.Errorf("start: %d %v %.120s", status, err, b)
	}
	at := time.Now()
	sent.Store(o.ID, at)
	if status, b, err := s.do(ctx, "POST", "/api/bar/orders/"+o.ID+"/ready", bar, nil); err != nil || status != 200 {
		sent.Delete(o.ID)
		return fmt.Errorf("ready: %d %v %.120s", status, err, b)
	}
	readyTook(time.Since(at))
	// Handed over, as a bar does, so the open orders stay few.
	if status, b, err := s.do(ctx, "POST", "/api/bar/orders/"+o.ID+"/serve", bar, nil); err != nil || status != 200 {
		return fmt.Errorf("serve: %d %v %.120s", status, err, b)
	}
	return nil
}
