package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/text"
)

// A guest's own orders: place (idempotently), list, read, edit and cancel
// while queued.

// orderView is an order as its guest sees it: with its place in the queue
// and an estimate while it waits.
type orderView struct {
	order.Order
	Position         int        `json:"position,omitempty"`
	EstimateSeconds  *int       `json:"estimateSeconds,omitempty"`
	EstimatedReadyAt *time.Time `json:"estimatedReadyAt,omitempty"`
}

func tidy(o order.Order) order.Order {
	if o.Items == nil {
		o.Items = []order.Item{}
	}
	if o.History == nil {
		o.History = []order.Transition{}
	}
	return o
}

// withPlaces adds queue positions and estimates to open orders, from the
// order view (no query). The orders given were just read or written, so
// they correct the view first: an order placed on another instance whose
// event has not arrived yet still gets its place.
func (s *Server) withPlaces(ctx context.Context, orders []order.Order) ([]orderView, error) {
	views := make([]orderView, len(orders))
	open := false
	for i, o := range orders {
		views[i] = orderView{Order: tidy(o)}
		open = open || o.Status.Open()
	}
	if !open {
		return views, nil
	}
	view, err := s.bar.orders.get(ctx)
	if err != nil {
		return nil, err
	}
	for _, o := range orders {
		view.Apply(o)
	}
	queue := view.Queue()
	prep := s.typicalPrep(ctx)
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

// parseOrderRequest decodes and checks an order body. It is its own
// function so the fuzz test reaches every path a body can take.
func parseOrderRequest(r *http.Request) (order.Request, error) {
	var req order.Request
	if err := decode(r, &req); err != nil {
		return req, err
	}
	return normalizeOrder(req)
}

func normalizeOrder(req order.Request) (order.Request, error) {
	out, err := req.Normalize()
	var ie *order.InputError
	if errors.As(err, &ie) {
		return out, errBadRequest(ie.Code, ie.Message)
	}
	return out, err
}

// handlePlaceOrder places an order once per Idempotency-Key: a retry,
// however many at once and on whichever instance, gets the first order
// (200, Idempotent-Replayed) and never a second one (placeOrder).
func (s *Server) handlePlaceOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	if !s.checkAppKey(w, r) || !s.allow(w, r, "orders", who.GuestID) {
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if !order.ValidKey(key) {
		s.fail(w, r, errBadRequest("idempotency_key_required", "send an Idempotency-Key header (1–128 visible ASCII characters, e.g. a UUID) so a retried order is never placed twice"))
		return
	}
	req, err := parseOrderRequest(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.maintain()
	o, replayed, err := s.placeOrder(ctx, who, req, key)
	if err != nil {
		s.failOrder(w, r, err)
		return
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
		s.writeOrderView(w, r, http.StatusOK, o)
		return
	}
	s.writeOrderView(w, r, http.StatusCreated, o)
}

// failOrder writes an order error, with Retry-After for pacing.
func (s *Server) failOrder(w http.ResponseWriter, r *http.Request, err error) {
	var pe *paceError
	if errors.As(err, &pe) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(pe.wait.Seconds())))))
		err = pe.apiError
	}
	s.fail(w, r, err)
}

// checkedItems resolves the requested drinks: each must be on the menu
// and available, and for someone on the guest's answer (self, a group
// member, a "+1"); a drink diet.Check finds not safe for the person it is
// for must be confirmed.
func (s *Server) checkedItems(ctx context.Context, who auth.Identity, req order.Request) ([]order.Item, []string, error) {
	// The menu cache is as fresh as the database for this purpose: every
	// menu write (a stock mark included) moves the version its reads check
	// before the write answers. Reading drinks from it saves decoding
	// documents on every order.
	snap, err := s.bar.menu.snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	g, err := s.store.GuestByID(ctx, who.GuestID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &apiError{Status: http.StatusGone, Code: "guest_removed", Message: "your invitation is no longer on the guest list; please ask the host"}
	}
	if err != nil {
		return nil, nil, err
	}
	s.bar.diet.put(g.ID, g.Dietary.Needs())
	group := []guest.Guest{g}
	if slices.ContainsFunc(req.Items, func(it order.ItemInput) bool { return it.For != "" }) {
		if group, err = s.store.GroupOf(ctx, g); err != nil {
			return nil, nil, err
		}
	}

	items := make([]order.Item, 0, len(req.Items))
	var flags []unsafeDrink
	var confirmed []string
	for _, it := range req.Items {
		d, ok := snap.drink(it.DrinkID)
		if !ok {
			return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "unknown_drink",
				Message: fmt.Sprintf("there is no drink %q on the menu", it.DrinkID), Details: map[string]string{"drinkId": it.DrinkID}}
		}
		if !d.Available {
			return nil, nil, &apiError{Status: http.StatusConflict, Code: "drink_unavailable", Message: d.UnavailableReason(),
				Key: "error.drink_unavailable.named", Vars: map[string]any{"Drink": d.Name},
				Details: map[string]any{"drinkId": d.ID, "missingIngredients": nonNil(d.MissingIngredients), "outOfStock": d.OutOfStock}}
		}
		p := g.People()[0]
		if it.For != "" {
			if p, ok = guest.PersonFor(it.For, g.ID, group); !ok {
				return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "unknown_person",
					Message: fmt.Sprintf("%q is not someone on your invitation; order for yourself, a member of your group or the people you bring (+1, +2…)", it.For),
					Details: map[string]string{"for": it.For}}
			}
		}
		item := order.Item{DrinkID: d.ID, Name: d.Name, Qty: it.Qty, Notes: it.Notes, StandardDrinks: d.StandardDrinks()}
		if p.Ref != g.ID {
			item.For, item.ForName = p.Ref, p.Name
		}
		v := diet.Check(snap.dietDrink(d.ID), p.Dietary.Needs())
		item.Review = v.Review
		if !v.Safe {
			item.Confirmed = v.Causes()
			flags = append(flags, unsafeDrink{DrinkID: d.ID, Name: d.Name, For: item.For, ForName: item.ForName,
				Allergens: nonNil(v.Allergens), Alcohol: v.Alcohol, Diets: nonNil(v.Diets), Mentions: nonNil(v.Mentions), Causes: v.Causes()})
			for _, c := range v.Causes() {
				confirmed = appendNew(confirmed, c)
			}
		}
		items = append(items, item)
	}
	if len(flags) > 0 && !req.ConfirmAllergens {
		msg := flags[0].message()
		if len(flags) > 1 {
			msg = fmt.Sprintf("%d of these drinks are not safe for the person they are for (%s); confirm to order them anyway", len(flags), joinAnd(flagSummaries(flags)))
		}
		return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "allergen_confirmation_required", Message: msg,
			Details: map[string]any{"drinks": flags}}
	}
	return items, confirmed, nil
}

// unsafeDrink is one drink of an order diet.Check finds not safe for the
// person it is for, as the confirmation question names it.
type unsafeDrink struct {
	DrinkID string `json:"drinkId"`
	Name    string `json:"name"`
	// For and ForName name the person when it is not the guest ordering.
	For       string   `json:"for,omitempty"`
	ForName   string   `json:"forName,omitempty"`
	Allergens []string `json:"allergens"`
	Alcohol   bool     `json:"alcohol"`
	Diets     []string `json:"diets"`
	Mentions  []string `json:"mentions"`
	// Causes lists every reason, in words: allergens, "alcohol", diets,
	// words of unclear needs.
	Causes []string `json:"causes"`
}

// message asks for the confirmation of one drink, naming what is wrong
// with it and for whom.
func (u unsafeDrink) message() string {
	whose, they := "which you listed in your dietary needs", "you take"
	if u.ForName != "" {
		whose, they = fmt.Sprintf("which %s listed in their dietary needs", u.ForName), u.ForName+" takes"
	}
	var parts []string
	if len(u.Allergens) > 0 {
		parts = append(parts, fmt.Sprintf("contains %s, %s", joinAnd(u.Allergens), whose))
	}
	if u.Alcohol {
		parts = append(parts, fmt.Sprintf("has alcohol, and %s none", they))
	}
	if len(u.Diets) > 0 {
		parts = append(parts, fmt.Sprintf("is not %s", joinAnd(u.Diets)))
	}
	if len(u.Mentions) > 0 {
		parts = append(parts, fmt.Sprintf("has %s, named in needs the host has not reviewed yet", joinAnd(u.Mentions)))
	}
	return fmt.Sprintf("%s %s; confirm to order it anyway", u.Name, strings.Join(parts, "; it "))
}

func flagSummaries(flags []unsafeDrink) []string {
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

// paceError is the friendly refusal of the standard-drinks cap.
type paceError struct {
	*apiError
	wait time.Duration
}

// checkPace enforces the optional cap of standard drinks per guest per
// hour, counting the guest's orders of the last hour (except cancelled
// ones and the order being edited).
func (s *Server) checkPace(ctx context.Context, guestID string, items []order.Item, exclude string, now time.Time) error {
	limit := s.bar.cfg.DrinksPerHour
	sd := order.Order{Items: items}.StandardDrinks()
	if limit <= 0 || sd <= 0 {
		return nil
	}
	if sd > limit {
		return &apiError{Status: http.StatusUnprocessableEntity, Code: "pace_yourself",
			Message: fmt.Sprintf("this order holds about %.1f standard drinks, more than the %g an hour the host asks everyone to stay within; please order fewer at a time", sd, limit)}
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
	return &paceError{
		apiError: &apiError{Status: http.StatusTooManyRequests, Code: "pace_yourself",
			Message: fmt.Sprintf("you have had about %.1f standard drinks in the last hour, and the host asks everyone to pace themselves at %g an hour. How about something alcohol-free for now? You can order this in about %s.", had, limit, humanDuration(wait)),
			Details: map[string]any{"standardDrinksLastHour": math.Round(had*10) / 10, "limitPerHour": limit, "retryAfterSeconds": int(math.Ceil(wait.Seconds()))}},
		wait: wait,
	}
}

// placeOrder places the guest's order of key once; replayed is true
// when an earlier request with the key placed it.
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
func (s *Server) placeOrder(ctx context.Context, who auth.Identity, req order.Request, key string) (order.Order, bool, error) {
	o, replayed, err := s.placeOnce(ctx, who, req, key)
	if err != nil || replayed {
		return o, replayed, err
	}
	s.orderEvent(ctx, o, live.OrderEvent(o.Status))
	return o, false, nil
}

func (s *Server) placeOnce(ctx context.Context, who auth.Identity, req order.Request, key string) (order.Order, bool, error) {
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
// same key with another body is a 422.
func (s *Server) placedBefore(ctx context.Context, guestID, id, hash string) (order.Order, bool, error) {
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
func (s *Server) placedWithRecord(ctx context.Context, guestID, key, hash string) (order.Order, bool, error) {
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
		return order.Order{}, false, errUnprocessable("idempotency_key_reused", "this Idempotency-Key was already used for a different order; use a new key for a new order")
	}
	return o, true, nil
}

// storeNewOrder checks the guest's limits and stores the order as id.
// The caller holds the guest's lock, so two placements cannot both pass
// the limit, and read the guest's order list, ids, under it.
func (s *Server) storeNewOrder(ctx context.Context, who auth.Identity, ids []string, items []order.Item, confirmed []string, key, hash, id string) (order.Order, error) {
	n, err := s.openOrders(ctx, who.GuestID, ids)
	if err != nil {
		return order.Order{}, err
	}
	if limit := s.bar.cfg.MaxOpenOrders; n >= limit {
		return order.Order{}, &apiError{Status: http.StatusConflict, Code: "open_order_limit",
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

// nextTicket gives a new order its number of the night, in the event's
// time zone. A number taken by an order that then fails to store is
// skipped, never given twice.
func (s *Server) nextTicket(ctx context.Context, now time.Time) (int, error) {
	st, err := s.store.Settings(ctx)
	if err != nil {
		return 0, err
	}
	return s.store.NextTicket(ctx, order.Night(now, st.Loc()))
}

// orderEvent tells the bar and the guest's phone, and counts for the host.
func (s *Server) orderEvent(ctx context.Context, o order.Order, event string) {
	o = tidy(o)
	// This instance's view first: the answer to this request, and the
	// next read here, must already see the change.
	s.bar.orders.view.Apply(o)
	s.publishEvent(ctx, live.TopicBar, event, o)
	s.publishEvent(ctx, live.GuestTopic(o.GuestID), event, o)
	s.boardEvent(ctx, o)
	s.summaryChanged()
}

// ownOrder loads an order of the signed-in guest; anyone else's is a 404,
// so ids reveal nothing.
func (s *Server) ownOrder(ctx context.Context, id string) (order.Order, error) {
	o, err := s.store.OrderByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && o.GuestID != identity(ctx).GuestID) {
		return order.Order{}, errNotFound("you have no order with this id")
	}
	return o, err
}

type ordersResponse struct {
	Orders []orderView `json:"orders"`
}

const myOrdersLimit = 50

func (s *Server) handleMyOrders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	if !s.checkAppKey(w, r) || !s.allow(w, r, "orders", who.GuestID) {
		return
	}
	orders, err := s.store.OrdersByGuest(ctx, who.GuestID, myOrdersLimit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	views, err := s.withPlaces(ctx, orders)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ordersResponse{Orders: views})
}

func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !s.checkAppKey(w, r) || !s.allow(w, r, "orders", identity(ctx).GuestID) {
		return
	}
	o, err := s.ownOrder(ctx, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeOrderView(w, r, http.StatusOK, o)
}

// editRequest is the PATCH body: new items, and optionally the version
// the guest's screen showed, to refuse an edit of an order that moved on.
type editRequest struct {
	order.Request
	Version int `json:"version"`
}

// orderClaimTTL outlives any transition's write by far, and is short so
// that a claim left by a writer that crashed mid-move holds that order
// back for a minute at most. Claims are not released after the write: the
// sweeper removes them, and once the order has moved on its old version's
// claim is never asked for again (a late writer is refused by the claim,
// or by the version filter).
const orderClaimTTL = time.Minute

// moveOrder is the compare-and-set every change of an order goes
// through: claim the move from the order's version — only one writer in
// the whole deployment gets it (store.ClaimOrderMove) — then replace the
// order filtered on that version.
func (s *Server) moveOrder(ctx context.Context, o order.Order, next order.Order) (order.Order, error) {
	if err := s.store.ClaimOrderMove(ctx, o.ID, o.Version, orderClaimTTL); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return order.Order{}, errConflict("order_changed", "someone else changed this order a moment ago; refresh and try again")
		}
		return order.Order{}, err
	}
	next.Version = o.Version + 1
	next.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
	if err := s.store.ReplaceOrder(ctx, next, o.Version); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return order.Order{}, errConflict("order_changed", "someone else changed this order a moment ago; refresh and try again")
		}
		// The move did not happen: free the version for the next try.
		rctx := context.WithoutCancel(ctx)
		if rerr := s.store.ReleaseOrderMove(rctx, o.ID, o.Version); rerr != nil {
			s.log.WarnContext(ctx, "release order claim", "order", o.ID, "version", o.Version, "err", rerr)
		}
		return order.Order{}, err
	}
	if next.Status.Final() {
		s.finishedOne(next.Status)
	}
	return next, nil
}

func transitionError(err error) error {
	var te *order.TransitionError
	if errors.As(err, &te) {
		return errConflict("illegal_transition", te.Error())
	}
	return err
}

func (s *Server) handleEditOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	if !s.checkAppKey(w, r) || !s.allow(w, r, "orders", who.GuestID) {
		return
	}
	var body editRequest
	if err := decode(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	req, err := normalizeOrder(body.Request)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.ownOrder(ctx, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if body.Version != 0 && body.Version != o.Version {
		s.fail(w, r, errConflict("order_changed", "this order changed since you opened it; refresh and try again"))
		return
	}
	if err := order.GuestEdit(o.Status); err != nil {
		s.fail(w, r, transitionError(err))
		return
	}
	items, confirmed, err := s.checkedItems(ctx, who, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	if err := s.checkPace(ctx, who.GuestID, items, o.ID, now); err != nil {
		s.failOrder(w, r, err)
		return
	}
	next := o
	next.Items, next.AllergensConfirmed = items, confirmed
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: o.Status, At: now, ActorID: who.GuestID, ActorName: who.Name, Reason: "items changed"})
	next, err = s.moveOrder(ctx, o, next)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.orderEvent(ctx, next, live.EventOrderUpdated)
	s.writeOrderView(w, r, http.StatusOK, next)
}

type reasonRequest struct {
	Reason  string `json:"reason"`
	Version int    `json:"version"`
}

// cleanReason puts the reason under barhub's text rule (package text),
// as names and notes are: it is shown on the guest's phone and the bar's
// ticket, so it must not hide or reorder text; one line, bounded, refused
// rather than cut when too long.
func (b *reasonRequest) cleanReason() error {
	v, err := text.Rule{Max: order.MaxReasonLen}.Clean(b.Reason)
	switch {
	case errors.Is(err, text.ErrTooLong):
		return errBadRequest("reason_too_long", fmt.Sprintf("keep the reason under %d characters", order.MaxReasonLen))
	case err != nil:
		return errBadRequest("invalid_reason", "reason "+err.Error())
	}
	b.Reason = v
	return nil
}

func (s *Server) handleCancelOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	if !s.checkAppKey(w, r) || !s.allow(w, r, "orders", who.GuestID) {
		return
	}
	var body reasonRequest
	if err := decodeOptional(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := body.cleanReason(); err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.ownOrder(ctx, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	to, err := order.GuestCancel(o.Status)
	if err != nil {
		s.fail(w, r, transitionError(err))
		return
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	reason := body.Reason
	if reason == "" {
		reason = "cancelled by the guest"
	}
	next := o
	next.Status = to
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: to, At: now, ActorID: who.GuestID, ActorName: who.Name, Reason: reason})
	next, err = s.moveOrder(ctx, o, next)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.orderEvent(ctx, next, live.OrderEvent(to))
	writeJSON(w, http.StatusOK, orderView{Order: tidy(next)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func joinAnd(items []string) string {
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

// writeOrderView answers with one order and its place in the queue.
func (s *Server) writeOrderView(w http.ResponseWriter, r *http.Request, status int, o order.Order) {
	views, err := s.withPlaces(r.Context(), []order.Order{o})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, status, views[0])
}
