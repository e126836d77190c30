package order

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var statuses = []Status{Queued, Preparing, Ready, Served, Cancelled}

func TestEveryTransition(t *testing.T) {
	legal := map[Status]map[Action]Status{
		Queued:    {Start: Preparing, Cancel: Cancelled},
		Preparing: {MarkReady: Ready, Cancel: Cancelled},
		Ready:     {Serve: Served, Recall: Preparing},
	}
	n := 0
	for _, from := range statuses {
		for _, a := range Actions {
			n++
			t.Run(string(from)+"/"+string(a), func(t *testing.T) {
				to, err := Next(from, a)
				want, ok := legal[from][a]
				if ok {
					if err != nil || to != want {
						t.Fatalf("Next(%s, %s) = %q, %v; want %s", from, a, to, err, want)
					}
					return
				}
				var te *TransitionError
				if !errors.As(err, &te) {
					t.Fatalf("Next(%s, %s) = %q, %v; want a TransitionError", from, a, to, err)
				}
				msg := err.Error()
				if !strings.Contains(msg, string(from)+" → ") || !strings.Contains(msg, "cannot "+string(a)) {
					t.Errorf("message does not name the transition: %s", msg)
				}
			})
		}
	}
	if n != 25 {
		t.Fatalf("checked %d pairs, want 25", n)
	}
}

func TestTransitionMessages(t *testing.T) {
	_, err := Next(Queued, MarkReady)
	want := "cannot ready an order that is queued: queued → ready is not a legal transition; it can only be: start (→ preparing), cancel (→ cancelled)"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	_, err = Next(Served, Recall)
	if !strings.HasSuffix(err.Error(), "nothing more can be done to it") {
		t.Errorf("served: %s", err)
	}
}

func TestGuestCancel(t *testing.T) {
	for _, from := range statuses {
		to, err := GuestCancel(from)
		if from == Queued {
			if err != nil || to != Cancelled {
				t.Errorf("GuestCancel(queued) = %q, %v", to, err)
			}
			continue
		}
		var te *TransitionError
		if !errors.As(err, &te) || !te.ByGuest {
			t.Errorf("GuestCancel(%s) = %v, want a guest TransitionError", from, err)
		}
	}
	_, err := GuestCancel(Preparing)
	if !strings.Contains(err.Error(), "ask the bartender") {
		t.Errorf("preparing: %s", err)
	}
	if GuestEdit(Queued) != nil || GuestEdit(Preparing) == nil || GuestEdit(Ready) == nil {
		t.Error("GuestEdit must allow only queued orders")
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name  string
		in    Request
		code  string
		lines int
		qty   int
	}{
		{"one", Request{Items: []ItemInput{{DrinkID: "negroni", Qty: 2}}}, "", 1, 2},
		{"qty defaults to one", Request{Items: []ItemInput{{DrinkID: "negroni"}}}, "", 1, 1},
		{"same drink merged", Request{Items: []ItemInput{{DrinkID: "negroni", Qty: 1, Notes: " no  ice"}, {DrinkID: "negroni", Qty: 2, Notes: "no ice "}}}, "", 1, 3},
		{"different notes kept apart", Request{Items: []ItemInput{{DrinkID: "negroni"}, {DrinkID: "negroni", Notes: "no ice"}}}, "", 2, 1},
		{"empty", Request{}, "no_items", 0, 0},
		{"no drink", Request{Items: []ItemInput{{Qty: 1}}}, "invalid_item", 0, 0},
		{"negative", Request{Items: []ItemInput{{DrinkID: "x", Qty: -1}}}, "invalid_quantity", 0, 0},
		{"six of one", Request{Items: []ItemInput{{DrinkID: "x", Qty: 6}}}, "invalid_quantity", 0, 0},
		{"merged past the limit", Request{Items: []ItemInput{{DrinkID: "x", Qty: 3}, {DrinkID: "x", Qty: 3}}}, "invalid_quantity", 0, 0},
		{"eleven glasses", Request{Items: []ItemInput{{DrinkID: "a", Qty: 5}, {DrinkID: "b", Qty: 5}, {DrinkID: "c", Qty: 1}}}, "too_many_drinks", 0, 0},
		{"long notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: strings.Repeat("é", MaxNotesLen+1)}}}, "notes_too_long", 0, 0},
		{"long id", Request{Items: []ItemInput{{DrinkID: strings.Repeat("x", MaxDrinkIDLen+1)}}}, "invalid_item", 0, 0},
		{"NUL in notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "no ice\x00"}}}, "invalid_notes", 0, 0},
		{"override in notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "\u202eecI oN"}}}, "invalid_notes", 0, 0},
		{"zero-width notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "\u200b"}}}, "invalid_notes", 0, 0},
		{"qty 0 given", Request{Items: []ItemInput{{DrinkID: "x", qtyGiven: true}}}, "invalid_quantity", 0, 0},
		{"notes in any script", Request{Items: []ItemInput{{DrinkID: "x", Notes: "без льда 🍋"}}}, "", 1, 1},
		{"escape in notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "\x1b[2Jfree"}}}, "invalid_notes", 0, 0},
		{"C1 in notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "no\u009bice"}}}, "invalid_notes", 0, 0},
		{"isolate in notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "ice\u2068"}}}, "invalid_notes", 0, 0},
		{"Hangul filler notes", Request{Items: []ItemInput{{DrinkID: "x", Notes: "\u3164\u3164"}}}, "invalid_notes", 0, 0},
		{"line breaks from the notes box become spaces", Request{Items: []ItemInput{{DrinkID: "x", Notes: "no ice\r\n\textra lime"}, {DrinkID: "x", Notes: "no ice extra lime"}}}, "", 1, 2},
		{"same notes typed apart are merged", Request{Items: []ItemInput{{DrinkID: "x", Notes: "Lo\u0308ja\u200e"}, {DrinkID: "x", Notes: "Löja"}}}, "", 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.in.Normalize()
			if tt.code != "" {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Code != tt.code {
					t.Fatalf("err = %v, want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Items) != tt.lines || out.Items[0].Qty != tt.qty {
				t.Errorf("got %+v, want %d lines, first qty %d", out.Items, tt.lines, tt.qty)
			}
		})
	}
	eleven := Request{Items: make([]ItemInput, MaxLines+1)}
	for i := range eleven.Items {
		eleven.Items[i] = ItemInput{DrinkID: "d" + string(rune('a'+i))}
	}
	if _, err := eleven.Normalize(); err == nil {
		t.Error("eleven lines accepted")
	}
}

func TestHash(t *testing.T) {
	a, _ := Request{Items: []ItemInput{{DrinkID: "negroni", Qty: 1, Notes: "no ice"}}}.Normalize()
	b, _ := Request{Items: []ItemInput{{DrinkID: " negroni ", Notes: "no  ice "}}}.Normalize()
	c, _ := Request{Items: []ItemInput{{DrinkID: "negroni", Qty: 2}}}.Normalize()
	d, _ := Request{Items: []ItemInput{{DrinkID: "negroni", Qty: 1, Notes: "no ice"}}, ConfirmAllergens: true}.Normalize()
	if a.Hash() != b.Hash() {
		t.Error("the same order written differently hashes differently")
	}
	if a.Hash() == c.Hash() || a.Hash() == d.Hash() {
		t.Error("different orders hash the same")
	}
	if len(a.Hash()) != 64 {
		t.Errorf("hash %q", a.Hash())
	}
}

func TestValidKey(t *testing.T) {
	for k, want := range map[string]bool{
		"":                          false,
		"abc-123":                   true,
		"0f8fad5b-d9cb-469f-a165":   true,
		"has space":                 false,
		"tab\tkey":                  false,
		"ünï":                       false,
		strings.Repeat("k", 128):    true,
		strings.Repeat("k", 129):    false,
		"slash/is/fine:colons-too.": true,
	} {
		if got := ValidKey(k); got != want {
			t.Errorf("ValidKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestTypicalPrep(t *testing.T) {
	s := time.Second
	tests := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, DefaultPrep},
		{[]time.Duration{90 * s}, 90 * s},
		{[]time.Duration{60 * s, 120 * s, 90 * s}, 90 * s},
		{[]time.Duration{60 * s, 120 * s, 90 * s, 100 * s}, 95 * s},
		// Outliers are ignored: 1 s (a mistake) and 2 h (forgotten).
		{[]time.Duration{1 * s, 2 * time.Hour, 40 * s}, 40 * s},
		{[]time.Duration{1 * s}, DefaultPrep},
	}
	for _, tt := range tests {
		if got := TypicalPrep(tt.in); got != tt.want {
			t.Errorf("TypicalPrep(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPlaceIn(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	started := at(30)
	now := at(60)
	prep := 90 * time.Second
	open := []Entry{
		{ID: "e", Status: Queued, CreatedAt: at(40)},
		{ID: "a", Status: Preparing, CreatedAt: at(0), StartedAt: &started},
		{ID: "b", Status: Queued, CreatedAt: at(10)},
		{ID: "c", Status: Queued, CreatedAt: at(20)},
		{ID: "d", Status: Queued, CreatedAt: at(20)}, // same time as c: id breaks the tie
	}
	tests := []struct {
		id       string
		position int
		wait     time.Duration
	}{
		{"a", 1, 60 * time.Second}, // started 30 s ago, 90 s typical
		{"b", 2, 90 * time.Second}, // nothing queued ahead: one round
		{"c", 3, 180 * time.Second},
		{"d", 4, 270 * time.Second},
		{"e", 5, 360 * time.Second},
	}
	for _, tt := range tests {
		p, ok := PlaceIn(open, tt.id, prep, now)
		if !ok || p.Position != tt.position || p.Wait != tt.wait {
			t.Errorf("%s: %+v %v, want position %d wait %v", tt.id, p, ok, tt.position, tt.wait)
		}
	}
	// A second order in the making doubles the pace.
	started2 := at(50)
	open[2] = Entry{ID: "b", Status: Preparing, CreatedAt: at(10), StartedAt: &started2}
	if p, _ := PlaceIn(open, "e", prep, now); p.Wait != 180*time.Second || p.Position != 5 {
		t.Errorf("two bartenders: e %+v, want position 5, wait 180s", p)
	}
	// Overdue preparation counts as any moment now.
	if p, _ := PlaceIn(open, "a", prep, at(500)); p.Wait != 0 {
		t.Errorf("overdue wait = %v", p.Wait)
	}
	if _, ok := PlaceIn(open, "zzz", prep, now); ok {
		t.Error("unknown order placed")
	}
	open = append(open, Entry{ID: "r", Status: Ready, CreatedAt: at(5)})
	if _, ok := PlaceIn(open, "r", prep, now); ok {
		t.Error("a ready order placed in the queue")
	}
}

// BenchmarkPlaceIn: the place of the newest order in a rush's queue of
// 2,000, as each placement's answer works it out.
func BenchmarkPlaceIn(b *testing.B) {
	t0 := time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)
	open := make([]Entry, 2000)
	for i := range open {
		open[i] = Entry{ID: fmt.Sprintf("o%05d", i), Status: Queued, CreatedAt: t0.Add(time.Duration(i) * time.Second)}
	}
	for b.Loop() {
		if _, ok := PlaceIn(open, "o01999", time.Minute, t0); !ok {
			b.Fatal("not placed")
		}
	}
}

func TestNight(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   string
		loc  *time.Location
		want string
	}{
		{"2026-12-01T19:00:00Z", stockholm, "2026-12-01"},
		{"2026-12-01T23:30:00Z", stockholm, "2026-12-01"}, // 00:30 local: still the party of the 1st
		{"2026-12-02T04:59:00Z", stockholm, "2026-12-01"}, // 05:59 local
		{"2026-12-02T05:00:00Z", stockholm, "2026-12-02"}, // 06:00 local: a new night
		{"2026-12-02T05:00:00Z", nil, "2026-12-01"},       // UTC when no zone is set
	} {
		at, _ := time.Parse(time.RFC3339, tc.at)
		if got := Night(at, tc.loc); got != tc.want {
			t.Errorf("Night(%s, %v) = %s, want %s", tc.at, tc.loc, got, tc.want)
		}
	}
}
