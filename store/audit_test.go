package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// auditAt is the fixed clock of these tests: entries i minutes after it.
var auditAt = time.Date(2030, 6, 12, 18, 0, 0, 0, time.UTC)

// seedAudit stores ten entries, one a minute from auditAt: actions and
// actors cycle so each filter below selects a known set. Subjects are
// s0…s9, so a result reads as the minutes it holds.
func seedAudit(t *testing.T, s *store.Store) []audit.Entry {
	t.Helper()
	actions := []string{"guest.create", "guest.update", "settings.update", "guest.import", "drink.create"}
	actors := []string{"a1", "a2"}
	var out []audit.Entry
	for i := range 10 {
		e := audit.Entry{
			At:        auditAt.Add(time.Duration(i) * time.Minute),
			ActorID:   actors[i%2],
			ActorName: "Host " + actors[i%2],
			Role:      "admin",
			Action:    actions[i%5],
			Subject:   "s" + string(rune('0'+i)),
			Status:    200,
		}
		if e.Action == "guest.import" {
			e.Details = map[string]any{"created": 3, "updated": 1, "refused": 1}
		}
		if err := s.InsertAudit(context.Background(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func subjects(entries []audit.Entry) string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Subject)
	}
	return strings.Join(out, " ")
}

func TestInsertAuditRoundTrips(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	e := audit.Entry{
		At:        auditAt.Add(1234567 * time.Nanosecond), // kept to the millisecond
		ActorID:   "a1",
		ActorName: "Party Host",
		Role:      "admin",
		Action:    "guest.update",
		Subject:   "g1",
		Status:    200,
		Details:   map[string]any{"changed": []string{"dietary", "status"}, "name": "Ada Åberg", "count": 2, "dryRun": false},
	}
	if err := s.InsertAudit(ctx, &e); err != nil {
		t.Fatal(err)
	}
	if want := "20300612T180000.001Z-"; !strings.HasPrefix(e.ID, want) || len(e.ID) != len(want)+12 {
		t.Errorf("id = %q, want %s and 12 hex digits", e.ID, want)
	}
	if !e.At.Equal(auditAt.Add(time.Millisecond)) {
		t.Errorf("at = %v, want it truncated to %v", e.At, auditAt.Add(time.Millisecond))
	}
	got, total, err := s.ListAudit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 || len(got) != 1 {
		t.Fatalf("list: %d entries, total %d, want 1", len(got), total)
	}
	g := got[0]
	if g.ID != e.ID || !g.At.Equal(e.At) || g.ActorID != "a1" || g.ActorName != "Party Host" || g.Role != "admin" ||
		g.Action != "guest.update" || g.Subject != "g1" || g.Status != 200 {
		t.Errorf("read back %+v, want %+v", g, e)
	}
	changed, _ := g.Details["changed"].(bson.A) // a list reads back as an array
	count, _ := asInt(g.Details["count"])
	if len(changed) != 2 || changed[0] != "dietary" || changed[1] != "status" || g.Details["name"] != "Ada Åberg" ||
		g.Details["dryRun"] != false || count != 2 {
		t.Errorf("details read back as %#v", g.Details)
	}

	if err := s.InsertAudit(ctx, &audit.Entry{}); err == nil {
		t.Error("an entry without an action was stored")
	}
}

func TestListAudit(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	seedAudit(t, s)
	for _, tc := range []struct {
		name  string
		f     store.AuditFilter
		want  string // subjects, newest first
		total int64
	}{
		{"everything, newest first", store.AuditFilter{}, "s9 s8 s7 s6 s5 s4 s3 s2 s1 s0", 10},
		{"first page", store.AuditFilter{Limit: 4}, "s9 s8 s7 s6", 10},
		{"second page", store.AuditFilter{Limit: 4, Page: 2}, "s5 s4 s3 s2", 10},
		{"last page", store.AuditFilter{Limit: 4, Page: 3}, "s1 s0", 10},
		{"past the end", store.AuditFilter{Limit: 4, Page: 4}, "", 10},
		{"exact action", store.AuditFilter{Action: "guest.create"}, "s5 s0", 2},
		{"a family of actions", store.AuditFilter{Action: "guest"}, "s8 s6 s5 s3 s1 s0", 6},
		{"a family is whole words", store.AuditFilter{Action: "gues"}, "", 0},
		{"a dot is not a wildcard", store.AuditFilter{Action: "guestXcreate"}, "", 0},
		{"settings", store.AuditFilter{Action: "settings"}, "s7 s2", 2},
		{"actor", store.AuditFilter{ActorID: "a2"}, "s9 s7 s5 s3 s1", 5},
		{"actor and family", store.AuditFilter{ActorID: "a1", Action: "guest"}, "s8 s6 s0", 3},
		{"since, inclusive", store.AuditFilter{Since: auditAt.Add(7 * time.Minute)}, "s9 s8 s7", 3},
		{"until, exclusive", store.AuditFilter{Until: auditAt.Add(2 * time.Minute)}, "s1 s0", 2},
		{"between", store.AuditFilter{Since: auditAt.Add(3 * time.Minute), Until: auditAt.Add(6 * time.Minute)}, "s5 s4 s3", 3},
		{"between, half a millisecond off", store.AuditFilter{Since: auditAt.Add(3*time.Minute - 500*time.Microsecond), Until: auditAt.Add(6*time.Minute + 500*time.Microsecond)}, "s6 s5 s4 s3", 4},
		{"between, paged", store.AuditFilter{Since: auditAt.Add(3 * time.Minute), Until: auditAt.Add(9 * time.Minute), Limit: 2, Page: 2}, "s6 s5", 6},
		{"everything filtered", store.AuditFilter{Action: "guest", ActorID: "a2", Since: auditAt.Add(2 * time.Minute), Until: auditAt.Add(9 * time.Minute)}, "s5 s3", 2},
		{"no match", store.AuditFilter{ActorID: "nobody"}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, total, err := s.ListAudit(ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if subjects(got) != tc.want || total != tc.total {
				t.Errorf("got %q (total %d), want %q (total %d)", subjects(got), total, tc.want, tc.total)
			}
			if got == nil {
				t.Error("an empty page is nil; the API promises a list")
			}
		})
	}

	// The import's counts come back as numbers.
	imports, _, err := s.ListAudit(ctx, store.AuditFilter{Action: "guest.import"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range imports {
		for key, want := range map[string]int64{"created": 3, "updated": 1, "refused": 1} {
			if n, ok := asInt(e.Details[key]); !ok || n != want {
				t.Errorf("%s: %s = %v, want %d", e.Subject, key, e.Details[key], want)
			}
		}
	}
}

func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

// TestSweepAudit: the sweeper removes exactly the entries older than the
// retention, however many there are, and nothing when run again.
func TestSweepAudit(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	now := auditAt
	ages := map[string]time.Duration{
		"year":          365 * 24 * time.Hour,
		"91 days":       91 * 24 * time.Hour,
		"just too old":  audit.Retention + time.Millisecond,
		"exactly 90d":   audit.Retention,
		"89 days":       89 * 24 * time.Hour,
		"an hour":       time.Hour,
		"now":           0,
		"clock skewed+": -time.Minute, // another instance's clock runs ahead
	}
	for subject, age := range ages {
		if err := s.InsertAudit(ctx, &audit.Entry{At: now.Add(-age), Action: "guest.create", Subject: subject, Status: 201}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.SweepAudit(ctx, now.Add(-audit.Retention))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("swept %d, want 3", n)
	}
	left, total, err := s.ListAudit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, e := range left {
		kept = append(kept, e.Subject)
	}
	want := []string{"clock skewed+", "now", "an hour", "89 days", "exactly 90d"}
	if total != 5 || !slices.Equal(kept, want) {
		t.Errorf("kept %v (total %d), want %v", kept, total, want)
	}
	if n, err := s.SweepAudit(ctx, now.Add(-audit.Retention)); err != nil || n != 0 {
		t.Errorf("second sweep: %d, %v; want 0, nil", n, err)
	}
}
