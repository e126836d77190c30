package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
)

const checkUsage = `usage: barhub check --url URL[,URL2] [--admin-code CODE --admin-last NAME] [--kill-switch]

Checks a running deployment end to end, as guests and staff use it, and
removes what it made. Credentials may come from BARHUB_CHECK_ADMIN_CODE and
BARHUB_CHECK_ADMIN_LAST instead of flags. With two URLs (two instances
behind no load balancer) the guest uses the first and the bar and the host
the second, so order.ready must cross the backplane. --kill-switch also
turns the guests' app off and on again: do it before the doors open.`

// runCheck is "barhub check": a table of steps with pass or fail and
// their times; an error (non-zero exit) when any step failed.
func runCheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stdout)
	urls := fs.String("url", getenv("BARHUB_CHECK_URL"), "base `url` of the deployment; two, comma-separated, check across instances (BARHUB_CHECK_URL)")
	code := fs.String("admin-code", getenv("BARHUB_CHECK_ADMIN_CODE"), "an admin's `code` (BARHUB_CHECK_ADMIN_CODE)")
	last := fs.String("admin-last", getenv("BARHUB_CHECK_ADMIN_LAST"), "that admin's last `name` (BARHUB_CHECK_ADMIN_LAST)")
	kill := fs.Bool("kill-switch", false, "also switch the guests' app off and on again")
	timeout := fs.Duration("timeout", 30*time.Second, "longest wait for any one step")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *urls == "" || *code == "" || *last == "" {
		return errors.New(checkUsage)
	}
	var bases []string
	for _, u := range strings.Split(*urls, ",") {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			bases = append(bases, u)
		}
	}
	if len(bases) == 0 || len(bases) > 2 {
		return errors.New("--url: one URL, or two separated by a comma")
	}
	var b [3]byte
	rand.Read(b[:])
	c := &checker{
		guestBase: bases[0], staffBase: bases[len(bases)-1],
		hc:      &http.Client{Timeout: *timeout},
		timeout: *timeout,
		run:     hex.EncodeToString(b[:]),
	}
	c.check(ctx, *code, *last, *kill)
	return c.report(stdout)
}

// checker runs the steps and keeps what they made, to remove it.
type checker struct {
	guestBase, staffBase string
	hc                   *http.Client
	timeout              time.Duration
	run                  string

	results []checkResult
	failed  bool

	admin, guest, bartender string // tokens
	appKey                  string
	guestIDs                []string
	drinkID                 string
	live                    *websocket.Conn
	events                  chan checkEvent
	// eventList is what the deployment said of its events, one line
	// each, printed beside the steps (listEvents).
	eventList []string
}

type checkResult struct {
	name string
	ok   bool
	took time.Duration
	note string
}

type checkEvent struct {
	Type  string          `json:"type"`
	Event string          `json:"event"`
	Topic string          `json:"topic"`
	Data  json.RawMessage `json:"data"`
	at    time.Time
}

// step runs fn unless an earlier step failed (each needs the one before),
// and records it.
func (c *checker) step(name string, fn func() (string, error)) {
	if c.failed {
		c.results = append(c.results, checkResult{name: name, note: "skipped: an earlier step failed"})
		return
	}
	start := time.Now()
	note, err := fn()
	r := checkResult{name: name, ok: err == nil, took: time.Since(start), note: note}
	if err != nil {
		r.note = err.Error()
		c.failed = true
	}
	c.results = append(c.results, r)
}

func (c *checker) check(ctx context.Context, code, last string, kill bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	group := "barhub-check-" + c.run
	c.step("instances ready (/readyz)", func() (string, error) {
		for _, base := range []string{c.guestBase, c.staffBase} {
			if status, err := c.do(ctx, base, "GET", "/readyz", "", nil, nil); err != nil || status != 200 {
				return "", fmt.Errorf("%s/readyz: %d %v", base, status, err)
			}
		}
		return "", nil
	})
	c.step("admin signs in", func() (string, error) {
		tok, role, err := c.login(ctx, c.staffBase, code, last)
		if err == nil && role != string(guest.RoleAdmin) {
			err = fmt.Errorf("that code is a %s's, not an admin's", role)
		}
		c.admin = tok
		return "", err
	})
	if c.admin != "" {
		c.listEvents(ctx)
	}
	// Everything made from here on is removed at the end, whatever fails.
	defer c.cleanup(context.WithoutCancel(ctx))
	var guestCode, barCode string
	c.step("throwaway guests, bartender and drink", func() (string, error) {
		for i, first := range []string{"Check", "Plus", "Bar"} {
			body := map[string]any{"firstName": first, "lastName": "Barhubcheck", "expectedGuests": 1, "groupId": group}
			if i == 2 {
				body = map[string]any{"firstName": first, "lastName": "Barhubcheck", "expectedGuests": 1, "role": "bartender"}
			}
			var g struct{ ID, Code string }
			if status, err := c.do(ctx, c.staffBase, "POST", "/api/admin/guests", c.admin, body, &g); err != nil || status != 201 {
				return "", fmt.Errorf("create %s: %d %v", first, status, err)
			}
			c.guestIDs = append(c.guestIDs, g.ID)
			switch i {
			case 0:
				guestCode = g.Code
			case 2:
				barCode = g.Code
			}
		}
		drink := map[string]any{"name": "Check " + c.run, "section": "barhub check", "tags": []string{"fresh"}, "allergens": []string{}, "alcoholFree": true,
			"ingredients": []map[string]any{{"name": "Soda water", "amount": 150, "unit": "ml"}}}
		var d struct{ ID string }
		if status, err := c.do(ctx, c.staffBase, "POST", "/api/admin/drinks", c.admin, drink, &d); err != nil || status != 201 {
			return "", fmt.Errorf("create drink: %d %v", status, err)
		}
		c.drinkID = d.ID
		return fmt.Sprintf("group %s, drink %s", group, d.ID), nil
	})
	c.step("guest signs in", func() (string, error) {
		var err error
		c.guest, _, err = c.login(ctx, c.guestBase, guestCode, "Barhubcheck")
		return "", err
	})
	c.step("guest RSVPs for the group", func() (string, error) {
		if status, err := c.do(ctx, c.guestBase, "PUT", "/api/rsvp", c.guest, map[string]any{"status": "coming", "scope": "group"}, nil); err != nil || status != 200 {
			return "", fmt.Errorf("PUT /api/rsvp: %d %v", status, err)
		}
		var plus struct{ Status string }
		if status, err := c.do(ctx, c.staffBase, "GET", "/api/admin/guests/"+c.guestIDs[1], c.admin, nil, &plus); err != nil || status != 200 || plus.Status != "coming" {
			return "", fmt.Errorf("the group's other member is %q (%d %v), want coming", plus.Status, status, err)
		}
		return "2 coming", nil
	})
	c.step("guest's live socket subscribes", func() (string, error) {
		return "", c.dial(ctx, live.GuestTopic(c.guestIDs[0]))
	})
	c.step("menu: app key, drink listed, cache answers 304", func() (string, error) {
		var k struct{ Key string }
		if status, err := c.do(ctx, c.guestBase, "GET", "/api/app-key", "", nil, &k); err != nil || status != 200 || k.Key == "" {
			return "", fmt.Errorf("GET /api/app-key: %d %v", status, err)
		}
		c.appKey = k.Key
		// Read as the signed-in guest: the menu is private unless the
		// host made it public (docs/MENU.md).
		// The menu cache may hold the version from before the new drink
		// for a moment on another instance: wait for it.
		var etag string
		err := c.until(ctx, func() (bool, error) {
			resp, body, err := c.raw(ctx, c.guestBase, "GET", "/api/drinks", c.guest, nil, "X-Api-Key", c.appKey)
			if err != nil {
				return false, err
			}
			etag = resp.Header.Get("ETag")
			return resp.StatusCode == 200 && bytes.Contains(body, []byte(`"`+c.drinkID+`"`)), nil
		})
		if err != nil {
			return "", fmt.Errorf("the new drink is not on the menu: %w", err)
		}
		if etag == "" {
			return "", errors.New("GET /api/drinks has no ETag")
		}
		resp, _, err := c.raw(ctx, c.guestBase, "GET", "/api/drinks", c.guest, nil, "X-Api-Key", c.appKey, "If-None-Match", etag)
		if err != nil || resp.StatusCode != http.StatusNotModified {
			return "", fmt.Errorf("GET /api/drinks with If-None-Match: %v %v, want 304", status(resp), err)
		}
		return "ETag " + etag, nil
	})
	var orderID string
	c.step("order, then the same order retried (Idempotency-Key)", func() (string, error) {
		body := map[string]any{"items": []map[string]any{{"drinkId": c.drinkID, "qty": 1}}}
		key := "barhub-check-" + c.run
		var o, again struct{ ID, Status string }
		if st, err := c.do(ctx, c.guestBase, "POST", "/api/orders", c.guest, body, &o, "X-Api-Key", c.appKey, "Idempotency-Key", key); err != nil || st != 201 {
			return "", fmt.Errorf("place: %d %v", st, err)
		}
		if st, err := c.do(ctx, c.guestBase, "POST", "/api/orders", c.guest, body, &again, "X-Api-Key", c.appKey, "Idempotency-Key", key); err != nil || st != 200 || again.ID != o.ID {
			return "", fmt.Errorf("retry: %d %v, order %q, want the same %q", st, err, again.ID, o.ID)
		}
		orderID = o.ID
		return "order " + o.ID + " placed once", nil
	})
	c.step("bartender signs in, starts the order", func() (string, error) {
		var err error
		if c.bartender, _, err = c.login(ctx, c.staffBase, barCode, "Barhubcheck"); err != nil {
			return "", err
		}
		if st, err := c.do(ctx, c.staffBase, "POST", "/api/bar/orders/"+orderID+"/start", c.bartender, nil, nil); err != nil || st != 200 {
			return "", fmt.Errorf("start: %d %v", st, err)
		}
		return "", nil
	})
	c.step("ready: order.ready reaches the guest's socket", func() (string, error) {
		sent := time.Now()
		if st, err := c.do(ctx, c.staffBase, "POST", "/api/bar/orders/"+orderID+"/ready", c.bartender, nil, nil); err != nil || st != 200 {
			return "", fmt.Errorf("ready: %d %v", st, err)
		}
		ev, err := c.next(ctx, live.EventOrderReady, orderID)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("order.ready %d ms after the bartender's tap", ev.at.Sub(sent).Milliseconds()), nil
	})
	c.step("order served", func() (string, error) {
		if st, err := c.do(ctx, c.staffBase, "POST", "/api/bar/orders/"+orderID+"/serve", c.bartender, nil, nil); err != nil || st != 200 {
			return "", fmt.Errorf("serve: %d %v", st, err)
		}
		return "", nil
	})
	c.step("recommendation answered", func() (string, error) {
		var queued struct{ ID string }
		if st, err := c.do(ctx, c.guestBase, "POST", "/api/recommendations", c.guest, map[string]any{"likes": []string{"fresh"}, "mood": "celebrating"}, &queued); err != nil || st != 202 {
			return "", fmt.Errorf("request: %d %v", st, err)
		}
		var rec struct{ Status, Source string }
		err := c.until(ctx, func() (bool, error) {
			st, err := c.do(ctx, c.guestBase, "GET", "/api/recommendations/"+queued.ID, c.guest, nil, &rec)
			if err != nil || st != 200 {
				return false, fmt.Errorf("GET: %d %v", st, err)
			}
			return rec.Status == "done" || rec.Status == "failed", nil
		})
		if err == nil && rec.Status != "done" {
			err = fmt.Errorf("recommendation %s", rec.Status)
		}
		return "source " + rec.Source, err
	})
	c.step("kill switch: a wrong app key is refused", func() (string, error) {
		resp, _, err := c.raw(ctx, c.guestBase, "GET", "/api/drinks", "", nil, "X-Api-Key", "not-the-key")
		if err != nil || resp.StatusCode != http.StatusForbidden {
			return "", fmt.Errorf("GET /api/drinks with a wrong key: %v %v, want 403", status(resp), err)
		}
		if !kill {
			return "not switched (add --kill-switch before the doors open)", nil
		}
		for _, on := range []bool{false, true} {
			if st, err := c.do(ctx, c.staffBase, "PUT", "/api/admin/app-key", c.admin, map[string]bool{"enabled": on}, nil); err != nil || st != 200 {
				return "", fmt.Errorf("switch the app %v: %d %v", map[bool]string{false: "off", true: "on"}[on], st, err)
			}
			want := map[bool]int{false: http.StatusServiceUnavailable, true: http.StatusOK}[on]
			err := c.until(ctx, func() (bool, error) {
				resp, _, err := c.raw(ctx, c.guestBase, "GET", "/api/drinks", c.guest, nil, "X-Api-Key", c.appKey)
				return err == nil && resp.StatusCode == want, err
			})
			if err != nil {
				return "", fmt.Errorf("with the app %v the menu did not answer %d: %w", map[bool]string{false: "off", true: "on"}[on], want, err)
			}
		}
		return "off: 503, on again: 200", nil
	})
}

// cleanup removes the guests and the drink the check made; the served
// order stays in the order history, as every served order does.
func (c *checker) cleanup(ctx context.Context) {
	if c.live != nil {
		c.live.Close(websocket.StatusNormalClosure, "check done")
	}
	if c.admin == "" || (len(c.guestIDs) == 0 && c.drinkID == "") {
		return
	}
	c.failed = false // clean up even after a failure
	c.step("remove what the check made", func() (string, error) {
		var errs []error
		for _, id := range c.guestIDs {
			if st, err := c.do(ctx, c.staffBase, "DELETE", "/api/admin/guests/"+id, c.admin, nil, nil); err != nil || st != 204 && st != 200 {
				errs = append(errs, fmt.Errorf("guest %s: %d %v", id, st, err))
			}
		}
		if c.drinkID != "" {
			if st, err := c.do(ctx, c.staffBase, "DELETE", "/api/admin/drinks/"+c.drinkID, c.admin, nil, nil); err != nil || st != 204 {
				errs = append(errs, fmt.Errorf("drink %s: %d %v", c.drinkID, st, err))
			}
		}
		note := fmt.Sprintf("%d people", len(c.guestIDs))
		if c.drinkID != "" {
			note += ", 1 drink"
		}
		return note + " (a served order stays in the order history)", errors.Join(errs...)
	})
}

// report prints the table and fails when any step did.
func (c *checker) report(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STEP\tRESULT\tTIME\tNOTE")
	passed, failed := 0, 0
	for _, r := range c.results {
		result := "pass"
		switch {
		case r.ok:
			passed++
		case strings.HasPrefix(r.note, "skipped"):
			result = "skip"
			failed++
		default:
			result = "FAIL"
			failed++
		}
		fmt.Fprintf(tw, "%s\t%s\t%d ms\t%s\n", r.name, result, r.took.Milliseconds(), r.note)
	}
	tw.Flush()
	if len(c.eventList) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EVENT\tSTATUS\tSTARTS\tPLACE\tID\t")
		for _, line := range c.eventList {
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "barhub check of %s: %d of %d steps passed\n", strings.Join(uniq(c.guestBase, c.staffBase), " and "), passed, passed+failed)
	if failed > 0 {
		return fmt.Errorf("check failed: %d of %d steps did not pass", failed, passed+failed)
	}
	return nil
}

// checkedEvent is one event of GET /api/admin/events.
type checkedEvent struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	StartsAt *time.Time `json:"startsAt"`
	Timezone string     `json:"timezone"`
	Location string     `json:"location"`
	Status   string     `json:"status"`
	Current  bool       `json:"current"`
}

// listEvents notes the deployment's events, one line each, for the
// report (docs/EVENTS.md). It is not a step: a deployment older than the
// list of events serves its party as well, and the check says so rather
// than failing it.
func (c *checker) listEvents(ctx context.Context) {
	var page struct{ Events []checkedEvent }
	st, err := c.do(ctx, c.staffBase, "GET", "/api/admin/events", c.admin, nil, &page)
	switch {
	case st == http.StatusNotFound:
		c.eventList = []string{"(this version of barhub does not list its events)"}
		return
	case err != nil || st != http.StatusOK:
		c.eventList = []string{fmt.Sprintf("(the events could not be listed: %d %v)", st, err)}
		return
	}
	if len(page.Events) == 0 {
		c.eventList = []string{"(no events registered)"}
	}
	for _, e := range page.Events {
		c.eventList = append(c.eventList, eventLine(e))
	}
}

// eventLine is one event of the report: name, status, start in the
// event's own time zone, place, id, and whether the checked server
// serves it.
func eventLine(e checkedEvent) string {
	starts := "no date"
	if e.StartsAt != nil {
		loc, err := time.LoadLocation(e.Timezone)
		if err != nil || e.Timezone == "" {
			loc = time.UTC
		}
		starts = e.StartsAt.In(loc).Format("2006-01-02 15:04") + " " + loc.String()
	}
	place := cmp.Or(e.Location, "-")
	current := ""
	if e.Current {
		current = "served here"
	}
	return strings.Join([]string{e.Name, e.Status, starts, place, e.ID, current}, "\t")
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

func status(resp *http.Response) any {
	if resp == nil {
		return "no answer"
	}
	return resp.StatusCode
}

func (c *checker) login(ctx context.Context, base, code, last string) (token, role string, err error) {
	var lr struct{ Token, Role string }
	st, err := c.do(ctx, base, "POST", "/api/auth/login", "", map[string]string{"code": code, "lastName": last}, &lr)
	if err != nil || st != 200 {
		return "", "", fmt.Errorf("sign in: %d %v", st, err)
	}
	return lr.Token, lr.Role, nil
}

// raw sends one request; header is name, value pairs.
func (c *checker) raw(ctx context.Context, base, method, path, token string, body any, header ...string) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return nil, nil, err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", method, path, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return resp, b, err
}

// do sends one JSON request and decodes a 2xx answer into out.
func (c *checker) do(ctx context.Context, base, method, path, token string, body, out any, header ...string) (int, error) {
	resp, b, err := c.raw(ctx, base, method, path, token, body, header...)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(b, &e) == nil && e.Error.Code != "" {
			return resp.StatusCode, fmt.Errorf("%s: %s", e.Error.Code, e.Error.Message)
		}
		return resp.StatusCode, nil
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// until polls cond every 100 ms for up to the step timeout.
func (c *checker) until(ctx context.Context, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var last error
	for {
		ok, err := cond()
		if ok {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("gave up after %s: %w", c.timeout, last)
			}
			return fmt.Errorf("gave up after %s", c.timeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// dial opens the guest's live socket as the phone does (a one-time
// ticket) and subscribes to topic.
func (c *checker) dial(ctx context.Context, topic string) error {
	var tk struct{ Ticket string }
	if st, err := c.do(ctx, c.guestBase, "POST", "/api/ws/ticket", c.guest, nil, &tk); err != nil || st != 200 {
		return fmt.Errorf("ticket: %d %v", st, err)
	}
	dctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	ws, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(c.guestBase, "http")+"/ws?ticket="+tk.Ticket,
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {c.guestBase}}})
	if err != nil {
		return fmt.Errorf("open the live socket: %w", err)
	}
	ws.SetReadLimit(1 << 20)
	c.live, c.events = ws, make(chan checkEvent, 64)
	go func() {
		defer close(c.events)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			ev := checkEvent{at: time.Now()}
			if json.Unmarshal(b, &ev) == nil {
				select {
				case c.events <- ev:
				default: // the check reads only a few; never block the socket
				}
			}
		}
	}()
	msg, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": topic})
	if err := ws.Write(dctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				return errors.New("the live socket closed")
			}
			if ev.Type == "subscribed" && ev.Topic == topic {
				return nil
			}
		case <-dctx.Done():
			return fmt.Errorf("not subscribed to %s within %s", topic, c.timeout)
		}
	}
}

// next waits for event name about order id on the guest's socket.
func (c *checker) next(ctx context.Context, name, id string) (checkEvent, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				return ev, errors.New("the live socket closed")
			}
			if ev.Type == "event" && ev.Event == name && bytes.Contains(ev.Data, []byte(`"`+id+`"`)) {
				return ev, nil
			}
		case <-ctx.Done():
			return checkEvent{}, fmt.Errorf("no %s on the guest's socket within %s", name, c.timeout)
		}
	}
}
