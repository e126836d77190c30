package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/web/browsertest"
)

// rushGuests order during a rush: first names long enough that a cramped
// ticket cuts them.
var rushGuests = []struct{ first, last string }{
	{"Mia", "Lindqvist"}, {"Maximiliano", "Fernandes"}, {"Bartholomew", "Okonkwo"},
	{"Guadalupe", "Nascimento"}, {"Annelie", "Sjöberg"}, {"Christopher", "Abernathy"},
	{"Valentina", "Ferreira"}, {"Wilhelmina", "Karlsson"}, {"Jo", "Ng"}, {"Sebastian", "Holmqvist"},
}

// rush is a party with many guests ordering at once, and the orders' ids by
// status as the bar has moved them.
type rush struct {
	t      *testing.T
	p      *barParty
	guests []barClient
	names  []string // each guest's first name
	placed int
	byStat map[string][]string // status → order ids, oldest first
	firsts map[string]string   // order id → its guest's first name
}

func startRush(t *testing.T) *rush {
	t.Helper()
	p := startBarParty(t, map[string]string{"BARHUB_MAX_OPEN_ORDERS": "10"})
	r := &rush{t: t, p: p, byStat: map[string][]string{}, firsts: map[string]string{}}
	for _, g := range rushGuests {
		var made e2eGuest
		if status := p.admin.call("POST", "/api/admin/guests", map[string]any{"firstName": g.first, "lastName": g.last, "expectedGuests": 1}, &made); status != 201 {
			t.Fatalf("create guest %s: %d", g.first, status)
		}
		status, lr := login(t, p.s.URL, made.Code, g.last)
		if status != 200 {
			t.Fatalf("login %s: %d", g.first, status)
		}
		r.guests = append(r.guests, barClient{t: t, base: p.s.URL, token: lr.Token, key: p.appKey})
		r.names = append(r.names, g.first)
	}
	return r
}

// fill places orders until n are open and moves them on until the given
// numbers are being made and ready for pick-up.
func (r *rush) fill(n, preparing, ready int) (queued, nPreparing, nReady int) {
	r.t.Helper()
	drinks := []string{"mojito", "negroni", "paper-plane", "daiquiri", "aperol-spritz"}
	for r.open() < n {
		i := r.placed
		g := i % len(r.guests)
		var o e2eOrder
		body := map[string]any{"items": []map[string]any{{"drinkId": drinks[i%len(drinks)], "qty": 1 + i%3}}}
		if status := r.guests[g].call("POST", "/api/orders", body, &o, "Idempotency-Key", fmt.Sprintf("rush-%d", i)); status != 201 {
			r.t.Fatalf("order %d: status %d", i, status)
		}
		r.placed++
		r.byStat["queued"] = append(r.byStat["queued"], o.ID)
		r.firsts[o.ID] = r.names[g]
	}
	for len(r.byStat["ready"]) < ready {
		if len(r.byStat["preparing"]) == 0 {
			r.move("start", "queued", "preparing")
		}
		r.move("ready", "preparing", "ready")
	}
	for len(r.byStat["preparing"]) < preparing {
		r.move("start", "queued", "preparing")
	}
	return len(r.byStat["queued"]), len(r.byStat["preparing"]), len(r.byStat["ready"])
}

func (r *rush) open() int {
	return len(r.byStat["queued"]) + len(r.byStat["preparing"]) + len(r.byStat["ready"])
}

// move takes the oldest order of one status on to the next.
func (r *rush) move(action, from, to string) {
	r.t.Helper()
	id := r.byStat[from][0]
	if status := r.p.bartender.call("POST", "/api/bar/orders/"+id+"/"+action, nil, nil); status != 200 {
		r.t.Fatalf("%s %s: %d", action, id, status)
	}
	r.byStat[from] = r.byStat[from][1:]
	r.byStat[to] = append(r.byStat[to], id)
	if action == "start" {
		// Each start at its own moment, so "newest started first" has one
		// answer.
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBrowserBarRush: the bar's tablet during a rush, at 1024×768 and at
// 1280×800, with 8, 20 and 60 open orders. The three columns (queued, in
// the making, ready for pick-up) stay side by side on the screen, each
// scrolling up and down inside itself; the first ticket of each column
// has its buttons on the screen; every guest's first name is shown whole.
func TestBrowserBarRush(t *testing.T) {
	r := startRush(t)
	b := browsertest.New(t)
	screens := []browsertest.Viewport{
		browsertest.Tablet,
		{Name: "tablet-1280", Width: 1280, Height: 800, Scale: 1, Touch: true},
	}
	tabs := make([]contextTab, len(screens))
	for i, vp := range screens {
		tabs[i] = contextTab{vp: vp, ctx: b.Page(t, vp)}
		browsertest.SignIn(t, tabs[i].ctx, r.p.s.URL, r.p.bartenderCode, r.p.barLast, "/bar")
		browsertest.WaitText(t, tabs[i].ctx, "#live-status", "Live")
	}
	for _, n := range []int{8, 20, 60} {
		queued, preparing, ready := r.fill(n, n/4, n/4)
		firsts, _ := json.Marshal(r.firsts)
		for _, tab := range tabs {
			ctx := tab.ctx
			name := fmt.Sprintf("%d orders on %dx%d", n, tab.vp.Width, tab.vp.Height)
			waitEval(t, ctx, name+": counts", fmt.Sprintf(`document.getElementById("count-queued").textContent === "%d" && document.getElementById("count-preparing").textContent === "%d" && document.getElementById("count-ready").textContent === "%d" && document.querySelectorAll(".ticket").length === %d`, queued, preparing, ready, n))
			got := browsertest.Eval[[]string](t, ctx, `(() => {
				const firsts = `+string(firsts)+`;
				const vw = innerWidth, vh = innerHeight, bad = [];
				const inside = (r) => r.width > 0 && r.left >= 0 && r.right <= vw && r.top >= 0 && r.bottom <= vh;
				for (const col of document.querySelectorAll(".queue-col")) {
					const r = col.getBoundingClientRect();
					if (r.left < 0 || r.right > vw || r.width === 0) bad.push(col.dataset.status + " column spans " + Math.round(r.left) + "–" + Math.round(r.right) + " px on a " + vw + " px screen");
					const first = col.querySelector(".ticket");
					if (!first) { bad.push(col.dataset.status + " column has no ticket"); continue; }
					for (const btn of first.querySelectorAll(".ticket-actions button")) {
						const b = btn.getBoundingClientRect();
						if (!inside(b)) bad.push(col.dataset.status + "'s first ticket's " + btn.textContent + " button at " + Math.round(b.left) + "," + Math.round(b.top) + "–" + Math.round(b.right) + "," + Math.round(b.bottom) + ", off the " + vw + "×" + vh + " screen");
					}
					const list = col.querySelector(".tickets");
					if (list.scrollHeight > list.clientHeight + 1 && !/auto|scroll/.test(getComputedStyle(list).overflowY)) bad.push(col.dataset.status + " column overflows without scrolling");
				}
				for (const t of document.querySelectorAll(".ticket")) {
					const g = t.querySelector(".guest");
					const first = firsts[t.dataset.id];
					if (!g.textContent.startsWith(first)) bad.push("ticket " + t.dataset.id + " names " + JSON.stringify(g.textContent) + ", want " + first);
					else if (g.scrollWidth > g.clientWidth + 1 || getComputedStyle(g).textOverflow === "ellipsis" && getComputedStyle(g).whiteSpace === "nowrap") bad.push(first + "'s name is cut: " + g.scrollWidth + " px of text in " + g.clientWidth + " px");
				}
				const page = document.scrollingElement;
				if (page.scrollWidth > vw) bad.push("the page is " + page.scrollWidth + " px wide");
				if (page.scrollHeight > vh) bad.push("the page is " + page.scrollHeight + " px tall");
				return bad;
			})()`)
			if len(got) > 0 {
				if len(got) > 12 {
					got = append(got[:12], fmt.Sprintf("… and %d more", len(got)-12))
				}
				t.Errorf("%s (%d queued, %d in the making, %d ready):\n  %s", name, queued, preparing, ready, strings.Join(got, "\n  "))
			}
			if n == 60 {
				browsertest.Screenshot(t, ctx, "bar-60-orders")
			}
		}
	}
}

type contextTab struct {
	vp  browsertest.Viewport
	ctx context.Context
}

// TestBrowserBoardRush: the pick-up board on a 1920×1080 TV with 30 open
// orders, 20 of them queued, 4 being made and 6 ready. Queued orders wait
// under their own heading, not under "Being made"; the four being made
// show the newest started first; the being-made and ready columns are on
// the screen, and every card shown is whole; what does not fit is counted.
func TestBrowserBoardRush(t *testing.T) {
	r := startRush(t)
	queued, preparing, ready := r.fill(30, 4, 6)
	if queued != 20 || preparing != 4 || ready != 6 {
		t.Fatalf("orders: %d queued, %d being made, %d ready; want 20, 4, 6", queued, preparing, ready)
	}
	var board struct{ Link string }
	if status := r.p.bartender.call("POST", "/api/bar/boards", map[string]string{"name": "TV by the bar"}, &board); status != 201 {
		t.Fatalf("board: %d", status)
	}
	_, fragment, ok := strings.Cut(board.Link, "/board#")
	if !ok {
		t.Fatalf("board link %q", board.Link)
	}
	b := browsertest.New(t)
	tv := b.Page(t, browsertest.Viewport{Name: "tv", Width: 1920, Height: 1080, Scale: 1})
	browsertest.Navigate(t, tv, r.p.s.URL+"/board#"+fragment)
	waitEval(t, tv, "board live", `document.getElementById("live-status").dataset.status === "open"`)
	waitEval(t, tv, "30 orders on the board", `document.querySelectorAll(".order").length === 30`)

	ids, _ := json.Marshal(r.byStat)
	// The being made ones, newest started first.
	var making []string
	for i := len(r.byStat["preparing"]) - 1; i >= 0; i-- {
		making = append(making, r.byStat["preparing"][i])
	}
	wantMaking, _ := json.Marshal(making)
	got := browsertest.Eval[[]string](t, tv, `(() => {
		const ids = `+string(ids)+`, wantMaking = `+string(wantMaking)+`;
		const vw = innerWidth, vh = innerHeight, bad = [];
		const inside = (r) => r.width > 0 && r.left >= 0 && r.right <= vw && r.top >= 0 && r.bottom <= vh;
		const card = (id) => document.querySelector(".order[data-id=" + JSON.stringify(id) + "]");
		const making = document.getElementById("making-title").textContent;
		for (const id of ids.queued) {
			const c = card(id);
			const heading = c?.closest("section")?.querySelector("h2")?.textContent;
			if (!c) bad.push("queued order " + id + " is not on the board");
			else if (c.closest("#making") || heading === making) bad.push("queued order " + id + " is under " + JSON.stringify(heading));
		}
		const shown = [...document.querySelectorAll("#making .order")].map((c) => c.dataset.id);
		if (JSON.stringify(shown) !== JSON.stringify(wantMaking)) bad.push("being made: " + JSON.stringify(shown) + ", want newest started first: " + JSON.stringify(wantMaking));
		for (const sel of ["#making-title", "#ready-title", "#ready .order.newest"]) {
			const el = document.querySelector(sel);
			if (!el || !inside(el.getBoundingClientRect())) bad.push(sel + " is not on the screen");
		}
		for (const id of ids.preparing) {
			const c = card(id);
			if (!c || c.hidden || !inside(c.getBoundingClientRect())) bad.push("order " + id + ", being made, is not whole on the screen");
		}
		for (const c of document.querySelectorAll(".order")) {
			if (!c.hidden && !inside(c.getBoundingClientRect())) bad.push("card " + c.dataset.id + " in #" + c.parentElement.id + " is cut by the screen's edge at " + Math.round(c.getBoundingClientRect().bottom) + " px");
		}
		for (const id of ["waiting", "making", "ready"]) {
			const hidden = document.querySelectorAll("#" + id + " .order[hidden]").length;
			const more = document.getElementById(id + "-more");
			if (hidden > 0 && (more.hidden || !more.textContent.includes(String(hidden)))) bad.push(hidden + " cards of #" + id + " left out but the board says " + JSON.stringify(more.hidden ? "" : more.textContent));
			if (hidden > 0 && !inside(more.getBoundingClientRect())) bad.push("#" + id + "-more is off the screen");
		}
		const page = document.scrollingElement;
		if (page.scrollHeight > vh) bad.push("the page is " + page.scrollHeight + " px tall on a " + vh + " px screen");
		return bad;
	})()`)
	if len(got) > 0 {
		if len(got) > 12 {
			got = append(got[:12], fmt.Sprintf("… and %d more", len(got)-12))
		}
		t.Errorf("the board on a 1920×1080 TV with 30 orders:\n  %s", strings.Join(got, "\n  "))
	}
	browsertest.Screenshot(t, tv, "board-30-orders")
}
