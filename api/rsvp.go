package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// RSVP: the guest's side (docs/DESIGN.md, flow 2). The host's desk is in
// admin_guests.go, admin_csv.go and invitations.go.

// handleEvent is the public part of the event, for the sign-in page and
// anyone holding the link: no address, no details.
func (s *Server) handleEvent(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Settings(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, st.Public(time.Now()))
}

// rsvpView is GET /api/rsvp, and what PUT answers with.
type rsvpView struct {
	Guest guest.Guest `json:"guest"`
	// Group lists every member of the guest's invitation, the guest
	// included, without codes, with their dietary needs and companions
	// (the one answering fills them in for everyone).
	Group []guest.Member `json:"group"`
	// ExpectedTotal is how many people the invitation is for; ComingTotal
	// how many of them are coming now.
	ExpectedTotal  int           `json:"expectedTotal"`
	ComingTotal    int           `json:"comingTotal"`
	Event          guest.Details `json:"event"`
	DeadlinePassed bool          `json:"deadlinePassed"`
	// DietaryTags are the tags the form offers.
	DietaryTags []string `json:"dietaryTags"`
	// GroupVersion fingerprints the group's answers as shown; an answer
	// that sends it back is refused with 409 group_changed (and this view,
	// as it is now, in the details) if the group changed meanwhile.
	GroupVersion string `json:"groupVersion"`
	// Message confirms what an answer did, in words for the page.
	Message string `json:"message,omitempty"`
}

func newRSVPView(me guest.Guest, group []guest.Guest, st guest.Settings, now time.Time) rsvpView {
	v := rsvpView{
		Guest: me, ExpectedTotal: guest.ExpectedTotal(group), Event: st.Details(now),
		DeadlinePassed: st.DeadlinePassed(now), DietaryTags: guest.DietaryTags(),
		GroupVersion: guest.GroupVersion(group),
	}
	for _, g := range group {
		// The family's own form shows and edits everyone's needs.
		v.Group = append(v.Group, guest.FamilyMemberOf(g))
		v.ComingTotal += g.Heads()
		if g.ID == me.ID {
			v.Guest = g
		}
	}
	return v
}

// loadMe is the signed-in guest with their group, or a 401 when the
// invitation was deleted after the token was issued.
func (s *Server) loadMe(ctx context.Context) (guest.Guest, []guest.Guest, error) {
	me, err := s.loadGuest(ctx)
	if err != nil {
		return me, nil, err
	}
	group, err := s.store.GroupOf(ctx, me)
	return me, group, err
}

// loadGuest is the signed-in guest alone, with loadMe's 401.
func (s *Server) loadGuest(ctx context.Context) (guest.Guest, error) {
	me, err := s.store.GuestByID(ctx, identity(ctx).GuestID)
	if errors.Is(err, store.ErrNotFound) {
		return me, &apiError{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "your invitation no longer exists; contact the host"}
	}
	return me, err
}

func (s *Server) handleGetRSVP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	me, group, err := s.loadMe(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newRSVPView(me, group, st, time.Now()))
}

// rsvpRequest is PUT /api/rsvp.
type rsvpRequest struct {
	Status    string        `json:"status"`
	NumGuests *int          `json:"numGuests"`
	NotComing []string      `json:"notComing"`
	Confirm   bool          `json:"confirm"`
	Scope     string        `json:"scope"`
	Dietary   *dietaryInput `json:"dietary"`
	Tastes    *guest.Tastes `json:"tastes"`
	// Companions are the people the guest brings without a login ("+1"s),
	// each with their own needs; Members the needs the one answering
	// gives for other members of the group.
	Companions *[]companionInput `json:"companions"`
	Members    []memberInput     `json:"members"`
	// GroupVersion is the view's groupVersion the answer was given on.
	GroupVersion string `json:"groupVersion"`
}

// companionInput is one "+1" as the form sends it.
type companionInput struct {
	Name    string        `json:"name"`
	Dietary *dietaryInput `json:"dietary"`
}

// memberInput is the needs given for one member of the group.
type memberInput struct {
	ID         string            `json:"id"`
	Dietary    *dietaryInput     `json:"dietary"`
	Companions *[]companionInput `json:"companions"`
}

// dietaryInput takes the dietary answer as {"text","tags"} or, for
// convenience, as plain text. The object is read as strictly as the body
// around it: a field it does not know is refused, not dropped.
type dietaryInput struct {
	Text string   `json:"text"`
	Tags []string `json:"tags"`
}

func (d *dietaryInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
		*d = dietaryInput{Text: text}
		return nil
	}
	// json.Unmarshal would drop unknown fields; the body's decoder refuses
	// them, and its setting does not reach inside an UnmarshalJSON.
	type plain dietaryInput
	var v plain
	if err := unmarshalStrict(b, &v); err != nil {
		return err
	}
	*d = dietaryInput(v)
	return nil
}

// unmarshalStrict is json.Unmarshal refusing fields v does not know.
func unmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// dietary checks one dietary answer under the text rule (the words may
// run over lines; see guest.CleanDietary); nil stays nil (no change).
func (d *dietaryInput) dietary(field string) (*guest.Dietary, error) {
	if d == nil {
		return nil, nil
	}
	if len(d.Tags) > 50 {
		return nil, errBadRequest("invalid_field", field+" lists too many tags")
	}
	// Reviewed and Unclear are the host's and the server's to set.
	out, err := guest.CleanDietary(guest.Dietary{Text: d.Text, Tags: d.Tags})
	if err != nil {
		return nil, fieldInputError(guest.Within(field, err))
	}
	return &out, nil
}

// companions checks the "+1"s of one answer, names and needs under the
// text rule (guest.CleanCompanions); nil stays nil (no change).
func companions(in *[]companionInput, field string) (*[]guest.Companion, error) {
	if in == nil {
		return nil, nil
	}
	if len(*in) > guest.MaxCompanions {
		return nil, errBadRequest("invalid_field", fmt.Sprintf("%s lists more than %d people", field, guest.MaxCompanions))
	}
	typed := make([]guest.Companion, len(*in))
	for i, c := range *in {
		typed[i].Name = c.Name
		if c.Dietary != nil {
			if len(c.Dietary.Tags) > 50 {
				return nil, errBadRequest("invalid_field", fmt.Sprintf("%s[%d].dietary lists too many tags", field, i))
			}
			typed[i].Dietary = guest.Dietary{Text: c.Dietary.Text, Tags: c.Dietary.Tags}
		}
	}
	out, err := guest.CleanCompanions(typed)
	if err != nil {
		return nil, fieldInputError(guest.Within(field, err))
	}
	return &out, nil
}

// fieldInputError is a *guest.FieldError in what a person typed as a 400
// naming the field, as the other checks of an answer are.
func fieldInputError(err error) error {
	var fe *guest.FieldError
	if errors.As(err, &fe) {
		return &apiError{Status: http.StatusBadRequest, Code: "invalid_field", Message: fe.Field + " " + fe.Message, Details: map[string]string{"field": fe.Field}}
	}
	return err
}

// parseRSVP decodes and checks an RSVP body; the group rules come after,
// in guest.Decide. It is its own function so the fuzz test reaches every
// path a body can take.
func parseRSVP(r *http.Request) (guest.Answer, error) {
	var req rsvpRequest
	if err := decode(r, &req); err != nil {
		return guest.Answer{}, err
	}
	a := guest.Answer{
		Status:    guest.Status(strings.ToLower(strings.TrimSpace(req.Status))),
		NumGuests: req.NumGuests,
		Confirm:   req.Confirm,
		Scope:     guest.Scope(strings.ToLower(strings.TrimSpace(req.Scope))),
		Tastes:    req.Tastes,
	}
	if len(req.GroupVersion) > 64 {
		return a, errBadRequest("invalid_field", "groupVersion is not a version this server gave")
	}
	a.GroupVersion = req.GroupVersion
	if len(req.NotComing) > guest.MaxPartySize {
		return a, errBadRequest("invalid_field", fmt.Sprintf("notComing lists more than %d people", guest.MaxPartySize))
	}
	for _, id := range req.NotComing {
		if !guest.ValidID(id) {
			return a, errBadRequest("invalid_field", "notComing must list the ids of your group's members")
		}
		a.NotComing = append(a.NotComing, id)
	}
	var err error
	if a.Dietary, err = req.Dietary.dietary("dietary"); err != nil {
		return a, err
	}
	if a.Companions, err = companions(req.Companions, "companions"); err != nil {
		return a, err
	}
	if len(req.Members) > guest.MaxPartySize {
		return a, errBadRequest("invalid_field", fmt.Sprintf("members lists more than %d people", guest.MaxPartySize))
	}
	for i, m := range req.Members {
		if !guest.ValidID(m.ID) {
			return a, errBadRequest("invalid_field", "members must name your group's members by id")
		}
		mn := guest.MemberNeeds{ID: m.ID}
		if mn.Dietary, err = m.Dietary.dietary(fmt.Sprintf("members[%d].dietary", i)); err != nil {
			return a, err
		}
		if mn.Companions, err = companions(m.Companions, fmt.Sprintf("members[%d].companions", i)); err != nil {
			return a, err
		}
		a.Members = append(a.Members, mn)
	}
	if t := req.Tastes; t != nil && (len(t.Likes) > 50 || len(t.Dislikes) > 50) {
		return a, errBadRequest("invalid_field", "tastes list too many likes or dislikes")
	}
	return a, nil
}

// ruleError turns a refused answer into the JSON error, with what the page
// needs to ask its question in details.
func ruleError(err error) error {
	var re *guest.RuleError
	if !errors.As(err, &re) {
		return err
	}
	status := http.StatusUnprocessableEntity
	if re.Code == guest.CodeInvalidAnswer || re.Code == guest.CodeNothingToChange {
		status = http.StatusBadRequest
	}
	var details any
	if len(re.Members) > 0 || re.ExpectedTotal > 0 {
		details = map[string]any{"members": re.Members, "expectedTotal": re.ExpectedTotal, "numGuests": re.NumGuests}
	}
	return &apiError{Status: status, Code: re.Code, Message: re.Message, Details: details}
}

func (s *Server) handlePutRSVP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	answer, err := parseRSVP(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := time.Now()
	if st.DeadlinePassed(now) {
		s.fail(w, r, errConflict(guest.CodeDeadlinePassed, guest.MessageDeadlinePassed))
		return
	}
	me, group, unlock, err := s.lockGroup(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, err := guest.Decide(answer, me, group)
	if err != nil {
		unlock()
		var re *guest.RuleError
		if errors.As(err, &re) && re.Code == guest.CodeGroupChanged {
			// The details are the view as it is now, for the page to show.
			err = &apiError{Status: http.StatusConflict, Code: re.Code, Message: re.Message, Details: newRSVPView(me, group, st, now)}
		}
		s.fail(w, r, ruleError(err))
		return
	}
	after, err := s.store.ApplyRSVP(ctx, me, group, d, now)
	unlock()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	view := newRSVPView(me, after, st, now)
	view.Message = confirmation(d, view)
	said := answerOf(d, view)
	if d.Status != "" || d.ChangesNeeds() {
		s.publishChanged(ctx, s.changeEvent("rsvp", identity(ctx), after, nil, &said))
	}
	noteAnswer(ctx, me, said)
	writeJSON(w, http.StatusOK, view)
}

// answerNote is what one answer said, in the words the desk's "Latest
// answers" shows: coming (how many) or not, and whether dietary needs or
// tastes were given; never the words themselves.
type answerNote struct {
	Status    guest.Status `json:"status,omitempty"`
	NumGuests int          `json:"numGuests,omitempty"`
	Needs     bool         `json:"needs,omitempty"`
	Tastes    bool         `json:"tastes,omitempty"`
}

func answerOf(d guest.Decision, v rsvpView) answerNote {
	a := answerNote{Status: d.Status, Needs: d.ChangesNeeds(), Tastes: d.Tastes != nil}
	if d.Status == guest.StatusComing {
		a.NumGuests = v.ComingTotal
	}
	return a
}

// noteAnswer puts the answer in the audit log, where the desk reads its
// latest answers back after a reload (GET /api/admin/answers).
func noteAnswer(ctx context.Context, me guest.Guest, a answerNote) {
	audit.SetSubject(ctx, me.ID)
	audit.Note(ctx, "name", me.Name())
	if a.Status != "" {
		audit.Note(ctx, "status", string(a.Status))
	}
	if a.NumGuests > 0 {
		audit.Note(ctx, "numGuests", a.NumGuests)
	}
	if a.Needs {
		audit.Note(ctx, "needs", true)
	}
	if a.Tastes {
		audit.Note(ctx, "tastes", true)
	}
}

// lockGroup takes the turn of the signed-in guest's group (or of the guest
// alone) and loads the guest and the group inside it, so two members
// answering at once are decided one after the other, each on the group as
// the other left it: otherwise both read the group before either wrote and
// their updates interleave into a state neither asked for. The group is
// the one the guest is in once the turn is taken; unlock frees it.
func (s *Server) lockGroup(ctx context.Context) (guest.Guest, []guest.Guest, func(), error) {
	me, err := s.loadGuest(ctx)
	if err != nil {
		return me, nil, nil, err
	}
	for range 3 {
		name := "rsvp/guest/" + me.ID
		if me.GroupID != "" {
			name = "rsvp/group/" + me.GroupID
		}
		unlock, err := s.store.Lock(ctx, name, lockTTL)
		if err != nil {
			return me, nil, nil, err
		}
		now, group, err := s.loadMe(ctx)
		if err != nil {
			unlock()
			return now, nil, nil, err
		}
		if now.GroupID == me.GroupID {
			return now, group, unlock, nil
		}
		// Moved to another group while we waited: take that group's turn.
		unlock()
		me = now
	}
	return me, nil, nil, errConflict(guest.CodeGroupChanged, "your group is being changed by the host; try again in a moment")
}

// confirmation says in words what an answer did.
func confirmation(d guest.Decision, v rsvpView) string {
	switch {
	case d.Status == guest.StatusComing && v.ComingTotal == 1:
		return "Thank you! You are coming. See you there!"
	case d.Status == guest.StatusComing:
		return fmt.Sprintf("Thank you! %d of you are coming. See you there!", v.ComingTotal)
	case d.Status == guest.StatusDeclined && len(d.Declined) > 1:
		return "Thank you for letting us know. You will all be missed."
	case d.Status == guest.StatusDeclined:
		return "Thank you for letting us know. You will be missed."
	default:
		return "Saved. Thank you!"
	}
}

// rsvpChanged is the data of the rsvp.changed event on the admin topic.
type rsvpChanged struct {
	// Reason is rsvp (a guest answered), created, edited, deleted or
	// import.
	Reason string         `json:"reason"`
	By     string         `json:"by"`
	ByName string         `json:"byName"`
	Guests []guest.Member `json:"guests,omitempty"`
	// Deleted lists guests that are gone.
	Deleted []string `json:"deleted,omitempty"`
	// Answer is what a guest's answer said (reason rsvp).
	Answer *answerNote `json:"answer,omitempty"`
	At     time.Time   `json:"at"`
}

// guestsChanged tells the host's dashboards, live: rsvp.changed with who
// changed, then stats.updated with the figures. The request never waits
// on or fails for a publish.
func (s *Server) guestsChanged(ctx context.Context, reason string, by auth.Identity, changed []guest.Guest, deleted []string) {
	s.publishChanged(ctx, s.changeEvent(reason, by, changed, deleted, nil))
}

func (s *Server) changeEvent(reason string, by auth.Identity, changed []guest.Guest, deleted []string, answer *answerNote) rsvpChanged {
	ev := rsvpChanged{Reason: reason, By: by.GuestID, ByName: by.Name, Deleted: deleted, Answer: answer, At: time.Now().UTC()}
	for _, g := range changed {
		ev.Guests = append(ev.Guests, guest.MemberOf(g))
	}
	return ev
}

func (s *Server) publishChanged(ctx context.Context, ev rsvpChanged) {
	if s.publish == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if err := s.publish.Publish(ctx, live.TopicAdmin, live.EventRSVPChanged, ev); err != nil {
		s.log.WarnContext(ctx, "publish rsvp.changed", "err", err)
	}
	s.publishStats(ctx)
}

func (s *Server) publishStats(ctx context.Context) {
	if s.publish == nil {
		return
	}
	st, err := s.store.Stats(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "read stats to publish", "err", err)
		return
	}
	if err := s.publish.Publish(ctx, live.TopicAdmin, live.EventStatsUpdated, newStatsView(st)); err != nil {
		s.log.WarnContext(ctx, "publish stats.updated", "err", err)
	}
}
