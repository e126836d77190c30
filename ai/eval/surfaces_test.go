package eval

import (
	"slices"
	"testing"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
)

// needsOnly reports whether what p must never be shown comes from its
// dietary answer alone (no dislikes, mood or alcohol-free ask): then the
// menu's marks and ordering, which read only the dietary answer, must
// keep every one of them away too.
func needsOnly(p Profile) bool {
	return (p.Guest.DietaryText != "" || len(p.Guest.DietaryTags) > 0) && len(p.Never) > 0 &&
		len(p.Guest.Dislikes) == 0 && len(p.Prefs.Dislikes) == 0 && p.Prefs.Mood == "" &&
		!p.Prefs.AlcoholFree && !p.Guest.AlcoholFree
}

// TestMenuMarksAndOrders takes every profile whose dietary answer rules
// drinks out through the path the RSVP, the menu and ordering take: the
// answer normalised as the RSVP stores it (guest.NormalizeDietary), each
// starter drink as the menu snapshot gives it to diet.Check (menu.Drink.Diet
// with its contents known). A drink the check finds safe is shown "for
// you" without a mark and is ordered without a confirmation; so none of
// the profile's Never drinks may be found safe.
func TestMenuMarksAndOrders(t *testing.T) {
	_, starter, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	m, profiles := load(t)
	checked, marked, unsafeShown := 0, 0, 0
	for _, p := range profiles {
		if !needsOnly(p) {
			continue
		}
		checked++
		needs := guest.NormalizeDietary(guest.Dietary{Text: p.Guest.DietaryText, Tags: p.Guest.DietaryTags}).Needs()
		for _, d := range starter {
			dd := d.Diet()
			dd.Known = diet.Contents(dd)
			v := diet.Check(dd, needs)
			if !v.Safe {
				marked++
				continue
			}
			if slices.Contains(p.Never, d.ID) {
				unsafeShown++
				t.Errorf("%s: %s shown for you and ordered without a confirmation (needs read as %q, unclear %q)", p.Name, d.ID, needs.Tags, needs.Unclear)
			}
		}
	}
	if checked < 60 {
		t.Errorf("%d profiles checked on the menu and orders, want at least 60", checked)
	}
	t.Logf("menu marks and orders: %d profiles × %d drinks, %d marked, %d unsafe shown for you or ordered without a confirmation", checked, len(m), marked, unsafeShown)
}
