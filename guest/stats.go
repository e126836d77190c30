package guest

// Counts are the host's headline figures (GET /api/admin/stats). Every
// guest contributes to them independently, so a change of guests changes
// them by CountOf(after) − CountOf(before): the store keeps them up to date
// that way instead of scanning every guest on every read.
type Counts struct {
	// Invited is the number of guests (people with their own login),
	// staff not attending left out.
	Invited int `bson:"invited" json:"invited"`
	// Expected is how many people come if everyone says yes: the sum of
	// expectedGuests.
	Expected int `bson:"expected" json:"expected"`
	Pending  int `bson:"pending" json:"pending"`
	// Coming counts guests (logins) coming; ComingHeads counts people,
	// their dependants and confirmed extras included.
	Coming        int `bson:"coming" json:"coming"`
	ComingHeads   int `bson:"comingHeads" json:"comingHeads"`
	Declined      int `bson:"declined" json:"declined"`
	NeverLoggedIn int `bson:"neverLoggedIn" json:"neverLoggedIn"`
	// WithAllergies counts coming guests with a dietary need on their
	// answer: their own, a companion's, or words for the host to review.
	WithAllergies int `bson:"withAllergies" json:"withAllergies"`
	// CheckedIn counts guests the door let in; CheckedInHeads the people
	// who came in with them (door.go).
	CheckedIn      int `bson:"checkedIn" json:"checkedIn"`
	CheckedInHeads int `bson:"checkedInHeads" json:"checkedInHeads"`
	// WalkIns counts the guests the door added on the night (SourceWalkIn).
	WalkIns int `bson:"walkIns" json:"walkIns"`
	// Staff counts the bartenders and hosts who are not also attending:
	// on the guest list, in none of the figures above.
	Staff int `bson:"staff" json:"staff"`
}

// CountOf is one guest's part of the counts: nothing for staff who are
// not also attending (Counted).
func CountOf(g Guest) Counts {
	if !g.Counted() {
		return Counts{Staff: 1}
	}
	c := Counts{Invited: 1, Expected: max(1, g.ExpectedGuests)}
	switch g.Status {
	case StatusComing:
		c.Coming = 1
		c.ComingHeads = g.Heads()
		if len(g.NeedsSummary()) > 0 {
			c.WithAllergies = 1
		}
	case StatusDeclined:
		c.Declined = 1
	default:
		c.Pending = 1
	}
	if g.LastLogin == nil {
		c.NeverLoggedIn = 1
	}
	if g.CheckedIn() {
		c.CheckedIn = 1
		c.CheckedInHeads = max(1, g.ArrivedHeads)
	}
	if g.IsWalkIn() {
		c.WalkIns = 1
	}
	return c
}

// Add returns c + o.
func (c Counts) Add(o Counts) Counts {
	return Counts{
		Invited:        c.Invited + o.Invited,
		Expected:       c.Expected + o.Expected,
		Pending:        c.Pending + o.Pending,
		Coming:         c.Coming + o.Coming,
		ComingHeads:    c.ComingHeads + o.ComingHeads,
		Declined:       c.Declined + o.Declined,
		NeverLoggedIn:  c.NeverLoggedIn + o.NeverLoggedIn,
		WithAllergies:  c.WithAllergies + o.WithAllergies,
		CheckedIn:      c.CheckedIn + o.CheckedIn,
		CheckedInHeads: c.CheckedInHeads + o.CheckedInHeads,
		WalkIns:        c.WalkIns + o.WalkIns,
		Staff:          c.Staff + o.Staff,
	}
}

// Sub returns c − o.
func (c Counts) Sub(o Counts) Counts {
	return c.Add(Counts{}.subtract(o))
}

func (Counts) subtract(o Counts) Counts {
	return Counts{
		Invited: -o.Invited, Expected: -o.Expected, Pending: -o.Pending, Coming: -o.Coming,
		ComingHeads: -o.ComingHeads, Declined: -o.Declined, NeverLoggedIn: -o.NeverLoggedIn, WithAllergies: -o.WithAllergies,
		CheckedIn: -o.CheckedIn, CheckedInHeads: -o.CheckedInHeads, WalkIns: -o.WalkIns, Staff: -o.Staff,
	}
}

// Change is how the counts move when guests go from before to after; a
// guest missing on one side was created or deleted.
func Change(before, after []Guest) Counts {
	var d Counts
	for _, g := range after {
		d = d.Add(CountOf(g))
	}
	for _, g := range before {
		d = d.Sub(CountOf(g))
	}
	return d
}

// Zero reports whether the counts are all zero (nothing changed).
func (c Counts) Zero() bool { return c == Counts{} }
