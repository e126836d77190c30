package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// seedDesk stores n generated guests straight into the collection (far
// quicker than one insert each through the store; the figures are then
// recounted from them): a third coming, a sixth declined, one in ten with
// a dietary need, one in five signed in, couples and families in groups.
func seedDesk(ctx context.Context, st *store.Store, n int) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	docs := make([]any, 0, 1000)
	flush := func() error {
		if len(docs) == 0 {
			return nil
		}
		_, err := st.DB().Collection("guests").InsertMany(ctx, docs)
		docs = docs[:0]
		return err
	}
	for i := range n {
		g := guest.Guest{
			ID: fmt.Sprintf("desk%06d", i), FirstName: fmt.Sprintf("First%d", i%97), LastName: fmt.Sprintf("Last%d", i%1009),
			Code: fmt.Sprintf("D%07d", i), Role: guest.RoleGuest, Status: guest.StatusPending, ExpectedGuests: 1,
			CreatedAt: now, UpdatedAt: now,
		}
		g.LastNameKey = guest.NameKey(g.LastName)
		switch i % 6 {
		case 0, 1:
			g.Status, g.RSVPDate = guest.StatusComing, &now
		case 2:
			g.Status, g.RSVPDate = guest.StatusDeclined, &now
		}
		if i%10 == 0 {
			g.Dietary = guest.NormalizeDietary(guest.Dietary{Text: "no nuts"})
			g.RefreshNeeds()
		}
		if i%5 == 0 {
			g.LastLogin = &now
		}
		if i%4 < 2 {
			g.GroupID = fmt.Sprintf("grp%d", i/4)
		}
		docs = append(docs, g)
		if len(docs) == 1000 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	_, err := st.RecountStats(ctx)
	return err
}

// deskLoad: the host's guest desk at -desk-guests guests. First a CSV
// import of -import new guests in one request (timed alone); then
// -concurrency admins page through the list, filter it and search it by
// name, each kind reported on its own.
func deskLoad(ctx context.Context, s *server, o options) ([]result, error) {
	var out []result
	if o.importRows > 0 {
		var b strings.Builder
		b.WriteString("firstName,lastName,email\n")
		for i := range o.importRows {
			fmt.Fprintf(&b, "Imported%d,Person%d,imported%d@example.com\n", i, i, i)
		}
		writes0, cpu0 := s.store.Writes(), cpuTime()
		t0 := time.Now()
		status, body, err := s.do(ctx, "POST", "/api/admin/guests/import", s.admin.token, []byte(b.String()), "Content-Type", "text/csv")
		took := time.Since(t0)
		writes, cpu := s.store.Writes()-writes0, cpuTime()-cpu0
		if err != nil {
			return nil, err
		}
		if status != 200 {
			return nil, fmt.Errorf("import: %d %.200s", status, body)
		}
		// Every row must have been created: a fast import that refused
		// rows would measure nothing.
		var rep struct{ Created, Refused int }
		if err := json.Unmarshal(body, &rep); err != nil || rep.Created != o.importRows {
			return nil, fmt.Errorf("import: %d of %d rows created (%v) %.200s", rep.Created, o.importRows, err, body)
		}
		r := summarize("import", []time.Duration{took}, 0, took)
		r.perSecond = float64(o.importRows) / took.Seconds()
		rows := float64(o.importRows)
		r.note = fmt.Sprintf("%d rows in one request: %.0f rows/s, %.2f ms a row; %d database writes, %.3f a row; %.2f ms of CPU (server and client) a row",
			o.importRows, r.perSecond, ms(took)/rows, writes, float64(writes)/rows, ms(cpu)/rows)
		out = append(out, r)
	}
	// The first list read on an instance builds its guest index (FerretDB):
	// timed on its own, the reads after are the measurement.
	t0 := time.Now()
	if status, body, err := s.do(ctx, "GET", "/api/admin/guests?limit=50", s.admin.token, nil); err != nil || status != 200 {
		return nil, fmt.Errorf("first list read: %d %v %.120s", status, err, body)
	}
	build := time.Since(t0)
	r := summarize("first", []time.Duration{build}, 0, build)
	r.note = "the first list read, which builds the guest index"
	out = append(out, r)
	kinds := []struct {
		name string
		path func(i int) string
	}{
		{"page", func(i int) string { return fmt.Sprintf("/api/admin/guests?limit=50&offset=%d", (i*50)%o.deskGuests) }},
		{"filter", func(i int) string {
			return fmt.Sprintf("/api/admin/guests?status=%s&limit=50&offset=%d", []string{"pending", "coming", "declined"}[i%3], (i*50)%1000)
		}},
		{"search", func(i int) string { return fmt.Sprintf("/api/admin/guests?q=last%d&limit=50", 100+i%900) }},
	}
	for _, k := range kinds {
		dur := o.duration / time.Duration(len(kinds))
		ko := o
		ko.duration = dur
		r := closedLoop(ctx, k.name, ko, func(ctx context.Context, w, i int) error {
			status, body, err := s.do(ctx, "GET", k.path(w*7919+i), s.admin.token, nil)
			if err != nil {
				return err
			}
			if status != 200 || !strings.Contains(string(body), `"total"`) {
				return fmt.Errorf("%s: %d %.120s", k.path(i), status, body)
			}
			return nil
		})
		out = append(out, r)
	}
	return out, nil
}
