package api

import (
	"context"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/guest"
)

// BenchmarkConnect is one phone's connect as a reconnect storm repeats it
// 10,000 times: a ticket (POST /api/ws/ticket on a kept-alive connection),
// the upgrade, the hello, a subscription to its own topic and the
// "subscribed" answer; then the socket closes, so the guest's socket cap
// never fills. The client runs in the same process, so ns/op and
// allocs/op are both ends of the connection; what changes between builds
// is the server's part (cmd/hubload measures the server's CPU alone).
func BenchmarkConnect(b *testing.B) {
	e := newTestEnv(b, func(d *Deps) { d.Config.WSTicketsPerMinute = 1 << 30 })
	g := e.addGuest(guest.Guest{FirstName: "Ada"})
	tok := e.tokenFor(g)
	wsURL := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/ws?ticket="
	subscribe := []byte(`{"type":"subscribe","topic":"guest:` + g.ID + `"}`)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		status, raw := e.do("POST", "/api/ws/ticket", tok, nil)
		if status != 200 {
			b.Fatalf("ticket: %d %s", status, raw)
		}
		var t struct{ Ticket string }
		decodeInto(b, raw, &t)
		ws, _, err := websocket.Dial(ctx, wsURL+t.Ticket, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"hello"`) {
			b.Fatalf("hello: %s %v", msg, err)
		}
		if err := ws.Write(ctx, websocket.MessageText, subscribe); err != nil {
			b.Fatal(err)
		}
		if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"subscribed"`) {
			b.Fatalf("subscribed: %s %v", msg, err)
		}
		ws.CloseNow()
	}
}
