package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// /readyz writes and reads the database: when the storage stops (another
// process holding SQLite's write lock here) it says not ready, where a
// ping said "ok"; and it says ready again once the storage moves.
func TestReadyzTellsTheTruth(t *testing.T) {
	s := startServer(t, "", nil, "--metrics-addr", "127.0.0.1:0")
	if resp, body := get(t, s.URL+"/readyz"); resp.StatusCode != 200 || !strings.Contains(body, `"database":"ok"`) {
		t.Fatalf("/readyz at rest: %d %s", resp.StatusCode, body)
	}
	ctx := context.Background()
	// The server writes now and then (the health probe, activity): the
	// lock waits its turn rather than failing busy.
	lock, err := sql.Open("sqlite", "file:"+filepath.Join(s.Data, "db", "barhub.sqlite")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if resp, body := get(t, s.URL+"/readyz"); resp.StatusCode != 503 || !strings.Contains(body, `"database":"unreachable"`) {
		t.Errorf("/readyz with the storage stopped: %d %s", resp.StatusCode, body)
	}
	m := regexp.MustCompile(`metrics at (http://\S+)`).FindStringSubmatch(s.Output())
	if m == nil {
		t.Fatalf("no metrics address printed:\n%s", s.Output())
	}
	_, metrics := get(t, m[1])
	for _, want := range []string{"barhub_db_calls_in_flight ", "barhub_db_oldest_call_seconds ", "barhub_db_calls_stuck 0", "barhub_db_gate_room_in_use ", "barhub_db_gate_refused_total 0"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if resp, body := get(t, s.URL+"/readyz"); resp.StatusCode != 200 {
		t.Errorf("/readyz once the storage moves again: %d %s", resp.StatusCode, body)
	}
}
