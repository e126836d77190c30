package api

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// The bartender's queue and the moves of an order behind the bar.

type barQueueResponse struct {
	Orders []order.Order `json:"orders"`
	Counts orderSummary  `json:"counts"`
	// TypicalPrepSeconds is the median of recent preparation times, the
	// basis of every guest's estimate.
	TypicalPrepSeconds int       `json:"typicalPrepSeconds"`
	Now                time.Time `json:"now"`
}

func (s *Server) handleBarQueue(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !s.allow(w, r, "orders", identity(ctx).GuestID) {
		return
	}
	started := time.Now()
	orders, err := s.store.BarQueue(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A full read of the unfinished orders: it corrects the order view.
	s.bar.orders.corrected(orders, started)
	counts, err := s.orderSummary(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i := range orders {
		orders[i] = tidy(orders[i])
	}
	writeJSON(w, http.StatusOK, barQueueResponse{
		Orders:             orders,
		Counts:             counts,
		TypicalPrepSeconds: int(s.typicalPrep(ctx).Seconds()),
		Now:                time.Now().UTC(),
	})
}

// decodeOptional decodes a JSON body into v when there is one; an empty
// body leaves v as it is.
func decodeOptional(r *http.Request, v any) error {
	br := bufio.NewReader(r.Body)
	for {
		b, err := br.Peek(1)
		if errors.Is(err, io.EOF) || (err == nil && len(b) == 0) {
			return nil
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return tooLarge(mbe)
			}
			return errBadRequest("malformed_json", "the request body could not be read")
		}
		if c := b[0]; c == ' ' || c == '\n' || c == '\r' || c == '\t' {
			br.ReadByte()
			continue
		}
		break
	}
	r.Body = io.NopCloser(br)
	return decode(r, v)
}

// parseBarAction reads the action from the path and its optional body.
func parseBarAction(r *http.Request) (order.Action, reasonRequest, error) {
	var body reasonRequest
	a, ok := order.ParseAction(chi.URLParam(r, "action"))
	if !ok {
		names := make([]string, len(order.Actions))
		for i, x := range order.Actions {
			names[i] = string(x)
		}
		return a, body, errNotFound("no such action; use one of " + strings.Join(names, ", "))
	}
	if err := decodeOptional(r, &body); err != nil {
		return a, body, err
	}
	if err := body.cleanReason(); err != nil {
		return a, body, err
	}
	if a == order.Cancel && body.Reason == "" {
		return a, body, errBadRequest("reason_required", `say why the order is cancelled, e.g. {"reason": "out of limes"}; the guest sees it`)
	}
	return a, body, nil
}

// handleBarTransition moves an order: start, ready, serve, recall or
// cancel. Two bartenders pressing the same button at once: the claim on
// the order's version lets exactly one through (200, one event); the
// other gets 409.
func (s *Server) handleBarTransition(w http.ResponseWriter, r *http.Request) {
	// A guest is waiting on this move: its writes go first on the
	// embedded database.
	ctx := store.Urgent(r.Context())
	who := identity(ctx)
	if !s.allow(w, r, "orders", who.GuestID) {
		return
	}
	action, body, err := parseBarAction(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.store.OrderByID(ctx, chi.URLParam(r, "id"))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such order")
		}
		s.fail(w, r, err)
		return
	}
	if body.Version != 0 && body.Version != o.Version {
		s.fail(w, r, errConflict("order_changed", "this order changed since your screen showed it (now "+string(o.Status)+"); refresh"))
		return
	}
	to, err := order.Next(o.Status, action)
	if err != nil {
		s.fail(w, r, transitionError(err))
		return
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	next := o
	next.Status = to
	switch action {
	case order.Start:
		next.StartedAt = &now
	case order.MarkReady:
		next.ReadyAt = &now
	case order.Serve:
		next.ServedAt = &now
	case order.Recall:
		next.ReadyAt = nil
	}
	next.History = append(append([]order.Transition(nil), o.History...),
		order.Transition{From: o.Status, To: to, At: now, ActorID: who.GuestID, ActorName: who.Name, Reason: body.Reason})
	next, err = s.moveOrder(ctx, o, next)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	event := live.OrderEvent(to)
	if action == order.Recall {
		// Back to preparing, but the phone should know why its "ready"
		// went away.
		event = live.EventOrderUpdated
	}
	s.orderEvent(ctx, next, event)
	if action == order.MarkReady && next.StartedAt != nil {
		// After the event: the guest hears "ready" one write sooner. The
		// estimate learns from every drink made; a lost sample only makes
		// it a little less sharp.
		if err := s.store.RecordPrepTime(context.WithoutCancel(r.Context()), next.ID, *next.StartedAt, now); err != nil {
			s.log.WarnContext(ctx, "record preparation time", "err", err)
		}
	}
	writeJSON(w, http.StatusOK, tidy(next))
}

type adminOrdersResponse struct {
	Orders []order.Order `json:"orders"`
	Total  int           `json:"total"`
	Counts orderSummary  `json:"counts"`
}

// handleAdminOrders lists every order, newest first:
// ?status=&guestId=&limit=50&offset=0.
func (s *Server) handleAdminOrders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := store.OrderFilter{Status: order.Status(q.Get("status")), GuestID: q.Get("guestId"), Limit: 50}
	switch f.Status {
	case "", order.Queued, order.Preparing, order.Ready, order.Served, order.Cancelled:
	default:
		s.fail(w, r, errBadRequest("invalid_status", "status is one of queued, preparing, ready, served, cancelled"))
		return
	}
	for name, dst := range map[string]*int{"limit": &f.Limit, "offset": &f.Offset} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (name == "limit" && (n < 1 || n > 500)) {
				s.fail(w, r, errBadRequest("invalid_"+name, name+" must be a whole number (limit 1–500, offset 0 or more)"))
				return
			}
			*dst = n
		}
	}
	orders, total, err := s.store.ListOrders(ctx, f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	counts, err := s.store.OrderCounts(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i := range orders {
		orders[i] = tidy(orders[i])
	}
	writeJSON(w, http.StatusOK, adminOrdersResponse{Orders: orders, Total: total, Counts: summaryOf(counts)})
}
