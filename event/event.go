// Package event is the event as the host lists them: one party, wedding
// or bar night, with its own database (docs/EVENTS.md).
//
// Each event's data keeps the schema barhub has always had, in a database
// of its own; the installation's control database holds the registry of
// events. This package is the registry's plain types and rules: what an
// event is called, when it is, and how the host's list orders them.
package event

import (
	"cmp"
	"slices"
	"time"
)

// Status is where an event stands for the host's list.
type Status string

const (
	// Upcoming: it has not started yet, is running now, or has no date.
	Upcoming Status = "upcoming"
	// Past: it started more than Lasts ago.
	Past Status = "past"
	// Archived: the host put it away; it is read-only whatever its date.
	Archived Status = "archived"
)

// Lasts is how long after its start an event still counts as upcoming: a
// party that starts at eight in the evening is still tonight's, not a past
// one, when the bar closes at two.
const Lasts = 24 * time.Hour

// Event is one event of the installation. Its name, time, place and time
// zone are its settings' (read, never copied, so they cannot drift); the
// rest is the registry's.
type Event struct {
	// ID names the event in the registry and, later, in URLs and tokens.
	ID       string
	Name     string
	StartsAt *time.Time
	// Timezone is an IANA name ("Europe/Stockholm"), as in the settings.
	Timezone string
	Location string
	// Database holds the event's data: guests, menu, orders, settings.
	Database  string
	Status    Status
	CreatedAt time.Time
}

// StatusAt gives an event's status at now: archived when the host archived
// it, past once it started more than Lasts before now, upcoming otherwise
// (an event without a date is still being planned, so upcoming).
func StatusAt(startsAt *time.Time, archived bool, now time.Time) Status {
	switch {
	case archived:
		return Archived
	case startsAt != nil && !now.Before(startsAt.Add(Lasts)):
		return Past
	default:
		return Upcoming
	}
}

// Sort orders events as the host's list shows them: upcoming first, the
// soonest first and those without a date after the dated ones; then past
// events, the most recent first; then archived ones, the most recent
// first. Ties go by name, then ID, so the order never depends on the
// order the registry was read in.
func Sort(events []Event) {
	slices.SortStableFunc(events, compare)
}

var rank = map[Status]int{Upcoming: 0, Past: 1, Archived: 2}

func compare(a, b Event) int {
	if c := cmp.Compare(rank[a.Status], rank[b.Status]); c != 0 {
		return c
	}
	var c int
	switch {
	case a.StartsAt == nil && b.StartsAt == nil:
	case a.StartsAt == nil: // undated: still being planned, after the dated ones
		c = 1
	case b.StartsAt == nil:
		c = -1
	case a.Status == Upcoming:
		c = a.StartsAt.Compare(*b.StartsAt)
	default:
		c = b.StartsAt.Compare(*a.StartsAt)
	}
	return cmp.Or(c, cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
}
