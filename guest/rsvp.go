package guest

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Scope says whom a "declined" answer is for.
type Scope string

const (
	ScopeSelf  Scope = "self"
	ScopeGroup Scope = "group"
)

// Answer is what a guest says in an RSVP. A zero Status changes no RSVP:
// the answer then only updates the guest's dietary and taste answers.
type Answer struct {
	Status Status
	// NumGuests is how many people of the whole group are coming; nil
	// means "all of us", the group's expected total.
	NumGuests *int
	// NotComing names group members who are not coming, when NumGuests is
	// below the expected total.
	NotComing []string
	// Confirm accepts a NumGuests above the expected total.
	Confirm bool
	// Scope of a "declined" answer; self when empty.
	Scope   Scope
	Dietary *Dietary
	Tastes  *Tastes
	// GroupVersion, when set, is the GroupVersion of the group as the
	// guest saw it: an answer with a status is refused with
	// CodeGroupChanged if the group has changed since.
	GroupVersion string
	// Companions are the answering guest's "+1"s and their needs; nil
	// leaves them as they are.
	Companions *[]Companion
	// Members are the needs the one answering gives for other members of
	// the group (a parent for a child with their own code).
	Members []MemberNeeds
}

// MemberNeeds is the dietary answer given for one person with a login of
// their own, and for their companions; nil fields stay as they are.
type MemberNeeds struct {
	ID         string       `json:"id"`
	Dietary    *Dietary     `json:"dietary,omitempty"`
	Companions *[]Companion `json:"companions,omitempty"`
	// AgeGroup marks the member a child (AgeChild) or an adult (""); nil
	// leaves it. Only another member of the group sets it: a child does
	// not mark themselves an adult.
	AgeGroup *string `json:"ageGroup,omitempty"`
}

// MaxPartySize bounds NumGuests: more is a typo, not a party.
const MaxPartySize = 50

// RuleError is an answer the group rules refuse, with what the guest needs
// to answer next.
type RuleError struct {
	Code    string
	Message string
	// Members is set when the guest must say who is not coming.
	Members []Member
	// ExpectedTotal and NumGuests help the page phrase its question.
	ExpectedTotal int
	NumGuests     int
}

func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// Rule error codes.
const (
	CodeWhoIsNotComing    = "who_is_not_coming"
	CodeConfirmMore       = "confirm_more"
	CodeNumbersMismatch   = "numbers_mismatch"
	CodeNotInGroup        = "not_in_group"
	CodeInvalidAnswer     = "invalid_answer"
	CodeNothingToChange   = "nothing_to_change"
	CodeNobodyIsComing    = "nobody_coming"
	CodeTooManyCompanions = "too_many_companions"
	CodeDeadlinePassed    = "deadline_passed"
	CodeGroupChanged      = "group_changed"
	MessageDeadlinePassed = "the RSVP deadline has passed; contact the host"
)

// Member is how a group member is shown to the others: no code; the
// dietary answers only in the family's own view (GET /api/rsvp), where
// the one answering fills them in for everyone.
type Member struct {
	ID             string      `json:"id"`
	FirstName      string      `json:"firstName"`
	LastName       string      `json:"lastName"`
	Status         Status      `json:"status"`
	ExpectedGuests int         `json:"expectedGuests"`
	NumGuests      int         `json:"numGuests"`
	RSVPDate       *time.Time  `json:"rsvpDate,omitempty"`
	RSVPBy         string      `json:"rsvpBy,omitempty"`
	Dietary        *Dietary    `json:"dietary,omitempty"`
	Companions     []Companion `json:"companions,omitempty"`
	// AgeGroup is AgeChild for a member who is a child.
	AgeGroup string `json:"ageGroup,omitempty"`
}

// FamilyMemberOf is MemberOf with the member's dietary needs, for the
// group's own RSVP form.
func FamilyMemberOf(g Guest) Member {
	m := MemberOf(g)
	d := g.Dietary
	m.Dietary, m.Companions = &d, g.Companions
	if m.Companions == nil {
		m.Companions = []Companion{}
	}
	return m
}

// MemberOf gives the group view of g.
func MemberOf(g Guest) Member {
	return Member{
		ID: g.ID, FirstName: g.FirstName, LastName: g.LastName, Status: g.Status,
		ExpectedGuests: g.ExpectedGuests, NumGuests: g.Heads(), RSVPDate: g.RSVPDate, RSVPBy: g.RSVPBy,
		AgeGroup: g.AgeGroup,
	}
}

// ExpectedTotal is how many people a group brings when all of them come.
func ExpectedTotal(group []Guest) int {
	n := 0
	for _, g := range group {
		n += max(1, g.ExpectedGuests)
	}
	return n
}

// Decision is how an answer changes the group, ready for the store.
type Decision struct {
	// Status is the RSVP change; empty when the answer changes none.
	Status Status
	// WholeGroup is set when every member gets Status with no extra
	// guests: one update of the whole group.
	WholeGroup bool
	// Coming and Declined list the members whose status changes.
	Coming   []string
	Declined []string
	// Extra holds the non-zero ExtraGuests of coming members; every other
	// changed member gets 0.
	Extra map[string]int
	// Dietary, Companions and Tastes are the answering guest's own,
	// normalised; nil leaves them as they are.
	Dietary    *Dietary
	Companions *[]Companion
	Tastes     *Tastes
	// Members holds the needs given for other members, by id, normalised.
	Members map[string]MemberNeeds
}

// ChangesNeeds reports whether the decision changes someone's dietary
// answers.
func (d Decision) ChangesNeeds() bool {
	return d.Dietary != nil || d.Companions != nil || len(d.Members) > 0
}

// GivesNeeds reports whether the decision holds a dietary need of anyone:
// an answer whose form sent empty needs gave none, and the host's "latest
// answers" must not say it did.
func (d Decision) GivesNeeds() bool {
	some := func(dt *Dietary, cs *[]Companion) bool {
		if dt != nil && !dt.Empty() {
			return true
		}
		return cs != nil && slices.ContainsFunc(*cs, func(c Companion) bool { return !c.Dietary.Empty() })
	}
	if some(d.Dietary, d.Companions) {
		return true
	}
	for _, m := range d.Members {
		if some(m.Dietary, m.Companions) {
			return true
		}
	}
	return false
}

// Empty reports whether no taste was given.
func (t Tastes) Empty() bool {
	return len(t.Likes) == 0 && len(t.Dislikes) == 0 && !t.AlcoholFree
}

// Decide applies the group rules (docs/DESIGN.md, flow 2) to an answer by me,
// where group holds every member of my group, me included (just me when I
// have no group). It changes nothing; the store carries the decision out.
//
//   - numGuests equal to the group's expected total: the whole group comes.
//   - fewer: the answer must name who is not coming; a guest alone (or the
//     named members' dependants) may bring fewer than expected.
//   - more: needs Confirm; the extra people are counted on me.
//   - declined: for me, or with Scope group for everyone.
func Decide(a Answer, me Guest, group []Guest) (Decision, error) {
	if !slices.ContainsFunc(group, func(g Guest) bool { return g.ID == me.ID }) {
		group = append([]Guest{me}, group...)
	}
	d := Decision{}
	if err := decideNeeds(&d, a, me, group); err != nil {
		return d, err
	}
	if a.Tastes != nil {
		ts := NormalizeTastes(*a.Tastes)
		d.Tastes = &ts
	}
	var err error
	if a.Status != "" && a.GroupVersion != "" && a.GroupVersion != GroupVersion(group) {
		return d, &RuleError{
			Code:    CodeGroupChanged,
			Message: fmt.Sprintf("your group's answers changed a moment ago (%s); check them and answer again", answers(group)),
			Members: members(group), ExpectedTotal: ExpectedTotal(group),
		}
	}
	switch a.Status {
	case "":
		if !d.ChangesNeeds() && d.Tastes == nil {
			return d, &RuleError{Code: CodeNothingToChange, Message: "send a status (coming or declined), dietary needs or taste answers"}
		}
	case StatusDeclined:
		d, err = decline(d, a, me, group)
	case StatusComing:
		d, err = come(d, a, me, group)
	default:
		return d, &RuleError{Code: CodeInvalidAnswer, Message: fmt.Sprintf("status must be \"coming\" or \"declined\", not %q", a.Status)}
	}
	if err != nil {
		return d, err
	}
	return d, checkCompanions(d, me, group)
}

// decideNeeds reads the dietary part of an answer: the guest's own needs
// and companions, and the needs given for other members of the group. An
// answer that repeats what the host reviewed keeps the review.
func decideNeeds(d *Decision, a Answer, me Guest, group []Guest) error {
	byID := map[string]Guest{}
	for _, g := range group {
		byID[g.ID] = g
	}
	mine := MemberNeeds{ID: me.ID, Dietary: a.Dietary, Companions: a.Companions}
	answers := append([]MemberNeeds{mine}, a.Members...)
	for _, m := range answers {
		g, ok := byID[m.ID]
		if !ok {
			return &RuleError{Code: CodeNotInGroup, Message: fmt.Sprintf("%q is not in your group; give needs for members of your invitation only", m.ID)}
		}
		var out MemberNeeds
		if m.Dietary != nil {
			dt := m.Dietary.Merge(g.Dietary)
			out.Dietary = &dt
		}
		if m.Companions != nil {
			cs := NormalizeCompanions(*m.Companions)
			for i := range cs {
				if i < len(g.Companions) {
					cs[i].Dietary = cs[i].Dietary.Merge(g.Companions[i].Dietary)
				}
			}
			out.Companions = &cs
		}
		if m.AgeGroup != nil {
			if m.ID == me.ID {
				return &RuleError{Code: CodeInvalidAnswer, Message: "another member of your group, or the host, says whether you are a child"}
			}
			v, err := CleanAgeGroup("ageGroup", *m.AgeGroup)
			if err != nil {
				return &RuleError{Code: CodeInvalidAnswer, Message: err.Error()}
			}
			out.AgeGroup = &v
		}
		if out.Dietary == nil && out.Companions == nil && out.AgeGroup == nil {
			continue
		}
		if m.ID == me.ID {
			if out.Dietary != nil {
				d.Dietary = out.Dietary
			}
			if out.Companions != nil {
				d.Companions = out.Companions
			}
			continue
		}
		if d.Members == nil {
			d.Members = map[string]MemberNeeds{}
		}
		prev := d.Members[m.ID]
		if out.Dietary == nil {
			out.Dietary = prev.Dietary
		}
		if out.Companions == nil {
			out.Companions = prev.Companions
		}
		if out.AgeGroup == nil {
			out.AgeGroup = prev.AgeGroup
		}
		out.ID = m.ID
		d.Members[m.ID] = out
	}
	return nil
}

// checkCompanions refuses more companions than a guest brings: a guest
// counted for three (self and two without a login) describes at most two.
func checkCompanions(d Decision, me Guest, group []Guest) error {
	after := d.Apply(group, me.ID, time.Time{})
	for _, g := range after {
		changed := g.ID == me.ID && d.Companions != nil || d.Members[g.ID].Companions != nil
		if n, limit := len(g.Companions), max(g.ExpectedGuests, g.ExpectedGuests+g.ExtraGuests)-1; changed && n > limit {
			return &RuleError{Code: CodeTooManyCompanions,
				Message: fmt.Sprintf("%s brings %d %s without a login of their own; describe at most that many", g.Name(), max(0, limit), plural(limit, "person", "people"))}
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func decline(d Decision, a Answer, me Guest, group []Guest) (Decision, error) {
	d.Status = StatusDeclined
	switch a.Scope {
	case "", ScopeSelf:
		d.Declined = []string{me.ID}
		d.WholeGroup = len(group) == 1
	case ScopeGroup:
		for _, g := range group {
			d.Declined = append(d.Declined, g.ID)
		}
		d.WholeGroup = true
	default:
		return d, &RuleError{Code: CodeInvalidAnswer, Message: fmt.Sprintf("scope must be \"self\" or \"group\", not %q", a.Scope)}
	}
	return d, nil
}

func come(d Decision, a Answer, me Guest, group []Guest) (Decision, error) {
	d.Status = StatusComing
	total := ExpectedTotal(group)
	n := total
	if a.NumGuests != nil {
		n = *a.NumGuests
	}
	switch {
	case n < 1:
		return d, &RuleError{Code: CodeInvalidAnswer, Message: "numGuests must be at least 1 when coming; to say you cannot come, answer \"declined\""}
	case n > MaxPartySize:
		return d, &RuleError{Code: CodeInvalidAnswer, Message: fmt.Sprintf("numGuests must be at most %d", MaxPartySize)}
	}

	notComing := map[string]bool{}
	for _, id := range a.NotComing {
		if !slices.ContainsFunc(group, func(g Guest) bool { return g.ID == id }) {
			return d, &RuleError{Code: CodeNotInGroup, Message: fmt.Sprintf("%q is not in your group; name members of your invitation only", id),
				Members: members(group), ExpectedTotal: total, NumGuests: n}
		}
		notComing[id] = true
	}
	var coming []Guest
	for _, g := range group {
		if notComing[g.ID] {
			d.Declined = append(d.Declined, g.ID)
		} else {
			coming = append(coming, g)
		}
	}
	if len(coming) == 0 {
		return d, &RuleError{Code: CodeNobodyIsComing, Message: "you named everyone as not coming; to say nobody can come, answer \"declined\" for the group",
			Members: members(group), ExpectedTotal: total, NumGuests: n}
	}
	if n < total && len(notComing) == 0 && len(group) > 1 {
		return d, &RuleError{
			Code:          CodeWhoIsNotComing,
			Message:       fmt.Sprintf("%d of the %d people invited with you are coming: who is not coming? %s", n, total, names(group)),
			Members:       members(group),
			ExpectedTotal: total,
			NumGuests:     n,
		}
	}
	for _, g := range coming {
		d.Coming = append(d.Coming, g.ID)
	}
	d.WholeGroup = len(d.Declined) == 0

	base := ExpectedTotal(coming)
	switch {
	case n > base:
		if !a.Confirm {
			return d, &RuleError{
				Code:          CodeConfirmMore,
				Message:       fmt.Sprintf("%d people is more than the %d invited; are you sure? Answer again with \"confirm\": true", n, base),
				ExpectedTotal: base,
				NumGuests:     n,
			}
		}
		// The extra people come with whoever answered, or with the first
		// member coming when the one answering is not.
		who := coming[0].ID
		if !notComing[me.ID] {
			who = me.ID
		}
		d.Extra = map[string]int{who: n - base}
	case n < base:
		// Fewer than the members coming bring: only their dependants
		// (people counted in expectedGuests without their own login) can
		// stay home. Take them from the one answering first.
		short := base - n
		order := slices.Clone(coming)
		slices.SortStableFunc(order, func(x, y Guest) int {
			switch {
			case x.ID == me.ID:
				return -1
			case y.ID == me.ID:
				return 1
			}
			return 0
		})
		d.Extra = map[string]int{}
		for _, g := range order {
			take := min(short, max(1, g.ExpectedGuests)-1)
			if take > 0 {
				d.Extra[g.ID] = -take
				short -= take
			}
		}
		if short > 0 {
			return d, &RuleError{
				Code: CodeNumbersMismatch,
				Message: fmt.Sprintf("you said %d are coming, but the members you did not name as not coming are %d people: name everyone who is not coming (%s)",
					n, base, names(group)),
				Members:       members(group),
				ExpectedTotal: total,
				NumGuests:     n,
			}
		}
		d.WholeGroup = false
	}
	return d, nil
}

// Apply returns the group as it is after d, answered by me at at. The store
// writes the same changes; Apply lets callers know the result (and the
// stats change) without reading it back.
func (d Decision) Apply(group []Guest, me string, at time.Time) []Guest {
	out := make([]Guest, len(group))
	for i, g := range group {
		set := func(s Status) {
			g.Status = s
			g.ExtraGuests = d.Extra[g.ID]
			t := at
			g.RSVPDate = &t
			g.RSVPBy = me
			g.UpdatedAt = at
		}
		switch {
		case slices.Contains(d.Coming, g.ID):
			set(StatusComing)
		case slices.Contains(d.Declined, g.ID):
			set(StatusDeclined)
		}
		needs := d.Members[g.ID]
		if g.ID == me {
			needs = MemberNeeds{Dietary: d.Dietary, Companions: d.Companions}
			if d.Tastes != nil {
				g.Tastes = *d.Tastes
				g.UpdatedAt = at
			}
		}
		if needs.Dietary != nil {
			g.Dietary = *needs.Dietary
			g.UpdatedAt = at
		}
		if needs.Companions != nil {
			g.Companions = *needs.Companions
			g.UpdatedAt = at
		}
		if needs.AgeGroup != nil {
			g.AgeGroup = *needs.AgeGroup
			g.UpdatedAt = at
		}
		g.RefreshNeeds()
		out[i] = g
	}
	return out
}

func members(group []Guest) []Member {
	out := make([]Member, len(group))
	for i, g := range group {
		out[i] = MemberOf(g)
	}
	return out
}

// answers says where each member stands: "Ada Family is coming, Bob
// Family is not coming".
func answers(group []Guest) string {
	parts := make([]string, len(group))
	for i, g := range group {
		switch g.Status {
		case StatusComing:
			parts[i] = g.Name() + " is coming"
			if h := g.Heads(); h > 1 {
				parts[i] += fmt.Sprintf(" (%d people)", h)
			}
		case StatusDeclined:
			parts[i] = g.Name() + " is not coming"
		default:
			parts[i] = g.Name() + " has not answered"
		}
	}
	return strings.Join(parts, ", ")
}

// names lists the members for a sentence: "Ada, Bob and Carl (+1)".
func names(group []Guest) string {
	parts := make([]string, len(group))
	for i, g := range group {
		parts[i] = g.Name()
		if g.ExpectedGuests > 1 {
			parts[i] += fmt.Sprintf(" (+%d)", g.ExpectedGuests-1)
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// DeadlinePassed reports whether answers are closed at now.
func (s Settings) DeadlinePassed(now time.Time) bool {
	return s.RSVPDeadline != nil && now.After(*s.RSVPDeadline)
}
