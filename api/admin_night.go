package api

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/safecsv"
)

// The night's record (docs/REPORTS.md): the orders as CSV, and the report
// after the party as JSON and CSV. The Orders screen is /admin/orders.

// maxCSVOrders bounds one orders export: the host's list pages by 500,
// a night's export takes them all up to this.
const maxCSVOrders = 20000

// handleOrdersCSV exports the orders the filters select, with their times.
func (s *Server) handleOrdersCSV(w http.ResponseWriter, r *http.Request) {
	f, err := orderFilter(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f.Limit, f.Offset = maxCSVOrders, 0
	l, err := s.queue.Orders(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	settings, err := s.store.Settings(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	loc := settings.Loc()
	var buf bytes.Buffer
	cw := safecsv.NewWriter(&buf)
	cw.Header("ticket", "guest", "drinks", "glasses", "status", "placed", "started", "ready", "served", "cancelled", "madeBy", "cancelledBy", "reason")
	at := func(t *time.Time) safecsv.Cell {
		if t == nil {
			return safecsv.Text("")
		}
		return safecsv.Text(t.In(loc).Format(time.DateTime))
	}
	for _, o := range l.Orders {
		t := order.TimesOf(o)
		names := make([]string, 0, len(o.Items))
		for _, it := range o.Items {
			names = append(names, fmt.Sprintf("%d× %s", it.Qty, it.Name))
		}
		ticket := safecsv.Text("")
		if o.Ticket > 0 {
			ticket = safecsv.Int(o.Ticket)
		}
		cw.Write(ticket, safecsv.Text(o.GuestName), safecsv.Text(strings.Join(names, "; ")), safecsv.Int(o.Drinks()),
			safecsv.Text(string(o.Status)), at(&t.Placed), at(t.Started), at(t.Ready), at(t.Served), at(t.Cancelled),
			safecsv.Text(t.MadeBy), safecsv.Text(t.CancelledBy), safecsv.Text(t.Reason))
	}
	if err := cw.Flush(); err != nil {
		s.fail(w, r, err)
		return
	}
	writeCSV(w, "orders", buf.Bytes())
}

// nightReport reads ?anonymous= and makes the report against the shopping
// plan's defaults (the plan the host shopped from, unless they changed
// its figures on the page: the same query parameters are read here).
func (s *Server) nightReport(r *http.Request) (app.NightReport, error) {
	q := r.URL.Query()
	anonymous := false
	if v := q.Get("anonymous"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return app.NightReport{}, errBadRequest("invalid_query", "anonymous must be true or false")
		}
		anonymous = b
	}
	planQuery := url.Values{}
	for k, v := range q {
		if k != "anonymous" {
			planQuery[k] = v
		}
	}
	p, err := s.shoppingPlan(r.Context(), planQuery)
	if err != nil {
		return app.NightReport{}, err
	}
	return app.Night(r.Context(), s.store, p, anonymous)
}

func (s *Server) handleNightReport(w http.ResponseWriter, r *http.Request) {
	rep, err := s.nightReport(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// handleNightReportCSV writes the report as one table: a row per hour,
// drink, guest and ingredient, the section named in the first column.
func (s *Server) handleNightReportCSV(w http.ResponseWriter, r *http.Request) {
	rep, err := s.nightReport(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	loc, _ := time.LoadLocation(rep.Timezone)
	if loc == nil {
		loc = time.UTC
	}
	var buf bytes.Buffer
	cw := safecsv.NewWriter(&buf)
	cw.Header("section", "name", "glasses", "timed", "prepP50s", "prepP90s", "used", "unit", "packsUsed", "pack", "packsPlanned", "ratio")
	text, num, n := safecsv.Text, safecsv.Float, safecsv.Int
	empty := text("")
	for _, h := range rep.PerHour {
		cw.Write(text("hour"), text(h.Hour.In(loc).Format("2006-01-02 15:04")), n(h.Glasses), empty, empty, empty, empty, empty, empty, empty, empty, empty)
	}
	for _, d := range rep.PerDrink {
		cw.Write(text("drink"), text(d.Name), n(d.Glasses), n(d.Timed), num(d.PrepP50), num(d.PrepP90), empty, empty, empty, empty, empty, empty)
	}
	for i, g := range rep.PerGuest {
		name := g.Name
		if rep.Anonymous {
			name = "#" + strconv.Itoa(i+1)
		}
		cw.Write(text("guest"), text(name), n(g.Glasses), empty, empty, empty, empty, empty, empty, empty, empty, empty)
	}
	for _, u := range rep.Usage {
		used, unit := empty, empty
		if len(u.Amounts) > 0 {
			used, unit = num(u.Amounts[0].Amount), text(u.Amounts[0].Unit)
		}
		cw.Write(text("ingredient"), text(u.Name), empty, empty, empty, empty, used, unit, num(u.Packs), text(u.Pack), n(u.Planned), num(u.Ratio))
	}
	if err := cw.Flush(); err != nil {
		s.fail(w, r, err)
		return
	}
	name := "night"
	if rep.Anonymous {
		name = "night-shared"
	}
	writeCSV(w, name, buf.Bytes())
}

// writeCSV sends a CSV download named name-<date>.csv.
func writeCSV(w http.ResponseWriter, name string, body []byte) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, name, time.Now().UTC().Format(time.DateOnly)))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}
