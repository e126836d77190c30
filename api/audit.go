package api

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// The audit log (docs/DESIGN.md, Domain): every change the host makes, the
// bar's stock switches and the door's check-ins, recorded once the
// handler has answered.

// auditActions names the action of every audited route, by method and
// chi route pattern. TestEveryAuditedRouteHasAnAction walks the router:
// a mutating admin, stock or door route missing here fails it.
// systemActions are written by the use cases themselves, outside a
// request (app.Registrations' offers, expiries, and the places of
// registered guests who declined, came back or were deleted).
var systemActions = []string{app.ActionRegistrationOffer, app.ActionRegistrationExpire, app.ActionRegistrationDeclined,
	app.ActionRegistrationComing, app.ActionRegistrationDeleted}

var auditActions = map[string]string{
	"POST /api/admin/guests":                       "guest.create",
	"POST /api/admin/events":                       "event.create",
	"PUT /api/admin/events/{id}/archived":          "event.archive",
	"DELETE /api/admin/events/{id}":                "event.delete",
	"PUT /api/admin/guests/{id}":                   "guest.update",
	"DELETE /api/admin/guests/{id}":                "guest.delete",
	"POST /api/admin/guests/{id}/code":             "guest.code",
	"PUT /api/admin/guests/{id}/dietary":           "guest.dietary_review",
	"POST /api/admin/guests/{id}/signout":          "guest.signout",
	"POST /api/auth/signout-everywhere":            "auth.signout_everywhere",
	"POST /api/admin/guests/import":                "guest.import",
	"PUT /api/admin/settings":                      "settings.update",
	"POST /api/admin/drinks":                       "drink.create",
	"PUT /api/admin/drinks/{id}":                   "drink.update",
	"DELETE /api/admin/drinks/{id}":                "drink.delete",
	"POST /api/admin/drinks/{id}/image-upload":     "drink.image_upload",
	"POST /api/admin/drinks/{id}/image/regenerate": "drink.image_regenerate",
	"DELETE /api/admin/drinks/{id}/image":          "drink.image_remove",
	"POST /api/admin/drinks/{id}/image-prompt":     "drink.image_prompt",
	"PUT /api/admin/app-key":                       "appkey.set",
	"POST /api/admin/jobs/{id}/retry":              "job.retry",
	"POST /api/admin/announcements":                "announcement",
	"PUT /api/bar/stock/{ingredient}":              "stock.set",
	"PUT /api/bar/drinks/{id}/stock":               "drink_stock.set",
	"POST /api/bar/boards":                         "board.create",
	"DELETE /api/bar/boards/{id}":                  "board.revoke",
	"POST /api/door/checkin":                       "door.check_in",
	"PUT /api/rsvp":                                "rsvp.answer",
	"POST /api/door/checkin/{id}/undo":             "door.undo",
	"PUT /api/admin/public-url":                    "public_url.set",
	"POST /api/admin/orders/report/learn":          "plan.learn",
	"DELETE /api/admin/reports/shopping/learnt":    "plan.forget",
	"POST /api/admin/invitations/send":             "invitation.send",
	"POST /api/admin/reminders":                    "reminder.create",
	"DELETE /api/admin/reminders/{id}":             "reminder.delete",
	"POST /api/door/walkins":                       "door.walk_in",
	"POST /api/register":                           "registration.create",
	"POST /api/register/{token}/accept":            "registration.accept",
	"POST /api/register/{token}/confirm":           "registration.confirm",
	"POST /api/register/{token}/cancel":            "registration.cancel",
	"POST /api/admin/registrations/{id}/approve":   "registration.approve",
	"DELETE /api/admin/registrations/{id}":         "registration.remove",
	"PUT /api/admin/notifications":                 "notifications.set",
}

// auditUnmapped is the action of a mutating route missing from
// auditActions: still recorded, with its route, rather than lost.
const auditUnmapped = "unmapped"

// auditWriteTimeout bounds the one insert an audited request costs.
const auditWriteTimeout = 2 * time.Second

// auditMetrics count what the log could not keep.
type auditMetrics struct {
	written  prometheus.Counter
	failures prometheus.Counter
}

func newAuditMetrics(reg prometheus.Registerer) *auditMetrics {
	m := &auditMetrics{
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_audit_written_total", Help: "Audit entries written.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_audit_write_errors_total", Help: "Audit entries that could not be written (the action itself succeeded).",
		}),
	}
	reg.MustRegister(m.written, m.failures)
	return m
}

func mutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// recordAudit gives the handler a recorder for its details and, when a
// mutating request succeeded (2xx), writes its entry. Nothing of the
// request is kept but its route, the path's id and what the handler
// noted (see package audit).
//
// The write happens after the handler, on a context that outlives a
// client that hung up (the change was made, so it is recorded) and with
// a short timeout. It is one small insert on the admin's and the bar's
// rare writes, so the answer waits for it: an admin who opens the log
// right after an action sees it. A failed write is logged and counted;
// the request's answer is already decided and stays what it was.
func (s *Server) recordAudit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !mutating(r.Method) {
			next.ServeHTTP(w, r)
			return
		}
		rec := &audit.Recorder{}
		sw := &statusWriter{ResponseWriter: w}
		r = r.WithContext(audit.NewContext(r.Context(), rec))
		next.ServeHTTP(sw, r)
		status := sw.status
		if status == 0 {
			status = http.StatusOK
		}
		if status < 200 || status > 299 || rec.Skipped() {
			return
		}
		s.writeAudit(r, rec, status)
	})
}

func (s *Server) writeAudit(r *http.Request, rec *audit.Recorder, status int) {
	route := r.Method + " " + routePattern(r)
	who := identity(r.Context())
	e := audit.Entry{
		At:        time.Now(),
		ActorID:   who.GuestID,
		ActorName: who.Name,
		Role:      string(who.Role),
		Action:    auditActions[route],
		Subject:   rec.Subject(),
		Status:    status,
		Details:   rec.Details(),
	}
	if e.Action == "" {
		e.Action = auditUnmapped
		if e.Details == nil {
			e.Details = map[string]any{}
		}
		e.Details["route"] = route
	}
	if e.Subject == "" {
		e.Subject = auditSubject(r)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), auditWriteTimeout)
	defer cancel()
	if err := s.auditWriter.write(ctx, s.store, &e); err != nil {
		s.auditMetrics.failures.Inc()
		s.log.ErrorContext(ctx, "audit entry not written", "err", err, "action", e.Action, "route", route, "requestId", requestID(ctx))
		return
	}
	s.auditMetrics.written.Inc()
}

// auditWriter writes the entries of requests finishing at the same time
// together: while one insert is under way, the entries that come in wait
// for it and then go in as one. Each request still answers only once its
// entry is stored, but a burst (2,000 personal announcements) costs a
// handful of writes, not one each in the database's single line.
type auditWriter struct {
	mu      sync.Mutex
	writing bool
	pending []*audit.Entry
	waiters []chan error
}

func (w *auditWriter) write(ctx context.Context, st *store.Store, e *audit.Entry) error {
	done := make(chan error, 1)
	w.mu.Lock()
	w.pending = append(w.pending, e)
	w.waiters = append(w.waiters, done)
	if w.writing {
		w.mu.Unlock()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// This request writes, for itself and whoever comes in meanwhile,
	// until nobody waits.
	w.writing = true
	for len(w.pending) > 0 {
		batch, waiters := w.pending, w.waiters
		w.pending, w.waiters = nil, nil
		w.mu.Unlock()
		err := st.InsertAudits(ctx, batch)
		for _, c := range waiters {
			c <- err
		}
		w.mu.Lock()
	}
	w.writing = false
	w.mu.Unlock()
	return <-done
}

// auditSubject is the thing the path names: a guest, drink or job id, or
// an ingredient (as the bar typed it, in the key stock uses).
func auditSubject(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return ""
	}
	if id := rc.URLParam("id"); id != "" {
		return id
	}
	if in := rc.URLParam("ingredient"); in != "" {
		if raw, err := url.PathUnescape(in); err == nil {
			in = raw
		}
		return in
	}
	return ""
}

// auditPage is GET /api/admin/audit.
type auditPage struct {
	Entries []audit.Entry `json:"entries"`
	Total   int64         `json:"total"`
	Limit   int           `json:"limit"`
	Page    int           `json:"page"`
	Pages   int           `json:"pages"`
}

// parseAuditQuery reads the log's filters and page: action (an action or
// a family such as "guest"), area (audit.Areas: "door", "rsvp", …), actorId, since and until (RFC 3339), limit
// and page. Every mistake is a 400 that names the parameter.
func parseAuditQuery(v url.Values) (store.AuditFilter, error) {
	var f store.AuditFilter
	bad := func(msg string) (store.AuditFilter, error) { return f, errBadRequest("invalid_query", msg) }
	if f.Action = v.Get("action"); f.Action != "" && !audit.ValidAction(f.Action) {
		return bad(`action must be an action such as "guest.create" or a family such as "guest"`)
	}
	if area := v.Get("area"); area != "" {
		if f.Families = audit.Areas[area]; f.Families == nil {
			return bad("area must be one of " + strings.Join(slices.Sorted(maps.Keys(audit.Areas)), ", "))
		}
	}
	if f.ActorID = v.Get("actorId"); f.ActorID != "" && !guest.ValidID(f.ActorID) {
		return bad("actorId must be a guest id")
	}
	for _, p := range []struct {
		name string
		to   *time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		raw := v.Get(p.name)
		if raw == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil || t.Before(audit.MinTime) || t.After(audit.MaxTime) {
			return bad(p.name + " must be an RFC 3339 time such as 2030-06-12T18:00:00Z")
		}
		*p.to = t
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && f.Until.Before(f.Since) {
		return bad("until must not be before since")
	}
	var err error
	if f.Limit, err = intParam(v, "limit", 1, store.MaxPageSize, 50); err != nil {
		return f, err
	}
	if f.Page, err = intParam(v, "page", 1, 1<<20, 1); err != nil {
		return f, err
	}
	return f, nil
}

func (s *Server) handleListAudit(w http.ResponseWriter, r *http.Request) {
	f, err := parseAuditQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	entries, total, err := s.store.ListAudit(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, auditPage{
		Entries: entries, Total: total, Limit: f.Limit, Page: f.Page,
		Pages: pageCount(total, f.Limit),
	})
}

// answersLimit is how many latest answers the desk shows.
const answersLimit = 12

// answerFamilies are what the desk's "Latest answers" lists: the guests'
// own answers, the host's changes to the guest list and the walk-ins the
// door added, as the live rsvp.changed event tells them.
var answerFamilies = []string{"rsvp", "guest.create", "guest.update", "guest.delete", "guest.import", "guest.dietary_review", "door.walk_in"}

// answersPage is GET /api/admin/answers.
type answersPage struct {
	Answers []audit.Entry `json:"answers"`
}

// handleLatestAnswers reads the latest answers from the audit log, so the
// desk's list survives a reload and shows what came in while no page was
// open.
func (s *Server) handleLatestAnswers(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r.URL.Query(), "limit", 1, 50, answersLimit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	entries, _, err := s.store.ListAudit(r.Context(), store.AuditFilter{Families: answerFamilies, Limit: limit, Page: 1})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answersPage{Answers: entries})
}
