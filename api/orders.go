package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/text"
)

// A guest's own orders: place (idempotently), list, read, edit and cancel
// while queued (app.Orders).

// orderView is an order as its guest sees it: with its place in the queue
// and an estimate while it waits.
type orderView = app.OrderView

// liveOrders is this instance's order view as the use cases read it.
type liveOrders struct{ v *orderViews }

func (l liveOrders) View(ctx context.Context) (*order.View, error) { return l.v.get(ctx) }
func (l liveOrders) Apply(o order.Order)                           { l.v.view.Apply(o) }
func (l liveOrders) Corrected(orders []order.Order, started time.Time) {
	l.v.corrected(orders, started)
}

// whoOf is the signed-in person as the use cases name them.
func whoOf(id auth.Identity) app.Who { return app.Who{GuestID: id.GuestID, Name: id.Name} }

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
// (200, Idempotent-Replayed) and never a second one (app.Orders.Place).
func (s *Server) handlePlaceOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := identity(ctx)
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
	o, replayed, err := s.orders.Place(ctx, whoOf(id), req, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
		s.writeOrderView(w, r, http.StatusOK, o)
		return
	}
	s.writeOrderView(w, r, http.StatusCreated, o)
}

type ordersResponse struct {
	Orders []orderView `json:"orders"`
}

func (s *Server) handleMyOrders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := identity(ctx)
	views, err := s.orders.Mine(ctx, id.GuestID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ordersResponse{Orders: views})
}

func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := identity(ctx)
	o, err := s.orders.Own(ctx, id.GuestID, chi.URLParam(r, "id"))
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

func (s *Server) handleEditOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := identity(ctx)
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
	o, err := s.orders.Edit(ctx, whoOf(id), chi.URLParam(r, "id"), req, body.Version)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeOrderView(w, r, http.StatusOK, o)
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
	id := identity(ctx)
	var body reasonRequest
	if err := decodeOptional(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := body.cleanReason(); err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.orders.Cancel(ctx, whoOf(id), chi.URLParam(r, "id"), body.Reason)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, orderView{Order: o})
}

// writeOrderView answers with one order and its place in the queue.
func (s *Server) writeOrderView(w http.ResponseWriter, r *http.Request, status int, o order.Order) {
	views, err := s.orders.WithPlaces(r.Context(), []order.Order{o})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, status, views[0])
}
