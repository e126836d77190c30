package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// The door (docs/DOOR.md): staff with a bartender or admin sign-in scan
// the invitation's QR code, or type its code, and the guest is checked in.
// The domain is in guest/door.go, the store's part in store/door.go.

// Failed code look-ups at the door, per staff member and per address, before
// TooMany: a door sees the odd mistyped card, a guesser needs billions of
// tries.
const (
	DoorFailures = 30
	DoorWindow   = 15 * time.Minute
)

// DoorLookupLimit is how many names the door's search shows: enough to
// pick from, few enough to read on a phone.
const DoorLookupLimit = 20

// DoorStore is what the door reads and writes.
type DoorStore interface {
	StatsReader
	GuestByCode(ctx context.Context, code string) (guest.Guest, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	GroupOf(ctx context.Context, g guest.Guest) ([]guest.Guest, error)
	CheckIn(ctx context.Context, id string, c guest.CheckIn) (guest.Guest, bool, error)
	UndoCheckIn(ctx context.Context, id string) (guest.Guest, bool, error)
	AddWalkIn(ctx context.Context, g guest.Guest) (guest.Guest, bool, error)
	UpdateGuest(ctx context.Context, id string, p guest.Patch, by string) (guest.Guest, error)
	ListGuests(ctx context.Context, q store.GuestQuery) ([]guest.Guest, int64, error)
}

// DrinkDiets gives tonight's available drinks as diet.Check reads them,
// for the door card's dietary notes.
type DrinkDiets interface {
	DietDrinks(ctx context.Context) ([]diet.Drink, error)
}

// DoorThrottle counts failed code look-ups per key.
type DoorThrottle interface {
	Blocked(key string) (bool, time.Duration)
	Fail(key string)
}

// Door checks guests in at the door, undoes a check-in, finds guests by
// name and reports who has arrived.
type Door struct {
	store     DoorStore
	menu      DrinkDiets
	throttle  DoorThrottle
	dashboard *Dashboard
	log       *slog.Logger
}

// NewDoor returns the door over st; menu (nil: none) names the drinks on
// the card, throttle (nil: DoorFailures per DoorWindow) bounds unknown
// codes, and dashboard hears of every arrival.
func NewDoor(st DoorStore, menu DrinkDiets, throttle DoorThrottle, dashboard *Dashboard, log *slog.Logger) *Door {
	if throttle == nil {
		throttle = auth.NewThrottle(DoorFailures, DoorWindow)
	}
	if log == nil {
		log = slog.Default()
	}
	return &Door{store: st, menu: menu, throttle: throttle, dashboard: dashboard, log: log}
}

// DoorGuest is how the door sees a guest: no sign-in code (door staff
// must not be able to sign in as the guests they look up).
type DoorGuest struct {
	ID             string        `json:"id"`
	FirstName      string        `json:"firstName"`
	LastName       string        `json:"lastName"`
	Role           guest.Role    `json:"role"`
	Status         guest.Status  `json:"status"`
	ExpectedGuests int           `json:"expectedGuests"`
	NumGuests      int           `json:"numGuests"`
	ExpectedHeads  int           `json:"expectedHeads"`
	GroupID        *string       `json:"groupId"`
	Dietary        guest.Dietary `json:"dietary"`
	CheckedInAt    *time.Time    `json:"checkedInAt"`
	CheckedInBy    string        `json:"checkedInBy,omitempty"`
	ArrivedHeads   int           `json:"arrivedHeads"`
	// Source is "walk-in" for a guest the door added on the night.
	Source string `json:"source,omitempty"`
}

// NewDoorGuest is g as the door sees them.
func NewDoorGuest(g guest.Guest) DoorGuest {
	v := DoorGuest{
		ID: g.ID, FirstName: g.FirstName, LastName: g.LastName, Role: g.Role, Status: g.Status,
		ExpectedGuests: g.ExpectedGuests, NumGuests: g.Heads(), ExpectedHeads: g.ExpectedHeads(),
		Dietary: g.Dietary, CheckedInAt: g.CheckedInAt, CheckedInBy: g.CheckedInBy, ArrivedHeads: g.ArrivedHeads,
		Source: g.Source,
	}
	if g.GroupID != "" {
		v.GroupID = &g.GroupID
	}
	return v
}

// DoorStats is who has arrived, from the kept summary (one read).
type DoorStats struct {
	CheckedIn      int       `json:"checkedIn"`
	CheckedInHeads int       `json:"checkedInHeads"`
	Invited        int       `json:"invited"`
	Coming         int       `json:"coming"`
	ComingHeads    int       `json:"comingHeads"`
	Version        int64     `json:"version"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// NewDoorStats is the door's part of the kept figures st.
func NewDoorStats(st store.GuestStats) DoorStats {
	return DoorStats{
		CheckedIn: st.CheckedIn, CheckedInHeads: st.CheckedInHeads, Invited: st.Invited,
		Coming: st.Coming, ComingHeads: st.ComingHeads, Version: st.Version, UpdatedAt: st.UpdatedAt,
	}
}

// CheckInRequest is one scan: a code (already taken out of a scanned
// link) or the id of a guest found by name.
type CheckInRequest struct {
	Code    string
	GuestID string
	// Heads overrides how many people come in on the code; 0 is the
	// expected number.
	Heads int
	// Force is "let in anyway" on an amber card: a guest who declined,
	// never answered, or brings more people than invited.
	Force bool
}

// CheckInResult is the door's answer to a scan.
type CheckInResult struct {
	Guest DoorGuest `json:"guest"`
	// Group lists the other members of the guest's invitation.
	Group    []DoorGuest `json:"group"`
	Admitted bool        `json:"admitted"`
	// Confirm asks the door person "let in anyway?": nobody was counted in;
	// the same scan with force does it.
	Confirm          bool            `json:"confirm"`
	AlreadyCheckedIn bool            `json:"alreadyCheckedIn"`
	Level            string          `json:"level"`
	Message          string          `json:"message"`
	Heads            int             `json:"heads"`
	GroupIn          int             `json:"groupIn"`
	GroupSize        int             `json:"groupSize"`
	Warnings         []guest.Warning `json:"warnings"`
	Arrived          DoorStats       `json:"arrived"`
}

// DoorEvent is the data of guest.checked_in and guest.check_in_undone.
type DoorEvent struct {
	Guest   DoorGuest `json:"guest"`
	By      string    `json:"by"`
	ByName  string    `json:"byName"`
	At      time.Time `json:"at"`
	Arrived DoorStats `json:"arrived"`
}

// CheckIn lets in the guest req names, as staff at the door at address
// addr, unless the rules of the night ask the door person first. Unknown
// codes count against staff and addr: the route must not become a way to
// try codes.
func (d *Door) CheckIn(ctx context.Context, staff auth.Identity, addr string, req CheckInRequest) (CheckInResult, error) {
	keys := doorKeys(staff, addr)
	for _, key := range keys {
		if blocked, wait := d.throttle.Blocked(key); blocked {
			return CheckInResult{}, &Error{Kind: TooMany, Code: "too_many_attempts",
				Message:    "too many unknown codes from this door; try again in " + waitWords(wait) + ", or find the guest by name",
				RetryAfter: time.Duration(int(wait.Seconds())+1) * time.Second}
		}
	}
	var g guest.Guest
	var err error
	if req.Code != "" {
		g, err = d.store.GuestByCode(ctx, req.Code)
	} else {
		g, err = d.store.GuestByID(ctx, req.GuestID)
	}
	if errors.Is(err, store.ErrNotFound) {
		// Count every miss, by id too.
		for _, key := range keys {
			d.throttle.Fail(key)
		}
		if req.Code != "" {
			return CheckInResult{}, NewError(NotFound, "unknown_code", "no invitation has the code "+req.Code+": check the letters, or find the guest by name")
		}
		return CheckInResult{}, NewError(NotFound, "not_found", "that guest does not exist")
	}
	if err != nil {
		return CheckInResult{}, fmt.Errorf("find the guest: %w", err)
	}
	group, err := d.store.GroupOf(ctx, g)
	if err != nil {
		return CheckInResult{}, fmt.Errorf("read the guest's group: %w", err)
	}
	opt := guest.ArrivalOptions{Force: req.Force, Heads: req.Heads}
	if d.menu != nil {
		if drinks, err := d.menu.DietDrinks(ctx); err == nil {
			opt.Drinks = drinks
		} else {
			// The card says less, the door keeps working.
			d.log.WarnContext(ctx, "door card without the menu", "err", err)
		}
	}
	arrival := guest.DecideArrival(g, group, opt)
	recorded := false
	if arrival.Admit {
		after, ok, err := d.store.CheckIn(ctx, g.ID, guest.CheckIn{At: time.Now(), By: staff.Name, ByID: staff.GuestID, Heads: arrival.Heads})
		if errors.Is(err, store.ErrNotFound) {
			return CheckInResult{}, NewError(NotFound, "not_found", "that guest was deleted a moment ago")
		}
		if err != nil {
			return CheckInResult{}, fmt.Errorf("check in: %w", err)
		}
		g, recorded = after, ok
		if !recorded {
			// Another door let them in a moment ago: say so.
			arrival = guest.DecideArrival(g, group, opt)
		}
	}
	st := d.arrivedStats(ctx)
	res := CheckInResult{
		Guest: NewDoorGuest(g), Group: []DoorGuest{}, Admitted: arrival.Admit, Confirm: arrival.Confirm, AlreadyCheckedIn: arrival.AlreadyCheckedIn,
		Level: arrival.Level(), Message: arrival.Welcome(g), Heads: arrival.Heads,
		GroupIn: arrival.GroupIn, GroupSize: arrival.GroupSize, Warnings: arrival.Warnings, Arrived: NewDoorStats(st),
	}
	if res.Warnings == nil {
		res.Warnings = []guest.Warning{}
	}
	for _, m := range group {
		if m.ID != g.ID {
			res.Group = append(res.Group, NewDoorGuest(m))
		}
	}
	if recorded {
		d.changed(ctx, staff, live.EventCheckedIn, g, st)
		audit.SetSubject(ctx, g.ID)
		audit.Note(ctx, "name", g.Name())
		audit.Note(ctx, "heads", arrival.Heads)
		if req.Force {
			audit.Note(ctx, "letInAnyway", true) // after an amber card
		}
	} else {
		audit.Skip(ctx) // nobody came in: a refusal or a second scan
	}
	return res, nil
}

// WalkInRequest is a person the door adds on the night: a walk-in, or a
// friend an invitation was forwarded to (docs/DOOR.md, "Walk-ins").
type WalkInRequest struct {
	FirstName string
	LastName  string
	// GroupOf is the id of a guest whose group the person joins ("a
	// friend of Anna"); "" for none.
	GroupOf string
	// Needs is what they say they cannot eat or drink, in their words,
	// read as an RSVP's answer is.
	Needs string
	// Key is the door's idempotency key: the same key from the same staff
	// member is the same person, however often it is sent.
	Key string
}

// WalkInResult is the door's answer to a walk-in: the check-in's card,
// and the code the person signs in with on their own phone.
type WalkInResult struct {
	CheckInResult
	Code string `json:"code"`
	// Created is false when the key had added the person already (the
	// door sent it again after a network drop).
	Created bool `json:"created"`
}

// WalkInID is the guest id of staffID's walk-in with key: a hash, so a
// second sending of the walk-in names the same guest and the database's
// unique _id makes it once.
func WalkInID(staffID, key string) string {
	sum := sha256.Sum256([]byte("walk-in\x00" + staffID + "\x00" + key))
	return "walkin-" + hex.EncodeToString(sum[:12])
}

// WalkIn adds a person at the door as a guest who is coming, with a
// code of their own, and checks them in, as staff. Sent again with the
// same key it adds nobody and answers with the same person and code.
func (d *Door) WalkIn(ctx context.Context, staff auth.Identity, addr string, req WalkInRequest) (WalkInResult, error) {
	first, err := guest.CleanName("firstName", req.FirstName)
	if err != nil {
		return WalkInResult{}, invalidField(err)
	}
	last, err := guest.CleanName("lastName", req.LastName)
	if err != nil {
		return WalkInResult{}, invalidField(err)
	}
	if first == "" || last == "" {
		return WalkInResult{}, NewError(Invalid, "missing_fields", "a walk-in needs a first and a last name")
	}
	needs, err := guest.CleanDietary(guest.Dietary{Text: req.Needs})
	if err != nil {
		return WalkInResult{}, invalidField(&guest.FieldError{Field: "needs", Message: strings.TrimPrefix(err.Error(), "text: ")})
	}
	if req.Key == "" {
		return WalkInResult{}, NewError(Invalid, "idempotency_key_required", "a walk-in needs an idempotency key, so sending it again never adds the person twice")
	}
	id := WalkInID(staff.GuestID, req.Key)
	groupID := ""
	if req.GroupOf != "" {
		if groupID, err = d.joinGroup(ctx, staff, req.GroupOf); err != nil {
			return WalkInResult{}, err
		}
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	g, created, err := d.store.AddWalkIn(ctx, guest.Guest{
		ID: id, FirstName: first, LastName: last, Role: guest.RoleGuest, Status: guest.StatusComing,
		ExpectedGuests: 1, GroupID: groupID, Dietary: needs, RSVPDate: &now, RSVPBy: id,
		Source: guest.SourceWalkIn, WalkIn: &guest.WalkIn{At: now, By: staff.Name, ByID: staff.GuestID},
	})
	if err != nil {
		return WalkInResult{}, fmt.Errorf("add walk-in: %w", err)
	}
	if !created && (!g.IsWalkIn() || guest.NameKey(g.FirstName) != guest.NameKey(first) || g.LastNameKey != guest.NameKey(last)) {
		return WalkInResult{}, NewError(Unprocessable, "idempotency_key_reused", "this Idempotency-Key already added someone else; use a new key for a new walk-in")
	}
	if created {
		d.dashboard.GuestsChanged(ctx, NewGuestsChanged("walk-in", staff, []guest.Guest{g}, nil, nil))
	}
	res, err := d.CheckIn(ctx, staff, addr, CheckInRequest{GuestID: g.ID, Heads: 1})
	if err != nil {
		return WalkInResult{}, err
	}
	audit.SetSubject(ctx, g.ID)
	audit.Note(ctx, "name", g.Name())
	audit.Note(ctx, "walkIn", true)
	return WalkInResult{CheckInResult: res, Code: g.Code, Created: created}, nil
}

// joinGroup is the group a walk-in joins with the guest whose id is
// ofID: theirs, or a new one named by that guest's id, which they join
// too.
func (d *Door) joinGroup(ctx context.Context, staff auth.Identity, ofID string) (string, error) {
	if !guest.ValidID(ofID) {
		return "", NewError(NotFound, "not_found", "the guest to join does not exist")
	}
	of, err := d.store.GuestByID(ctx, ofID)
	if errors.Is(err, store.ErrNotFound) {
		return "", NewError(NotFound, "not_found", "the guest to join does not exist")
	}
	if err != nil {
		return "", fmt.Errorf("find the guest to join: %w", err)
	}
	if of.GroupID != "" {
		return of.GroupID, nil
	}
	after, err := d.store.UpdateGuest(ctx, of.ID, guest.Patch{GroupID: &of.ID}, staff.GuestID)
	if err != nil {
		return "", fmt.Errorf("start a group for %s: %w", of.ID, err)
	}
	d.dashboard.GuestsChanged(ctx, NewGuestsChanged("edited", staff, []guest.Guest{after}, nil, nil))
	return after.GroupID, nil
}

// invalidField is a guest.FieldError as a use-case error.
func invalidField(err error) error {
	var fe *guest.FieldError
	if errors.As(err, &fe) {
		return &Error{Kind: Invalid, Code: "invalid_field", Message: fe.Field + " " + fe.Message, Details: map[string]string{"field": fe.Field}}
	}
	return err
}

func doorKeys(staff auth.Identity, addr string) []string {
	return []string{"ip:" + addr, "staff:" + staff.GuestID}
}

// UndoResult is the door's answer to an undone check-in.
type UndoResult struct {
	Guest   DoorGuest `json:"guest"`
	Message string    `json:"message"`
	Arrived DoorStats `json:"arrived"`
}

// Undo takes back guestID's check-in, as staff.
func (d *Door) Undo(ctx context.Context, staff auth.Identity, guestID string) (UndoResult, error) {
	if !guest.ValidID(guestID) {
		return UndoResult{}, NewError(NotFound, "not_found", "that guest does not exist")
	}
	g, undone, err := d.store.UndoCheckIn(ctx, guestID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return UndoResult{}, NewError(NotFound, "not_found", "that guest does not exist")
	case err != nil:
		return UndoResult{}, fmt.Errorf("undo check-in: %w", err)
	case !undone:
		return UndoResult{}, NewError(Conflict, "not_checked_in", g.Name()+" is not checked in (or another door just undid it)")
	}
	st := d.arrivedStats(ctx)
	d.changed(ctx, staff, live.EventCheckInUndone, g, st)
	audit.Note(ctx, "name", g.Name())
	return UndoResult{Guest: NewDoorGuest(g), Message: g.Name() + " is no longer checked in", Arrived: NewDoorStats(st)}, nil
}

// LookupResult is the door's search.
type LookupResult struct {
	Guests []DoorGuest `json:"guests"`
	Total  int64       `json:"total"`
}

// Lookup finds guests by name, for guests who lost their code. It matches
// names only, never codes: the search must not be a way round the
// check-in's throttle.
func (d *Door) Lookup(ctx context.Context, q string) (LookupResult, error) {
	switch {
	case len([]rune(q)) < 2:
		return LookupResult{}, NewError(Invalid, "invalid_query", "type at least 2 letters of a first or last name")
	case len(q) > 100:
		return LookupResult{}, NewError(Invalid, "invalid_query", "q is longer than 100 characters")
	}
	guests, total, err := d.store.ListGuests(ctx, store.GuestQuery{Q: q, NamesOnly: true, Limit: DoorLookupLimit})
	if err != nil {
		return LookupResult{}, fmt.Errorf("look up guests: %w", err)
	}
	res := LookupResult{Guests: make([]DoorGuest, 0, len(guests)), Total: total}
	for _, g := range guests {
		res.Guests = append(res.Guests, NewDoorGuest(g))
	}
	return res, nil
}

// Stats is who has arrived.
func (d *Door) Stats(ctx context.Context) (DoorStats, error) {
	st, err := d.store.Stats(ctx)
	if err != nil {
		return DoorStats{}, err
	}
	return NewDoorStats(st), nil
}

// arrivedStats reads the kept figures for an answer whose change is
// already stored, so it never fails the call: figures it cannot read come
// back with version 0, which the door page ignores.
func (d *Door) arrivedStats(ctx context.Context) store.GuestStats {
	st, err := d.store.Stats(ctx)
	if err != nil {
		d.log.WarnContext(ctx, "read stats for the door", "err", err)
		return store.GuestStats{}
	}
	return st
}

// changed tells the host's dashboard and every door tablet, live: the
// door event, then the host's figures.
func (d *Door) changed(ctx context.Context, staff auth.Identity, event string, g guest.Guest, st store.GuestStats) {
	ev := DoorEvent{Guest: NewDoorGuest(g), By: staff.GuestID, ByName: staff.Name, At: time.Now().UTC(), Arrived: NewDoorStats(st)}
	d.dashboard.publish(ctx, live.TopicAdmin, event, ev)
	d.dashboard.publish(ctx, live.TopicBar, event, ev)
	if st.Version > 0 {
		d.dashboard.publish(ctx, live.TopicAdmin, live.EventStatsUpdated, NewStatsView(st))
	}
}

// waitWords says d in words, rounded to minutes, for a message that asks
// to wait.
func waitWords(d time.Duration) string {
	switch m := int(d.Round(time.Minute).Minutes()); {
	case d < time.Minute:
		return "a minute"
	case m == 1:
		return "1 minute"
	default:
		return strconv.Itoa(m) + " minutes"
	}
}
