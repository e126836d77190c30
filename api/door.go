package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/language"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// The door (docs/DOOR.md): staff with a bartender or admin sign-in scan
// the invitation's QR code, or type its code, and the guest is checked in.
// The domain is in guest/door.go, the store's part in store/door.go.

// Failed code look-ups at the door, per staff member and per address, before
// 429: a door sees the odd mistyped card, a guesser needs billions of tries.
const (
	doorFailures = 30
	doorWindow   = 15 * time.Minute
)

// doorGuest is how the door sees a guest: no sign-in code (door staff
// must not be able to sign in as the guests they look up).
type doorGuest struct {
	ID             string        `json:"id"`
	FirstName      string        `json:"firstName"`
	LastName       string        `json:"lastName"`
	Role           guest.Role    `json:"role"`
	Status         guest.Status  `json:"status"`
	ExpectedGuests int           `json:"expectedGuests"`
	NumGuests      int           `json:"numGuests"`
	ExpectedHeads  int           `json:"expectedHeads"`
	GroupID        *string       `json:"groupId"`
	Dietary        guest.Dietary `json:"dietary"`
	CheckedInAt    *time.Time    `json:"checkedInAt"`
	CheckedInBy    string        `json:"checkedInBy,omitempty"`
	ArrivedHeads   int           `json:"arrivedHeads"`
}

func newDoorGuest(g guest.Guest) doorGuest {
	v := doorGuest{
		ID: g.ID, FirstName: g.FirstName, LastName: g.LastName, Role: g.Role, Status: g.Status,
		ExpectedGuests: g.ExpectedGuests, NumGuests: g.Heads(), ExpectedHeads: g.ExpectedHeads(),
		Dietary: g.Dietary, CheckedInAt: g.CheckedInAt, CheckedInBy: g.CheckedInBy, ArrivedHeads: g.ArrivedHeads,
	}
	if g.GroupID != "" {
		v.GroupID = &g.GroupID
	}
	return v
}

// doorStats is GET /api/door/stats and the "arrived" part of the door's
// answers and events: from the kept summary, one read.
type doorStats struct {
	CheckedIn      int       `json:"checkedIn"`
	CheckedInHeads int       `json:"checkedInHeads"`
	Invited        int       `json:"invited"`
	Coming         int       `json:"coming"`
	ComingHeads    int       `json:"comingHeads"`
	Version        int64     `json:"version"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

func newDoorStats(st store.GuestStats) doorStats {
	return doorStats{
		CheckedIn: st.CheckedIn, CheckedInHeads: st.CheckedInHeads, Invited: st.Invited,
		Coming: st.Coming, ComingHeads: st.ComingHeads, Version: st.Version, UpdatedAt: st.UpdatedAt,
	}
}

// checkInRequest is POST /api/door/checkin: the code as typed or the
// whole scanned link, or the id of a guest found by name.
type checkInRequest struct {
	Code    string `json:"code"`
	GuestID string `json:"guestId"`
	// Heads overrides how many people come in on the code.
	Heads *int `json:"heads"`
	// Force is "let in anyway" on an amber card: a guest who declined,
	// never answered, or brings more people than invited.
	Force bool `json:"force"`
}

// parseCheckIn decodes and checks a check-in body. It is its own function
// so the fuzz test reaches every path a body can take. It returns the
// code already extracted from a scanned link.
func parseCheckIn(r *http.Request) (checkInRequest, error) {
	var req checkInRequest
	if err := decode(r, &req); err != nil {
		return req, err
	}
	req.Code, req.GuestID = strings.TrimSpace(req.Code), strings.TrimSpace(req.GuestID)
	switch {
	case req.Code == "" && req.GuestID == "":
		return req, errBadRequest("missing_code", "scan the QR code or type the code from the invitation")
	case req.Code != "" && req.GuestID != "":
		return req, errBadRequest("invalid_field", "send a code or a guestId, not both")
	case len(req.Code) > guest.MaxScanLength:
		return req, errBadRequest("too_long", "that is far too long for an invitation code or link")
	case req.GuestID != "" && !guest.ValidID(req.GuestID):
		return req, errBadRequest("invalid_field", "guestId must be a guest's id")
	case req.Heads != nil && (*req.Heads < 1 || *req.Heads > guest.MaxPartySize):
		return req, errBadRequest("invalid_field", fmt.Sprintf("heads must be a whole number from 1 to %d", guest.MaxPartySize))
	}
	if req.Code != "" {
		code, ok := guest.ScannedCode(req.Code)
		if !ok {
			return req, errUnprocessable("invalid_code", "that is not an invitation code: a code has 8 letters and digits, or scan the QR code on the invitation")
		}
		req.Code = code
	}
	return req, nil
}

// checkInView is the door's answer to a scan.
type checkInView struct {
	Guest doorGuest `json:"guest"`
	// Group lists the other members of the guest's invitation.
	Group    []doorGuest `json:"group"`
	Admitted bool        `json:"admitted"`
	// Confirm asks the door person "let in anyway?": nobody was counted in;
	// the same scan with force does it.
	Confirm          bool            `json:"confirm"`
	AlreadyCheckedIn bool            `json:"alreadyCheckedIn"`
	Level            string          `json:"level"`
	Message          string          `json:"message"`
	Heads            int             `json:"heads"`
	GroupIn          int             `json:"groupIn"`
	GroupSize        int             `json:"groupSize"`
	Warnings         []guest.Warning `json:"warnings"`
	Arrived          doorStats       `json:"arrived"`
}

// doorEvent is the data of guest.checked_in and guest.check_in_undone.
type doorEvent struct {
	Guest   doorGuest `json:"guest"`
	By      string    `json:"by"`
	ByName  string    `json:"byName"`
	At      time.Time `json:"at"`
	Arrived doorStats `json:"arrived"`
}

// doorBlocked answers 429 when this staff member or address has used up
// its failed look-ups.
func (s *Server) doorBlocked(w http.ResponseWriter, r *http.Request) bool {
	for _, key := range s.doorKeys(r) {
		if blocked, wait := s.doorThrottle.Blocked(key); blocked {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
			s.writeError(w, r, http.StatusTooManyRequests, "too_many_attempts",
				"too many unknown codes from this door; try again in "+humanDuration(wait)+", or find the guest by name")
			return true
		}
	}
	return false
}

func (s *Server) doorKeys(r *http.Request) []string {
	return []string{"ip:" + clientIP(r), "staff:" + identity(r.Context()).GuestID}
}

func (s *Server) handleCheckIn(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, err := parseCheckIn(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if s.doorBlocked(w, r) {
		return
	}
	var g guest.Guest
	if req.Code != "" {
		g, err = s.store.GuestByCode(ctx, req.Code)
	} else {
		g, err = s.store.GuestByID(ctx, req.GuestID)
	}
	if errors.Is(err, store.ErrNotFound) {
		// Count every miss, by id too: the route must not become a way
		// to try codes.
		for _, key := range s.doorKeys(r) {
			s.doorThrottle.Fail(key)
		}
		if req.Code != "" {
			s.fail(w, r, &apiError{Status: http.StatusNotFound, Code: "unknown_code",
				Message: "no invitation has the code " + req.Code + ": check the letters, or find the guest by name"})
		} else {
			s.fail(w, r, errNotFound("that guest does not exist"))
		}
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	group, err := s.store.GroupOf(ctx, g)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	opt := guest.ArrivalOptions{Force: req.Force}
	if snap, err := s.bar.menu.snapshot(ctx); err == nil {
		opt.Drinks = snap.dietDrinks()
	} else {
		// The card says less, the door keeps working.
		s.log.WarnContext(ctx, "door card without the menu", "err", err)
	}
	if req.Heads != nil {
		opt.Heads = *req.Heads
	}
	arrival := guest.DecideArrival(g, group, opt)
	recorded := false
	if arrival.Admit {
		staff := identity(ctx)
		after, ok, err := s.store.CheckIn(ctx, g.ID, guest.CheckIn{At: time.Now(), By: staff.Name, ByID: staff.GuestID, Heads: arrival.Heads})
		if errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, errNotFound("that guest was deleted a moment ago"))
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		g, recorded = after, ok
		if !recorded {
			// Another door let them in a moment ago: say so.
			arrival = guest.DecideArrival(g, group, opt)
		}
	}
	st := s.arrivedStats(r)
	view := checkInView{
		Guest: newDoorGuest(g), Group: []doorGuest{}, Admitted: arrival.Admit, Confirm: arrival.Confirm, AlreadyCheckedIn: arrival.AlreadyCheckedIn,
		Level: arrival.Level(), Message: arrival.Welcome(g), Heads: arrival.Heads,
		GroupIn: arrival.GroupIn, GroupSize: arrival.GroupSize, Warnings: arrival.Warnings, Arrived: newDoorStats(st),
	}
	if view.Warnings == nil {
		view.Warnings = []guest.Warning{}
	}
	s.translateWarnings(r, view.Warnings)
	for _, m := range group {
		if m.ID != g.ID {
			view.Group = append(view.Group, newDoorGuest(m))
		}
	}
	if recorded {
		s.doorChanged(r, live.EventCheckedIn, g, st)
		audit.SetSubject(ctx, g.ID)
		audit.Note(ctx, "name", g.Name())
		audit.Note(ctx, "heads", arrival.Heads)
		if req.Force {
			audit.Note(ctx, "letInAnyway", true) // after an amber card
		}
	} else {
		audit.Skip(ctx) // nobody came in: a refusal or a second scan
	}
	writeJSON(w, http.StatusOK, view)
}

// arrivedStats reads the kept figures for an answer whose change is
// already stored, so it never fails the request: figures it cannot read
// come back with version 0, which the door page ignores.
func (s *Server) arrivedStats(r *http.Request) store.GuestStats {
	ctx := r.Context()
	st, err := s.store.Stats(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "read stats for the door", "err", err, "requestId", requestID(ctx))
		return store.GuestStats{}
	}
	return st
}

// doorChanged tells the host's dashboard and every door tablet, live:
// the door event, then the host's figures. The request never waits on
// or fails for a publish.
func (s *Server) doorChanged(r *http.Request, event string, g guest.Guest, st store.GuestStats) {
	ctx := r.Context()
	staff := identity(ctx)
	ev := doorEvent{Guest: newDoorGuest(g), By: staff.GuestID, ByName: staff.Name, At: time.Now().UTC(), Arrived: newDoorStats(st)}
	s.publishEvent(ctx, live.TopicAdmin, event, ev)
	s.publishEvent(ctx, live.TopicBar, event, ev)
	if st.Version > 0 {
		s.publishEvent(ctx, live.TopicAdmin, live.EventStatsUpdated, newStatsView(st))
	}
}

// undoView is POST /api/door/checkin/{id}/undo.
type undoView struct {
	Guest   doorGuest `json:"guest"`
	Message string    `json:"message"`
	Arrived doorStats `json:"arrived"`
}

func (s *Server) handleUndoCheckIn(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	if !guest.ValidID(id) {
		s.fail(w, r, errNotFound("that guest does not exist"))
		return
	}
	g, undone, err := s.store.UndoCheckIn(ctx, id)
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	if !undone {
		s.fail(w, r, errConflict("not_checked_in", g.Name()+" is not checked in (or another door just undid it)"))
		return
	}
	st := s.arrivedStats(r)
	s.doorChanged(r, live.EventCheckInUndone, g, st)
	audit.Note(ctx, "name", g.Name())
	writeJSON(w, http.StatusOK, undoView{Guest: newDoorGuest(g), Message: g.Name() + " is no longer checked in", Arrived: newDoorStats(st)})
}

// lookupView is GET /api/door/lookup.
type lookupView struct {
	Guests []doorGuest `json:"guests"`
	Total  int64       `json:"total"`
}

// doorLookupLimit is how many names the door's search shows: enough to
// pick from, few enough to read on a phone.
const doorLookupLimit = 20

// handleDoorLookup finds guests by name, for guests who lost their code.
// It matches names only, never codes: the search must not be a way round
// the check-in route's throttle.
func (s *Server) handleDoorLookup(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	switch {
	case len([]rune(q)) < 2:
		s.fail(w, r, errBadRequest("invalid_query", "type at least 2 letters of a first or last name"))
		return
	case len(q) > 100:
		s.fail(w, r, errBadRequest("invalid_query", "q is longer than 100 characters"))
		return
	}
	guests, total, err := s.store.ListGuests(r.Context(), store.GuestQuery{Q: q, NamesOnly: true, Limit: doorLookupLimit})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := lookupView{Guests: make([]doorGuest, 0, len(guests)), Total: total}
	for _, g := range guests {
		v.Guests = append(v.Guests, newDoorGuest(g))
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleDoorStats(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Stats(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newDoorStats(st))
}

// translateWarnings puts the door card's notes in the language the door's
// page asks for (Accept-Language), as errors are; English stays the
// wording DecideArrival wrote.
func (s *Server) translateWarnings(r *http.Request, ws []guest.Warning) {
	al := r.Header.Get("Accept-Language")
	if al == "" {
		return
	}
	lang := s.locale.Match(al)
	if lang == language.English {
		return
	}
	for i, w := range ws {
		if w.Key == "" {
			continue
		}
		if text, ok := s.locale.Text(lang, w.Key, w.Vars); ok {
			ws[i].Message = text
		}
	}
}
