package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// The host's guest desk (docs/DESIGN.md, flow 3).

// statsView is GET /api/admin/stats and the stats.updated event.
type statsView = app.StatsView

// handleStats answers from the kept summary (one read); ?recount=true
// counts every guest first, and ?timeline=true adds answers per day.
func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	recount, err := boolParam(q, "recount")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	timeline, err := boolParam(q, "timeline")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var st store.GuestStats
	if recount {
		st, err = s.store.RecountStats(ctx)
	} else {
		st, err = s.store.Stats(ctx)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	view := app.NewStatsView(st)
	if timeline {
		settings, err := s.store.Settings(ctx)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		answers, err := s.store.Answers(ctx)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		view.Timeline = guest.Timeline(answers, settings.Loc())
	}
	writeJSON(w, http.StatusOK, view)
}

func boolParam(q url.Values, name string) (bool, error) {
	switch strings.ToLower(q.Get(name)) {
	case "", "false", "0", "no":
		return false, nil
	case "true", "1", "yes":
		return true, nil
	}
	return false, errBadRequest("invalid_query", fmt.Sprintf("%s must be true or false", name))
}

// intParam reads a whole number from lo to hi, def when absent.
func intParam(q url.Values, name string, lo, hi, def int) (int, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, errBadRequest("invalid_query", fmt.Sprintf("%s must be a whole number from %d to %d", name, lo, hi))
	}
	return n, nil
}

// pageCount is how many pages of limit hold total items.
func pageCount(total int64, limit int) int {
	return int((total + int64(limit) - 1) / int64(limit))
}

// guestPage is GET /api/admin/guests.
type guestPage struct {
	Guests []guest.Guest `json:"guests"`
	Total  int64         `json:"total"`
	Limit  int           `json:"limit"`
	Offset int           `json:"offset"`
	Page   int           `json:"page"`
	Pages  int           `json:"pages"`
}

// parseGuestQuery reads the list's filters, order and page from the query
// string: status, neverLoggedIn, hasDietary, groupId, q, sort (a field,
// or -field for descending), order (asc|desc), limit, and offset or page.
func parseGuestQuery(v url.Values) (store.GuestQuery, error) {
	var q store.GuestQuery
	var err error
	if st := strings.ToLower(v.Get("status")); st != "" && st != "all" {
		q.Status = guest.Status(st)
		if !q.Status.Valid() {
			return q, errBadRequest("invalid_query", "status must be pending, coming or declined")
		}
	}
	if q.NeverLoggedIn, err = boolParam(v, "neverLoggedIn"); err != nil {
		return q, err
	}
	if q.HasDietary, err = boolParam(v, "hasDietary"); err != nil {
		return q, err
	}
	if q.GroupID = v.Get("groupId"); q.GroupID != "" && !guest.ValidID(q.GroupID) {
		return q, errBadRequest("invalid_query", "groupId must be a group id")
	}
	if q.Q = strings.TrimSpace(v.Get("q")); len(q.Q) > 100 {
		return q, errBadRequest("invalid_query", "q is longer than 100 characters")
	}
	sort := v.Get("sort")
	if rest, ok := strings.CutPrefix(sort, "-"); ok {
		sort, q.Desc = rest, true
	}
	if sort != "" && !slices.Contains(store.SortFields, sort) {
		return q, errBadRequest("invalid_query", "sort must be one of "+strings.Join(store.SortFields, ", "))
	}
	q.Sort = sort
	switch strings.ToLower(v.Get("order")) {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, errBadRequest("invalid_query", "order must be asc or desc")
	}
	if q.Limit, err = intParam(v, "limit", 1, store.MaxPageSize, 50); err != nil {
		return q, err
	}
	if q.Offset, err = intParam(v, "offset", 0, 1<<30, 0); err != nil {
		return q, err
	}
	page, err := intParam(v, "page", 1, 1<<20, 0)
	if err != nil {
		return q, err
	}
	if page > 0 {
		q.Offset = (page - 1) * q.Limit
	}
	return q, nil
}

func (s *Server) handleListGuests(w http.ResponseWriter, r *http.Request) {
	q, err := parseGuestQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	guests, total, err := s.store.ListGuests(r.Context(), q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, guestPage{
		Guests: guests, Total: total, Limit: q.Limit, Offset: q.Offset,
		Page: q.Offset/q.Limit + 1, Pages: pageCount(total, q.Limit),
	})
}

// guestInput is the body of POST and PUT /api/admin/guests[/{id}]; on PUT
// only the fields sent change.
type guestInput struct {
	FirstName      *string       `json:"firstName"`
	LastName       *string       `json:"lastName"`
	Role           *guest.Role   `json:"role"`
	Attending      *bool         `json:"attending"`
	Email          *string       `json:"email"`
	Status         *guest.Status `json:"status"`
	ExpectedGuests *int          `json:"expectedGuests"`
	ExtraGuests    *int          `json:"extraGuests"`
	GroupID        *string       `json:"groupId"`
	Dietary        *dietaryInput `json:"dietary"`
	Tastes         *guest.Tastes `json:"tastes"`
	Code           *string       `json:"code"`
	// AgeGroup is "child" for a guest the bar serves alcohol-free drinks
	// only, "adult" (or "") otherwise.
	AgeGroup *string `json:"ageGroup"`
}

func (in guestInput) patch() guest.Patch {
	p := guest.Patch{
		FirstName: in.FirstName, LastName: in.LastName, Role: in.Role, Attending: in.Attending, Email: in.Email, Status: in.Status,
		ExpectedGuests: in.ExpectedGuests, ExtraGuests: in.ExtraGuests, GroupID: in.GroupID, Tastes: in.Tastes,
		AgeGroup: in.AgeGroup,
	}
	if in.Dietary != nil {
		// Answered words are kept only where they are unread in the text
		// (diet.Normalize), so the request's size bounds the work.
		p.Dietary = &guest.Dietary{Text: in.Dietary.Text, Tags: in.Dietary.Tags, Answered: in.Dietary.Answered}
	}
	return p
}

// fieldError turns a domain validation error into a 422 naming the field.
func fieldError(err error) error {
	var fe *guest.FieldError
	if errors.As(err, &fe) {
		return &apiError{Status: http.StatusUnprocessableEntity, Code: "invalid_field", Message: fe.Field + " " + fe.Message, Details: map[string]string{"field": fe.Field}}
	}
	return err
}

// storeError maps the store's sentinel errors to 404 and 409.
func storeError(err error, what string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errNotFound(what + " does not exist")
	case errors.Is(err, store.ErrConflict):
		return errConflict("conflict", what+" clashes with one that exists (same id or code)")
	}
	return fieldError(err)
}

func (s *Server) handleCreateGuest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var in guestInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.FirstName == nil || strings.TrimSpace(*in.FirstName) == "" || in.LastName == nil || strings.TrimSpace(*in.LastName) == "" {
		s.fail(w, r, errUnprocessable("missing_fields", "a guest needs a firstName and a lastName"))
		return
	}
	if in.Code != nil {
		s.fail(w, r, errUnprocessable("invalid_field", "codes are made by barhub; leave code out (an import may keep printed codes)"))
		return
	}
	now := time.Now().UTC()
	g, err := in.patch().Apply(guest.Guest{Role: guest.RoleGuest, Status: guest.StatusPending, ExpectedGuests: 1}, identity(ctx).GuestID, now)
	if err != nil {
		s.fail(w, r, fieldError(err))
		return
	}
	if err := s.store.InsertGuest(ctx, &g); err != nil {
		s.fail(w, r, storeError(err, "the guest"))
		return
	}
	s.guestsChanged(ctx, "created", identity(ctx), []guest.Guest{g}, nil)
	audit.SetSubject(ctx, g.ID)
	audit.Note(ctx, "name", g.Name())
	w.Header().Set("Location", "/api/admin/guests/"+g.ID)
	writeJSON(w, http.StatusCreated, g)
}

func (s *Server) handleGetGuest(w http.ResponseWriter, r *http.Request) {
	g, err := s.store.GuestByID(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	writeJSON(w, http.StatusOK, g)
}

// handleUpdateGuest edits a guest; joining or leaving a group is this
// route with {"groupId": "…"} or {"groupId": ""}: one update of that
// person's document.
// groupNames are the names of the other people in g's group, for the
// audit log; none when g left their group or the group cannot be read
// (the log then keeps the id alone).
func (s *Server) groupNames(ctx context.Context, g guest.Guest) []string {
	if g.GroupID == "" {
		return nil
	}
	members, err := s.store.GroupMembers(ctx, g.GroupID)
	if err != nil {
		s.log.WarnContext(ctx, "name the group for the audit log", "group", g.GroupID, "err", err)
		return nil
	}
	var names []string
	for _, m := range members {
		if m.ID != g.ID {
			names = append(names, m.Name())
		}
	}
	return names
}

func (s *Server) handleUpdateGuest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var in guestInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.Code != nil {
		s.fail(w, r, errUnprocessable("invalid_field", "a code cannot be set; POST /api/admin/guests/{id}/code makes a new one"))
		return
	}
	p := in.patch()
	if p.Empty() {
		s.fail(w, r, errBadRequest("nothing_to_change", "send at least one field to change"))
		return
	}
	id := chi.URLParam(r, "id")
	if id == identity(ctx).GuestID && p.Role != nil && *p.Role != guest.RoleAdmin {
		s.fail(w, r, errConflict("own_role", "you cannot take away your own admin role; ask another admin"))
		return
	}
	// The guest as it was, for the audit log's list of changed fields;
	// the log is best effort, so a failed read only leaves it out.
	before, beforeErr := s.store.GuestByID(ctx, id)
	g, err := s.store.UpdateGuest(ctx, id, p, identity(ctx).GuestID)
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	s.guestsChanged(ctx, "edited", identity(ctx), []guest.Guest{g}, nil)
	s.needsChanged(ctx, []guest.Guest{g})
	s.personChanged(ctx, identity(ctx), id, p)
	if p.Role != nil && (beforeErr != nil || before.Role != g.Role) {
		s.accessChanged(ctx, id)
	} else {
		s.sessions.Forget(id) // a new name shows here at once
	}
	audit.Note(ctx, "name", g.Name())
	if beforeErr == nil {
		audit.Note(ctx, "changed", differences(before, g))
		// The few values the log reads better with ("moved to group
		// Berg", "now a bartender"): no personal text.
		if before.GroupID != g.GroupID {
			audit.Note(ctx, "group", g.GroupID)
			// The log names the group by its people, not its id.
			if names := s.groupNames(ctx, g); len(names) > 0 {
				audit.Note(ctx, "groupMembers", names)
			}
		}
		if before.Status != g.Status {
			audit.Note(ctx, "status", string(g.Status))
		}
		if before.Role != g.Role {
			audit.Note(ctx, "role", string(g.Role))
		}
	}
	writeJSON(w, http.StatusOK, g)
}

func (s *Server) handleDeleteGuest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	if id == identity(ctx).GuestID {
		s.fail(w, r, errConflict("own_guest", "you cannot delete your own invitation while signed in with it"))
		return
	}
	removed, err := s.store.RemoveGuest(ctx, id)
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	s.accessChanged(ctx, id)
	audit.Note(ctx, "name", removed.Name())
	// A registered guest's places go to the next in line.
	if err := s.guests.registrations.GuestRemoved(ctx, removed); err != nil {
		s.log.ErrorContext(ctx, "free the places of a deleted registered guest", "guest", id, "err", err)
	}
	s.guestsChanged(ctx, "deleted", identity(ctx), nil, []string{id})
	w.WriteHeader(http.StatusNoContent)
}

// codeView is POST /api/admin/guests/{id}/code.
type codeView struct {
	Code  string      `json:"code"`
	Guest guest.Guest `json:"guest"`
}

func (s *Server) handleRegenerateCode(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	code, err := s.store.RegenerateCode(ctx, id)
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	// The sessions signed in with the old code end with it.
	s.accessChanged(ctx, id)
	g, err := s.store.GuestByID(ctx, id)
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	// The log says a new code was made, never which.
	audit.Note(ctx, "name", g.Name())
	writeJSON(w, http.StatusOK, codeView{Code: code, Guest: g})
}

// groupView is one entry of GET /api/admin/groups.
type groupView struct {
	ID            string         `json:"id"`
	Members       []guest.Member `json:"members"`
	ExpectedTotal int            `json:"expectedTotal"`
	ComingTotal   int            `json:"comingTotal"`
}

// handleGroups lists every group with its members, for joining guests.
func (s *Server) handleGroups(w http.ResponseWriter, r *http.Request) {
	grouped, err := s.store.GroupedGuests(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := []groupView{}
	for i := 0; i < len(grouped); {
		j := i
		for j < len(grouped) && grouped[j].GroupID == grouped[i].GroupID {
			j++
		}
		members := grouped[i:j]
		v := groupView{ID: grouped[i].GroupID, ExpectedTotal: guest.ExpectedTotal(members)}
		for _, m := range members {
			v.Members = append(v.Members, guest.MemberOf(m))
			v.ComingTotal += m.Heads()
		}
		out = append(out, v)
		i = j
	}
	writeJSON(w, http.StatusOK, map[string]any{"groups": out})
}

// dietaryReport is GET /api/admin/reports/dietary.
type dietaryReport struct {
	Statuses []guest.Status     `json:"statuses"`
	Guests   int                `json:"guests"`
	Tags     []guest.DietaryTag `json:"tags"`
}

// handleDietaryReport lists who needs what, grouped by tag: coming guests
// by default, ?status=all adds those who have not answered yet.
func (s *Server) handleDietaryReport(w http.ResponseWriter, r *http.Request) {
	statuses := []guest.Status{guest.StatusComing}
	switch v := r.URL.Query().Get("status"); v {
	case "", "coming":
	case "all":
		statuses = append(statuses, guest.StatusPending)
	case "pending":
		statuses = []guest.Status{guest.StatusPending}
	default:
		s.fail(w, r, errBadRequest("invalid_query", "status must be coming, pending or all"))
		return
	}
	guests, err := s.store.DietaryGuests(r.Context(), statuses...)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dietaryReport{Statuses: statuses, Guests: len(guests), Tags: guest.DietaryByTag(guests)})
}

func (s *Server) handleGetSettings(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Settings(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.settingsView(settingsOut(st)))
}

// settingsOut is the settings as the host's page reads them: dates in
// the event's zone, the registration mode and offer time filled in.
func settingsOut(st guest.Settings) guest.Settings {
	st = st.InZone()
	st.Registration = st.RegistrationMode()
	if st.OfferHours <= 0 {
		st.OfferHours = guest.DefaultOfferHours
	}
	return st
}

func (s *Server) handlePutSettings(w http.ResponseWriter, r *http.Request) {
	var in guest.SettingsInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := guest.ParseSettings(in)
	if err != nil {
		s.fail(w, r, fieldError(err))
		return
	}
	before, beforeErr := s.store.Settings(r.Context()) // for the audit log; best effort
	if beforeErr != nil && (in.PublicMenu == nil || in.Registration == nil || in.Capacity == nil || in.OfferHours == nil) {
		// Left out, the public-menu switch and the registration settings
		// keep what is saved: that needs the saved ones.
		s.fail(w, r, beforeErr)
		return
	}
	if in.PublicMenu == nil {
		st.PublicMenu = before.PublicMenu
	}
	st.KeepRegistration(in, before)
	saved, err := s.store.SaveSettings(r.Context(), st)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if beforeErr == nil {
		audit.Note(r.Context(), "changed", audit.Changed(before, saved, "updatedAt"))
	}
	// Guests' open pages show the new name, time, place and dress code at
	// once; the data is what GET /api/rsvp gives as "event".
	s.publishEvent(r.Context(), live.TopicGuests, live.EventEventChanged, saved.Details(time.Now()))
	s.forgetPublicMenu()
	if s.events != nil {
		// The list of events names it by its settings; sign-in orders by
		// its date.
		s.events.Changed("")
	}
	if saved.Capacity != before.Capacity || saved.RegistrationMode() != before.RegistrationMode() {
		// A raised capacity offers the new places to the waiting list.
		if err := s.guests.registrations.Refill(r.Context()); err != nil {
			s.log.WarnContext(r.Context(), "offer places after a capacity change; the sweep tries again", "err", err)
		}
	}
	writeJSON(w, http.StatusOK, s.settingsView(settingsOut(saved)))
}
