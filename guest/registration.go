package guest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/barhub/barhub/text"
)

// Registration modes: how people who were not invited may join
// (docs/REGISTRATION.md).
const (
	// RegistrationClosed is invitations only, the default.
	RegistrationClosed = "closed"
	// RegistrationOpen gives a place to whoever registers while there is room.
	RegistrationOpen = "open"
	// RegistrationApproval holds each registration until the host approves it.
	RegistrationApproval = "approval"
)

// ValidRegistrationMode reports whether m is one of the modes.
func ValidRegistrationMode(m string) bool {
	return m == RegistrationClosed || m == RegistrationOpen || m == RegistrationApproval
}

// DefaultOfferHours is how long a freed place stays offered to the first
// in line before it goes to the next.
const DefaultOfferHours = 24

// ConfirmFor is how long an unconfirmed registration waits for its
// e-mail's link to be opened before the sweep expires it.
const ConfirmFor = 24 * time.Hour

// MaxPlusOnes bounds the people one registration may bring.
const MaxPlusOnes = 9

// SourceRegistration marks a guest who came in through the public
// registration page (Guest.Source).
const SourceRegistration = "registration"

// RegStatus is where a registration stands.
type RegStatus string

const (
	// RegUnconfirmed waits for the person to open the link e-mailed to
	// them (with e-mail set up); it holds nothing and is not in line.
	RegUnconfirmed RegStatus = "unconfirmed"
	// RegPending waits for the host's approval (mode "approval").
	RegPending RegStatus = "pending"
	// RegWaiting is on the waiting list, in order of Seq.
	RegWaiting RegStatus = "waiting"
	// RegOffered holds freed places until OfferedUntil.
	RegOffered RegStatus = "offered"
	// RegPlaced has places and a guest (GuestID) coming.
	RegPlaced RegStatus = "placed"
	// RegDeclined gave the places back (the guest declined on the RSVP).
	RegDeclined RegStatus = "declined"
	// RegCancelled was withdrawn by the person or removed by the host.
	RegCancelled RegStatus = "cancelled"
	// RegExpired let an offer pass.
	RegExpired RegStatus = "expired"
)

// Holds reports whether a registration in status s holds places.
func (s RegStatus) Holds() bool { return s == RegOffered || s == RegPlaced }

// Active reports whether s still counts as the person's registration: a
// second registration with the same e-mail is this one.
func (s RegStatus) Active() bool {
	return s == RegPending || s == RegWaiting || s == RegOffered || s == RegPlaced || s == RegDeclined
}

// Registration is one person who asked to come, with the people they
// bring. Its id is derived from the e-mail (RegistrationID), so the same
// address always names the same registration.
type Registration struct {
	ID string `bson:"_id" json:"id"`
	// Secret is the second half of the link to the person's status page.
	Secret    string `bson:"secret" json:"-"`
	FirstName string `bson:"firstName" json:"firstName"`
	LastName  string `bson:"lastName" json:"lastName"`
	Email     string `bson:"email" json:"email"`
	Language  string `bson:"language,omitempty" json:"language,omitempty"`
	PlusOnes  int    `bson:"plusOnes" json:"plusOnes"`
	// Dietary is the needs in the person's own words, read as tags by
	// the diet reader.
	Dietary Dietary   `bson:"dietary" json:"dietary"`
	Tastes  Tastes    `bson:"tastes" json:"tastes"`
	Status  RegStatus `bson:"status" json:"status"`
	// Seq orders the waiting list: lower is earlier.
	Seq          int64      `bson:"seq" json:"seq"`
	GuestID      string     `bson:"guestId,omitempty" json:"guestId,omitempty"`
	OfferedUntil *time.Time `bson:"offeredUntil,omitempty" json:"offeredUntil,omitempty"`
	// ConfirmBy is when an unconfirmed registration expires; it stays on
	// one that expired unconfirmed.
	ConfirmBy *time.Time `bson:"confirmBy,omitempty" json:"confirmBy,omitempty"`
	CreatedAt time.Time  `bson:"createdAt" json:"createdAt"`
	UpdatedAt time.Time  `bson:"updatedAt" json:"updatedAt"`
}

// Heads is the places the registration needs: the person and their +1s.
func (r Registration) Heads() int { return 1 + r.PlusOnes }

// RegistrationID names the registration of an e-mail address: the same
// address, whatever its case, always gives the same id, so a second
// registration finds the first by _id.
func RegistrationID(email string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email))))
	return hex.EncodeToString(sum[:12])
}

// RegistrationInput is the public form.
type RegistrationInput struct {
	FirstName   string   `json:"firstName"`
	LastName    string   `json:"lastName"`
	Email       string   `json:"email"`
	PlusOnes    int      `json:"plusOnes"`
	Needs       string   `json:"needs"`
	Likes       []string `json:"likes"`
	Dislikes    []string `json:"dislikes"`
	AlcoholFree bool     `json:"alcoholFree"`
	Language    string   `json:"language"`
}

// ParseRegistration checks the form and returns the registration it
// describes (without id, secret, status or times).
func ParseRegistration(in RegistrationInput) (Registration, error) {
	var r Registration
	for _, f := range []struct {
		name  string
		typed string
		rule  text.Rule
		kept  *string
	}{
		{"firstName", in.FirstName, text.Rule{Max: maxShortText, Required: true}, &r.FirstName},
		{"lastName", in.LastName, text.Rule{Max: maxShortText, Required: true}, &r.LastName},
		{"needs", in.Needs, text.Rule{Max: maxInfoText}, &r.Dietary.Text},
	} {
		v, err := f.rule.Clean(f.typed)
		if err != nil {
			return r, &FieldError{f.name, err.Error()}
		}
		*f.kept = v
	}
	r.Email = strings.TrimSpace(in.Email)
	if !ValidEmail(r.Email) {
		return r, &FieldError{"email", "give one e-mail address, like name@example.com"}
	}
	if in.PlusOnes < 0 || in.PlusOnes > MaxPlusOnes {
		return r, &FieldError{"plusOnes", "bring between 0 and 9 people"}
	}
	r.PlusOnes = in.PlusOnes
	r.Dietary = NormalizeDietary(r.Dietary)
	r.Tastes = NormalizeTastes(Tastes{Likes: in.Likes, Dislikes: in.Dislikes, AlcoholFree: in.AlcoholFree})
	switch in.Language {
	case "en", "sv", "pt-BR":
		r.Language = in.Language
	}
	return r, nil
}

// NewGuest is the guest a placed registration becomes: coming, with the
// +1s as expected people, marked as registered.
func (r Registration) NewGuest(id string) Guest {
	return Guest{
		ID: id, FirstName: r.FirstName, LastName: r.LastName, Email: r.Email, Language: r.Language,
		Role: RoleGuest, Status: StatusComing, ExpectedGuests: r.Heads(), Dietary: r.Dietary,
		Tastes: r.Tastes, Source: SourceRegistration,
	}
}
