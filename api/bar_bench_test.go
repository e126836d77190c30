package api

import (
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/barhub/barhub/guest"
)

// The API's own benchmarks: one request at a time per goroutine against a
// real server on the embedded database (cmd/apiload drives the same
// routes with many clients and reports req/s and p99).

func benchGet(b *testing.B, e *barEnv, path, token string, header ...string) {
	b.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
			req.Header.Set(appKeyHeader, e.appKey)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 && resp.StatusCode != 304 {
				b.Fatalf("GET %s: %d", path, resp.StatusCode)
			}
		}
	})
}

// BenchmarkMenuRead is a phone reading the whole menu, signed in.
func BenchmarkMenuRead(b *testing.B) {
	e := newBarEnv(b)
	benchGet(b, e, "/api/drinks", e.gTok)
}

// BenchmarkMenuReadNotModified is the same read answered 304 from its ETag.
func BenchmarkMenuReadNotModified(b *testing.B) {
	e := newBarEnv(b)
	resp := e.doResp("GET", "/api/drinks", e.gTok, nil)
	resp.Body.Close()
	benchGet(b, e, "/api/drinks", e.gTok, "If-None-Match", resp.Header.Get("ETag"))
}

// BenchmarkMenuReadRedis reads through a cluster instance that checks the
// shared menu version in Redis on every read.
func BenchmarkMenuReadRedis(b *testing.B) {
	c := newCluster(b, 1, 0, nil)
	e := &barEnv{testEnv: c[0]}
	g := e.addGuest(guest.Guest{FirstName: "Ada"})
	benchGet(b, e, "/api/drinks", e.tokenFor(g))
}

// BenchmarkPlaceOrder places orders from many guests; each order is
// served straight after (outside the timer), so the open orders stay few
// as at a working bar.
func BenchmarkPlaceOrder(b *testing.B) {
	e := newBarEnv(b, func(d *Deps) { d.Bar.MaxOpenOrders = 1 << 30 })
	var n atomic.Int64
	b.ResetTimer()
	for range b.N {
		i := n.Add(1)
		status, raw := e.do("POST", "/api/orders", e.gTok, fmt.Sprintf(`{"items":[{"drinkId":"negroni"}]}`), "Idempotency-Key", fmt.Sprintf("bench-%d", i))
		if status != 201 {
			b.Fatalf("place: %d %s", status, raw)
		}
		b.StopTimer()
		var v orderView
		decodeInto(b, raw, &v)
		for _, a := range []string{"start", "ready", "serve"} {
			if status, raw := e.do("POST", "/api/bar/orders/"+v.ID+"/"+a, e.bTok, nil); status != 200 {
				b.Fatalf("%s: %d %s", a, status, raw)
			}
		}
		b.StartTimer()
	}
}

// BenchmarkBarTransition is one move behind the bar: claim, versioned
// replace, release, two events.
func BenchmarkBarTransition(b *testing.B) {
	e := newBarEnv(b, func(d *Deps) { d.Bar.MaxOpenOrders = 1 << 30 })
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		status, raw := e.do("POST", "/api/orders", e.gTok, `{"items":[{"drinkId":"negroni"}]}`, "Idempotency-Key", fmt.Sprintf("t-%d", i))
		if status != 201 {
			b.Fatalf("place: %d %s", status, raw)
		}
		var v orderView
		decodeInto(b, raw, &v)
		b.StartTimer()
		if status, raw := e.do("POST", "/api/bar/orders/"+v.ID+"/start", e.bTok, nil); status != 200 {
			b.Fatalf("start: %d %s", status, raw)
		}
		b.StopTimer()
		e.do("POST", "/api/bar/orders/"+v.ID+"/cancel", e.bTok, map[string]string{"reason": "bench"})
		b.StartTimer()
	}
}
