package api

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
)

// BenchmarkReadyPush measures the bartender's Ready, request by request,
// without Web Push and with every one of 1,000 guests subscribed at a push
// service that takes 50 ms to answer, behind a pushed announcement that
// has just queued a notification for each of the 1,000: Ready must not wait
// for any of it (docs/PUSH.md). Each iteration readies one guest's order
// (placed and started outside the measurement). Reports p50 and p99 in ms;
// run with a fixed count, as docs/BENCHMARKS.md does:
//
//	go test ./api -run '^$' -bench BenchmarkReadyPush -benchtime 300x
func BenchmarkReadyPush(b *testing.B) {
	const guests = 1000
	noLimit := func(d *Deps) { d.Bar.MaxOpenOrders = 1 << 30 }
	b.Run("push=off", func(b *testing.B) {
		e := newBarEnv(b, noLimit)
		benchReady(b, e, guestTokens(e, guests))
	})
	b.Run("push=1000-subscribed", func(b *testing.B) {
		p := newPushEnv(b, noLimit)
		p.svc.Delay = 50 * time.Millisecond
		toks := guestTokens(p.barEnv, guests)
		for _, tok := range toks {
			p.subscribe(tok, p.svc.NewDevice())
		}
		if status, raw := p.do("POST", "/api/admin/announcements", p.aTok, map[string]any{"text": "Last call!", "push": true}); status != http.StatusAccepted {
			b.Fatalf("announce: %d %s", status, raw)
		}
		benchReady(b, p.barEnv, toks)
		if p.sender.Idle() {
			b.Log("the push sender had caught up before the run ended: the delay no longer overlaps the readies")
		}
		if errs := p.svc.Errors(); len(errs) > 0 {
			b.Fatalf("the push service saw protocol errors: %v", errs)
		}
	})
}

func guestTokens(e *barEnv, n int) []string {
	toks := make([]string, n)
	for i := range toks {
		toks[i] = e.tokenFor(e.addGuest(guest.Guest{FirstName: fmt.Sprintf("G%d", i), LastName: "Bench"}))
	}
	return toks
}

func benchReady(b *testing.B, e *barEnv, toks []string) {
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		v := e.order(toks[i%len(toks)], http.StatusCreated, one("negroni"))
		e.move(v.ID, "start", http.StatusOK)
		b.StartTimer()
		start := time.Now()
		e.move(v.ID, "ready", http.StatusOK)
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(took)
	at := func(q float64) float64 {
		return float64(took[min(len(took)-1, int(q*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
