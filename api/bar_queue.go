package api

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
)

// The bartender's queue and the moves of an order behind the bar.

type barQueueResponse struct {
	Orders []order.Order    `json:"orders"`
	Counts app.OrderSummary `json:"counts"`
	// TypicalPrepSeconds is the median of recent preparation times, the
	// basis of every guest's estimate.
	TypicalPrepSeconds int       `json:"typicalPrepSeconds"`
	Now                time.Time `json:"now"`
}

func (s *Server) handleBarQueue(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q, err := s.queue.Queue(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, barQueueResponse{
		Orders:             q.Orders,
		Counts:             q.Counts,
		TypicalPrepSeconds: int(q.TypicalPrep.Seconds()),
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
	ctx := r.Context()
	id := identity(ctx)
	action, body, err := parseBarAction(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.queue.Move(ctx, whoOf(id), chi.URLParam(r, "id"), action, body.Reason, body.Version)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

type adminOrdersResponse struct {
	Orders []adminOrder     `json:"orders"`
	Total  int              `json:"total"`
	Counts app.OrderSummary `json:"counts"`
}

// adminOrder is an order with its times and who made it, read from its
// history (the host's Orders screen, docs/REPORTS.md).
type adminOrder struct {
	order.Order
	Times order.Times `json:"times"`
}

// orderFilter reads the host's order filters:
// ?status=&guestId=&drinkId=&bartenderId=&limit=50&offset=0.
func orderFilter(q url.Values) (store.OrderFilter, error) {
	f := store.OrderFilter{Status: order.Status(q.Get("status")), GuestID: q.Get("guestId"),
		DrinkID: q.Get("drinkId"), ActorID: q.Get("bartenderId"), Limit: 50}
	switch f.Status {
	case "", order.Queued, order.Preparing, order.Ready, order.Served, order.Cancelled:
	default:
		return f, errBadRequest("invalid_status", "status is one of queued, preparing, ready, served, cancelled")
	}
	for name, dst := range map[string]*int{"limit": &f.Limit, "offset": &f.Offset} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (name == "limit" && (n < 1 || n > 500)) {
				return f, errBadRequest("invalid_"+name, name+" must be a whole number (limit 1–500, offset 0 or more)")
			}
			*dst = n
		}
	}
	return f, nil
}

// handleAdminOrders lists every order, newest first, each with its times.
func (s *Server) handleAdminOrders(w http.ResponseWriter, r *http.Request) {
	f, err := orderFilter(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, err := s.queue.Orders(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminOrdersResponse{Orders: withTimes(l.Orders), Total: l.Total, Counts: l.Counts})
}

func withTimes(orders []order.Order) []adminOrder {
	out := make([]adminOrder, len(orders))
	for i, o := range orders {
		out[i] = adminOrder{Order: o, Times: order.TimesOf(o)}
	}
	return out
}
