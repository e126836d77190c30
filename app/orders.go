package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// A guest's own orders: place (idempotently), list, read, edit and cancel
// while queued.

// OrderStore is what placing and changing a guest's orders reads and
// writes.
type OrderStore interface {
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	GroupOf(ctx context.Context, g guest.Guest) ([]guest.Guest, error)
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), err error)
	GuestRecentOrderIDs(ctx context.Context, guestID string) (ids []string, older bool, err error)
	GuestUnfinishedOrders(ctx context.Context, guestID string, ids []string, finished func(id string) bool) (unfinished []order.Order, done []string, err error)
	GuestOrdersSince(ctx context.Context, guestID string, since time.Time) ([]order.Order, error)
	OrdersByGuest(ctx context.Context, guestID string, limit int) ([]order.Order, error)
	OrderByID(ctx context.Context, id string) (order.Order, error)
	IdempotencyRecordByID(ctx context.Context, id string) (store.IdempotencyRecord, error)
	CreateOrder(ctx context.Context, o *order.Order) error
	Settings(ctx context.Context) (guest.Settings, error)
	NextTicket(ctx context.Context, night string) (int, error)
}

// OrderLimits are the host's limits on ordering.
type OrderLimits struct {
	// MaxOpenOrders is how many orders a guest may have queued or in the
	// making at once (default 3).
	MaxOpenOrders int
	// DrinksPerHour caps the standard drinks a guest may order in any
	// hour; zero leaves pacing off.
	DrinksPerHour float64
}

// OrdersDeps is what NewOrders builds the guests' ordering from.
type OrdersDeps struct {
	Store  OrderStore
	Menu   *Menu
	Bar    *Bar
	Views  OrderViews
	Limits OrderLimits
	Logger *slog.Logger
}

// Orders is a guest's side of ordering.
type Orders struct {
	store  OrderStore
	menu   *Menu
	bar    *Bar
	views  OrderViews
	limits OrderLimits
	log    *slog.Logger
}

// NewOrders returns the guests' ordering over d.Store.
func NewOrders(d OrdersDeps) *Orders {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Limits.MaxOpenOrders <= 0 {
		d.Limits.MaxOpenOrders = 3
	}
	return &Orders{store: d.Store, menu: d.Menu, bar: d.Bar, views: d.Views, limits: d.Limits, log: d.Logger}
}

// OrderView is an order as its guest sees it: with its place in the queue
// and an estimate while it waits.
type OrderView struct {
	order.Order
	Position         int        `json:"position,omitempty"`
	EstimateSeconds  *int       `json:"estimateSeconds,omitempty"`
	EstimatedReadyAt *time.Time `json:"estimatedReadyAt,omitempty"`
}

// WithPlaces adds queue positions and estimates to open orders, from the
// order view (no query). The orders given were just read or written, so
// they correct the view first: an order placed on another instance whose
// event has not arrived yet still gets its place.
func (s *Orders) WithPlaces(ctx context.Context, orders []order.Order) ([]OrderView, error) {
	views := make([]OrderView, len(orders))
	open := false
	for i, o := range orders {
		views[i] = OrderView{Order: Tidy(o)}
		open = open || o.Status.Open()
	}
	if !open {
		return views, nil
	}
	view, err := s.views.View(ctx)
	if err != nil {
		return nil, err
	}
	for _, o := range orders {
		view.Apply(o)
	}
	queue := view.Queue()
	prep := s.bar.TypicalPrep(ctx)
	now := time.Now()
	for i := range views {
		if !views[i].Status.Open() {
			continue
		}
		p, ok := order.PlaceIn(queue, views[i].ID, prep, now)
		if !ok {
			continue
		}
		secs := int(math.Ceil(p.Wait.Seconds()))
		at := now.Add(p.Wait).UTC().Truncate(time.Second)
		views[i].Position, views[i].EstimateSeconds, views[i].EstimatedReadyAt = p.Position, &secs, &at
	}
	return views, nil
}

// Place places the guest's order of key once; replayed is true when an
// earlier call with the key placed it. req must be normalised
// (order.Request.Normalize).
//
// The order's _id comes from the guest and the key (store.OrderIDFor),
// and every placement of a guest holds the guest's lock (store.Lock: in
// this process on the embedded database, where every writer is; a claim
// in the shared database otherwise). So the look-up for the key's order
// and the insert of a new one never interleave with another request of
// the guest's, on any instance: of any number of requests with one key
// the first places the order and the others find it. A request that
// fails places nothing and leaves nothing behind, so a corrected retry
// may use the key. Should a lock outlive its ttl, the order's unique _id
// still lets only one insert through.
func (s *Orders) Place(ctx context.Context, who Who, req order.Request, key string) (o order.Order, replayed bool, err error) {
	o, replayed, err = s.placeOnce(ctx, who, req, key)
	if err != nil || replayed {
		return o, replayed, err
	}
	s.bar.orderEvent(ctx, o, live.OrderEvent(o.Status))
	return o, false, nil
}

// placementLockTTL outlives a placement by far.
const placementLockTTL = 30 * time.Second

// lockGuest serialises one guest's order placements, so the open-order
// limit holds against a double tap with two different keys, even when the
// two taps reach two instances.
func (s *Orders) lockGuest(ctx context.Context, guestID string) (func(), error) {
	return s.store.Lock(ctx, "guest-orders/"+guestID, placementLockTTL)
}

func (s *Orders) placeOnce(ctx context.Context, who Who, req order.Request, key string) (order.Order, bool, error) {
	unlock, err := s.lockGuest(ctx, who.GuestID)
	if err != nil {
		return order.Order{}, false, err
	}
	defer unlock()
	hash := req.Hash()
	id := store.OrderIDFor(who.GuestID, key)
	// The guest's list names every order of theirs that was stored
	// (store.CreateOrder lists it first): an id not on it was never
	// placed, and needs no look-up. Of a long list only the newest part
	// is read (every order that may be unfinished is in it), so with
	// older orders not read, the key's order is looked for by its id.
	// The limit counts from the same list.
	ids, older, err := s.store.GuestRecentOrderIDs(ctx, who.GuestID)
	if err != nil {
		return order.Order{}, false, err
	}
	if older || slices.Contains(ids, id) {
		if o, found, err := s.placedBefore(ctx, who.GuestID, id, hash); err != nil || found {
			return o, found, err
		}
	}
	if o, found, err := s.placedWithRecord(ctx, who.GuestID, key, hash); err != nil || found {
		return o, found, err
	}
	items, confirmed, err := s.checkedItems(ctx, who, req)
	if err != nil {
		return order.Order{}, false, err
	}
	o, err := s.storeNewOrder(ctx, who, ids, items, confirmed, key, hash, id)
	if errors.Is(err, store.ErrConflict) {
		// Stored meanwhile by a request whose lock had run out.
		if o, found, err := s.placedBefore(ctx, who.GuestID, id, hash); err != nil || found {
			return o, found, err
		}
	}
	return o, false, err
}

// placedBefore finds the order an earlier request placed as id. The
// same key with another body is Unprocessable.
func (s *Orders) placedBefore(ctx context.Context, guestID, id, hash string) (order.Order, bool, error) {
	o, err := s.store.OrderByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return order.Order{}, false, nil // listed, but its placement failed
	}
	if err != nil {
		return order.Order{}, false, err
	}
	return checkReplay(o, guestID, hash)
}

// placedWithRecord finds an order placed with key before order ids came
// from keys, through its idempotency record (such records expire after
// a day).
func (s *Orders) placedWithRecord(ctx context.Context, guestID, key, hash string) (order.Order, bool, error) {
	rec, err := s.store.IdempotencyRecordByID(ctx, store.IdempotencyID(guestID, key))
	if errors.Is(err, store.ErrNotFound) {
		return order.Order{}, false, nil
	}
	if err != nil {
		return order.Order{}, false, err
	}
	o, err := s.store.OrderByID(ctx, rec.OrderID)
	if errors.Is(err, store.ErrNotFound) {
		return order.Order{}, false, nil // that placement failed
	}
	if err != nil {
		return order.Order{}, false, err
	}
	o.RequestHash = rec.BodyHash
	return checkReplay(o, guestID, hash)
}

// checkReplay answers a retry with the order its key placed, unless the
// retry carries another order.
func checkReplay(o order.Order, guestID, hash string) (order.Order, bool, error) {
	if o.GuestID != guestID || o.RequestHash != hash {
		return order.Order{}, false, NewError(Unprocessable, "idempotency_key_reused", "this Idempotency-Key was already used for a different order; use a new key for a new order")
	}
	return o, true, nil
}

// storeNewOrder checks the guest's limits and stores the order as id.
// The caller holds the guest's lock, so two placements cannot both pass
// the limit, and read the guest's order list, ids, under it.
func (s *Orders) storeNewOrder(ctx context.Context, who Who, ids []string, items []order.Item, confirmed []string, key, hash, id string) (order.Order, error) {
	n, err := s.openOrders(ctx, who.GuestID, ids)
	if err != nil {
		return order.Order{}, err
	}
	if limit := s.limits.MaxOpenOrders; n >= limit {
		return order.Order{}, &Error{Kind: LimitReached, Code: "open_order_limit",
			Message: fmt.Sprintf("you already have %d orders waiting at the bar; you can order again as soon as one of them is ready", n),
			Key:     "error.open_order_limit.count", Vars: map[string]any{"Count": n}}
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	if err := s.checkPace(ctx, who.GuestID, items, "", now); err != nil {
		return order.Order{}, err
	}
	ticket, err := s.nextTicket(ctx, now)
	if err != nil {
		return order.Order{}, err
	}
	o := order.Order{
		ID: id, GuestID: who.GuestID, GuestName: who.Name, Ticket: ticket, Items: items, Status: order.Queued, Version: 1,
		History:        []order.Transition{{To: order.Queued, At: now, ActorID: who.GuestID, ActorName: who.Name}},
		IdempotencyKey: key, RequestHash: hash, AllergensConfirmed: confirmed, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.store.CreateOrder(ctx, &o); err != nil {
		return order.Order{}, err
	}
	return o, nil
}

// openOrders counts the guest's open orders (queued or preparing) for the
// open-order limit, exactly: under the guest's lock, given the guest's
// list of orders (store.GuestRecentOrderIDs, read under that lock: every
// order of the guest that may be unfinished is on it), it reads by _id
// each order neither the view nor the store knows to be finished (a guest
// has a few at most). What it reads also corrects the view.
func (s *Orders) openOrders(ctx context.Context, guestID string, ids []string) (int, error) {
	view, err := s.views.View(ctx)
	if err != nil {
		return 0, err
	}
	unfinished, done, err := s.store.GuestUnfinishedOrders(ctx, guestID, ids, view.Finished)
	if err != nil {
		return 0, err
	}
	for _, id := range done {
		view.Apply(order.Order{ID: id, Status: order.Served})
	}
	n := 0
	for _, o := range unfinished {
		view.Apply(o)
		if o.Status.Open() {
			n++
		}
	}
	return n, nil
}

// nextTicket gives a new order its number of the night, in the event's
// time zone. A number taken by an order that then fails to store is
// skipped, never given twice.
func (s *Orders) nextTicket(ctx context.Context, now time.Time) (int, error) {
	st, err := s.store.Settings(ctx)
	if err != nil {
		return 0, err
	}
	return s.store.NextTicket(ctx, order.Night(now, st.Loc()))
}

// checkedItems resolves the requested drinks: each must be on the menu
// and available, and for someone on the guest's answer (self, a group
// member, a "+1"); a drink diet.Check finds not safe for the person it is
// for must be confirmed.
func (s *Orders) checkedItems(ctx context.Context, who Who, req order.Request) ([]order.Item, []string, error) {
	// The menu cache is as fresh as the database for this purpose: every
	// menu write (a stock mark included) moves the version its reads check
	// before the write answers. Reading drinks from it saves decoding
	// documents on every order.
	snap, err := s.menu.Snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	g, err := s.store.GuestByID(ctx, who.GuestID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, NewError(Gone, "guest_removed", "your invitation is no longer on the guest list; please ask the host")
	}
	if err != nil {
		return nil, nil, err
	}
	s.menu.rememberNeeds(g.ID, ownNeeds(g))
	group := []guest.Guest{g}
	if slices.ContainsFunc(req.Items, func(it order.ItemInput) bool { return it.For != "" }) {
		if group, err = s.store.GroupOf(ctx, g); err != nil {
			return nil, nil, err
		}
	}

	items := make([]order.Item, 0, len(req.Items))
	var flags []UnsafeDrink
	var confirmed []string
	for _, it := range req.Items {
		d, ok := snap.Drink(it.DrinkID)
		if !ok {
			return nil, nil, &Error{Kind: Unprocessable, Code: "unknown_drink",
				Message: fmt.Sprintf("there is no drink %q on the menu", it.DrinkID), Details: map[string]string{"drinkId": it.DrinkID}}
		}
		if !d.Available {
			return nil, nil, &Error{Kind: Conflict, Code: "drink_unavailable", Message: d.UnavailableReason(),
				Key: "error.drink_unavailable.named", Vars: map[string]any{"Drink": d.Name},
				Details: map[string]any{"drinkId": d.ID, "missingIngredients": nonNilStrings(d.MissingIngredients), "outOfStock": d.OutOfStock}}
		}
		p := g.People()[0]
		if it.For != "" {
			if p, ok = guest.PersonFor(it.For, g.ID, group); !ok {
				return nil, nil, &Error{Kind: Unprocessable, Code: "unknown_person",
					Message: fmt.Sprintf("%q is not someone on your invitation; order for yourself, a member of your group or the people you bring (+1, +2…)", it.For),
					Details: map[string]string{"for": it.For}}
			}
		}
		item := order.Item{DrinkID: d.ID, Name: d.Name, Qty: it.Qty, Notes: it.Notes, StandardDrinks: d.StandardDrinks()}
		if p.Ref != g.ID {
			item.For, item.ForName = p.Ref, p.Name
		}
		// A child is never served alcohol, confirmed or not.
		if p.Child && diet.HasAlcohol(snap.DietDrink(d.ID)) {
			return nil, nil, &Error{Kind: Unprocessable, Code: "child_alcohol",
				Message: fmt.Sprintf("%s is a child and %s has alcohol; choose an alcohol-free drink for them", p.Name, d.Name),
				Key:     "error.child_alcohol", Vars: map[string]any{"Name": p.Name, "Drink": d.Name},
				Details: map[string]string{"drinkId": d.ID, "for": p.Ref}}
		}
		v := diet.Check(snap.DietDrink(d.ID), p.Dietary.Needs())
		item.Review = v.Review
		if !v.Safe {
			// The caution over unread words asks as a known allergen does
			// (the same 422 and confirmAllergens); the ticket carries the
			// words for the bar to check, not a "confirmed" cause.
			causes := slices.DeleteFunc(v.Causes(), func(c string) bool { return c == diet.CheckUnread })
			item.Confirmed = causes
			item.Check = v.Unread
			flags = append(flags, UnsafeDrink{DrinkID: d.ID, Name: d.Name, For: item.For, ForName: item.ForName,
				Allergens: nonNilStrings(v.Allergens), Alcohol: v.Alcohol, Diets: nonNilStrings(v.Diets), Mentions: nonNilStrings(v.Mentions),
				Unread: nonNilStrings(v.Unread), Causes: v.Causes()})
			for _, c := range causes {
				confirmed = appendMissing(confirmed, c)
			}
		}
		items = append(items, item)
	}
	if len(flags) > 0 && !req.ConfirmAllergens {
		msg := flags[0].message()
		if len(flags) > 1 {
			msg = fmt.Sprintf("%d of these drinks are not safe for the person they are for (%s); confirm to order them anyway", len(flags), joinWithAnd(flagSummaries(flags)))
		}
		return nil, nil, &Error{Kind: Unprocessable, Code: "allergen_confirmation_required", Message: msg,
			Details: map[string]any{"drinks": flags}}
	}
	return items, confirmed, nil
}

// UnsafeDrink is one drink of an order diet.Check finds not safe for the
// person it is for, as the confirmation question names it (the Details
// of an allergen_confirmation_required refusal).
type UnsafeDrink struct {
	DrinkID string `json:"drinkId"`
	Name    string `json:"name"`
	// For and ForName name the person when it is not the guest ordering.
	For       string   `json:"for,omitempty"`
	ForName   string   `json:"forName,omitempty"`
	Allergens []string `json:"allergens"`
	Alcohol   bool     `json:"alcohol"`
	Diets     []string `json:"diets"`
	Mentions  []string `json:"mentions"`
	// Unread are the words of the person's needs barhub could not read
	// (diet.Caution): the bar will check them with the guest.
	Unread []string `json:"unread"`
	// Causes lists every reason, in words: allergens, "alcohol", diets,
	// words of unclear needs, and "check" for unread ones.
	Causes []string `json:"causes"`
}

// message asks for the confirmation of one drink, naming what is wrong
// with it and for whom.
func (u UnsafeDrink) message() string {
	whose, they := "which you listed in your dietary needs", "you take"
	if u.ForName != "" {
		whose, they = fmt.Sprintf("which %s listed in their dietary needs", u.ForName), u.ForName+" takes"
	}
	var parts []string
	if len(u.Allergens) > 0 {
		parts = append(parts, fmt.Sprintf("contains %s, %s", joinWithAnd(u.Allergens), whose))
	}
	if u.Alcohol {
		parts = append(parts, fmt.Sprintf("has alcohol, and %s none", they))
	}
	if len(u.Diets) > 0 {
		parts = append(parts, fmt.Sprintf("is not %s", joinWithAnd(u.Diets)))
	}
	if len(u.Mentions) > 0 {
		parts = append(parts, fmt.Sprintf("has %s, named in needs the host has not reviewed yet", joinWithAnd(u.Mentions)))
	}
	if len(u.Unread) > 0 {
		parts = append(parts, fmt.Sprintf("may not suit %s: we could not read %s, so the bar will check this with you", whoseNeeds(u.ForName), quoteAll(u.Unread)))
	}
	return fmt.Sprintf("%s %s; confirm to order it anyway", u.Name, strings.Join(parts, "; it "))
}

func whoseNeeds(forName string) string {
	if forName == "" {
		return "your needs"
	}
	return forName + "'s needs"
}

// quoteAll is words quoted and joined: "“ei alkoholia” and “pähkinä”".
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "“" + w + "”"
	}
	return joinWithAnd(q)
}

func flagSummaries(flags []UnsafeDrink) []string {
	out := make([]string, len(flags))
	for i, f := range flags {
		who := "you"
		if f.ForName != "" {
			who = f.ForName
		}
		out[i] = fmt.Sprintf("%s: %s for %s", f.Name, strings.Join(f.Causes, ", "), who)
	}
	return out
}

// checkPace enforces the optional cap of standard drinks per guest per
// hour, counting the guest's orders of the last hour (except cancelled
// ones and the order being edited). Over the cap, the refusal is TooMany
// with RetryAfter when the guest may order this.
func (s *Orders) checkPace(ctx context.Context, guestID string, items []order.Item, exclude string, now time.Time) error {
	limit := s.limits.DrinksPerHour
	sd := order.Order{Items: items}.StandardDrinks()
	if limit <= 0 || sd <= 0 {
		return nil
	}
	if sd > limit {
		return NewError(Unprocessable, "pace_yourself",
			fmt.Sprintf("this order holds about %.1f standard drinks, more than the %g an hour the host asks everyone to stay within; please order fewer at a time", sd, limit))
	}
	recent, err := s.store.GuestOrdersSince(ctx, guestID, now.Add(-time.Hour))
	if err != nil {
		return err
	}
	var counted []order.Order
	had := 0.0
	for _, o := range recent {
		if o.Status != order.Cancelled && o.ID != exclude {
			counted = append(counted, o)
			had += o.StandardDrinks()
		}
	}
	if had+sd <= limit+1e-9 {
		return nil
	}
	left, wait := had, time.Duration(0)
	for _, o := range counted {
		left -= o.StandardDrinks()
		wait = o.CreatedAt.Add(time.Hour).Sub(now)
		if left+sd <= limit+1e-9 {
			break
		}
	}
	return &Error{Kind: TooMany, Code: "pace_yourself",
		Message: fmt.Sprintf("you have had about %.1f standard drinks in the last hour, and the host asks everyone to pace themselves at %g an hour. How about something alcohol-free for now? You can order this in about %s.", had, limit, roughDuration(wait)),
		Details: map[string]any{"standardDrinksLastHour": math.Round(had*10) / 10, "limitPerHour": limit, "retryAfterSeconds": int(math.Ceil(wait.Seconds()))},
		// Never zero: the refusal always says when to try again.
		RetryAfter: max(wait, time.Nanosecond),
	}
}

// myOrdersLimit is how many of their orders a guest's list shows.
const myOrdersLimit = 50

// Mine lists the guest's latest orders, newest first, with their places.
func (s *Orders) Mine(ctx context.Context, guestID string) ([]OrderView, error) {
	orders, err := s.store.OrdersByGuest(ctx, guestID, myOrdersLimit)
	if err != nil {
		return nil, err
	}
	return s.WithPlaces(ctx, orders)
}

// Own loads an order of the guest; anyone else's is NotFound, so ids
// reveal nothing.
func (s *Orders) Own(ctx context.Context, guestID, id string) (order.Order, error) {
	o, err := s.store.OrderByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && o.GuestID != guestID) {
		return order.Order{}, NewError(NotFound, "not_found", "you have no order with this id")
	}
	return o, err
}

// Edit replaces the items of the guest's order id while it is queued.
// req must be normalised; a version other than zero is the one the
// guest's screen showed, and an order that moved on since is a Conflict.
func (s *Orders) Edit(ctx context.Context, who Who, id string, req order.Request, version int) (order.Order, error) {
	o, err := s.Own(ctx, who.GuestID, id)
	if err != nil {
		return order.Order{}, err
	}
	if version != 0 && version != o.Version {
		return order.Order{}, NewError(Conflict, "order_changed", "this order changed since you opened it; refresh and try again")
	}
	if err := order.GuestEdit(o.Status); err != nil {
		return order.Order{}, transitionError(err)
	}
	items, confirmed, err := s.checkedItems(ctx, who, req)
	if err != nil {
		return order.Order{}, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	if err := s.checkPace(ctx, who.GuestID, items, o.ID, now); err != nil {
		return order.Order{}, err
	}
	next := o
	next.Items, next.AllergensConfirmed = items, confirmed
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: o.Status, At: now, ActorID: who.GuestID, ActorName: who.Name, Reason: "items changed"})
	next, err = s.bar.move(ctx, o, next)
	if err != nil {
		return order.Order{}, err
	}
	s.bar.orderEvent(ctx, next, live.EventOrderUpdated)
	return next, nil
}

// Cancel cancels the guest's order id while the bar has not started it;
// reason (cleaned by the caller) defaults to "cancelled by the guest".
func (s *Orders) Cancel(ctx context.Context, who Who, id, reason string) (order.Order, error) {
	o, err := s.Own(ctx, who.GuestID, id)
	if err != nil {
		return order.Order{}, err
	}
	to, err := order.GuestCancel(o.Status)
	if err != nil {
		return order.Order{}, transitionError(err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	if reason == "" {
		reason = "cancelled by the guest"
	}
	next := o
	next.Status = to
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: to, At: now, ActorID: who.GuestID, ActorName: who.Name, Reason: reason})
	next, err = s.bar.move(ctx, o, next)
	if err != nil {
		return order.Order{}, err
	}
	s.bar.orderEvent(ctx, next, live.OrderEvent(to))
	return Tidy(next), nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func appendMissing(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func joinWithAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	out := ""
	for i, it := range items {
		switch {
		case i == 0:
		case i == len(items)-1:
			out += " and "
		default:
			out += ", "
		}
		out += it
	}
	return out
}

// roughDuration says d in minutes, for a person.
func roughDuration(d time.Duration) string {
	switch m := int(d.Round(time.Minute).Minutes()); {
	case d < time.Minute:
		return "a minute"
	case m == 1:
		return "1 minute"
	default:
		return strconv.Itoa(m) + " minutes"
	}
}
