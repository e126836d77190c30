package event

import (
	"slices"
	"testing"
	"time"
)

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func TestStatusAt(t *testing.T) {
	now := *at("2026-06-20T12:00:00Z")
	tests := []struct {
		name     string
		startsAt *time.Time
		archived bool
		want     Status
	}{
		{"no date yet", nil, false, Upcoming},
		{"next week", at("2026-06-27T18:00:00Z"), false, Upcoming},
		{"starts this very moment", at("2026-06-20T12:00:00Z"), false, Upcoming},
		{"started last night, still within a day", at("2026-06-19T20:00:00Z"), false, Upcoming},
		{"a day to the second ago", at("2026-06-19T12:00:00Z"), false, Past},
		{"last year", at("2025-06-21T18:00:00Z"), false, Past},
		{"archived before it happened", at("2026-06-27T18:00:00Z"), true, Archived},
		{"archived after it happened", at("2025-06-21T18:00:00Z"), true, Archived},
		{"archived without a date", nil, true, Archived},
		{"in another zone, same instant", at("2026-06-19T14:00:00+02:00"), false, Past},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StatusAt(tt.startsAt, tt.archived, now); got != tt.want {
				t.Errorf("StatusAt(%v, %v) = %q, want %q", tt.startsAt, tt.archived, got, tt.want)
			}
		})
	}
}

func TestSort(t *testing.T) {
	ev := func(id string, st Status, startsAt *time.Time) Event {
		return Event{ID: id, Name: "Party " + id, Status: st, StartsAt: startsAt}
	}
	tests := []struct {
		name string
		in   []Event
		want []string // IDs in the host's order
	}{
		{
			name: "upcoming soonest first, then past most recent first",
			in: []Event{
				ev("past-2024", Past, at("2024-06-21T18:00:00Z")),
				ev("next-year", Upcoming, at("2027-06-21T18:00:00Z")),
				ev("past-2025", Past, at("2025-06-21T18:00:00Z")),
				ev("next-week", Upcoming, at("2026-06-27T18:00:00Z")),
			},
			want: []string{"next-week", "next-year", "past-2025", "past-2024"},
		},
		{
			name: "undated upcoming after the dated ones, archived last",
			in: []Event{
				ev("archived-old", Archived, at("2023-01-01T18:00:00Z")),
				ev("planning", Upcoming, nil),
				ev("archived-new", Archived, at("2025-01-01T18:00:00Z")),
				ev("past", Past, at("2025-06-21T18:00:00Z")),
				ev("soon", Upcoming, at("2026-06-27T18:00:00Z")),
			},
			want: []string{"soon", "planning", "past", "archived-new", "archived-old"},
		},
		{
			name: "same time: by name, then id",
			in: []Event{
				{ID: "b", Name: "Wedding", Status: Upcoming, StartsAt: at("2026-06-27T18:00:00Z")},
				{ID: "c", Name: "Rehearsal dinner", Status: Upcoming, StartsAt: at("2026-06-27T18:00:00Z")},
				{ID: "a", Name: "Wedding", Status: Upcoming, StartsAt: at("2026-06-27T18:00:00Z")},
			},
			want: []string{"c", "a", "b"},
		},
		{
			name: "one event",
			in:   []Event{ev("only", Upcoming, nil)},
			want: []string{"only"},
		},
		{name: "none", in: nil, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Every starting order gives the same list.
			for _, in := range [][]Event{tt.in, reversed(tt.in)} {
				Sort(in)
				var got []string
				for _, e := range in {
					got = append(got, e.ID)
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("Sort = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func reversed(events []Event) []Event {
	r := slices.Clone(events)
	slices.Reverse(r)
	return r
}
