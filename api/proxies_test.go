package api

import (
	"bytes"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log destination the server's goroutines share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWarnsOfAnUntrustedProxy: a request that says it came through a
// proxy, from a peer not trusted as one, is warned of in the log once.
func TestWarnsOfAnUntrustedProxy(t *testing.T) {
	tests := []struct {
		name    string
		trusted []netip.Prefix
		header  []string
		// want is the warning's distinctive words; "" for no warning.
		want string
	}{
		{"behind a proxy, nobody trusted", nil, []string{"X-Forwarded-For", "198.51.100.7"}, "no trusted proxies are set"},
		{"Forwarded counts too", nil, []string{"Forwarded", "for=198.51.100.7"}, "no trusted proxies are set"},
		{"no proxy, nobody trusted", nil, nil, ""},
		{"behind the trusted proxy", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, []string{"X-Forwarded-For", "198.51.100.7"}, ""},
		{"through a proxy not in the list", []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}, []string{"X-Forwarded-For", "198.51.100.7"}, "not trusted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log syncBuffer
			e := newTestEnv(t, func(d *Deps) {
				d.Config.TrustedProxies = tt.trusted
				d.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))
			})
			for range 3 {
				if status, body := e.do("GET", "/api/event", "", nil, tt.header...); status != 200 {
					t.Fatalf("GET /api/event: %d %s", status, body)
				}
			}
			warnings := strings.Count(log.String(), "trusted-proxies")
			switch {
			case tt.want == "" && warnings != 0:
				t.Errorf("warned with no cause: %s", log.String())
			case tt.want != "" && (warnings != 1 || !strings.Contains(log.String(), tt.want)):
				t.Errorf("%d warnings, want one saying %q: %s", warnings, tt.want, log.String())
			}
		})
	}
}
