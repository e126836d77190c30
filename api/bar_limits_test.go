package api

import (
	"net/http"
	"strconv"
	"testing"
)

// The limits are set far below anything a test can reach by accident (one
// request per 100 s), so the outcome does not depend on how fast a loaded
// machine runs the requests.
func TestBrowseRateLimit(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Bar.RateBrowse = 0.01 })
	// A client gets its one read and then a 429, while another client is
	// untouched.
	if status, _ := e.do("GET", "/api/sections", "", nil); status != 200 {
		t.Fatalf("first read: %d", status)
	}
	status, hdr, raw := e.doHeaders("GET", "/api/drinks", "", nil)
	if status != http.StatusTooManyRequests || errorCode(t, raw) != "rate_limited" {
		t.Fatalf("second read: %d %s", status, raw)
	}
	if n, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || n < 1 || n > 100 {
		t.Errorf("Retry-After %q, want 1..100 seconds", hdr.Get("Retry-After"))
	}
	// A signed-in guest is counted by who they are, not by address.
	if status, _ := e.do("GET", "/api/drinks", e.gTok, nil); status != 200 {
		t.Errorf("signed-in guest: %d", status)
	}
	if status, _ := e.do("GET", "/api/drinks", e.bTok, nil); status != 200 {
		t.Errorf("another signed-in guest: %d", status)
	}
}

func TestOrderRateLimit(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Bar.RateOrders = 0.01; d.Bar.MaxOpenOrders = 10 })
	if status, _ := e.do("GET", "/api/orders", e.gTok, nil); status != 200 {
		t.Fatalf("list: %d", status)
	}
	status, hdr, raw := e.doHeaders("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("mojito")}}, "Idempotency-Key", newKey())
	if status != 429 || errorCode(t, raw) != "rate_limited" || hdr.Get("Retry-After") == "" {
		t.Errorf("second order request: %d %s", status, raw)
	}
	// The bar's own budget is separate from the guest's.
	if status, _ := e.do("GET", "/api/bar/queue", e.bTok, nil); status != 200 {
		t.Errorf("bartender: %d", status)
	}
}

// TestDietaryReadRateLimit: the RSVP form's preview of dietary words
// costs milliseconds of CPU a call and had no limit (169 calls a second
// from one guest). It has a budget per guest, its own: a guest past it
// gets 429 with Retry-After, another guest and the same guest's orders
// are untouched.
func TestDietaryReadRateLimit(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Bar.RateDietary = 0.01 })
	read := map[string]string{"text": "nötallergi"}
	if status, raw := e.do("POST", "/api/dietary/read", e.gTok, read); status != 200 {
		t.Fatalf("first read: %d %s", status, raw)
	}
	for range 3 {
		status, hdr, raw := e.doHeaders("POST", "/api/dietary/read", e.gTok, read)
		if status != http.StatusTooManyRequests || errorCode(t, raw) != "rate_limited" {
			t.Fatalf("read past the budget: %d %s", status, raw)
		}
		if n, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || n < 1 || n > 100 {
			t.Errorf("Retry-After %q, want 1..100 seconds", hdr.Get("Retry-After"))
		}
	}
	if status, raw := e.do("POST", "/api/dietary/read", e.bTok, read); status != 200 {
		t.Errorf("another guest: %d %s", status, raw)
	}
	if status, raw := e.do("GET", "/api/orders", e.gTok, nil); status != 200 {
		t.Errorf("the same guest's orders: %d %s", status, raw)
	}
}

func TestKillSwitch(t *testing.T) {
	e := newBarEnv(t)
	v := e.order(e.gTok, 201, one("negroni"))

	// Without the key, or with a wrong one, the public app's calls are refused.
	for _, tt := range []struct {
		key  string
		code string
	}{{"", "api_key_required"}, {"wrong", "invalid_api_key"}} {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/drinks", nil)
		if tt.key != "" {
			req.Header.Set(appKeyHeader, tt.key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b [512]byte
		n, _ := resp.Body.Read(b[:])
		resp.Body.Close()
		if resp.StatusCode != 403 || errorCode(t, b[:n]) != tt.code {
			t.Errorf("key %q: %d %s", tt.key, resp.StatusCode, b[:n])
		}
	}
	status, raw := e.do("GET", "/api/app-key", "", nil)
	var pub appKeyResponse
	decodeInto(t, raw, &pub)
	if status != 200 || pub.Key != e.appKey || !pub.Enabled {
		t.Fatalf("public key: %d %s", status, raw)
	}

	// Off.
	status, raw = e.do("PUT", "/api/admin/app-key", e.aTok, map[string]bool{"enabled": false})
	if status != 200 {
		t.Fatalf("switch off: %d %s", status, raw)
	}
	for _, call := range []struct{ method, path string }{{"GET", "/api/drinks"}, {"GET", "/api/sections"}, {"GET", "/api/orders"}, {"GET", "/api/orders/" + v.ID}, {"POST", "/api/orders"}} {
		status, hdr, raw := e.doHeaders(call.method, call.path, e.gTok, map[string]any{"items": []any{one("mojito")}}, "Idempotency-Key", newKey())
		if status != 503 || errorCode(t, raw) != "app_switched_off" || hdr.Get("Retry-After") == "" {
			t.Errorf("%s %s while off: %d %s", call.method, call.path, status, raw)
		}
	}
	_, raw = e.do("GET", "/api/app-key", "", nil)
	var off appKeyResponse
	decodeInto(t, raw, &off)
	if off.Enabled || off.Key != "" {
		t.Errorf("public key while off: %s", raw)
	}
	// The bar and the host keep working.
	if status, _ := e.do("GET", "/api/bar/queue", e.bTok, nil); status != 200 {
		t.Errorf("bar queue while off: %d", status)
	}
	e.move(v.ID, "start", 200)
	if status, _ := e.do("GET", "/api/admin/app-key", e.aTok, nil); status != 200 {
		t.Errorf("admin while off: %d", status)
	}

	// On again, with a new key: the old one stops working.
	status, raw = e.do("PUT", "/api/admin/app-key", e.aTok, map[string]bool{"enabled": true, "rotate": true})
	var k struct {
		Key     string `json:"key"`
		Enabled bool   `json:"enabled"`
	}
	decodeInto(t, raw, &k)
	if status != 200 || !k.Enabled || k.Key == e.appKey || len(k.Key) != 32 {
		t.Fatalf("switch on: %d %s", status, raw)
	}
	status, raw = e.do("GET", "/api/drinks", e.gTok, nil)
	if status != 403 || errorCode(t, raw) != "invalid_api_key" {
		t.Errorf("old key after rotation: %d %s", status, raw)
	}
	e.appKey = k.Key
	if status, _ := e.do("GET", "/api/drinks", e.gTok, nil); status != 200 {
		t.Errorf("new key: %d", status)
	}
	if status, raw := e.do("PUT", "/api/admin/app-key", e.aTok, map[string]any{}); status != 400 || errorCode(t, raw) != "missing_enabled" {
		t.Errorf("no enabled: %d %s", status, raw)
	}
}
