package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

type loginResult struct {
	Token string `json:"token"`
	Role  string `json:"role"`
	Guest struct {
		ID        string `json:"id"`
		FirstName string `json:"firstName"`
	} `json:"guest"`
}

func login(t testing.TB, base, code, lastName string) (int, loginResult) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"code": code, "lastName": lastName})
	resp, err := http.Post(base+"/api/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lr loginResult
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &lr); err != nil {
			t.Fatalf("login response %s: %v", b, err)
		}
	}
	return resp.StatusCode, lr
}

func authed(t testing.TB, method, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeFirstStartPrintsAdminLoginOnce(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	if s.Code == "" || s.LastName == "" {
		t.Fatalf("no admin login line in:\n%s", s.Output())
	}
	status, lr := login(t, s.URL, s.Code, s.LastName)
	if status != 200 || lr.Role != "admin" {
		t.Fatalf("admin login: %d %+v", status, lr)
	}
	if status, body := authed(t, "GET", s.URL+"/api/admin/presence", lr.Token); status != 200 {
		t.Fatalf("admin route with admin token: %d %s", status, body)
	}
	code, last := s.Code, s.LastName
	s.Stop(t)

	// Restart on the same data: no new admin, and the old token still
	// verifies because the signing key was persisted.
	s2 := startServer(t, dir, nil)
	if strings.Contains(s2.Output(), "admin login:") {
		t.Fatalf("second start printed an admin login again:\n%s", s2.Output())
	}
	if status, body := authed(t, "GET", s2.URL+"/api/me", lr.Token); status != 200 {
		t.Fatalf("token from before the restart: %d %s", status, body)
	}
	if status, _ := login(t, s2.URL, code, last); status != 200 {
		t.Fatalf("admin login after restart: %d", status)
	}
}

func TestKeysRotateKeepsOldTokensValid(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	_, before := login(t, s.URL, s.Code, s.LastName)
	s.Stop(t)

	var out bytes.Buffer
	if err := run(context.Background(), []string{"barhub", "keys", "rotate", "--data", dir}, func(k string) string {
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return ""
	}, &out); err != nil {
		t.Fatalf("keys rotate: %v", err)
	}
	if !strings.Contains(out.String(), "new signing key") {
		t.Fatalf("keys rotate printed %q", out.String())
	}

	s2 := startServer(t, dir, nil)
	_, after := login(t, s2.URL, s.Code, s.LastName)
	if kid(t, before.Token) == kid(t, after.Token) {
		t.Fatal("token after rotation is signed with the old key")
	}
	for name, tok := range map[string]string{"old": before.Token, "new": after.Token} {
		if status, body := authed(t, "GET", s2.URL+"/api/me", tok); status != 200 {
			t.Fatalf("%s token after rotation: %d %s", name, status, body)
		}
	}
	_, jwks := get(t, s2.URL+"/.well-known/jwks.json")
	if n := strings.Count(jwks, `"kid"`); n != 2 {
		t.Fatalf("JWKS has %d keys, want 2: %s", n, jwks)
	}
}

func kid(t testing.TB, token string) string {
	t.Helper()
	var h struct {
		Kid string `json:"kid"`
	}
	part := strings.Split(token, ".")[0]
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &h)
	return h.Kid
}

func TestCommands(t *testing.T) {
	tests := []struct {
		args    []string
		want    string
		wantErr bool
	}{
		{[]string{"barhub", "version"}, "barhub ", false},
		{[]string{"barhub", "help"}, "barhub keys rotate", false},
		{[]string{"barhub", "frobnicate"}, "", true},
		{[]string{"barhub", "serve", "--nope"}, "", true},
		{[]string{"barhub", "keys"}, "", true},
		{[]string{"barhub", "serve", "--db-sync", "sometimes"}, "", true},
		{[]string{"barhub", "serve", "--images", "attic"}, "", true},
		{[]string{"barhub", "serve", "--alert-format", "xml"}, "", true},
		{[]string{"barhub", "serve", "--alert-email", "ops@example.com"}, "", true},
		{[]string{"barhub", "db", "--addr", "127.0.0.1:0", "--db-sync", "sometimes"}, "", true},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := run(context.Background(), tt.args, func(string) string { return "" }, &out)
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: err %v, wantErr %v", tt.args, err, tt.wantErr)
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("%v: output %q lacks %q", tt.args, out.String(), tt.want)
		}
	}
}

// Guests cannot read /metrics: barhub serves it on --metrics-addr, and on
// the guests' port only to a scraper with --metrics-token's bearer token.
func TestHealthReadyAndMetrics(t *testing.T) {
	s := startServer(t, "", map[string]string{"BARHUB_METRICS_TOKEN": "scrape-secret-1"}, "--metrics-addr", "127.0.0.1:0")
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, body := get(t, s.URL+path)
		if resp.StatusCode != 200 || !strings.Contains(body, `"ok"`) && !strings.Contains(body, "ready") {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	get(t, s.URL+"/api/drinks/none")
	m := regexp.MustCompile(`metrics at (http://\S+)`).FindStringSubmatch(s.Output())
	if m == nil {
		t.Fatalf("no metrics address printed:\n%s", s.Output())
	}
	wants := []string{`barhub_http_requests_total{method="GET",route="/healthz",status="200"}`, "go_goroutines", `barhub_dependency_up{dependency="database"} 1`}
	resp, metrics := get(t, m[1])
	if resp.StatusCode != 200 {
		t.Fatalf("metrics address: %d", resp.StatusCode)
	}
	for _, want := range wants {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	for _, tt := range []struct {
		name, auth string
		status     int
	}{
		{"guest, no token", "", 401},
		{"wrong token", "Bearer scrape-secret-2", 401},
		{"a guest's sign-in token", "Bearer " + s.Code, 401},
		{"scraper", "Bearer scrape-secret-1", 200},
	} {
		req, _ := http.NewRequest("GET", s.URL+"/metrics", nil)
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || tt.status == 401 && strings.Contains(string(b), "go_goroutines") {
			t.Errorf("%s: %d %.200s", tt.name, resp.StatusCode, b)
		}
	}

	// With neither, the guests' port has no metrics at all.
	plain := startServer(t, "", nil)
	if resp, body := get(t, plain.URL+"/metrics"); resp.StatusCode != 404 || strings.Contains(body, "go_goroutines") {
		t.Fatalf("/metrics on the guests' port with no token: %d %.200s", resp.StatusCode, body)
	}
}
