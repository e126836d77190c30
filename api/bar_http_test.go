package api

import (
	"strings"
	"sync"
	"testing"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
)

// orderIn walks a fresh order to status through legal moves.
func (e *barEnv) orderIn(status order.Status) string {
	e.t.Helper()
	// Each order in its own guest's name keeps clear of the open-order limit.
	g := e.addGuest(guestNamed("Walk"))
	v := e.order(e.tokenFor(g), 201, one("daiquiri"))
	path := map[order.Status][]string{
		order.Queued:    nil,
		order.Preparing: {"start"},
		order.Ready:     {"start", "ready"},
		order.Served:    {"start", "ready", "serve"},
		order.Cancelled: {"cancel"},
	}[status]
	for _, a := range path {
		e.move(v.ID, a, 200)
	}
	return v.ID
}

// TestEveryBarTransition tries every action from every status over HTTP:
// legal moves answer 200 with the new status, illegal ones 409 naming the
// transition.
func TestEveryBarTransition(t *testing.T) {
	e := newBarEnv(t)
	legal := map[order.Status]map[order.Action]order.Status{
		order.Queued:    {order.Start: order.Preparing, order.Cancel: order.Cancelled},
		order.Preparing: {order.MarkReady: order.Ready, order.Cancel: order.Cancelled},
		order.Ready:     {order.Serve: order.Served, order.Recall: order.Preparing},
	}
	for _, from := range []order.Status{order.Queued, order.Preparing, order.Ready, order.Served, order.Cancelled} {
		for _, a := range order.Actions {
			t.Run(string(from)+"/"+string(a), func(t *testing.T) {
				id := e.orderIn(from)
				status, raw := e.do("POST", "/api/bar/orders/"+id+"/"+string(a), e.bTok, map[string]string{"reason": "out of limes"})
				want, ok := legal[from][a]
				if !ok {
					if status != 409 || errorCode(t, raw) != "illegal_transition" || !strings.Contains(string(raw), string(from)+" → ") {
						t.Errorf("%d %s, want 409 naming %s → …", status, raw, from)
					}
					return
				}
				var o order.Order
				decodeInto(t, raw, &o)
				last := o.History[len(o.History)-1]
				if status != 200 || o.Status != want || last.From != from || last.To != want || last.ActorID != e.bartender.ID || last.ActorName != "Bea Bar" || last.At.IsZero() {
					t.Errorf("%d %s, want %s with history", status, raw, want)
				}
			})
		}
	}
}

func TestBarTransitionDetails(t *testing.T) {
	e := newBarEnv(t)
	guestEvents := listen(t, e.hub, live.GuestTopic(e.guest.ID))
	adminEvents := listen(t, e.hub, live.TopicAdmin)
	v := e.order(e.gTok, 201, one("negroni"))

	for _, tt := range []struct {
		path   string
		body   any
		status int
		code   string
	}{
		{"/api/bar/orders/" + v.ID + "/shake", nil, 404, "not_found"},
		{"/api/bar/orders/nope/start", nil, 404, "not_found"},
		{"/api/bar/orders/" + v.ID + "/cancel", nil, 400, "reason_required"},
		{"/api/bar/orders/" + v.ID + "/cancel", map[string]string{"reason": strings.Repeat("r", 201)}, 400, "reason_too_long"},
		{"/api/bar/orders/" + v.ID + "/cancel", map[string]string{"reason": "out of limes\u202e"}, 400, "invalid_reason"},
		{"/api/bar/orders/" + v.ID + "/cancel", map[string]string{"reason": "\u200b"}, 400, "invalid_reason"},
		{"/api/bar/orders/" + v.ID + "/start", map[string]int{"version": 7}, 409, "order_changed"},
		{"/api/bar/orders/" + v.ID + "/start", `{"version": "one"}`, 400, "invalid_field"},
	} {
		status, raw := e.do("POST", tt.path, e.bTok, tt.body)
		if status != tt.status || errorCode(t, raw) != tt.code {
			t.Errorf("POST %s %v: %d %s, want %d %s", tt.path, tt.body, status, raw, tt.status, tt.code)
		}
	}
	// An empty body and a whitespace body are both fine for start.
	if status, raw := e.do("POST", "/api/bar/orders/"+v.ID+"/start", e.bTok, " \n"); status != 200 {
		t.Fatalf("start: %d %s", status, raw)
	}
	e.move(v.ID, "ready", 200)
	recalled := e.move(v.ID, "recall", 200)
	if recalled.Status != order.Preparing || recalled.ReadyAt != nil || recalled.StartedAt == nil {
		t.Errorf("recall: %+v", recalled)
	}
	e.move(v.ID, "ready", 200)
	served := e.move(v.ID, "serve", 200)
	var steps []string
	for _, h := range served.History {
		steps = append(steps, string(h.From)+">"+string(h.To))
	}
	if strings.Join(steps, " ") != ">queued queued>preparing preparing>ready ready>preparing preparing>ready ready>served" || served.Version != 6 || served.ServedAt == nil {
		t.Errorf("history %s (v%d)", strings.Join(steps, " "), served.Version)
	}
	got := guestEvents.named(t, "order.ready")
	var names []string
	guestEvents.mu.Lock()
	for _, ev := range guestEvents.all {
		names = append(names, ev.Event)
	}
	guestEvents.mu.Unlock()
	if len(got) != 2 || eventOrder(t, got[1]).Status != order.Ready {
		t.Errorf("guest saw %q", names)
	}
	if n := len(guestEvents.named(t, "order.updated")); n != 1 {
		t.Errorf("%d order.updated (the recall), want 1", n)
	}
	if n := len(guestEvents.named(t, "order.served")); n != 1 {
		t.Errorf("%d order.served, want 1", n)
	}
	// The host's dashboard gets counts, not orders.
	sums := adminEvents.waitFor(t, live.EventOrdersSummary, func(data []byte) bool {
		return strings.Contains(string(data), `"served":1`)
	})
	if !strings.Contains(string(sums.Data), `"queued":0,"preparing":0,"ready":0,"served":1,"cancelled":0,"open":0,"total":1`) {
		t.Errorf("last summary %s", sums.Data)
	}
	if n := len(adminEvents.named(t, "order.served")); n != 0 {
		t.Errorf("admin topic got %d order events; it gets counts", n)
	}
}

// TestTwoBartendersRace: several bartenders press "ready" on one order at
// the same moment. Exactly one gets 200, the others 409, and the phone
// hears order.ready once.
func TestTwoBartendersRace(t *testing.T) {
	e := newBarEnv(t)
	guestEvents := listen(t, e.hub, live.GuestTopic(e.guest.ID))
	barEvents := listen(t, e.hub, live.TopicBar)
	tokens := []string{e.bTok, e.tokenFor(e.addGuest(guestNamed("Second", guest.RoleBartender))), e.aTok}
	for round := range 5 {
		v := e.order(e.gTok, 201, one("mojito"))
		e.move(v.ID, "start", 200)
		var wg sync.WaitGroup
		statuses := make([]int, 6)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i], _ = e.do("POST", "/api/bar/orders/"+v.ID+"/ready", tokens[i%len(tokens)], nil)
			}()
		}
		wg.Wait()
		ok, conflict := 0, 0
		for _, s := range statuses {
			switch s {
			case 200:
				ok++
			case 409:
				conflict++
			}
		}
		if ok != 1 || conflict != 5 {
			t.Errorf("round %d: %v, want one 200 and five 409", round, statuses)
		}
		got, _ := e.store.OrderByID(t.Context(), v.ID)
		if got.Version != 3 || len(got.History) != 3 {
			t.Errorf("round %d: order v%d with %d history entries, want v3 and 3", round, got.Version, len(got.History))
		}
		e.move(v.ID, "serve", 200)
	}
	if n := len(guestEvents.named(t, "order.ready")); n != 5 {
		t.Errorf("guest heard order.ready %d times over 5 rounds, want 5", n)
	}
	if n := len(barEvents.named(t, "order.ready")); n != 5 {
		t.Errorf("bar heard order.ready %d times over 5 rounds, want 5", n)
	}
}

func TestAdminOrders(t *testing.T) {
	e := newBarEnv(t)
	a := e.order(e.gTok, 201, one("negroni"))
	e.order(e.gTok, 201, one("mojito"))
	e.move(a.ID, "start", 200)
	status, raw := e.do("GET", "/api/admin/orders?status=queued", e.aTok, nil)
	var resp adminOrdersResponse
	decodeInto(t, raw, &resp)
	if status != 200 || resp.Total != 1 || len(resp.Orders) != 1 || resp.Counts.Preparing != 1 || resp.Counts.Total != 2 {
		t.Errorf("queued: %d %s", status, raw)
	}
	_, raw = e.do("GET", "/api/admin/orders?limit=1&offset=1", e.aTok, nil)
	decodeInto(t, raw, &resp)
	if resp.Total != 2 || len(resp.Orders) != 1 || resp.Orders[0].ID != a.ID {
		t.Errorf("page 2: %s", raw)
	}
	for _, q := range []string{"status=drunk", "limit=0", "limit=x", "offset=-1"} {
		if status, raw := e.do("GET", "/api/admin/orders?"+q, e.aTok, nil); status != 400 {
			t.Errorf("%s: %d %s", q, status, raw)
		}
	}
}
