package guest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/diet"
)

// NeedsSummary is what Needs holds for g: the tags of the guest and of
// their companions, in the diet package's order, and NeedReview while any
// of them needs the host's eyes.
func (g Guest) NeedsSummary() []string {
	var tags []string
	review := false
	for _, p := range g.People() {
		for _, t := range p.Dietary.Tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		review = review || p.Dietary.NeedsReview()
	}
	tags = diet.Normalize(diet.Needs{Tags: tags, Reviewed: true}).Tags
	if review {
		tags = append(tags, NeedReview)
	}
	return tags
}

// RefreshNeeds sets Needs from the dietary answers, before g is stored.
func (g *Guest) RefreshNeeds() { g.Needs = g.NeedsSummary() }

// Person is one person on a guest's answer: the guest, or one of their
// companions.
type Person struct {
	// Ref names the person in an order item's "for": the guest's id, or
	// the id and the companion's place ("64f…/2" is their second "+1").
	Ref string `json:"ref"`
	// GuestID is the guest whose document holds the person.
	GuestID string `json:"guestId"`
	// Companion is 0 for the guest, n for their n-th companion.
	Companion int     `json:"companion,omitempty"`
	Name      string  `json:"name"`
	Dietary   Dietary `json:"dietary"`
	// Child is set for a guest or a companion marked as a child: the bar
	// serves them alcohol-free drinks only.
	Child bool `json:"child,omitempty"`
}

// People lists the guest and each companion they described.
func (g Guest) People() []Person {
	out := []Person{{Ref: g.ID, GuestID: g.ID, Name: g.Name(), Dietary: g.Dietary, Child: g.Child()}}
	for i, c := range g.Companions {
		out = append(out, Person{Ref: CompanionRef(g.ID, i+1), GuestID: g.ID, Companion: i + 1, Name: c.DisplayName(g, i+1), Dietary: c.Dietary, Child: c.Child()})
	}
	return out
}

// CompanionRef names the n-th companion of guest id.
func CompanionRef(id string, n int) string { return id + "/" + strconv.Itoa(n) }

// DisplayName is the companion's name, or "Ada's +1" when none was given.
func (c Companion) DisplayName(g Guest, n int) string {
	if c.Name != "" {
		return c.Name
	}
	if n == 1 {
		return g.FirstName + "'s +1"
	}
	return fmt.Sprintf("%s's +%d", g.FirstName, n)
}

// ParseRef splits a person reference into the guest id and the companion
// number (0 for the guest). "+2" is the second companion of self.
func ParseRef(ref, self string) (id string, companion int, ok bool) {
	ref = strings.TrimSpace(ref)
	if n, found := strings.CutPrefix(ref, "+"); found {
		ref = self + "/" + n
	}
	id, num, found := strings.Cut(ref, "/")
	if !ValidID(id) {
		return "", 0, false
	}
	if !found {
		return id, 0, true
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > MaxCompanions {
		return "", 0, false
	}
	return id, n, true
}

// PersonFor finds the person ref names among group (the orderer's group,
// self included): a member, or a member's companion. A companion the
// member counted but did not describe is found too, with no needs: nobody
// said anything for them.
func PersonFor(ref, self string, group []Guest) (Person, bool) {
	id, n, ok := ParseRef(ref, self)
	if !ok {
		return Person{}, false
	}
	for _, g := range group {
		if g.ID != id {
			continue
		}
		if n == 0 {
			return g.People()[0], true
		}
		if n <= len(g.Companions) {
			return g.People()[n], true
		}
		if n < max(g.ExpectedGuests+g.ExtraGuests, g.ExpectedGuests) {
			return Person{Ref: CompanionRef(g.ID, n), GuestID: g.ID, Companion: n, Name: Companion{}.DisplayName(g, n)}, true
		}
	}
	return Person{}, false
}

// ReviewDietary is g after the host reviewed the needs of one person on
// the answer (companion 0 is the guest): the host's tags stand, and
// nothing is left for the host's eyes. Tags must be canonical.
func ReviewDietary(g Guest, companion int, tags []string, at time.Time) (Guest, error) {
	for _, t := range tags {
		if !diet.IsTag(t) {
			return g, &FieldError{"tags", fmt.Sprintf("%q is not a dietary tag; use %s", t, strings.Join(diet.Tags(), ", "))}
		}
	}
	if len(tags) > len(diet.Tags()) {
		return g, &FieldError{"tags", "too many tags"}
	}
	review := func(d Dietary) Dietary {
		return NormalizeDietary(Dietary{Text: d.Text, Tags: tags, Reviewed: true})
	}
	switch {
	case companion == 0:
		g.Dietary = review(g.Dietary)
	case companion > 0 && companion <= len(g.Companions):
		g.Companions = slices.Clone(g.Companions)
		g.Companions[companion-1].Dietary = review(g.Companions[companion-1].Dietary)
	default:
		return g, &FieldError{"companion", fmt.Sprintf("%s has no companion %d with needs of their own", g.Name(), companion)}
	}
	g.RefreshNeeds()
	g.UpdatedAt = at
	return g, nil
}
