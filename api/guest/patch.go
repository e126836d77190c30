package guest

import (
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/api/text"
)

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
}

// Empty reports whether the patch changes nothing.
func (p Patch) Empty() bool { return p == Patch{} }

// Apply returns g changed by p, done by the guest whose id is by at at.
// A status change counts as an RSVP answered by them.
func (p Patch) Apply(g Guest, by string, at time.Time) (Guest, error) {
	if p.FirstName != nil {
		v := strings.TrimSpace(*p.FirstName)
		if v == "" || len(v) > maxShortText {
			return g, &FieldError{"firstName", fmt.Sprintf("must be 1 to %d characters", maxShortText)}
		}
		if err := text.Line(v); err != nil {
			return g, &FieldError{"firstName", err.Error()}
		}
		g.FirstName = v
	}
	if p.LastName != nil {
		v := strings.TrimSpace(*p.LastName)
		if v == "" || len(v) > maxShortText || NameKey(v) == "" {
			return g, &FieldError{"lastName", fmt.Sprintf("must be 1 to %d characters, with at least one letter or digit", maxShortText)}
		}
		if err := text.Line(v); err != nil {
			return g, &FieldError{"lastName", err.Error()}
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
	if p.Email != nil {
		v := strings.TrimSpace(*p.Email)
		if v != "" && !ValidEmail(v) {
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
		g.Dietary = NormalizeDietary(*p.Dietary)
	}
	if p.Companions != nil {
		g.Companions = NormalizeCompanions(*p.Companions)
	}
	g.RefreshNeeds()
	if p.Tastes != nil {
		g.Tastes = NormalizeTastes(*p.Tastes)
	}
	g.UpdatedAt = at
	return g, nil
}
