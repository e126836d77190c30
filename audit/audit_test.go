package audit

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewIDSortsByTime(t *testing.T) {
	base := time.Date(2030, 6, 12, 18, 0, 0, 0, time.UTC)
	times := []time.Time{
		base.Add(-Retention),
		base.Add(-time.Second),
		base.Add(-time.Millisecond),
		base,
		base.Add(time.Millisecond),
		base.Add(999 * time.Millisecond),
		base.Add(time.Second),
		base.Add(10 * time.Hour),
		base.AddDate(1, 0, 0),
	}
	var ids []string
	for _, at := range times {
		ids = append(ids, NewID(at))
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids out of time order: %v", ids)
	}
	if got, want := ids[3][:len("20300612T180000.000Z")], "20300612T180000.000Z"; got != want {
		t.Errorf("id %q does not start with its time %q", ids[3], want)
	}
	if a, b := NewID(base), NewID(base); a == b {
		t.Errorf("two ids in one millisecond are equal: %s", a)
	}
	// A time in another zone is the same instant.
	stockholm := time.FixedZone("CEST", 2*3600)
	if got, want := Bound(base.In(stockholm)), Bound(base); got != want {
		t.Errorf("Bound in CEST = %s, want %s", got, want)
	}
}

func TestBound(t *testing.T) {
	at := time.Date(2030, 6, 12, 18, 0, 0, 5_000_000, time.UTC) // .005
	id := NewID(at)
	for _, tc := range []struct {
		name       string
		bound      time.Time
		idSortsGTE bool // the entry at `at` is at or after the bound
	}{
		{"same millisecond", at, true},
		{"a millisecond earlier", at.Add(-time.Millisecond), true},
		{"half a millisecond earlier", at.Add(-500 * time.Microsecond), true},
		{"a nanosecond later", at.Add(time.Nanosecond), false},
		{"a millisecond later", at.Add(time.Millisecond), false},
	} {
		if got := id >= Bound(tc.bound); got != tc.idSortsGTE {
			t.Errorf("%s: %s >= %s is %v, want %v", tc.name, id, Bound(tc.bound), got, tc.idSortsGTE)
		}
	}
	if got, want := Bound(MaxTime), "99991231T235959.000Z"; got != want {
		t.Errorf("Bound(MaxTime) = %s, want %s", got, want)
	}
}

func TestValidAction(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"guest", true},
		{"guest.create", true},
		{"drink.image_upload", true},
		{"drink_stock.set", true},
		{"announcement", true},
		{"", false},
		{"Guest", false},
		{"guest.", false},
		{".guest", false},
		{"guest..create", false},
		{"guest.*", false},
		{"guest create", false},
		{"_x", false},
		{"g(1)", false},
		{strings.Repeat("a", 65), false},
	} {
		if got := ValidAction(tc.in); got != tc.want {
			t.Errorf("ValidAction(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestRecorderThroughContext(t *testing.T) {
	// Without a recorder (a route that is not audited) every call is a
	// harmless no-op.
	bare := context.Background()
	Note(bare, "created", 3)
	SetSubject(bare, "g1")
	Skip(bare)
	if FromContext(bare) != nil {
		t.Fatal("a bare context has a recorder")
	}

	rec := &Recorder{}
	ctx := NewContext(bare, rec)
	if FromContext(ctx) != rec {
		t.Fatal("FromContext does not return the recorder")
	}
	if rec.Details() != nil || rec.Subject() != "" || rec.Skipped() {
		t.Fatalf("a new recorder is not empty: %v %q %v", rec.Details(), rec.Subject(), rec.Skipped())
	}
	Note(ctx, "created", 3)
	Note(ctx, "updated", int64(1))
	Note(ctx, "dryRun", false)
	Note(ctx, "changed", []string{"status", "dietary"})
	Note(ctx, "name", "Ada Åberg")
	Note(ctx, "created", 4) // a second note replaces the first
	SetSubject(ctx, "g1")
	want := map[string]any{"created": 4, "updated": int64(1), "dryRun": false, "changed": []string{"status", "dietary"}, "name": "Ada Åberg"}
	if got := rec.Details(); !reflect.DeepEqual(got, want) {
		t.Errorf("details = %#v, want %#v", got, want)
	}
	if rec.Subject() != "g1" {
		t.Errorf("subject = %q", rec.Subject())
	}
	// Details hands out a copy.
	rec.Details()["created"] = 99
	if rec.Details()["created"] != 4 {
		t.Error("changing the returned details changed the recorder")
	}
	Skip(ctx)
	if !rec.Skipped() {
		t.Error("Skip did not mark the recorder")
	}
}

// TestNoteRefusesSecretsAndBulk: whatever a handler passes, a secret-like
// name or a bulky value never reaches the entry.
func TestNoteRefusesSecretsAndBulk(t *testing.T) {
	rec := &Recorder{}
	for _, key := range []string{"code", "newCode", "token", "appKey", "key", "apiKey", "password", "secret", "sig", "ticket", "body", "requestBody", ""} {
		rec.Note(key, "7KQ2MHXD")
	}
	rec.Note("payload", map[string]any{"code": "7KQ2MHXD"})
	rec.Note("raw", []byte("7KQ2MHXD"))
	rec.Note("when", time.Now())
	if d := rec.Details(); d != nil {
		t.Errorf("refused notes were kept: %v", d)
	}

	rec.Note("name", strings.Repeat("é", 500))
	name := rec.Details()["name"].(string)
	if n := len([]rune(name)); n != maxTextRunes || !strings.HasSuffix(name, "…") {
		t.Errorf("long text kept %d runes (%q…), want %d ending in …", n, name[:10], maxTextRunes)
	}
	long := make([]string, 80)
	for i := range long {
		long[i] = "f"
	}
	rec.Note("changed", long)
	if n := len(rec.Details()["changed"].([]string)); n != maxListLength {
		t.Errorf("a list of 80 kept %d items, want %d", n, maxListLength)
	}
	for i := range 30 {
		rec.Note("n"+strings.Repeat("x", i), i)
	}
	if n := len(rec.Details()); n != maxDetails {
		t.Errorf("%d details kept, want at most %d", n, maxDetails)
	}
	rec.SetSubject(strings.Repeat("s", 300))
	if n := len([]rune(rec.Subject())); n != maxTextRunes {
		t.Errorf("subject kept %d runes, want %d", n, maxTextRunes)
	}
}

func TestChanged(t *testing.T) {
	type settings struct {
		EventName string     `json:"eventName"`
		Location  string     `json:"location"`
		Date      *time.Time `json:"date"`
		Tags      []string   `json:"tags"`
		UpdatedAt time.Time  `json:"updatedAt"`
		Hidden    string     `json:"-"`
		Optional  string     `json:"optional,omitempty"`
	}
	d1 := time.Date(2030, 6, 12, 18, 0, 0, 0, time.UTC)
	d2 := d1.Add(time.Hour)
	base := settings{EventName: "Garden party", Location: "Lund", Date: &d1, Tags: []string{"a"}, UpdatedAt: d1, Hidden: "x"}
	for _, tc := range []struct {
		name  string
		after func(s settings) settings
		want  []string
	}{
		{"nothing", func(s settings) settings { return s }, nil},
		{"ignored field only", func(s settings) settings { s.UpdatedAt = d2; return s }, nil},
		{"hidden field", func(s settings) settings { s.Hidden = "y"; return s }, nil},
		{"one field", func(s settings) settings { s.EventName = "Midsummer"; return s }, []string{"eventName"}},
		{"several, sorted", func(s settings) settings { s.Location = "Malmö"; s.Date = &d2; s.Tags = []string{"a", "b"}; return s }, []string{"date", "location", "tags"}},
		{"cleared pointer", func(s settings) settings { s.Date = nil; return s }, []string{"date"}},
		{"field appears", func(s settings) settings { s.Optional = "x"; return s }, []string{"optional"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Changed(base, tc.after(base), "updatedAt")
			if !slices.Equal(got, tc.want) {
				t.Errorf("Changed = %v, want %v", got, tc.want)
			}
		})
	}
	withOptional := base
	withOptional.Optional = "x"
	if got := Changed(withOptional, base); !slices.Equal(got, []string{"optional"}) {
		t.Errorf("a field that disappears: %v, want [optional]", got)
	}
}
