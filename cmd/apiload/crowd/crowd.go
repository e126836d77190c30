// Package crowd plays a whole party against running barhub instances, as
// its guests, staff and host would on the night: the guest list imported,
// the doors opening (every guest signing in within a few seconds, each
// phone reading the event and the menu and opening its live socket), every
// phone asking at once, the door checking people in, the Wi-Fi dropping
// every socket at once (twice), an order rush, an announcement, and the
// host's desk and /readyz watched throughout.
//
// It asserts what a party needs: every request answered (no 5xx, no
// timeout, no refusal), nothing lost (each order placed once and its
// "ready" on its guest's phone; each announcement on every phone, also
// those that were reconnecting when it was sent; every sign-in recorded),
// and /readyz saying ready while all of that works. The test of the
// default server (cmd/barhub) runs it with 300 guests; `make load` with
// 1,000 and 3,000, on one embedded instance and on two sharing barhub db.
package crowd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/barhub/barhub/live"
)

// Config says how big the party is and where it is served.
type Config struct {
	// URLs are the instances (http://host:port); phones are spread over
	// them in turn, as a load balancer would.
	URLs []string
	// AdminCode and AdminLastName sign the host in.
	AdminCode, AdminLastName string
	// Guests to import and bring in (default 300).
	Guests int
	// SignInOver is how long the doors take: every guest signs in within
	// it, evenly spread (default 10 s).
	SignInOver time.Duration
	// Rush is how many guests order within one second (default 100, at
	// most Guests).
	Rush int
	// Blips is how many times every socket drops at once (default 2).
	Blips int
	// Bartenders serve the rush (default 4).
	Bartenders int
	// ForwardedFor gives each phone its own address in X-Forwarded-For;
	// the instances must trust the loopback proxy (--trusted-proxies).
	// Without it every phone shares the tool's address, as behind one NAT.
	ForwardedFor bool
	// Events the installation holds (default 1): the others are made from
	// the first over the API with its hosts and menu before the guests
	// come, so every sign-in looks across them; the crowd is the first's.
	Events int
	// Deadline bounds each wait for live events (default 30 s).
	Deadline time.Duration
	// Log, when set, gets a line per step as it ends.
	Log io.Writer
}

func (c *Config) defaults() {
	if c.Guests <= 0 {
		c.Guests = 300
	}
	if c.SignInOver <= 0 {
		c.SignInOver = 10 * time.Second
	}
	if c.Rush <= 0 {
		c.Rush = 100
	}
	c.Rush = min(c.Rush, c.Guests)
	if c.Blips <= 0 {
		c.Blips = 2
	}
	if c.Bartenders <= 0 {
		c.Bartenders = 4
	}
	if c.Deadline <= 0 {
		c.Deadline = 30 * time.Second
	}
}

// Step is one step's figures: each call's latency, and the calls that
// failed.
type Step struct {
	Name     string
	Calls    int
	Errors   int
	Elapsed  time.Duration
	P50, P99 time.Duration
	Max      time.Duration
	// FirstError says what the first failure was.
	FirstError string
}

func (s Step) String() string {
	line := fmt.Sprintf("%-22s %6d calls %4d errors in %6.2fs  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms",
		s.Name, s.Calls, s.Errors, s.Elapsed.Seconds(), ms(s.P50), ms(s.P99), ms(s.Max))
	if s.FirstError != "" {
		line += "  first error: " + s.FirstError
	}
	return line
}

// Report is what a party showed.
type Report struct {
	Guests int
	Steps  []Step
	// Problems lists every broken promise: a failed call, something
	// lost, /readyz saying "not ready". Empty when the night went well.
	Problems []string
	// Readyz counts the probes of /readyz, and NotReady those that did
	// not say ready.
	Readyz, NotReady int
}

// Table is the report as a Markdown table, for docs/BENCHMARKS.md.
func (r Report) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| step (%d guests) | calls | errors | p50 ms | p99 ms | max ms | took s |\n|---|---|---|---|---|---|---|\n", r.Guests)
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %.1f | %.1f | %.2f |\n", s.Name, s.Calls, s.Errors, ms(s.P50), ms(s.P99), ms(s.Max), s.Elapsed.Seconds())
	}
	fmt.Fprintf(&b, "\n/readyz: %d probes, %d not ready.\n", r.Readyz, r.NotReady)
	return b.String()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// party is one run's state.
type party struct {
	cfg    Config
	client *http.Client
	appKey string

	host, bar  *person
	bartenders []*person // serving the rush, each their own person
	guests     []*person
	phones     []*phone
	barSocket  *socket

	mu       sync.Mutex
	report   Report
	problems []string
}

// person is someone signed in.
type person struct {
	id, code, lastName, token string
	addr                      string // X-Forwarded-For, or ""
	url                       string // the instance this person uses
}

// Run plays the party and reports it. The error is for a party that could
// not be set up at all; broken promises are the report's Problems.
func Run(ctx context.Context, cfg Config) (Report, error) {
	cfg.defaults()
	if len(cfg.URLs) == 0 {
		return Report{}, errors.New("crowd: no instance to play against")
	}
	transport := &http.Transport{MaxIdleConns: 4096, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute}
	defer transport.CloseIdleConnections()
	p := &party{cfg: cfg, client: &http.Client{Transport: transport, Timeout: 30 * time.Second}}
	p.report.Guests = cfg.Guests
	if err := p.setUp(ctx); err != nil {
		return p.report, err
	}
	defer p.hangUp()

	watchCtx, stopWatching := context.WithCancel(ctx)
	var watching sync.WaitGroup
	watching.Add(2)
	var readyz, notReady atomic.Int64
	go func() {
		defer watching.Done()
		p.watchReadyz(watchCtx, &readyz, &notReady)
	}()
	desk := newTimings("desk: stats and list")
	go func() {
		defer watching.Done()
		p.watchDesk(watchCtx, desk)
	}()

	p.doorsOpen(ctx)
	p.everyoneAtOnce(ctx)
	p.door(ctx)
	for i := range cfg.Blips {
		p.blip(ctx, i+1)
	}
	p.rush(ctx)
	p.announce(ctx)
	p.signInsRecorded(ctx)

	stopWatching()
	watching.Wait()
	p.add(desk.step())
	p.report.Readyz, p.report.NotReady = int(readyz.Load()), int(notReady.Load())
	if n := notReady.Load(); n > 0 {
		p.problem("/readyz said not ready %d times of %d while the party went on", n, readyz.Load())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.Problems = p.problems
	return p.report, nil
}

func (p *party) problem(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.problems) < 50 {
		p.problems = append(p.problems, fmt.Sprintf(format, args...))
	}
}

func (p *party) add(s Step) {
	if s.Errors > 0 {
		p.problem("%s: %d of %d calls failed, the first: %s", s.Name, s.Errors, s.Calls, s.FirstError)
	}
	p.mu.Lock()
	p.report.Steps = append(p.report.Steps, s)
	p.mu.Unlock()
	if p.cfg.Log != nil {
		fmt.Fprintln(p.cfg.Log, s)
	}
}

// call is one HTTP request as a person (nil: nobody signed in) and its
// answer, which must have status want.
func (p *party) call(ctx context.Context, who *person, method, path string, body []byte, want int, header ...string) ([]byte, error) {
	url := p.cfg.URLs[0]
	if who != nil && who.url != "" {
		url = who.url
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.appKey != "" {
		req.Header.Set("X-Api-Key", p.appKey)
	}
	if who != nil {
		if who.token != "" {
			req.Header.Set("Authorization", "Bearer "+who.token)
		}
		if who.addr != "" {
			req.Header.Set("X-Forwarded-For", who.addr)
		}
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: read the answer: %w", method, path, err)
	}
	if resp.StatusCode != want {
		e := &statusError{status: resp.StatusCode, msg: fmt.Sprintf("%s %s: %d %.160s", method, path, resp.StatusCode, b)}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			e.retryAfter = time.Duration(secs) * time.Second
		}
		return b, e
	}
	return b, nil
}

// statusError is an answer with another status than the one wanted.
type statusError struct {
	status     int
	retryAfter time.Duration
	msg        string
}

func (e *statusError) Error() string { return e.msg }

// callPolitely is call that, told "too many requests", waits as long as
// the server asks and tries again, a few times, as a bar tablet does: the
// tool's bartenders move orders faster than hands can, into the per-person
// rate limit (50 a second by default).
func (p *party) callPolitely(ctx context.Context, who *person, method, path string, want int) error {
	for try := 0; ; try++ {
		_, err := p.call(ctx, who, method, path, nil, want)
		var se *statusError
		if try == 4 || !errors.As(err, &se) || se.status != http.StatusTooManyRequests {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(max(se.retryAfter, 100*time.Millisecond)):
		}
	}
}

// callJSON is call with a JSON answer decoded into out.
func (p *party) callJSON(ctx context.Context, who *person, method, path string, body any, want int, out any, header ...string) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	b, err := p.call(ctx, who, method, path, raw, want, header...)
	if err != nil || out == nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// signIn signs who in with their code and last name.
func (p *party) signIn(ctx context.Context, who *person) error {
	var res struct {
		Token string `json:"token"`
		Guest struct {
			ID string `json:"id"`
		} `json:"guest"`
	}
	if err := p.callJSON(ctx, who, "POST", "/api/auth/login", map[string]string{"code": who.code, "lastName": who.lastName}, 200, &res); err != nil {
		return err
	}
	who.token, who.id = res.Token, res.Guest.ID
	return nil
}

// setUp signs the host in, imports the guests, makes the bartenders and
// opens the bar's socket.
func (p *party) setUp(ctx context.Context) error {
	p.host = &person{code: p.cfg.AdminCode, lastName: p.cfg.AdminLastName}
	if err := p.signIn(ctx, p.host); err != nil {
		return fmt.Errorf("crowd: the host's sign-in: %w", err)
	}
	for i := 2; i <= p.cfg.Events; i++ {
		body := map[string]any{"name": fmt.Sprintf("Crowd event %d", i), "menu": true}
		if err := p.callJSON(ctx, p.host, "POST", "/api/admin/events", body, 201, nil); err != nil {
			return fmt.Errorf("crowd: make event %d: %w", i, err)
		}
	}
	var key struct {
		Key string `json:"key"`
	}
	if err := p.callJSON(ctx, nil, "GET", "/api/app-key", nil, 200, &key); err == nil {
		p.appKey = key.Key
	}
	t := newTimings("import")
	var file bytes.Buffer
	file.WriteString("firstName,lastName\n")
	for i := range p.cfg.Guests {
		fmt.Fprintf(&file, "Guest,Crowd%05d\n", i)
	}
	start := time.Now()
	var imported struct {
		Created int `json:"created"`
	}
	b, err := p.call(ctx, p.host, "POST", "/api/admin/guests/import", file.Bytes(), 200, "Content-Type", "text/csv")
	t.done(start, err)
	if err == nil {
		err = json.Unmarshal(b, &imported)
	}
	if err != nil || imported.Created != p.cfg.Guests {
		return fmt.Errorf("crowd: import %d guests: created %d: %v", p.cfg.Guests, imported.Created, err)
	}
	p.add(t.step())
	list, err := p.call(ctx, p.host, "GET", "/api/admin/guests.csv", nil, 200)
	if err != nil {
		return fmt.Errorf("crowd: export the guests: %w", err)
	}
	rows, err := csv.NewReader(bytes.NewReader(list)).ReadAll()
	if err != nil || len(rows) < 1 {
		return fmt.Errorf("crowd: read the exported guests: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		if last := row[col["lastName"]]; strings.HasPrefix(last, "Crowd") {
			g := &person{id: row[col["id"]], code: row[col["code"]], lastName: last}
			i := len(p.guests)
			g.url = p.cfg.URLs[i%len(p.cfg.URLs)]
			if p.cfg.ForwardedFor {
				g.addr = fmt.Sprintf("10.%d.%d.%d", 100+i>>16, (i>>8)&255, i&255)
			}
			p.guests = append(p.guests, g)
		}
	}
	if len(p.guests) != p.cfg.Guests {
		return fmt.Errorf("crowd: the export lists %d of the %d imported guests", len(p.guests), p.cfg.Guests)
	}
	for i := range p.cfg.Bartenders {
		var made struct {
			Code string `json:"code"`
		}
		last := fmt.Sprintf("Tender%d", i+1)
		if err := p.callJSON(ctx, p.host, "POST", "/api/admin/guests", map[string]any{"firstName": "Bar", "lastName": last, "role": "bartender"}, 201, &made); err != nil {
			return fmt.Errorf("crowd: make a bartender: %w", err)
		}
		b := &person{code: made.Code, lastName: last, url: p.cfg.URLs[i%len(p.cfg.URLs)]}
		if err := p.signIn(ctx, b); err != nil {
			return fmt.Errorf("crowd: a bartender's sign-in: %w", err)
		}
		p.bartenders = append(p.bartenders, b)
	}
	// The first bartender's tablet shows the queue; the same person
	// works the door.
	p.bar = p.bartenders[0]
	p.barSocket, err = p.open(ctx, p.bar, []string{live.TopicBar}, nil)
	if err != nil {
		return fmt.Errorf("crowd: the bar's socket: %w", err)
	}
	return nil
}

func (p *party) hangUp() {
	for _, ph := range p.phones {
		if ph != nil {
			ph.sock.close()
		}
	}
	if p.barSocket != nil {
		p.barSocket.close()
	}
}

// watchReadyz asks every instance's /readyz four times a second.
func (p *party) watchReadyz(ctx context.Context, probes, notReady *atomic.Int64) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		for _, url := range p.cfg.URLs {
			probeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, err := p.call(probeCtx, &person{url: url}, "GET", "/readyz", nil, 200)
			cancel()
			if ctx.Err() != nil {
				return
			}
			probes.Add(1)
			if err != nil {
				notReady.Add(1)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watchDesk is the host's laptop: the figures and the first page of the
// guest list, every half second.
func (p *party) watchDesk(ctx context.Context, t *timings) {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, path := range []string{"/api/admin/stats", "/api/admin/guests?limit=50"} {
			start := time.Now()
			_, err := p.call(ctx, p.host, "GET", path, nil, 200)
			if ctx.Err() != nil {
				return
			}
			t.done(start, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// doorsOpen: every guest signs in, evenly spread over SignInOver, and
// their phone reads the event and the menu and opens its socket.
func (p *party) doorsOpen(ctx context.Context) {
	signIn, phoneUp := newTimings("doors: sign-in"), newTimings("doors: phone ready")
	p.phones = make([]*phone, len(p.guests))
	gap := p.cfg.SignInOver / time.Duration(len(p.guests))
	start := time.Now()
	var wg sync.WaitGroup
	for i, g := range p.guests {
		if d := time.Until(start.Add(time.Duration(i) * gap)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			err := p.signIn(ctx, g)
			signIn.done(t0, err)
			if err != nil {
				return
			}
			for _, path := range []string{"/api/me", "/api/event", "/api/drinks"} {
				if _, err := p.call(ctx, g, "GET", path, nil, 200); err != nil {
					phoneUp.done(t0, err)
					return
				}
			}
			ph := &phone{who: g, seen: map[string]bool{}}
			ph.sock, err = p.open(ctx, g, []string{live.GuestTopic(g.id), live.TopicGuests}, ph.heard)
			phoneUp.done(t0, err)
			if err == nil {
				p.phones[i] = ph
			}
		}()
	}
	wg.Wait()
	p.add(signIn.step())
	p.add(phoneUp.step())
}

// everyoneAtOnce: every phone asks at the same moment, as after an
// announcement or a page reload: the activity of the whole party lands in
// one second.
func (p *party) everyoneAtOnce(ctx context.Context) {
	t := newTimings("everyone at once")
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for _, ph := range p.phones {
		if ph == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			t0 := time.Now()
			_, err := p.call(ctx, ph.who, "GET", "/api/me", nil, 200)
			t.done(t0, err)
		}()
	}
	close(gate)
	wg.Wait()
	p.add(t.step())
	// The next second's flush has them all; the event still answers.
	time.Sleep(1500 * time.Millisecond)
	t = newTimings("after: the event")
	t0 := time.Now()
	_, err := p.call(ctx, p.host, "GET", "/api/event", nil, 200)
	t.done(t0, err)
	p.add(t.step())
}

// door: two volunteers check half the guests in by code.
func (p *party) door(ctx context.Context) {
	t := newTimings("door: check-in")
	arrivals := make(chan *person)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range arrivals {
				t0 := time.Now()
				_, err := p.call(ctx, p.bar, "POST", "/api/door/checkin", fmt.Appendf(nil, `{"code":%q}`, g.code), 200)
				t.done(t0, err)
			}
		}()
	}
	for i, g := range p.guests {
		if i%2 == 0 {
			arrivals <- g
		}
	}
	close(arrivals)
	wg.Wait()
	p.add(t.step())
}

// blip: every socket drops at once; while they are down the host
// announces something; every phone reconnects at once with what it last
// saw, and must get the announcement it missed.
func (p *party) blip(ctx context.Context, n int) {
	for _, ph := range p.phones {
		if ph != nil {
			ph.sock.close()
		}
	}
	text := fmt.Sprintf("blip %d: the band starts in ten minutes", n)
	if err := p.callJSON(ctx, p.host, "POST", "/api/admin/announcements", map[string]string{"text": text}, 202, nil); err != nil {
		p.problem("blip %d: announce while the sockets are down: %v", n, err)
		return
	}
	t := newTimings(fmt.Sprintf("blip %d: reconnect", n))
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for _, ph := range p.phones {
		if ph == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			t0 := time.Now()
			var err error
			ph.sock, err = p.open(ctx, ph.who, []string{live.GuestTopic(ph.who.id), live.TopicGuests}, ph.heard, ph.sock.since()...)
			t.done(t0, err)
		}()
	}
	close(gate)
	wg.Wait()
	p.add(t.step())
	p.everyPhoneHears(ctx, fmt.Sprintf("blip %d", n), text)
}

// everyPhoneHears waits until every phone has heard the announcement text.
func (p *party) everyPhoneHears(ctx context.Context, what, text string) {
	deadline := time.Now().Add(p.cfg.Deadline)
	for {
		missing := 0
		for _, ph := range p.phones {
			if ph != nil && !ph.has(text) {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.problem("%s: %d of %d phones never heard %q", what, missing, len(p.phones), text)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rush: Rush guests order within one second; the bartenders start, ready
// and serve every order as it comes; each guest's phone must hear its own
// order is ready.
func (p *party) rush(ctx context.Context) {
	place := newTimings("rush: place order")
	serve := newTimings("rush: start/ready/serve")
	type drink struct {
		ID        string `json:"id"`
		Available bool   `json:"available"`
	}
	var menu struct {
		Drinks []drink `json:"drinks"`
	}
	err := p.callJSON(ctx, p.guests[0], "GET", "/api/drinks", nil, 200, &menu)
	drinks := slices.DeleteFunc(menu.Drinks, func(d drink) bool { return !d.Available })
	if err == nil && len(drinks) == 0 {
		// A party started with no menu: the host writes a short one.
		for _, name := range []string{"Lemonade", "Spritz", "Gin Tonic"} {
			var d drink
			body := map[string]any{"name": name, "section": "Tonight", "alcoholFree": true, "ingredients": []map[string]any{{"name": "soda", "amount": 10, "unit": "cl"}}}
			if err = p.callJSON(ctx, p.host, "POST", "/api/admin/drinks", body, 201, &d); err != nil {
				break
			}
			drinks = append(drinks, d)
		}
	}
	if err != nil || len(drinks) == 0 {
		p.problem("rush: read the menu: %v (%d drinks available)", err, len(drinks))
		return
	}
	orders := make(chan string, p.cfg.Rush)
	var served sync.WaitGroup
	for _, bartender := range p.bartenders {
		served.Add(1)
		go func() {
			defer served.Done()
			for id := range orders {
				for _, action := range []string{"start", "ready", "serve"} {
					t0 := time.Now()
					err := p.callPolitely(ctx, bartender, "POST", "/api/bar/orders/"+id+"/"+action, 200)
					serve.done(t0, err)
					if err != nil {
						break
					}
				}
			}
		}()
	}
	type placed struct{ guest, order string }
	var mu sync.Mutex
	var all []placed
	gap := time.Second / time.Duration(p.cfg.Rush)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range p.cfg.Rush {
		ph := p.phones[i*len(p.phones)/p.cfg.Rush]
		if ph == nil {
			continue
		}
		if d := time.Until(start.Add(time.Duration(i) * gap)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Appendf(nil, `{"items":[{"drinkId":%q,"qty":1}]}`, drinks[i%len(drinks)].ID)
			key := fmt.Sprintf("rush-%d", i)
			var o struct {
				ID string `json:"id"`
			}
			t0 := time.Now()
			b, err := p.call(ctx, ph.who, "POST", "/api/orders", body, 201, "Idempotency-Key", key)
			if err != nil && b == nil {
				// No answer: the retry with the same key must not make a
				// second order.
				b, err = p.call(ctx, ph.who, "POST", "/api/orders", body, 201, "Idempotency-Key", key)
			}
			place.done(t0, err)
			if err != nil || json.Unmarshal(b, &o) != nil || o.ID == "" {
				return
			}
			mu.Lock()
			all = append(all, placed{guest: ph.who.id, order: o.ID})
			mu.Unlock()
			orders <- o.ID
		}()
	}
	wg.Wait()
	close(orders)
	served.Wait()
	p.add(place.step())
	p.add(serve.step())

	// Every order once, in the host's list; each "ready" on its own
	// guest's phone; the bar saw each placed.
	var list struct {
		Total int `json:"total"`
	}
	if err := p.callJSON(ctx, p.host, "GET", "/api/admin/orders?limit=1", nil, 200, &list); err != nil {
		p.problem("rush: the host's order list: %v", err)
	} else if list.Total != len(all) {
		p.problem("rush: the host's list holds %d orders, %d were placed", list.Total, len(all))
	}
	phoneOf := map[string]*phone{}
	for _, ph := range p.phones {
		if ph != nil {
			phoneOf[ph.who.id] = ph
		}
	}
	deadline := time.Now().Add(p.cfg.Deadline)
	for _, o := range all {
		for !phoneOf[o.guest].has("ready:"+o.order) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !phoneOf[o.guest].has("ready:" + o.order) {
			p.problem("rush: order %s never showed ready on its guest's phone", o.order)
		}
		for !p.barSocket.has("placed:"+o.order) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !p.barSocket.has("placed:" + o.order) {
			p.problem("rush: the bar's socket never saw order %s placed", o.order)
		}
	}
}

// announce: the host speaks to the whole party.
func (p *party) announce(ctx context.Context) {
	t := newTimings("announcement")
	text := "last call at the bar"
	t0 := time.Now()
	err := p.callJSON(ctx, p.host, "POST", "/api/admin/announcements", map[string]string{"text": text}, 202, nil)
	t.done(t0, err)
	p.add(t.step())
	if err == nil {
		p.everyPhoneHears(ctx, live.EventAnnouncement, text)
	}
}

// signInsRecorded: the host's figures count every guest as signed in:
// the activity of the whole party was written, none of it lost.
func (p *party) signInsRecorded(ctx context.Context) {
	deadline := time.Now().Add(p.cfg.Deadline)
	var stats struct {
		NeverLoggedIn int `json:"neverLoggedIn"`
		CheckedIn     int `json:"checkedIn"`
	}
	for {
		err := p.callJSON(ctx, p.host, "GET", "/api/admin/stats", nil, 200, &stats)
		if err == nil && stats.NeverLoggedIn == 0 {
			return
		}
		if time.Now().After(deadline) {
			p.problem("the host's figures: %d guests never signed in after all did (%v)", stats.NeverLoggedIn, err)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// timings gathers one step's latencies.
type timings struct {
	name  string
	mu    sync.Mutex
	start time.Time
	lat   []time.Duration
	errs  int
	first string
}

func newTimings(name string) *timings { return &timings{name: name, start: time.Now()} }

func (t *timings) done(start time.Time, err error) {
	d := time.Since(start)
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.errs++
		if t.first == "" {
			t.first = err.Error()
		}
		return
	}
	t.lat = append(t.lat, d)
}

func (t *timings) step() Step {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := Step{Name: t.name, Calls: len(t.lat) + t.errs, Errors: t.errs, Elapsed: time.Since(t.start), FirstError: t.first}
	if len(t.lat) > 0 {
		lat := slices.Clone(t.lat)
		slices.Sort(lat)
		s.P50, s.P99, s.Max = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)], lat[len(lat)-1]
	}
	return s
}
