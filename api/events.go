package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// Events is the installation's events as one event's API reaches the
// others (docs/EVENTS.md). The first event is "" here, as in tokens.
type Events interface {
	// FirstID is the registry id of the installation's first event.
	FirstID() string
	// List returns the events in the host's order (event.Sort).
	List(ctx context.Context) ([]event.Event, error)
	// Runtime returns the event's API and data, started on first use;
	// an unknown id is store.ErrNotFound.
	Runtime(ctx context.Context, id string) (EventRuntime, error)
	// Changed says event id was made, archived or deleted ("" for a
	// new one): the cached list is read again, and id's runtime, if
	// running, stops, so the next request finds it as it is now.
	Changed(id string)
}

// EventRuntime is one event as it is served: its API and its data.
type EventRuntime struct {
	API   http.Handler
	Store *store.Store
}

// eventKey is how a token names an event: "" for the first.
func (s *Server) eventKey(id string) string {
	if s.events != nil && id == s.events.FirstID() {
		return ""
	}
	return id
}

// eventID is the registry id of the event a token names.
func (s *Server) eventID(key string) string {
	if key == "" && s.events != nil {
		return s.events.FirstID()
	}
	return key
}

// toTokensEvent hands a request whose token was signed for another event
// to that event's API, which routes it from the start: every route, its
// store, its caches and its topics are that event's, so nothing a token
// of one event asks can read or change another's. A token that does not
// verify goes on here, where the route refuses it as it always has.
func (s *Server) toTokensEvent(next http.Handler) http.Handler {
	if s.events == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A page of an event that needs no sign-in (its registration page,
		// its public menu) names the event in its address; otherwise the
		// token says it. The named event wins: a token of another event is
		// then refused by the routes that need one, as at an API of one
		// event, and ignored by those that do not.
		var id auth.Identity
		signed := false
		if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && token != "" {
			if v, err := s.verify(r, token); err == nil {
				id, signed = v, true
				// The route's authenticate, here or at the event's API,
				// takes it as verified.
				r = r.WithContext(context.WithValue(r.Context(), ctxVerified, verifiedToken{token: token, id: id}))
			}
		}
		key := id.Event
		named := r.URL.Query().Get("event")
		if named != "" {
			key = s.eventKey(named)
		}
		if (!signed && named == "") || key == s.event {
			next.ServeHTTP(w, r)
			return
		}
		// An event made on another instance since this one read the list
		// is found too (findEvent).
		e, err := s.findEvent(r.Context(), s.eventID(key))
		var ae *apiError
		var rt EventRuntime
		if err == nil {
			rt, err = s.events.Runtime(r.Context(), key)
		}
		if named != "" && (errors.As(err, &ae) && ae.Code == "no_such_event" || errors.Is(err, store.ErrNotFound)) {
			s.fail(w, r, errNoSuchEvent())
			return
		}
		if errors.As(err, &ae) && ae.Code == "no_such_event" || errors.Is(err, store.ErrNotFound) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="barhub", error="invalid_token"`)
			s.writeError(w, r, http.StatusUnauthorized, "event_gone", "the event you signed in to no longer exists; please sign in again")
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		// An archived event is kept for its hosts to read (its reports
		// and exports) and its public pages for a link kept from it.
		// Nothing in it changes any more.
		reading := r.Method == http.MethodGet || r.Method == http.MethodHead
		own := signed && id.Event == key
		if e.Status == event.Archived && !(reading && (own && id.Role == guest.RoleAdmin || !own && named != "")) {
			s.writeError(w, r, http.StatusConflict, "event_archived", "this event is archived: its hosts can still read it, and nothing in it changes")
			return
		}
		rt.API.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, nil)))
	})
}

// eventListing is one event of GET /api/admin/events and /api/me/events.
type eventListing struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	StartsAt *time.Time   `json:"startsAt"`
	Timezone string       `json:"timezone"`
	Location string       `json:"location"`
	Status   event.Status `json:"status"`
	// Current marks the event the request was made in: the one its
	// token was signed for.
	Current bool `json:"current"`
	// First marks the installation's first event, whose public pages
	// need no ?event= and which is never archived or deleted.
	First bool `json:"first,omitempty"`
}

type eventsPage struct {
	Events []eventListing `json:"events"`
}

func (s *Server) listing(e event.Event) eventListing {
	return eventListing{
		ID: e.ID, Name: e.Name, StartsAt: e.StartsAt, Timezone: e.Timezone, Location: e.Location,
		Status: e.Status, Current: s.eventKey(e.ID) == s.event, First: s.eventKey(e.ID) == "",
	}
}

// allEvents lists the installation's events; an API without others (a
// test's, or one built before the runtime) lists its own store's.
func (s *Server) allEvents(ctx context.Context) ([]event.Event, error) {
	if s.events == nil {
		return s.store.Events(ctx)
	}
	return s.events.List(ctx)
}

// handleListEvents gives the host the events they host, upcoming first
// (the soonest first), then past ones (the most recent first). A host of
// the first event hosts them all; a host of another event sees the
// events they are invited to (docs/EVENTS.md, "Who hosts what").
func (s *Server) handleListEvents(w http.ResponseWriter, r *http.Request) {
	if s.event != "" {
		s.handleMyEvents(w, r)
		return
	}
	// Read afresh, not from the list kept for sign-ins: the host who
	// just renamed the event sees the new name.
	events, err := s.store.Events(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	current := s.store.DB().Name()
	page := eventsPage{Events: make([]eventListing, 0, len(events))}
	for _, e := range events {
		l := s.listing(e)
		l.Current = e.Database == current
		page.Events = append(page.Events, l)
	}
	writeJSON(w, http.StatusOK, page)
}

// handleMyEvents lists the events the signed-in person is invited to,
// the next one first: the same person is the same guest id in each
// event's list (docs/EVENTS.md, "People across events").
func (s *Server) handleMyEvents(w http.ResponseWriter, r *http.Request) {
	me := identity(r.Context())
	events, err := s.allEvents(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page := eventsPage{Events: []eventListing{}}
	for _, e := range events {
		if e.Status == event.Archived {
			continue
		}
		if s.eventKey(e.ID) != s.event {
			if _, err := s.guestIn(r.Context(), e.ID, me.GuestID); errors.Is(err, store.ErrNotFound) {
				continue
			} else if err != nil {
				s.fail(w, r, err)
				return
			}
		}
		page.Events = append(page.Events, s.listing(e))
	}
	writeJSON(w, http.StatusOK, page)
}

// guestIn finds guestID in the event's list.
func (s *Server) guestIn(ctx context.Context, eventID, guestID string) (guest.Guest, error) {
	if s.eventKey(eventID) == s.event {
		return s.store.GuestByID(ctx, guestID)
	}
	if s.events == nil {
		return guest.Guest{}, store.ErrNotFound
	}
	rt, err := s.events.Runtime(ctx, s.eventKey(eventID))
	if err != nil {
		return guest.Guest{}, err
	}
	return rt.Store.GuestByID(ctx, guestID)
}

type switchRequest struct {
	Event string `json:"event"`
}

type switchResponse struct {
	loginResponse
	Event eventListing `json:"event"`
}

// handleSwitchEvent trades the caller's token for one of another event
// they are invited to, with the role they have there: one sign-in opens
// every event of the same person.
func (s *Server) handleSwitchEvent(w http.ResponseWriter, r *http.Request) {
	var req switchRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	req.Event = strings.TrimSpace(req.Event)
	if req.Event == "" {
		s.fail(w, r, errBadRequest("missing_event", "say which event to switch to"))
		return
	}
	me := identity(r.Context())
	if me.Role == guest.RoleBoard {
		s.writeError(w, r, http.StatusForbidden, "forbidden", "a pick-up board may only show the board")
		return
	}
	e, err := s.findEvent(r.Context(), req.Event)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	g, err := s.guestIn(r.Context(), e.ID, me.GuestID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && e.Status == event.Archived) {
		s.fail(w, r, &apiError{Status: http.StatusNotFound, Code: "not_invited", Message: "you are not invited to that event"})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id := identityOf(g)
	id.Event = s.eventKey(e.ID)
	token, exp, err := s.keys.Sign(id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l := s.listing(e)
	l.Current = true
	writeJSON(w, http.StatusOK, switchResponse{loginResponse: loginResponse{Token: token, ExpiresAt: exp, Role: g.Role, Guest: g}, Event: l})
}

// findEvent finds a registered event by id; an unknown id is 404. An
// event the kept list does not have may have been made on another
// instance since it was read: the registry itself is asked (an _id
// look-up, so an address naming no event costs one read, never the
// whole list), and the list is read again only for an event that
// exists, so the host who made it on one instance opens it on another
// at once.
func (s *Server) findEvent(ctx context.Context, id string) (event.Event, error) {
	events, err := s.allEvents(ctx)
	if err != nil {
		return event.Event{}, err
	}
	for _, e := range events {
		if e.ID == id {
			return e, nil
		}
	}
	if s.events == nil {
		return event.Event{}, errNoSuchEvent()
	}
	e, err := s.control.Event(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return event.Event{}, errNoSuchEvent()
	}
	if err != nil {
		return event.Event{}, err
	}
	s.events.Changed("")
	return e, nil
}

// signInMatch is where a code and last name sign in: this event (here,
// or hereErr from its look-up, made once) or another's API.
type signInMatch struct {
	here    guest.Guest
	hereErr error
	other   *EventRuntime
}

// matches reports whether g is the invitation of the code's last name.
func matches(g guest.Guest, err error, lastName string) bool {
	return err == nil && g.LastNameKey != "" && guest.NameKey(lastName) == g.LastNameKey
}

// signInEvent finds where a code and last name sign in. With one event,
// or at any event but the first, that is here. With several: a host of
// every event signs in to the first event, anyone else to the first in
// the host's order (the next upcoming first, archived ones never) whose
// list has the code under that name; with none, here, where the sign-in
// fails as it always has.
//
// The control database's index of codes (store.EventsWithCode) names the
// other events whose lists may hold the code, read while this event's
// list is: a sign-in costs this event's look-up and the index's, as many
// events as the installation keeps. Of the events named, it asks at once
// those that could win over this event's own invitation, so it waits
// for the slowest of those, not for their sum.
func (s *Server) signInEvent(ctx context.Context, req loginBody) (signInMatch, error) {
	var m signInMatch
	var events []event.Event
	if s.events != nil && s.event == "" {
		var err error
		if events, err = s.events.List(ctx); err != nil {
			return m, err
		}
	}
	var others []string // the databases of the events one may sign in to
	for _, e := range events {
		if s.eventKey(e.ID) != "" && e.Status != event.Archived {
			others = append(others, e.Database)
		}
	}
	var may []string
	var mayErr error
	done := make(chan struct{})
	if len(others) > 0 {
		go func() {
			defer close(done)
			may, mayErr = s.store.EventsWithCode(ctx, req.Code, others)
		}()
	} else {
		close(done)
	}
	m.here, m.hereErr = s.store.GuestByCode(ctx, req.Code)
	<-done
	if m.hereErr != nil && !errors.Is(m.hereErr, store.ErrNotFound) {
		return m, nil // the caller answers it
	}
	hereMatches := matches(m.here, m.hereErr, req.LastName)
	if len(others) == 0 || hereMatches && m.here.Role == guest.RoleAdmin {
		return m, nil
	}
	if mayErr != nil {
		return m, mayErr
	}
	type found struct {
		rt  EventRuntime
		ok  bool
		err error
	}
	// Only the events before this one in the host's order can win over
	// this event's own invitation: the others are not asked.
	results := make([]found, len(events))
	var wg sync.WaitGroup
	for i, e := range events {
		if hereMatches && s.eventKey(e.ID) == "" {
			break
		}
		if !slices.Contains(may, e.Database) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rt, err := s.events.Runtime(ctx, s.eventKey(e.ID))
			if err != nil {
				results[i].err = err
				return
			}
			g, err := rt.Store.GuestByCode(ctx, req.Code)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				results[i].err = err
				return
			}
			results[i] = found{rt: rt, ok: matches(g, err, req.LastName)}
		}()
	}
	wg.Wait()
	for i, e := range events {
		switch {
		case e.Status == event.Archived:
		case s.eventKey(e.ID) == "":
			if hereMatches {
				return m, nil
			}
		case results[i].err != nil:
			return m, results[i].err
		case results[i].ok:
			m.other = &results[i].rt
			return m, nil
		}
	}
	return m, nil
}

// newEventRequest is the host's "new event from this one".
type newEventRequest struct {
	// From is the event copied; empty is the one the host is in.
	From     string     `json:"from"`
	Name     string     `json:"name"`
	StartsAt *time.Time `json:"startsAt"`
	// What to copy: the guest list (answers reset), the menu, and the
	// settings besides the name and date. The hosts always come along.
	Guests   bool `json:"guests"`
	Menu     bool `json:"menu"`
	Settings bool `json:"settings"`
}

// requireHostOfEvery is the PEP for what only a host of every event may
// do: make, archive and delete events, and change what every event
// shares (the app's key, the public URL). Those are the first event's
// hosts (docs/EVENTS.md); a host of one event gets 403.
func (s *Server) requireHostOfEvery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.event != "" {
			s.writeError(w, r, http.StatusForbidden, "forbidden", "only a host of every event (a host of the first event) may do this")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// handleCreateEvent makes a new event from an existing one: a database of
// its own with the hosts, and the guest list (answers reset), the menu and
// the settings the host picked (store.CreateEvent).
func (s *Server) handleCreateEvent(w http.ResponseWriter, r *http.Request) {
	var req newEventRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	from := req.From
	if from == "" {
		from = s.eventID(s.event)
	}
	if from == "" {
		first, err := s.store.EnsureFirstEvent(ctx)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		from = first.ID
	}
	e, err := s.store.CreateEvent(ctx, store.NewEvent{From: from, Name: req.Name, StartsAt: req.StartsAt,
		Guests: req.Guests, Menu: req.Menu, Settings: req.Settings})
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, errNoSuchEvent())
		return
	case err != nil:
		s.fail(w, r, fieldError(err))
		return
	}
	if s.events != nil {
		s.events.Changed("")
	}
	audit.SetSubject(ctx, e.ID)
	audit.Note(ctx, "name", e.Name)
	audit.Note(ctx, "from", from)
	writeJSON(w, http.StatusCreated, s.listing(e))
}

type archiveRequest struct {
	Archived bool `json:"archived"`
}

// handleArchiveEvent archives an event or brings it back. An archived
// event is read-only: its hosts may still read it (reports, exports) and
// nobody signs in to it (toTokensEvent).
func (s *Server) handleArchiveEvent(w http.ResponseWriter, r *http.Request) {
	var req archiveRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	if err := s.store.SetEventArchived(ctx, id, req.Archived); err != nil {
		s.fail(w, r, eventError(err))
		return
	}
	if s.events != nil {
		s.events.Changed(id)
	}
	e, err := s.store.Event(ctx, id)
	if err != nil {
		s.fail(w, r, eventError(err))
		return
	}
	audit.SetSubject(ctx, id)
	audit.Note(ctx, "name", e.Name)
	audit.Note(ctx, "archived", req.Archived)
	writeJSON(w, http.StatusOK, s.listing(e))
}

// handleDeleteEvent deletes an event with all its data. Its runtime stops
// first, so nothing writes to the database being dropped.
func (s *Server) handleDeleteEvent(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	e, err := s.store.Event(ctx, id)
	if err != nil {
		s.fail(w, r, eventError(err))
		return
	}
	if s.events != nil {
		// Its runtime stops now; the list is read again below, once the
		// event is gone.
		s.events.Changed(id)
	}
	if err := s.store.DeleteEvent(ctx, id); err != nil {
		s.fail(w, r, eventError(err))
		return
	}
	if s.events != nil {
		s.events.Changed(id)
	}
	audit.SetSubject(ctx, id)
	audit.Note(ctx, "name", e.Name)
	w.WriteHeader(http.StatusNoContent)
}

func eventError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errNoSuchEvent()
	case errors.Is(err, store.ErrControlEvent):
		return errConflict("first_event", "the first event holds the installation's hosts and cannot be archived or deleted")
	}
	return err
}

func errNoSuchEvent() *apiError {
	return &apiError{Status: http.StatusNotFound, Code: "no_such_event", Message: "there is no such event"}
}

// standing is the part of p that is the person's rather than their
// invitation's: their name, e-mail, needs, tastes and age group. Answers,
// +1s, group, role and check-ins stay each event's (docs/EVENTS.md,
// "People across events").
func standing(p guest.Patch) guest.Patch {
	return guest.Patch{FirstName: p.FirstName, LastName: p.LastName, Email: p.Email,
		Dietary: p.Dietary, Tastes: p.Tastes, AgeGroup: p.AgeGroup}
}

// hostOfEvery reports whether the guest id signed in here is a host of
// every event: an admin of the first event.
func (s *Server) hostOfEvery(ctx context.Context, id auth.Identity) bool {
	if s.event == "" {
		return id.Role == guest.RoleAdmin
	}
	g, err := s.control.GuestByID(ctx, id.GuestID)
	return err == nil && g.Role == guest.RoleAdmin
}

// personChanged carries the standing part of a change to guestID to
// their invitations to the installation's other events, so a person is
// kept once. Only the person themselves (their own answer) or a host of
// every event changes a person; a host of one event changes the
// invitation to that event alone.
func (s *Server) personChanged(ctx context.Context, by auth.Identity, guestID string, p guest.Patch) {
	p = standing(p)
	if p.Empty() || (by.GuestID != guestID && !s.hostOfEvery(ctx, by)) {
		return
	}
	s.toOtherInvitations(ctx, guestID, func(ctx context.Context, st *store.Store) error {
		_, err := st.UpdateGuest(ctx, guestID, p, by.GuestID)
		return err
	})
}

// toOtherInvitations makes change to guestID's invitation in each other
// event that is not archived. Best effort: the change here is made, and
// an event that cannot take it is logged and keeps the old value; an
// event whose list does not have the person is left alone.
func (s *Server) toOtherInvitations(ctx context.Context, guestID string, change func(context.Context, *store.Store) error) {
	if s.events == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	events, err := s.events.List(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "carry a person's change to their other events", "guest", guestID, "err", err)
		return
	}
	for _, e := range events {
		key := s.eventKey(e.ID)
		if key == s.event || e.Status == event.Archived {
			continue
		}
		rt, err := s.events.Runtime(ctx, key)
		if err == nil {
			err = change(ctx, rt.Store)
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.WarnContext(ctx, "carry a person's change to another event", "guest", guestID, "event", e.ID, "err", err)
		}
	}
}
