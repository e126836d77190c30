// Package order is the domain of drink orders: what an order holds, the
// life of an order from the guest's phone to the bar and back, who may
// move it where, and the guest's place in the queue.
//
//	queued ──start──▶ preparing ──ready──▶ ready ──serve──▶ served
//	   │                 │   ◀───recall───┘
//	   └────cancel───────┴──cancel──▶ cancelled
//
// A guest may cancel only while the order is queued; the bar may cancel a
// queued or preparing order, giving a reason.
package order

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/text"
)

// Status is where an order is in its life.
type Status string

const (
	Queued    Status = "queued"
	Preparing Status = "preparing"
	Ready     Status = "ready"
	Served    Status = "served"
	Cancelled Status = "cancelled"
)

// Open reports whether the order still waits for the bar: it counts
// towards a guest's limit and has a place in the queue.
func (s Status) Open() bool { return s == Queued || s == Preparing }

// Final reports whether nothing more can happen to the order.
func (s Status) Final() bool { return s == Served || s == Cancelled }

// Action is what the bar (or the guest) does to an order.
type Action string

const (
	Start     Action = "start"
	MarkReady Action = "ready"
	Serve     Action = "serve"
	Recall    Action = "recall"
	Cancel    Action = "cancel"
)

// Actions lists every action, for error messages.
var Actions = []Action{Start, MarkReady, Serve, Recall, Cancel}

// transitions is the state machine: from status, action → status.
var transitions = map[Status]map[Action]Status{
	Queued:    {Start: Preparing, Cancel: Cancelled},
	Preparing: {MarkReady: Ready, Cancel: Cancelled},
	Ready:     {Serve: Served, Recall: Preparing},
}

// TransitionError is an illegal move, naming it.
type TransitionError struct {
	From   Status
	Action Action
	// ByGuest is set when the guest, not the bar, tried it.
	ByGuest bool
}

func (e *TransitionError) Error() string {
	if e.ByGuest && e.Action == Cancel {
		switch e.From {
		case Preparing:
			return "the bar is already preparing this order, so it can no longer be cancelled here; ask the bartender"
		case Ready:
			return "this order is ready and waiting for you at the bar; it can no longer be cancelled"
		}
		return fmt.Sprintf("this order is %s and can no longer be cancelled", e.From)
	}
	if e.ByGuest {
		return fmt.Sprintf("this order is %s and can no longer be changed", e.From)
	}
	var allowed []string
	for _, a := range Actions {
		if to, ok := transitions[e.From][a]; ok {
			allowed = append(allowed, fmt.Sprintf("%s (→ %s)", a, to))
		}
	}
	hint := "nothing more can be done to it"
	if len(allowed) > 0 {
		hint = "it can only be: " + strings.Join(allowed, ", ")
	}
	return fmt.Sprintf("cannot %s an order that is %s: %s → %s is not a legal transition; %s",
		e.Action, e.From, e.From, target(e.Action), hint)
}

// target is where an action would lead if it were legal, for messages.
func target(a Action) Status {
	switch a {
	case Start, Recall:
		return Preparing
	case MarkReady:
		return Ready
	case Serve:
		return Served
	case Cancel:
		return Cancelled
	}
	return Status(a)
}

// ParseAction reads an action from a URL segment.
func ParseAction(s string) (Action, bool) {
	for _, a := range Actions {
		if string(a) == s {
			return a, true
		}
	}
	return "", false
}

// Next returns the status the bar's action leads to from from, or a
// *TransitionError.
func Next(from Status, a Action) (Status, error) {
	to, ok := transitions[from][a]
	if !ok {
		return "", &TransitionError{From: from, Action: a}
	}
	return to, nil
}

// GuestCancel is the guest's own cancel: only while queued.
func GuestCancel(from Status) (Status, error) {
	if from != Queued {
		return "", &TransitionError{From: from, Action: Cancel, ByGuest: true}
	}
	return Cancelled, nil
}

// GuestEdit checks that the guest may still change the items.
func GuestEdit(from Status) error {
	if from != Queued {
		return &TransitionError{From: from, Action: "edit", ByGuest: true}
	}
	return nil
}

// Item is one line of an order.
type Item struct {
	DrinkID string `bson:"drinkId" json:"drinkId"`
	Name    string `bson:"name" json:"name"`
	Qty     int    `bson:"qty" json:"qty"`
	Notes   string `bson:"notes,omitempty" json:"notes"`
	// For names the person the drink is for when it is not the guest
	// ordering: a member of their group or a "+1" (guest.Person's Ref);
	// ForName is that person's name, for the bar.
	For     string `bson:"for,omitempty" json:"for,omitempty"`
	ForName string `bson:"forName,omitempty" json:"forName,omitempty"`
	// Confirmed lists why the drink was not safe for the person (their
	// allergens, "alcohol", a diet) when the guest ordered it anyway.
	Confirmed []string `bson:"confirmed,omitempty" json:"confirmed,omitempty"`
	// Review is set when the person's dietary needs were not all
	// understood and the host has not reviewed them yet: the bar should
	// ask.
	Review bool `bson:"review,omitempty" json:"review,omitempty"`
	// Check are the words of the person's needs barhub could not read,
	// when the drink has one of the fourteen allergens or alcohol
	// (diet.Caution): the guest confirmed, and the bar checks with them
	// before making it.
	Check []string `bson:"check,omitempty" json:"check,omitempty"`
	// StandardDrinks is per glass, fixed when ordered so later menu edits
	// do not rewrite what a guest drank.
	StandardDrinks float64 `bson:"standardDrinks" json:"standardDrinks"`
}

// Transition is one step in an order's history.
type Transition struct {
	From      Status    `bson:"from,omitempty" json:"from,omitempty"`
	To        Status    `bson:"to" json:"to"`
	At        time.Time `bson:"at" json:"at"`
	ActorID   string    `bson:"actorId" json:"actorId"`
	ActorName string    `bson:"actorName" json:"actorName"`
	Reason    string    `bson:"reason,omitempty" json:"reason,omitempty"`
}

// Order is one guest's order.
type Order struct {
	ID        string `bson:"_id" json:"id"`
	GuestID   string `bson:"guestId" json:"guestId"`
	GuestName string `bson:"guestName" json:"guestName"`
	// Ticket is the short number of the night the bar calls out and the
	// guest's phone and the pick-up board show (see Night); 0 on orders
	// placed before barhub numbered them.
	Ticket         int          `bson:"ticket,omitempty" json:"ticket,omitempty"`
	Items          []Item       `bson:"items" json:"items"`
	Status         Status       `bson:"status" json:"status"`
	Version        int          `bson:"version" json:"version"`
	History        []Transition `bson:"history" json:"history"`
	IdempotencyKey string       `bson:"idempotencyKey,omitempty" json:"-"`
	// RequestHash is the placing request's Request.Hash: a retry with the
	// same Idempotency-Key must carry the same order.
	RequestHash string `bson:"requestHash,omitempty" json:"-"`
	// AllergensConfirmed lists allergens the guest was warned about and
	// ordered anyway, so the bartender knows (and can offer a swap).
	AllergensConfirmed []string  `bson:"allergensConfirmed,omitempty" json:"allergensConfirmed,omitempty"`
	CreatedAt          time.Time `bson:"createdAt" json:"createdAt"`
	UpdatedAt          time.Time `bson:"updatedAt" json:"updatedAt"`
	// StartedAt and ReadyAt time the latest preparation, for estimates.
	StartedAt *time.Time `bson:"startedAt,omitempty" json:"startedAt,omitempty"`
	ReadyAt   *time.Time `bson:"readyAt,omitempty" json:"readyAt,omitempty"`
	ServedAt  *time.Time `bson:"servedAt,omitempty" json:"servedAt,omitempty"`
}

// NightStartsAt is the local hour a party's night begins: orders from
// 06:00 to 05:59 the next morning share one night, so the numbers of a
// party going past midnight do not start again at 1.
const NightStartsAt = 6

// Night names the night t falls in, in the event's time zone: the date
// the night began, "2026-12-01" for 01:30 on 2 December.
func Night(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Add(-NightStartsAt * time.Hour).Format(time.DateOnly)
}

// StandardDrinks totals the order's standard drinks.
func (o Order) StandardDrinks() float64 {
	var sd float64
	for _, it := range o.Items {
		sd += it.StandardDrinks * float64(it.Qty)
	}
	return sd
}

// Drinks counts the glasses in the order.
func (o Order) Drinks() int {
	n := 0
	for _, it := range o.Items {
		n += it.Qty
	}
	return n
}

// Limits on what one order may hold.
const (
	MaxLines      = 10
	MaxQty        = 5
	MaxGlasses    = 10
	MaxNotesLen   = 200
	MaxReasonLen  = 200
	MaxDrinkIDLen = 64
	MaxKeyLen     = 128
)

// ItemInput is one line as a guest sends it.
type ItemInput struct {
	DrinkID string `json:"drinkId"`
	Qty     int    `json:"qty"`
	Notes   string `json:"notes"`
	// For is whom the drink is for: empty for the guest ordering, a group
	// member's id, or "+1", "+2"… for the people they bring (guest.Person).
	For string `json:"for,omitempty"`
	// qtyGiven tells "qty": 0, refused, from no qty, which is one.
	qtyGiven bool
}

// UnmarshalJSON reads a line, refusing fields it does not know (as the
// API's decoder does for the body around it) and noting whether qty was
// given.
func (it *ItemInput) UnmarshalJSON(b []byte) error {
	var v struct {
		DrinkID string `json:"drinkId"`
		Qty     *int   `json:"qty"`
		Notes   string `json:"notes"`
		For     string `json:"for"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*it = ItemInput{DrinkID: v.DrinkID, Notes: v.Notes, For: v.For}
	if v.Qty != nil {
		it.Qty, it.qtyGiven = *v.Qty, true
	}
	return nil
}

// Request is the body of POST /api/orders and PATCH /api/orders/{id}.
type Request struct {
	Items []ItemInput `json:"items"`
	// ConfirmAllergens is the guest's yes to drinks flagged for them.
	ConfirmAllergens bool `json:"confirmAllergens"`
}

// InputError is a problem with what the guest sent.
type InputError struct {
	Code, Message string
}

func (e *InputError) Error() string { return e.Message }

// Normalize trims and checks the items: at least one line, each with a
// drink and a quantity (1 when left out), notes short enough, and no more
// glasses than one person carries. Lines for the same drink and notes are
// merged.
func (r Request) Normalize() (Request, error) {
	if len(r.Items) == 0 {
		return r, &InputError{"no_items", "add at least one drink to the order"}
	}
	if len(r.Items) > MaxLines {
		return r, &InputError{"too_many_items", fmt.Sprintf("an order holds at most %d different drinks", MaxLines)}
	}
	out := Request{ConfirmAllergens: r.ConfirmAllergens}
	total := 0
	for i, it := range r.Items {
		it.DrinkID = strings.TrimSpace(it.DrinkID)
		// The phone's notes box takes line breaks; the bar's ticket shows
		// one line, so they become spaces.
		notes, notesErr := text.Rule{Max: MaxNotesLen, Lines: true}.Clean(it.Notes)
		it.Notes = strings.Join(strings.Fields(notes), " ")
		it.For = strings.TrimSpace(it.For)
		switch {
		case it.DrinkID == "":
			return r, &InputError{"invalid_item", fmt.Sprintf("item %d: say which drink (drinkId)", i+1)}
		case len(it.DrinkID) > MaxDrinkIDLen:
			return r, &InputError{"invalid_item", fmt.Sprintf("item %d: drinkId is too long", i+1)}
		case it.Qty == 0 && it.qtyGiven:
			return r, &InputError{"invalid_quantity", fmt.Sprintf("item %d: qty must be between 1 and %d (leave it out for one)", i+1, MaxQty)}
		case it.Qty == 0:
			it.Qty = 1
		case it.Qty < 0 || it.Qty > MaxQty:
			return r, &InputError{"invalid_quantity", fmt.Sprintf("item %d: order between 1 and %d of a drink", i+1, MaxQty)}
		}
		// The notes are shown on the bar's ticket: barhub's text rule
		// (package text), one line.
		switch {
		case errors.Is(notesErr, text.ErrTooLong):
			return r, &InputError{"notes_too_long", fmt.Sprintf("item %d: keep notes under %d characters", i+1, MaxNotesLen)}
		case notesErr != nil:
			return r, &InputError{"invalid_notes", fmt.Sprintf("item %d: the notes %s", i+1, notesErr)}
		}
		if len(it.For) > MaxDrinkIDLen+4 || strings.ContainsFunc(it.For, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
			return r, &InputError{"invalid_item", fmt.Sprintf("item %d: \"for\" names a member of your group or \"+1\"", i+1)}
		}
		total += it.Qty
		merged := false
		for j := range out.Items {
			if out.Items[j].DrinkID == it.DrinkID && out.Items[j].Notes == it.Notes && out.Items[j].For == it.For {
				out.Items[j].Qty += it.Qty
				merged = true
			}
		}
		if !merged {
			out.Items = append(out.Items, it)
		}
	}
	if total > MaxGlasses {
		return r, &InputError{"too_many_drinks", fmt.Sprintf("one order holds at most %d drinks; place another when these are ready", MaxGlasses)}
	}
	for _, it := range out.Items {
		if it.Qty > MaxQty {
			return r, &InputError{"invalid_quantity", fmt.Sprintf("order between 1 and %d of a drink", MaxQty)}
		}
	}
	return out, nil
}

// Hash identifies the order's content for idempotency: two requests with
// the same key must carry the same normalized items and confirmation.
func (r Request) Hash() string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ValidKey checks an Idempotency-Key header value: 1–128 printable ASCII
// characters, so it is safe inside a document id.
func ValidKey(k string) bool {
	if k == "" || len(k) > MaxKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}
