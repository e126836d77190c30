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

// DietaryTag is one line of the dietary report: who needs it. The tag
// NeedReview lists the people whose words need the host's eyes.
type DietaryTag struct {
	Tag string `json:"tag"`
	// Guests counts the guests (documents) with someone needing the tag.
	Guests int `json:"guests"`
	// People counts the people: each person named (a guest or a described
	// companion) once, for their own needs alone.
	People  int            `json:"people"`
	Entries []DietaryEntry `json:"entries"`
}

// DietaryEntry is one person in the dietary report.
type DietaryEntry struct {
	// ID is the guest's; Ref names the person (see Person).
	ID        string `json:"id"`
	Ref       string `json:"ref"`
	Companion int    `json:"companion,omitempty"`
	Name      string `json:"name"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Status    Status `json:"status"`
	Text      string `json:"text"`
	// Tags, Unclear and Reviewed are the person's needs, so the host can
	// review them from the report.
	Tags     []string `json:"tags"`
	Unclear  []string `json:"unclear"`
	Reviewed bool     `json:"reviewed"`
	People   int      `json:"people"`
}

// DietaryByTag groups people by their dietary tags, the people needing the
// host's eyes first, then the tags most guests need; a person with two tags is
// under both.
func DietaryByTag(guests []Guest) []DietaryTag {
	byTag := map[string]*DietaryTag{}
	for _, g := range guests {
		counted := map[string]bool{}
		for _, p := range g.People() {
			// Each person is counted once, for their own needs: a
			// companion nobody described is not assumed to share the
			// guest's (one person with a milk allergy read "2 people").
			n := 1
			tags := slices.Clone(p.Dietary.Tags)
			if p.Dietary.NeedsReview() {
				tags = append([]string{NeedReview}, tags...)
			}
			for _, t := range tags {
				dt := byTag[t]
				if dt == nil {
					dt = &DietaryTag{Tag: t}
					byTag[t] = dt
				}
				if !counted[t] {
					counted[t] = true
					dt.Guests++
				}
				dt.People += n
				dt.Entries = append(dt.Entries, DietaryEntry{
					ID: g.ID, Ref: p.Ref, Companion: p.Companion, Name: p.Name, FirstName: g.FirstName, LastName: g.LastName,
					Status: g.Status, Text: p.Dietary.Text, Tags: nonNil(p.Dietary.Tags), Unclear: nonNil(p.Dietary.Unclear),
					Reviewed: p.Dietary.Reviewed, People: n,
				})
			}
		}
	}
	out := make([]DietaryTag, 0, len(byTag))
	for _, dt := range byTag {
		out = append(out, *dt)
	}
	slices.SortFunc(out, func(a, b DietaryTag) int {
		switch {
		case (a.Tag == NeedReview) != (b.Tag == NeedReview):
			if a.Tag == NeedReview {
				return -1
			}
			return 1
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

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
