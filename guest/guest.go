// Package guest is the domain of the people invited: who they are, how
// they sign in, and what they answered.
package guest

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Role decides what a signed-in person may do.
type Role string

const (
	RoleGuest     Role = "guest"
	RoleBartender Role = "bartender"
	RoleAdmin     Role = "admin"
	// RoleBoard is a pick-up board by the bar, not a person: it sees the
	// board and nothing else, and no guest can be given it.
	RoleBoard Role = "board"
)

// Valid reports whether r is one of the known roles.
func (r Role) Valid() bool {
	return r == RoleGuest || r == RoleBartender || r == RoleAdmin
}

// Status is a guest's RSVP answer.
type Status string

const (
	StatusPending  Status = "pending"
	StatusComing   Status = "coming"
	StatusDeclined Status = "declined"
)

// Valid reports whether s is one of the known statuses.
func (s Status) Valid() bool {
	return s == StatusPending || s == StatusComing || s == StatusDeclined
}

// Dietary is what one person told us they cannot or will not eat or
// drink: canonical tags (see the diet package), their own words, the parts
// of those words not understood, and whether the host reviewed them.
type Dietary struct {
	Text string   `bson:"text,omitempty" json:"text"`
	Tags []string `bson:"tags,omitempty" json:"tags"`
	// Unclear are parts of Text barhub did not understand: they need the
	// host's eyes until the host reviews the tags.
	Unclear []string `bson:"unclear,omitempty" json:"unclear"`
	// Reviewed is set when the host confirmed or corrected the tags.
	Reviewed bool `bson:"reviewed,omitempty" json:"reviewed"`
	// Answered are the parts of Unclear the person answered on the form
	// by choosing what applies (diet.Needs.Answered): barhub's caution
	// over them is lifted, as the host's review lifts all of it.
	Answered []string `bson:"answered,omitempty" json:"answered,omitempty"`
}

// Unread are the parts of the answer barhub could not read that nobody
// has answered yet (diet.Needs.Unread).
func (d Dietary) Unread() []string { return d.Needs().Unread() }

// MarshalJSON writes missing lists as [] rather than null, so clients can
// iterate without a check.
func (d Dietary) MarshalJSON() ([]byte, error) {
	type plain Dietary
	if d.Tags == nil {
		d.Tags = []string{}
	}
	if d.Unclear == nil {
		d.Unclear = []string{}
	}
	return json.Marshal(plain(d))
}

// Empty reports whether nothing was said.
func (d Dietary) Empty() bool {
	return strings.TrimSpace(d.Text) == "" && len(d.Tags) == 0 && len(d.Unclear) == 0
}

// NeedsReview reports whether some of the answer was not understood and
// the host has not reviewed it.
func (d Dietary) NeedsReview() bool { return d.Needs().NeedsReview() }

// Companion is one of the people a guest brings who has no login of their
// own (a child, a "+1"), counted in ExpectedGuests or ExtraGuests: a name
// if the guest gave one, and their own dietary needs.
type Companion struct {
	Name    string  `bson:"name,omitempty" json:"name"`
	Dietary Dietary `bson:"dietary" json:"dietary"`
	// AgeGroup is AgeChild for a child, whom the bar serves only
	// alcohol-free drinks and the shopping plan counts in alcohol-free
	// drinks alone; empty (or AgeAdult on the wire) for an adult.
	AgeGroup string `bson:"ageGroup,omitempty" json:"ageGroup,omitempty"`
}

// The age groups of a companion or a guest.
const (
	AgeAdult = "adult"
	AgeChild = "child"
)

// Child reports whether the companion is a child.
func (c Companion) Child() bool { return c.AgeGroup == AgeChild }

// Child reports whether the guest is a child (a family's 12-year-old with
// a code of their own): the bar serves them alcohol-free drinks only.
func (g Guest) Child() bool { return g.AgeGroup == AgeChild }

// CleanAgeGroup reads an age group as typed: "" or AgeAdult is an adult
// (stored as ""), AgeChild a child; anything else is a *FieldError on
// field.
func CleanAgeGroup(field, v string) (string, error) {
	switch strings.TrimSpace(v) {
	case "", AgeAdult:
		return "", nil
	case AgeChild:
		return AgeChild, nil
	}
	return "", &FieldError{field, fmt.Sprintf("must be %q or %q", AgeAdult, AgeChild)}
}

// Tastes are the taste answers given with the RSVP; recommendations use them.
type Tastes struct {
	Likes       []string `bson:"likes,omitempty" json:"likes"`
	Dislikes    []string `bson:"dislikes,omitempty" json:"dislikes"`
	AlcoholFree bool     `bson:"alcoholFree,omitempty" json:"alcoholFree"`
}

// MarshalJSON writes missing lists as [] rather than null.
func (t Tastes) MarshalJSON() ([]byte, error) {
	type plain Tastes
	if t.Likes == nil {
		t.Likes = []string{}
	}
	if t.Dislikes == nil {
		t.Dislikes = []string{}
	}
	return json.Marshal(plain(t))
}

// Guest is one invited person, with their own login.
type Guest struct {
	ID        string `bson:"_id" json:"id"`
	FirstName string `bson:"firstName" json:"firstName"`
	LastName  string `bson:"lastName" json:"lastName"`
	// LastNameKey is LastName folded for comparison at sign-in.
	LastNameKey string `bson:"lastNameKey" json:"-"`
	Code        string `bson:"code" json:"code,omitempty"`
	Role        Role   `bson:"role" json:"role"`
	// Attending marks staff (a bartender, a host) who are also guests of
	// the party: only then do they count in the host's figures and get
	// invitations and reminders.
	Attending bool `bson:"attending,omitempty" json:"attending"`
	// Email is where invitations and reminders go; empty sends none.
	Email string `bson:"email,omitempty" json:"email"`
	// Language is the one the guest's page showed at their last sign-in
	// (en, sv, pt-BR): their e-mails are written in it.
	Language string `bson:"language,omitempty" json:"-"`
	// Invite is how the guest was last invited and how that went, for
	// the host's list (docs/INVITATIONS.md).
	Invite *Invite `bson:"invite,omitempty" json:"invite,omitempty"`
	Status Status  `bson:"status" json:"status"`
	// NumGuests is how many people this guest brings when coming (self
	// included): ExpectedGuests + ExtraGuests, or 0 unless coming. It is
	// derived, never stored: use Heads; JSON output fills it in.
	NumGuests int `bson:"-" json:"numGuests"`
	// ExpectedGuests counts self plus people without their own login
	// (small children, for example).
	ExpectedGuests int `bson:"expectedGuests" json:"expectedGuests"`
	// ExtraGuests is what the last RSVP answer changed against
	// ExpectedGuests: more people (confirmed), or fewer (a child staying
	// home). Kept apart so a whole group can be marked coming with one
	// uniform update (see rsvp.go).
	ExtraGuests int    `bson:"extraGuests,omitempty" json:"extraGuests"`
	GroupID     string `bson:"groupId,omitempty" json:"groupId,omitempty"`
	// RSVPBy is the guest whose answer set Status (self or a group member).
	RSVPBy  string  `bson:"rsvpBy,omitempty" json:"rsvpBy,omitempty"`
	Dietary Dietary `bson:"dietary" json:"dietary"`
	// Companions are the needs of the people the guest brings without a
	// login of their own, in the order the guest listed them ("+1",
	// "+2"…); fewer than the headcount when the others need nothing.
	Companions []Companion `bson:"companions,omitempty" json:"companions"`
	// Needs summarises the dietary needs on this document, the guest's
	// and their companions': every tag, and NeedReview while some need the
	// host's eyes. Empty means nobody here needs anything; the store
	// keeps it (RefreshNeeds) for the (status, needs) index.
	Needs []string `bson:"needs,omitempty" json:"needs"`
	// AgeGroup is AgeChild for a guest who is a child, as the host or
	// the one answering for the group marked them: like a companion
	// marked a child, served alcohol-free drinks only and counted in
	// alcohol-free drinks alone; empty for an adult.
	AgeGroup   string     `bson:"ageGroup,omitempty" json:"ageGroup,omitempty"`
	Tastes     Tastes     `bson:"tastes" json:"tastes"`
	RSVPDate   *time.Time `bson:"rsvpDate,omitempty" json:"rsvpDate,omitempty"`
	LastLogin  *time.Time `bson:"lastLogin,omitempty" json:"lastLogin,omitempty"`
	LastAccess *time.Time `bson:"lastAccess,omitempty" json:"lastAccess,omitempty"`
	CreatedAt  time.Time  `bson:"createdAt" json:"createdAt"`
	UpdatedAt  time.Time  `bson:"updatedAt" json:"updatedAt"`
	// CheckedInAt is when the door let the guest in; null until then.
	// CheckedInBy names the staff member, ArrivedHeads the people who came
	// in on the code (see door.go).
	CheckedInAt   *time.Time `bson:"checkedInAt,omitempty" json:"checkedInAt"`
	CheckedInBy   string     `bson:"checkedInBy,omitempty" json:"checkedInBy,omitempty"`
	CheckedInByID string     `bson:"checkedInById,omitempty" json:"-"`
	ArrivedHeads  int        `bson:"arrivedHeads,omitempty" json:"arrivedHeads"`
	// CheckInRound counts the check-ins undone, so each check-in after an
	// undo claims a step of its own (store.CheckIn).
	CheckInRound int `bson:"checkInRound,omitempty" json:"-"`
	// Source says how the guest came onto the list when it was not the
	// host's desk or an import: "walk-in" (SourceWalkIn), added at the
	// door, with WalkIn saying by whom and when, or SourceRegistration,
	// through the public registration page.
	Source string  `bson:"source,omitempty" json:"source,omitempty"`
	WalkIn *WalkIn `bson:"walkIn,omitempty" json:"walkIn,omitempty"`
	// SessionVersion goes up whenever the guest's sessions must end (a new
	// code, "sign out everywhere"); every token carries the version it was
	// signed with (see auth.Sessions).
	SessionVersion int64 `bson:"sessionVersion,omitempty" json:"-"`
}

// Invite is how a guest was invited: by e-mail (delivered or failed), a
// copied or shared link, a printed card; and when they first opened the
// link and signed in with it.
type Invite struct {
	How string `bson:"how" json:"how"`
	// At is when the host sent, copied, shared or printed it.
	At time.Time `bson:"at" json:"at"`
	// Status is, for e-mail, queued, sent or failed (failed after every
	// retry); other ways are done at once ("done").
	Status      string     `bson:"status" json:"status"`
	Error       string     `bson:"error,omitempty" json:"error,omitempty"`
	DeliveredAt *time.Time `bson:"deliveredAt,omitempty" json:"deliveredAt,omitempty"`
	OpenedAt    *time.Time `bson:"openedAt,omitempty" json:"openedAt,omitempty"`
}

// Ways to invite, and the states of an e-mailed invitation.
const (
	InviteEmail = "email"
	InviteLink  = "link"
	InviteShare = "share"
	InvitePrint = "print"

	InviteQueued = "queued"
	InviteSent   = "sent"
	InviteFailed = "failed"
	InviteDone   = "done"
)

// ValidEmail reports whether s is one plain e-mail address, without a
// display name or anything a header could be smuggled in with.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>,;\"") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

// Heads is how many people g brings: 0 unless coming, and never less than
// one (the guest) when coming.
func (g Guest) Heads() int {
	if g.Status != StatusComing {
		return 0
	}
	return max(1, g.ExpectedGuests+g.ExtraGuests)
}

// MarshalJSON writes the guest with NumGuests derived from the stored
// fields, so every API answer agrees with the stats, and groupId null for
// a guest who is alone, as the API promises.
func (g Guest) MarshalJSON() ([]byte, error) {
	type plain Guest // no methods: no recursion
	p := plain(g)
	p.NumGuests = g.Heads()
	if p.Companions == nil {
		p.Companions = []Companion{}
	}
	if p.Needs == nil {
		p.Needs = []string{}
	}
	var group *string
	if g.GroupID != "" {
		group = &g.GroupID
	}
	return json.Marshal(struct {
		plain
		GroupID *string `json:"groupId"`
	}{p, group})
}

// Counted reports whether g is one of the party's guests: everyone with
// the guest role, and staff marked as also attending. Staff who only work
// the night are not invited, counted or reminded.
func (g Guest) Counted() bool {
	return g.Role == RoleGuest || g.Role == "" || g.Attending
}

// Name is how the guest is addressed.
func (g Guest) Name() string {
	return strings.TrimSpace(g.FirstName + " " + g.LastName)
}

// codeAlphabet leaves out characters people confuse when reading a code
// aloud or from paper: 0/O, 1/I/L. NewCode draws from it by rejection
// sampling, so every character is equally likely.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLength is the number of characters in a sign-in code.
const CodeLength = 8

// NewCode makes a random sign-in code from crypto/rand.
func NewCode() string {
	out := make([]byte, 0, CodeLength)
	var buf [16]byte
	// 31 letters: accept bytes below 248 (8×31) so the modulo is unbiased.
	for len(out) < CodeLength {
		rand.Read(buf[:])
		for _, c := range buf {
			if c < 248 && len(out) < CodeLength {
				out = append(out, codeAlphabet[int(c)%len(codeAlphabet)])
			}
		}
	}
	return string(out)
}

// ValidCode reports whether s has the shape of a sign-in code.
func ValidCode(s string) bool {
	if len(s) != CodeLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(codeAlphabet, rune(s[i])) {
			return false
		}
	}
	return true
}

// NormalizeCode upper-cases a typed code and removes spaces and dashes,
// which people add when copying from a printed card.
func NormalizeCode(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\t':
		default:
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// NameKey folds a name for comparison: case, spaces, punctuation and
// accents do not count, so "Åberg", "aberg" and " ÅBERG " are equal.
func NameKey(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, s)
	if err != nil {
		folded = s
	}
	var b strings.Builder
	for _, r := range folded {
		switch r {
		case 'ø', 'Ø':
			b.WriteRune('o')
		case 'æ', 'Æ':
			b.WriteString("ae")
		case 'ß':
			b.WriteString("ss")
		case 'đ', 'Đ':
			b.WriteRune('d')
		case 'ł', 'Ł':
			b.WriteRune('l')
		default:
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(unicode.ToLower(r))
			}
		}
	}
	return b.String()
}
