package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// RSVPStore is what answering an invitation reads and writes.
type RSVPStore interface {
	Settings(ctx context.Context) (guest.Settings, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	GroupOf(ctx context.Context, g guest.Guest) ([]guest.Guest, error)
	// Lock takes a named turn, shared by every instance.
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), err error)
	ApplyRSVP(ctx context.Context, me guest.Guest, group []guest.Guest, d guest.Decision, at time.Time) ([]guest.Guest, error)
}

// rsvpLockTTL bounds a group's turn should its holder die holding it.
const rsvpLockTTL = 30 * time.Second

// RSVP is a guest reading and answering their invitation (docs/DESIGN.md,
// flow 2), for themselves and for their group.
type RSVP struct {
	store     RSVPStore
	dashboard *Dashboard
	now       func() time.Time
	// declined hears of guests who declined (the registrations' places).
	declined func(ctx context.Context, guests []guest.Guest)
	// coming stores an answer that may make registered guests hold
	// places again (the registrations' places).
	coming func(ctx context.Context, planned []guest.Guest, apply func() ([]guest.Guest, error)) ([]guest.Guest, error)
}

// OnDeclined has fn hear, after each answer that declines, the guests as
// they are after it.
func (u *RSVP) OnDeclined(fn func(ctx context.Context, guests []guest.Guest)) { u.declined = fn }

// OnComing has fn store each answer that changes a status: fn gets the
// group as the answer would leave it and apply, which stores it, and
// either calls apply (having taken the places the answer needs) or
// refuses the answer, so a registered guest never comes without a place.
func (u *RSVP) OnComing(fn func(ctx context.Context, planned []guest.Guest, apply func() ([]guest.Guest, error)) ([]guest.Guest, error)) {
	u.coming = fn
}

// NewRSVP returns the RSVP use case over st, telling the host's dashboard
// of every answer.
func NewRSVP(st RSVPStore, dashboard *Dashboard) *RSVP {
	return &RSVP{store: st, dashboard: dashboard, now: time.Now}
}

// RSVPView is the guest's invitation as their page shows it.
type RSVPView struct {
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
	// that sends it back is refused with group_changed (and this view, as
	// it is now, in the details) if the group changed meanwhile.
	GroupVersion string `json:"groupVersion"`
	// Message confirms what an answer did, in words for the page.
	Message string `json:"message,omitempty"`
}

func newRSVPView(me guest.Guest, group []guest.Guest, st guest.Settings, now time.Time) RSVPView {
	v := RSVPView{
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

// errInvitationGone refuses a token whose invitation was deleted after it
// was issued.
func errInvitationGone() *Error {
	return NewError(Unauthenticated, "unauthorized", "your invitation no longer exists; contact the host")
}

// View is guestID's invitation with their group.
func (u *RSVP) View(ctx context.Context, guestID string) (RSVPView, error) {
	me, group, err := u.loadMe(ctx, guestID)
	if err != nil {
		return RSVPView{}, err
	}
	st, err := u.store.Settings(ctx)
	if err != nil {
		return RSVPView{}, err
	}
	return newRSVPView(me, group, st, u.now()), nil
}

// Answer decides who's answer a under the group rules (guest.Decide) and
// stores it, unless the deadline has passed. It tells the host's
// dashboard and notes the answer in the request's audit entry.
func (u *RSVP) Answer(ctx context.Context, who auth.Identity, a guest.Answer) (RSVPView, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return RSVPView{}, err
	}
	now := u.now()
	if st.DeadlinePassed(now) {
		return RSVPView{}, NewError(Conflict, guest.CodeDeadlinePassed, guest.MessageDeadlinePassed)
	}
	me, group, unlock, err := u.lockGroup(ctx, who.GuestID)
	if err != nil {
		return RSVPView{}, err
	}
	d, err := guest.Decide(a, me, group)
	if err != nil {
		unlock()
		var re *guest.RuleError
		if errors.As(err, &re) && re.Code == guest.CodeGroupChanged {
			// The details are the view as it is now, for the page to show.
			return RSVPView{}, &Error{Kind: Conflict, Code: re.Code, Message: re.Message, Details: newRSVPView(me, group, st, now)}
		}
		return RSVPView{}, ruleError(err)
	}
	apply := func() ([]guest.Guest, error) { return u.store.ApplyRSVP(ctx, me, group, d, now) }
	var after []guest.Guest
	if d.Status != "" && u.coming != nil {
		after, err = u.coming(ctx, d.Apply(group, me.ID, now), apply)
	} else {
		after, err = apply()
	}
	unlock()
	if err != nil {
		return RSVPView{}, err
	}
	view := newRSVPView(me, after, st, now)
	view.Message = confirmation(d, view)
	said := answerOf(d, view)
	if d.Status != "" || d.ChangesNeeds() {
		u.dashboard.GuestsChanged(ctx, NewGuestsChanged("rsvp", who, after, nil, &said))
	}
	if d.ChangesNeeds() {
		u.dashboard.NeedsChanged(ctx, after)
	}
	noteAnswer(ctx, me, said)
	if d.Status == guest.StatusDeclined && u.declined != nil {
		u.declined(ctx, after)
	}
	if n := newlyAnswered(group, after); n > 0 {
		// The guest answered words barhub could not read: the caution
		// over them is lifted (docs/RSVP.md). The words stay out of the
		// log, as every dietary text does.
		audit.Note(ctx, "unreadAnswered", n)
	}
	return view, nil
}

// ruleError is a refused answer as an Error, with what the page needs to
// ask its question in the details.
func ruleError(err error) error {
	var re *guest.RuleError
	if !errors.As(err, &re) {
		return err
	}
	kind := Unprocessable
	if re.Code == guest.CodeInvalidAnswer || re.Code == guest.CodeNothingToChange {
		kind = Invalid
	}
	var details any
	if len(re.Members) > 0 || re.ExpectedTotal > 0 {
		details = map[string]any{"members": re.Members, "expectedTotal": re.ExpectedTotal, "numGuests": re.NumGuests}
	}
	return &Error{Kind: kind, Code: re.Code, Message: re.Message, Details: details}
}

// loadMe is the guest with their group.
func (u *RSVP) loadMe(ctx context.Context, guestID string) (guest.Guest, []guest.Guest, error) {
	me, err := u.loadGuest(ctx, guestID)
	if err != nil {
		return me, nil, err
	}
	group, err := u.store.GroupOf(ctx, me)
	return me, group, err
}

func (u *RSVP) loadGuest(ctx context.Context, guestID string) (guest.Guest, error) {
	me, err := u.store.GuestByID(ctx, guestID)
	if errors.Is(err, store.ErrNotFound) {
		return me, errInvitationGone()
	}
	return me, err
}

// lockGroup takes the turn of the guest's group (or of the guest alone)
// and loads the guest and the group inside it, so two members answering
// at once are decided one after the other, each on the group as the other
// left it: otherwise both read the group before either wrote and their
// updates interleave into a state neither asked for. The group is the one
// the guest is in once the turn is taken; unlock frees it.
func (u *RSVP) lockGroup(ctx context.Context, guestID string) (guest.Guest, []guest.Guest, func(), error) {
	me, err := u.loadGuest(ctx, guestID)
	if err != nil {
		return me, nil, nil, err
	}
	for range 3 {
		name := "rsvp/guest/" + me.ID
		if me.GroupID != "" {
			name = "rsvp/group/" + me.GroupID
		}
		unlock, err := u.store.Lock(ctx, name, rsvpLockTTL)
		if err != nil {
			return me, nil, nil, err
		}
		now, group, err := u.loadMe(ctx, guestID)
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
	return me, nil, nil, NewError(Conflict, guest.CodeGroupChanged, "your group is being changed by the host; try again in a moment")
}

// AnswerNote is what one answer said, in the words the desk's "Latest
// answers" shows: coming (how many) or not, and whether dietary needs or
// tastes were given; never the words themselves.
type AnswerNote struct {
	Status    guest.Status `json:"status,omitempty"`
	NumGuests int          `json:"numGuests,omitempty"`
	Needs     bool         `json:"needs,omitempty"`
	Tastes    bool         `json:"tastes,omitempty"`
}

func answerOf(d guest.Decision, v RSVPView) AnswerNote {
	a := AnswerNote{Status: d.Status, Needs: d.GivesNeeds(), Tastes: d.Tastes != nil && !d.Tastes.Empty()}
	if d.Status == guest.StatusComing {
		a.NumGuests = v.ComingTotal
	}
	return a
}

// noteAnswer puts the answer in the audit log, where the desk reads its
// latest answers back after a reload (GET /api/admin/answers).
func noteAnswer(ctx context.Context, me guest.Guest, a AnswerNote) {
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

// newlyAnswered counts the unread parts of everyone's needs that an
// answer answered: unread before, in Answered after.
func newlyAnswered(before, after []guest.Guest) int {
	was := map[string][]string{}
	for _, g := range before {
		for _, p := range g.People() {
			was[p.Ref] = p.Dietary.Unread()
		}
	}
	n := 0
	for _, g := range after {
		for _, p := range g.People() {
			for _, u := range was[p.Ref] {
				if slices.Contains(p.Dietary.Answered, u) {
					n++
				}
			}
		}
	}
	return n
}

// confirmation says in words what an answer did.
func confirmation(d guest.Decision, v RSVPView) string {
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
