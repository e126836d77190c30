package eval

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/locale"
)

// TestUnreadNeedsTakeCare: for guests whose words barhub cannot read, the
// one rule the menu's marks and ordering ask (diet.Check) rules out
// exactly the drinks labelled by hand (0 unsafe drinks unmarked or
// ordered without a confirmation), and every pick of the local
// recommender says why the choice is short, in the guest's language.
// TestLocalRecommender and TestModelPath count 0 unsafe picks for these
// profiles like any other.
func TestUnreadNeedsTakeCare(t *testing.T) {
	menu, profiles := load(t)
	texts, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	caveat := map[string]string{"": "We could not read", "sv": "Vi kunde inte läsa", "pt-BR": "Não conseguimos ler"}
	n := 0
	for i, p := range profiles {
		if !strings.HasPrefix(p.Name, "unread") {
			continue
		}
		needs := p.Needs()
		if p.Unread != (len(needs.Unread()) > 0) {
			t.Errorf("%s: unread %q, profile says unread=%v", p.Name, needs.Unread(), p.Unread)
		}
		n++
		for _, d := range menu {
			v := diet.Check(diet.Drink{Name: d.Name, Ingredients: d.Ingredients, Allergens: d.Allergens, AlcoholFree: d.AlcoholFree, ABV: d.ABV}, needs)
			if never := slices.Contains(p.Never, d.ID); v.Safe == never {
				t.Errorf("%s: %s marked safe=%v, labelled never=%v (%s)", p.Name, d.ID, v.Safe, never, strings.Join(v.Causes(), ", "))
			}
		}
		if !p.Unread {
			continue
		}
		a := ai.Recommend(ai.LocalInput{Menu: menu, Guest: p.Guest, Prefs: p.Prefs, Now: evening, Texts: texts}, rand.New(rand.NewPCG(uint64(i), 1)))
		if len(a.Picks) == 0 {
			t.Errorf("%s: nothing recommended", p.Name)
		}
		for _, pk := range a.Picks {
			if !strings.Contains(pk.Reason, caveat[p.Prefs.Language]) || !strings.Contains(pk.Reason, needs.Unread()[0]) {
				t.Errorf("%s: %s's reason does not say why: %q", p.Name, pk.Drink.ID, pk.Reason)
			}
		}
	}
	if n < 8 {
		t.Fatalf("%d profiles with unread words, want at least 8", n)
	}
}
