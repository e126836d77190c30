// Package audit is the record of what the host (and the bar, for stock)
// changed: who did what to which guest, drink or setting, and when
// (docs/DESIGN.md, Domain: "Audit entries for imports and admin actions,
// expiring after 90 days").
//
// An entry says that something happened, never what was sent: no request
// bodies, no sign-in codes, tokens, keys or other secrets, and for an edit
// only the NAMES of the fields that changed. Handlers add their few
// details through the request's context (Note, SetSubject); the API's
// middleware writes the entry once the handler has answered.
package audit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Retention is how long an entry is kept; a sweeper removes older ones
// (the embedded database has no TTL indexes).
const Retention = 90 * 24 * time.Hour

// Entry is one recorded action.
type Entry struct {
	// ID starts with the time (see NewID), so ordering by ID is ordering
	// by time, and the newest-first list and the sweeper both use _id.
	ID        string    `bson:"_id" json:"id"`
	At        time.Time `bson:"at" json:"at"`
	ActorID   string    `bson:"actorId" json:"actorId"`
	ActorName string    `bson:"actorName" json:"actorName"`
	Role      string    `bson:"role" json:"role"`
	// Action names what was done: "guest.create", "settings.update", …
	Action string `bson:"action" json:"action"`
	// Subject is what it was done to: a guest or drink id, an ingredient,
	// a job id; empty for the event's settings or an import.
	Subject string `bson:"subject,omitempty" json:"subject,omitempty"`
	// Status is the HTTP status the action was answered with.
	Status int `bson:"status" json:"status"`
	// Details are the handler's few notes: counts, field names, a name.
	Details map[string]any `bson:"details,omitempty" json:"details,omitempty"`
}

// idTime is the time part of an ID: fixed width, UTC, milliseconds (the
// precision the database keeps times in), so IDs sort as their times do.
const idTime = "20060102T150405.000Z"

// NewID makes an entry id for an action at t: its time, then random
// hex so two entries in the same millisecond do not collide.
func NewID(t time.Time) string {
	var b [6]byte
	rand.Read(b[:])
	return Bound(t) + "-" + hex.EncodeToString(b[:])
}

// Bound is the ID every entry at or after t (to the millisecond) sorts
// at or after, and every entry before t sorts before: the key for time
// ranges and the sweep. Sub-millisecond times round up, as entry times
// are whole milliseconds.
func Bound(t time.Time) string {
	t = t.UTC()
	if r := t.Truncate(time.Millisecond); !r.Equal(t) {
		t = r.Add(time.Millisecond)
	}
	return t.Format(idTime)
}

// MinTime and MaxTime bound the times an ID can hold: outside them the
// fixed-width time part would no longer sort.
var (
	MinTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// ValidAction reports whether s looks like an action or a family of
// actions: lower-case words joined by dots ("guest", "guest.create",
// "drink.image_upload").
func ValidAction(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, word := range strings.Split(s, ".") {
		if word == "" || word[0] == '_' {
			return false
		}
		for i := 0; i < len(word); i++ {
			if c := word[i]; !(c >= 'a' && c <= 'z' || c == '_') {
				return false
			}
		}
	}
	return true
}

// Limits on what a handler may note: details are a few words, not a copy
// of the request.
const (
	maxDetails    = 16
	maxTextRunes  = 200
	maxListLength = 50
)

// secretish are fragments of detail keys that are refused outright:
// whatever a handler meant, a value under such a name must not be kept.
var secretish = []string{"code", "token", "secret", "password", "key", "sig", "ticket", "body"}

// Recorder collects a request's subject and details. The middleware puts
// one in the request's context; handlers reach it through Note,
// SetSubject and Skip. Its methods are safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	subject string
	details map[string]any
	skip    bool
}

type ctxKey struct{}

// NewContext returns ctx carrying r.
func NewContext(ctx context.Context, r *Recorder) context.Context {
	return context.WithValue(ctx, ctxKey{}, r)
}

// FromContext returns the request's recorder, or nil when the route is
// not audited.
func FromContext(ctx context.Context) *Recorder {
	r, _ := ctx.Value(ctxKey{}).(*Recorder)
	return r
}

// Note adds a detail to the request's entry, if the route is audited.
// Values may be strings, booleans, numbers or lists of strings; anything
// else, and any key that names a secret ("code", "token", "key", …), is
// dropped. Long text is cut short.
func Note(ctx context.Context, key string, value any) {
	if r := FromContext(ctx); r != nil {
		r.Note(key, value)
	}
}

// SetSubject names what the request acted on when the path does not
// (a guest that was just created, for example).
func SetSubject(ctx context.Context, subject string) {
	if r := FromContext(ctx); r != nil {
		r.SetSubject(subject)
	}
}

// Skip tells the middleware that this request changed nothing worth an
// entry (an import's dry run).
func Skip(ctx context.Context) {
	if r := FromContext(ctx); r != nil {
		r.mu.Lock()
		r.skip = true
		r.mu.Unlock()
	}
}

// Note adds one detail; see the package function.
func (r *Recorder) Note(key string, value any) {
	if !allowedKey(key) {
		return
	}
	v, ok := clean(value)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.details == nil {
		r.details = map[string]any{}
	}
	if _, exists := r.details[key]; !exists && len(r.details) >= maxDetails {
		return
	}
	r.details[key] = v
}

// SetSubject sets the entry's subject, cut short if long.
func (r *Recorder) SetSubject(subject string) {
	r.mu.Lock()
	r.subject = truncate(subject)
	r.mu.Unlock()
}

// Subject returns what SetSubject set.
func (r *Recorder) Subject() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.subject
}

// Details returns a copy of the notes, nil when there are none.
func (r *Recorder) Details() map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.details) == 0 {
		return nil
	}
	out := make(map[string]any, len(r.details))
	for k, v := range r.details {
		out[k] = v
	}
	return out
}

// Skipped reports whether the handler asked for no entry.
func (r *Recorder) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skip
}

func allowedKey(key string) bool {
	if key == "" || len(key) > 40 {
		return false
	}
	lower := strings.ToLower(key)
	for _, s := range secretish {
		if strings.Contains(lower, s) {
			return false
		}
	}
	return true
}

// clean keeps the kinds of value that stay small and read back from the
// database as themselves.
func clean(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return truncate(v), true
	case bool, int, int32, int64, float64:
		return v, true
	case []string:
		n := min(len(v), maxListLength)
		out := make([]string, n)
		for i := range n {
			out[i] = truncate(v[i])
		}
		return out, true
	}
	return nil, false
}

func truncate(s string) string {
	if utf8.RuneCountInString(s) <= maxTextRunes {
		return s
	}
	r := []rune(s)
	return string(r[:maxTextRunes-1]) + "…"
}

// Changed names the JSON fields whose values differ between before and
// after (two values of the same type), leaving out those in ignore: an
// edit's entry says which fields changed, never to what.
func Changed(before, after any, ignore ...string) []string {
	a, errA := fields(before)
	b, errB := fields(after)
	if errA != nil || errB != nil {
		return nil
	}
	var out []string
	for k, v := range b {
		if slices.Contains(ignore, k) {
			continue
		}
		if old, ok := a[k]; !ok || !reflect.DeepEqual(old, v) {
			out = append(out, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && !slices.Contains(ignore, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func fields(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	err = json.Unmarshal(raw, &m)
	return m, err
}

// Areas group the families of actions the way the host's desk looks at
// them: its log filters by area ("door": who let whom in). Every action
// the API records belongs to one area (TestEveryActionHasAnArea).
var Areas = map[string][]string{
	"guests": {"guest", "auth", "registration"},
	"rsvp":   {"rsvp"},
	"door":   {"door"},
	"menu":   {"drink"},
	"bar":    {"stock", "drink_stock", "board", "plan"},
	"mail":   {"invitation", "reminder", "public_url"},
	"event":  {"settings", "announcement", "event"},
	"system": {"appkey", "job", "notifications", "unmapped"},
}

// AreaOf returns the area an action belongs to, "" when none.
func AreaOf(action string) string {
	for area, families := range Areas {
		for _, f := range families {
			if action == f || strings.HasPrefix(action, f+".") {
				return area
			}
		}
	}
	return ""
}
