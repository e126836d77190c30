package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

// TestSlowBodyIsCut sends a request's headers, then trickles its body a
// byte every 20 ms over a real connection: the server answers or closes
// within the body deadline (configured small here) rather than holding the
// connection for as long as the client cares to trickle (before, ~61 s).
func TestSlowBodyIsCut(t *testing.T) {
	const timeout = 300 * time.Millisecond
	const maxBody = 10_000
	e := newTestEnv(t, func(d *Deps) {
		d.Config.BodyTimeout = timeout
		d.Config.MaxBodyBytes = maxBody
	})
	tests := []struct {
		name    string
		headers string
		// chunked sends each byte as a chunk of its own.
		chunked bool
		// allowed is the deadline the server gives this body.
		allowed time.Duration
	}{
		{"declared length", "Content-Length: 1000\r\n", false, timeout + 1000*time.Second/bodyMinRate},
		{"chunked", "Transfer-Encoding: chunked\r\n", true, timeout + maxBody*time.Second/bodyMinRate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			head := "POST /api/auth/login HTTP/1.1\r\nHost: party.test\r\nContent-Type: application/json\r\n" +
				appKeyHeader + ": " + e.appKey + "\r\n" + tt.headers + "\r\n"
			if _, err := nc.Write([]byte(head)); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			// The answer, or the connection's end, as the server gives it.
			answered := make(chan string, 1)
			go func() {
				resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
				if err != nil {
					answered <- "closed: " + err.Error()
					return
				}
				resp.Body.Close()
				answered <- resp.Status
			}()
			// A thousand bytes, one every 20 ms: 20 s if nothing stops it.
			const total = 1000
			sent := 0
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			var got string
		trickle:
			for sent < total {
				select {
				case got = <-answered:
					break trickle
				case <-tick.C:
				}
				b := []byte(" ")
				if sent == 0 {
					b = []byte("{")
				}
				if tt.chunked {
					b = []byte("1\r\n" + string(b) + "\r\n")
				}
				if _, err := nc.Write(b); err != nil {
					break // the server closed the connection
				}
				sent++
			}
			if got == "" {
				select {
				case got = <-answered:
				case <-time.After(tt.allowed + 10*time.Second):
					t.Fatalf("no answer %v after the headers, %d of %d body bytes sent", time.Since(start), sent, total)
				}
			}
			elapsed := time.Since(start)
			t.Logf("%s after %v (allowed %v), %d of %d body bytes sent", got, elapsed.Round(time.Millisecond), tt.allowed, sent, total)
			if sent >= total {
				t.Errorf("the server waited for the whole trickled body (%d bytes over %v)", sent, elapsed)
			}
			// Generous: the deadline plus room for a slow, shared machine.
			if elapsed > tt.allowed+5*time.Second {
				t.Errorf("answered %v after the headers, past the %v deadline", elapsed, tt.allowed)
			}
			if !strings.HasPrefix(got, "closed") && !strings.HasPrefix(got, "408") {
				t.Errorf("answer %q, want 408 or the connection closed", got)
			}
		})
	}
}

// TestBodyDeadlineSparesWebSocket: the upgrade has no body, so a live
// socket outlives the body deadline many times over.
func TestBodyDeadlineSparesWebSocket(t *testing.T) {
	const timeout = 100 * time.Millisecond
	e := newTestEnv(t, func(d *Deps) { d.Config.BodyTimeout = timeout })
	g := e.addGuest(guest.Guest{LastName: "Lind"})
	ws, status := e.dial(e.ticket(e.tokenFor(g)))
	if status != http.StatusSwitchingProtocols {
		t.Fatalf("dial: %d", status)
	}
	if got := subscribe(t, ws, "guests"); got != "subscribed" {
		t.Fatalf("subscribe: %s", got)
	}
	time.Sleep(10 * timeout)
	if err := e.hub.Publish(context.Background(), "guests", "announcement", map[string]string{"text": "last call"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := ws.Read(ctx)
	if err != nil {
		t.Fatalf("the socket did not outlive the body deadline: %v", err)
	}
	var m struct{ Type, Event string }
	if err := json.Unmarshal(b, &m); err != nil || m.Type != "event" || m.Event != "announcement" {
		t.Fatalf("got %s, want the announcement", b)
	}
	ws.Close(websocket.StatusNormalClosure, "")
}

// TestBodyDeadlineLiftedOnceRead: a handler that keeps working after it
// has read its body (a failed sign-in waiting for its turn, a second
// here) is not cut by the body deadline: its answer still comes. Left in
// place, the deadline would end net/http's background read and cancel
// the request.
func TestBodyDeadlineLiftedOnceRead(t *testing.T) {
	p := auth.DefaultSignInPolicy(0, 0)
	p.PerAddress = 1
	e := newTestEnv(t, func(d *Deps) {
		d.Config.BodyTimeout = 100 * time.Millisecond
		d.Config.SignIn = p
	})
	for i := range 3 {
		start := time.Now()
		status, body := e.do("POST", "/api/auth/login", "", loginRequest{fmt.Sprintf("TYPO%04d", i), "x"})
		if status != http.StatusUnauthorized {
			t.Fatalf("typo %d after %v: %d %s, want 401", i, time.Since(start), status, body)
		}
	}
}
