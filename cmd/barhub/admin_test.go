package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/store/storetest"
)

// runCmd runs a barhub command in-process with env and returns its output.
func runCmd(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append([]string{"barhub"}, args...), func(k string) string {
		if k == "BARHUB_LOG_LEVEL" {
			return "error"
		}
		return env[k]
	}, &out)
	return out.String(), err
}

var addedLine = regexp.MustCompile(`admin added: id=(\S+)`)

// The host lost the first admin's code while the party runs on two
// instances: "admin code" on the shared database gives a new one, the old
// code and every token signed in with it stop working on both instances
// at once (through Redis), and "admin add" makes a second host.
func TestAdminCommandsOnASharedDatabase(t *testing.T) {
	redisURL := testRedisURL(t)
	env := map[string]string{
		"MONGODB_URI":         startDB(t),
		"REDIS_URL":           redisURL,
		"BARHUB_REDIS_PREFIX": "test-admin-" + storetest.DatabaseName(),
	}
	a := startServer(t, "", env)
	b := startServer(t, "", env)
	_, old := login(t, a.URL, a.Code, a.LastName)
	// B now caches the session for 10 s: only the word through Redis can end it there sooner.
	if status, _ := authed(t, "GET", b.URL+"/api/admin/presence", old.Token); status != 200 {
		t.Fatalf("old token on B before: %d", status)
	}

	out, err := runCmd(t, env, "admin", "add", "--first", "Second", "--last", "Host")
	if err != nil {
		t.Fatalf("admin add: %v\n%s", err, out)
	}
	second := adminLine.FindStringSubmatch(out)
	if second == nil || addedLine.FindStringSubmatch(out) == nil {
		t.Fatalf("admin add printed no login:\n%s", out)
	}
	if status, lr := login(t, b.URL, second[1], second[2]); status != 200 || lr.Role != "admin" {
		t.Fatalf("new admin's login on B: %d %+v", status, lr)
	}

	out, err = runCmd(t, env, "admin", "list")
	if err != nil {
		t.Fatalf("admin list: %v", err)
	}
	if !strings.Contains(out, old.Guest.ID) || !strings.Contains(out, "Party Host") || !strings.Contains(out, "Second Host") {
		t.Fatalf("admin list lacks an admin:\n%s", out)
	}
	if strings.Contains(out, a.Code) || strings.Contains(out, second[1]) {
		t.Fatalf("admin list shows a code:\n%s", out)
	}

	out, err = runCmd(t, env, "admin", "code", old.Guest.ID)
	if err != nil {
		t.Fatalf("admin code: %v\n%s", err, out)
	}
	fresh := adminLine.FindStringSubmatch(out)
	if fresh == nil || fresh[1] == a.Code || !strings.Contains(out, "ended on every instance") {
		t.Fatalf("admin code printed:\n%s", out)
	}
	// The word reaches the instances through Redis pub/sub, a moment after
	// the command returns; well inside the caches' 10 s, it must have.
	deadline := time.Now().Add(5 * time.Second)
	for _, s := range []*testServer{a, b} {
		for {
			status, _ := authed(t, "GET", s.URL+"/api/me", old.Token)
			if status == 401 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("token signed in with the old code still works on %s: %d", s.URL, status)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if status, _ := login(t, b.URL, a.Code, a.LastName); status == 200 {
		t.Error("the old code still signs in")
	}
	for {
		status, lr := login(t, a.URL, fresh[1], fresh[2])
		if status == 200 && lr.Role == "admin" {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("new code: %d %+v", status, lr)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// On one machine the commands work on --data with the server stopped, and
// refuse what they cannot do with a message saying why.
func TestAdminCommandsOnDataDir(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	s.Stop(t)
	env := map[string]string{}

	out, err := runCmd(t, env, "admin", "list", "--data", dir)
	if err != nil || !strings.Contains(out, "Party Host") {
		t.Fatalf("admin list: %v\n%s", err, out)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	out, err = runCmd(t, env, "admin", "code", "--data", dir, id)
	fresh := adminLine.FindStringSubmatch(out)
	if err != nil || fresh == nil || !strings.Contains(out, "within 10 seconds") {
		t.Fatalf("admin code: %v\n%s", err, out)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"admin"}, "usage"},
		{[]string{"admin", "add", "--data", dir, "--first", "X"}, "--last"},
		{[]string{"admin", "add", "--data", dir, "--first", "X", "--last", "A\u202eB"}, "--last"},
		{[]string{"admin", "code", "--data", dir}, "which admin"},
		{[]string{"admin", "code", "--data", dir, "nobody"}, "no guest has id"},
		{[]string{"admin", "fire"}, "unknown admin command"},
	} {
		if _, err := runCmd(t, env, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err %v, want it to say %q", tt.args, err, tt.want)
		}
	}

	s2 := startServer(t, dir, nil)
	if status, lr := login(t, s2.URL, fresh[1], fresh[2]); status != 200 || lr.Role != "admin" {
		t.Fatalf("sign in with the new code after restart: %d %+v", status, lr)
	}
	if status, _ := login(t, s2.URL, s.Code, s.LastName); status == 200 {
		t.Fatal("the lost code still signs in")
	}
}
