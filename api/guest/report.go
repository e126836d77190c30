package guest

import (
	"slices"
	"time"
)

// Day is one day of answers, in the event's time zone.
type Day struct {
	Date string `json:"date"` // 2006-01-02
	// Coming and Declined count the answers given that day (a changed
	// answer counts on the day of its last change).
	Coming   int `json:"coming"`
	Declined int `json:"declined"`
	// ComingHeads is the people those coming answers bring.
	ComingHeads int `json:"comingHeads"`
	// TotalHeads and TotalAnswered run up to and including the day.
	TotalHeads    int `json:"totalHeads"`
	TotalAnswered int `json:"totalAnswered"`
}

// Timeline groups answers by day, oldest first, with running totals.
func Timeline(answers []Guest, loc *time.Location) []Day {
	byDate := map[string]*Day{}
	for _, g := range answers {
		if g.RSVPDate == nil || g.Status == StatusPending {
			continue
		}
		date := g.RSVPDate.In(loc).Format(time.DateOnly)
		d := byDate[date]
		if d == nil {
			d = &Day{Date: date}
			byDate[date] = d
		}
		if g.Status == StatusComing {
			d.Coming++
			d.ComingHeads += g.Heads()
		} else {
			d.Declined++
		}
	}
	out := make([]Day, 0, len(byDate))
	for _, d := range byDate {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b Day) int {
		switch {
		case a.Date < b.Date:
			return -1
		case a.Date > b.Date:
			return 1
		}
		return 0
	})
	heads, answered := 0, 0
	for i := range out {
		heads += out[i].ComingHeads
		answered += out[i].Coming + out[i].Declined
		out[i].TotalHeads, out[i].TotalAnswered = heads, answered
	}
	return out
}

// DietaryTag is one line of the dietary report: who needs it.
type DietaryTag struct {
	Tag    string `json:"tag"`
	Guests int    `json:"guests"`
	// People counts dependants too: a coming guest's headcount, or the
	// invitation's size while they have not answered.
	People  int            `json:"people"`
	Entries []DietaryEntry `json:"entries"`
}

// DietaryEntry is one guest in the dietary report.
type DietaryEntry struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Status    Status `json:"status"`
	Text      string `json:"text"`
	People    int    `json:"people"`
}

// DietaryByTag groups guests by their dietary tags, the most common tag
// first ("other" last); a guest with two tags is under both.
func DietaryByTag(guests []Guest) []DietaryTag {
	byTag := map[string]*DietaryTag{}
	for _, g := range guests {
		people := g.Heads()
		if g.Status != StatusComing {
			people = max(1, g.ExpectedGuests)
		}
		for _, t := range g.Dietary.Tags {
			dt := byTag[t]
			if dt == nil {
				dt = &DietaryTag{Tag: t}
				byTag[t] = dt
			}
			dt.Guests++
			dt.People += people
			dt.Entries = append(dt.Entries, DietaryEntry{ID: g.ID, FirstName: g.FirstName, LastName: g.LastName, Status: g.Status, Text: g.Dietary.Text, People: people})
		}
	}
	out := make([]DietaryTag, 0, len(byTag))
	for _, dt := range byTag {
		out = append(out, *dt)
	}
	slices.SortFunc(out, func(a, b DietaryTag) int {
		switch {
		case (a.Tag == TagOther) != (b.Tag == TagOther):
			if a.Tag == TagOther {
				return 1
			}
			return -1
		case a.Guests != b.Guests:
			return b.Guests - a.Guests
		case a.Tag < b.Tag:
			return -1
		case a.Tag > b.Tag:
			return 1
		}
		return 0
	})
	return out
}
