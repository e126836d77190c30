package order

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// The night's record (docs/REPORTS.md): each order's times and who made
// it, and the report after the party, computed from the orders alone.

// Times are the moments of an order's life read from its history, and
// who made it.
type Times struct {
	Placed time.Time `json:"placed"`
	// Started is the first move to preparing, Ready the last move to
	// ready (a recalled drink is made again), Served and Cancelled the
	// final moves; nil when the order never got there.
	Started   *time.Time `json:"started,omitempty"`
	Ready     *time.Time `json:"ready,omitempty"`
	Served    *time.Time `json:"served,omitempty"`
	Cancelled *time.Time `json:"cancelled,omitempty"`
	// MadeBy is the bartender who marked it ready (else who started it):
	// the person who made the drink.
	MadeBy   string `json:"madeBy,omitempty"`
	MadeByID string `json:"madeById,omitempty"`
	// CancelledBy and Reason say who cancelled it and why.
	CancelledBy string `json:"cancelledBy,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// TimesOf reads o's history.
func TimesOf(o Order) Times {
	t := Times{Placed: o.CreatedAt}
	startedBy, startedByID := "", ""
	for _, h := range o.History {
		at := h.At
		switch h.To {
		case Preparing:
			if t.Started == nil {
				t.Started = &at
				startedBy, startedByID = h.ActorName, h.ActorID
			}
		case Ready:
			t.Ready = &at
			t.MadeBy, t.MadeByID = h.ActorName, h.ActorID
		case Served:
			t.Served = &at
		case Cancelled:
			t.Cancelled = &at
			t.CancelledBy, t.Reason = h.ActorName, h.Reason
		}
	}
	if t.MadeByID == "" {
		t.MadeBy, t.MadeByID = startedBy, startedByID
	}
	return t
}

// Prep is how long the drink took the bar, from the first start to the
// last ready; false when it was never made.
func (t Times) Prep() (time.Duration, bool) {
	if t.Started == nil || t.Ready == nil || t.Ready.Before(*t.Started) {
		return 0, false
	}
	return t.Ready.Sub(*t.Started), true
}

// Report is the night in figures: served glasses per hour, per drink and
// per guest, and the preparation times per drink.
type Report struct {
	Orders    int `json:"orders"`
	Served    int `json:"served"`    // glasses
	Cancelled int `json:"cancelled"` // glasses
	// PerHour is served glasses by the hour they were served, in the
	// event's time zone, every hour from the first to the last.
	PerHour  []HourCount  `json:"perHour"`
	PerDrink []DrinkCount `json:"perDrink"`
	// PerGuest is served glasses per guest, most first. An anonymous
	// report names nobody (no name, no id): the pages number the rows.
	PerGuest  []GuestCount `json:"perGuest"`
	Anonymous bool         `json:"anonymous"`
}

// HourCount is one hour's served glasses.
type HourCount struct {
	Hour    time.Time `json:"hour"`
	Glasses int       `json:"glasses"`
}

// DrinkCount is one drink's night. PrepP50 and PrepP90 are seconds, over
// the served orders holding the drink (an order's preparation counts for
// each drink in it); 0 when none was timed.
type DrinkCount struct {
	DrinkID string  `json:"drinkId"`
	Name    string  `json:"name"`
	Glasses int     `json:"glasses"`
	Timed   int     `json:"timed"`
	PrepP50 float64 `json:"prepP50"`
	PrepP90 float64 `json:"prepP90"`
}

// GuestCount is one guest's served glasses; GuestID is empty in an
// anonymous report.
type GuestCount struct {
	GuestID string `json:"guestId,omitempty"`
	Name    string `json:"name"`
	Glasses int    `json:"glasses"`
}

// Summarise makes the report of orders; loc is the event's time zone
// (nil: UTC). anonymous leaves the guests' names and ids out.
func Summarise(orders []Order, loc *time.Location, anonymous bool) Report {
	if loc == nil {
		loc = time.UTC
	}
	r := Report{Orders: len(orders), Anonymous: anonymous, PerHour: []HourCount{}, PerDrink: []DrinkCount{}, PerGuest: []GuestCount{}}
	hours := map[int64]int{}
	drinks := map[string]*DrinkCount{}
	preps := map[string][]float64{}
	guests := map[string]*GuestCount{}
	for _, o := range orders {
		switch o.Status {
		case Cancelled:
			r.Cancelled += o.Drinks()
			continue
		case Served:
		default:
			continue
		}
		t := TimesOf(o)
		n := o.Drinks()
		r.Served += n
		if t.Served != nil {
			// Truncate works on absolute time: in a zone off by a half
			// hour it would cut at :30, so cut the local clock instead.
			lt := t.Served.In(loc)
			h := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), 0, 0, 0, loc)
			hours[h.Unix()] += n
		}
		prep, timed := t.Prep()
		for _, it := range o.Items {
			d := drinks[it.DrinkID]
			if d == nil {
				d = &DrinkCount{DrinkID: it.DrinkID, Name: it.Name}
				drinks[it.DrinkID] = d
			}
			d.Glasses += it.Qty
			if timed {
				preps[it.DrinkID] = append(preps[it.DrinkID], prep.Seconds())
			}
		}
		g := guests[o.GuestID]
		if g == nil {
			g = &GuestCount{GuestID: o.GuestID, Name: o.GuestName}
			guests[o.GuestID] = g
		}
		g.Glasses += n
	}
	if len(hours) > 0 {
		var first, last int64 = math.MaxInt64, math.MinInt64
		for h := range hours {
			first, last = min(first, h), max(last, h)
		}
		for h := time.Unix(first, 0).In(loc); h.Unix() <= last; h = h.Add(time.Hour) {
			r.PerHour = append(r.PerHour, HourCount{Hour: h, Glasses: hours[h.Unix()]})
		}
	}
	for id, d := range drinks {
		p := preps[id]
		slices.Sort(p)
		d.Timed = len(p)
		d.PrepP50, d.PrepP90 = Percentile(p, 50), Percentile(p, 90)
		r.PerDrink = append(r.PerDrink, *d)
	}
	slices.SortFunc(r.PerDrink, func(a, b DrinkCount) int {
		return cmp.Or(cmp.Compare(b.Glasses, a.Glasses), cmp.Compare(a.Name, b.Name), cmp.Compare(a.DrinkID, b.DrinkID))
	})
	for _, g := range guests {
		r.PerGuest = append(r.PerGuest, *g)
	}
	slices.SortFunc(r.PerGuest, func(a, b GuestCount) int {
		return cmp.Or(cmp.Compare(b.Glasses, a.Glasses), cmp.Compare(a.Name, b.Name), cmp.Compare(a.GuestID, b.GuestID))
	})
	if anonymous {
		for i := range r.PerGuest {
			r.PerGuest[i].GuestID = ""
			r.PerGuest[i].Name = ""
		}
	}
	return r
}

// Percentile is the nearest-rank p-th percentile of sorted, 0 when it is
// empty: the smallest value at least p% of the values are at or under.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(0, min(rank, len(sorted))-1)]
}
