package guest

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// GroupVersion fingerprints what an RSVP answer is decided on: who is in
// the group, each member's answer and headcount. A page sends back the
// version it showed; an answer given to a group that has changed since is
// refused (CodeGroupChanged) rather than decided on a picture that is no
// longer true. Dietary and taste answers are left out: they are each
// member's own and never conflict.
func GroupVersion(group []Guest) string {
	lines := make([]string, len(group))
	for i, g := range group {
		lines[i] = fmt.Sprintf("%s\x00%s\x00%d\x00%d", g.ID, g.Status, g.ExpectedGuests, g.ExtraGuests)
	}
	slices.Sort(lines)
	h := fnv.New64a()
	h.Write([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%016x", h.Sum64())
}
