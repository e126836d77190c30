package guest

import (
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/text"
)

// nameRule is barhub's text rule (package text) for a guest's first and
// last name: one line, required, shown on tickets, the door and e-mail.
var nameRule = text.Rule{Max: maxShortText, Required: true}

// CleanName applies the rule of a typed name to the firstName or lastName
// field, or returns a *FieldError naming it: one line of at most 200
// characters, with something visible in it; a last name, which signing
// in compares, needs a letter or a digit.
func CleanName(field, typed string) (string, error) {
	v, err := nameRule.Clean(typed)
	if err != nil {
		return "", &FieldError{field, err.Error()}
	}
	if field == "lastName" && NameKey(v) == "" {
		return "", &FieldError{field, "needs at least one letter or digit"}
	}
	return v, nil
}

// Patch is the host's edit of a guest: nil fields stay as they are.
type Patch struct {
	FirstName      *string
	LastName       *string
	Role           *Role
	Attending      *bool
	Email          *string
	Status         *Status
	ExpectedGuests *int
	ExtraGuests    *int
	// GroupID joins a group; an empty string leaves it.
	GroupID    *string
	Dietary    *Dietary
	Companions *[]Companion
	Tastes     *Tastes
	// AgeGroup marks the guest a child (AgeChild) or an adult ("" or
	// AgeAdult).
	AgeGroup *string
}

// Empty reports whether the patch changes nothing.
func (p Patch) Empty() bool { return p == Patch{} }

// Apply returns g changed by p, done by the guest whose id is by at at.
// A status change counts as an RSVP answered by them.
func (p Patch) Apply(g Guest, by string, at time.Time) (Guest, error) {
	if p.FirstName != nil {
		v, err := CleanName("firstName", *p.FirstName)
		if err != nil {
			return g, err
		}
		g.FirstName = v
	}
	if p.LastName != nil {
		v, err := CleanName("lastName", *p.LastName)
		if err != nil {
			return g, err
		}
		g.LastName = v
		g.LastNameKey = NameKey(v)
	}
	if p.Role != nil {
		if !p.Role.Valid() {
			return g, &FieldError{"role", fmt.Sprintf("%q is not a role; use guest, bartender or admin", *p.Role)}
		}
		g.Role = *p.Role
	}
	if p.Attending != nil {
		g.Attending = *p.Attending
	}
	if p.AgeGroup != nil {
		v, err := CleanAgeGroup("ageGroup", *p.AgeGroup)
		if err != nil {
			return g, err
		}
		g.AgeGroup = v
	}
	if p.Email != nil {
		v := strings.TrimSpace(*p.Email)
		// An address is not cleaned but taken as typed, or refused: one
		// the text rule would change (a direction mark, an override in
		// it) is not an address to send to.
		if c, err := (text.Rule{}).Clean(v); v != "" && (!ValidEmail(v) || err != nil || c != v) {
			return g, &FieldError{"email", "must be one e-mail address such as ada@example.com (or empty)"}
		}
		g.Email = v
	}
	if p.ExpectedGuests != nil {
		if *p.ExpectedGuests < 1 || *p.ExpectedGuests > MaxPartySize {
			return g, &FieldError{"expectedGuests", fmt.Sprintf("must be between 1 and %d (the guest and the people without their own login)", MaxPartySize)}
		}
		g.ExpectedGuests = *p.ExpectedGuests
	}
	if p.ExtraGuests != nil {
		if *p.ExtraGuests < -MaxPartySize || *p.ExtraGuests > MaxPartySize {
			return g, &FieldError{"extraGuests", fmt.Sprintf("must be between %d and %d", -MaxPartySize, MaxPartySize)}
		}
		g.ExtraGuests = *p.ExtraGuests
	}
	if p.Status != nil && *p.Status != g.Status {
		if !p.Status.Valid() {
			return g, &FieldError{"status", fmt.Sprintf("%q is not a status; use pending, coming or declined", *p.Status)}
		}
		g.Status = *p.Status
		if g.Status == StatusPending {
			g.RSVPDate, g.RSVPBy = nil, ""
		} else {
			t := at
			g.RSVPDate, g.RSVPBy = &t, by
		}
		if p.ExtraGuests == nil {
			g.ExtraGuests = 0
		}
	}
	if g.Status == StatusComing && g.ExpectedGuests+g.ExtraGuests < 1 {
		return g, &FieldError{"extraGuests", "leaves nobody coming; a guest who is coming brings at least themselves"}
	}
	if p.GroupID != nil {
		v := strings.TrimSpace(*p.GroupID)
		if v != "" && !ValidID(v) {
			return g, &FieldError{"groupId", "must be letters, digits, - and _, up to 64 (empty leaves the group)"}
		}
		g.GroupID = v
	}
	if p.Dietary != nil {
		d, err := CleanDietary(*p.Dietary)
		if err != nil {
			return g, Within("dietary", err)
		}
		g.Dietary = NormalizeDietary(d)
	}
	if p.Companions != nil {
		cs, err := CleanCompanions(*p.Companions)
		if err != nil {
			return g, Within("companions", err)
		}
		g.Companions = NormalizeCompanions(cs)
	}
	g.RefreshNeeds()
	if p.Tastes != nil {
		g.Tastes = NormalizeTastes(*p.Tastes)
	}
	g.UpdatedAt = at
	return g, nil
}
