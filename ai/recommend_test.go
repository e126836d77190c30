package ai_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/locale"
)

// testMenu is a small bar: classics, spritzes, a tiki drink with a hidden
// nut (orgeat is almond syrup), dairy, egg, alcohol-free drinks, and one
// drink that is out of stock.
var testMenu = []ai.Drink{
	{ID: "negroni", Name: "Negroni", Section: "Classics", Ingredients: []string{"gin", "sweet vermouth", "Campari"}, Tags: []string{"bitter", "strong"}, ABV: 24, Available: true},
	{ID: "whiskey-sour", Name: "Whiskey Sour", Section: "Classics", Ingredients: []string{"bourbon", "lemon juice", "sugar syrup", "egg white"}, Tags: []string{"sour", "strong"}, Allergens: []string{"egg"}, ABV: 15, Available: true},
	{ID: "garden-spritz", Name: "Garden Spritz", Section: "Spritzes", Ingredients: []string{"elderflower cordial", "soda water", "cucumber", "mint"}, Tags: []string{"fresh", "floral", "sparkling"}, AlcoholFree: true, Available: true},
	{ID: "aperol-spritz", Name: "Aperol Spritz", Section: "Spritzes", Ingredients: []string{"Aperol", "prosecco", "soda water", "orange"}, Tags: []string{"bitter", "sparkling", "fruity"}, ABV: 11, Available: true},
	{ID: "mai-tai", Name: "Mai Tai", Section: "Tiki", Ingredients: []string{"rum", "lime juice", "orgeat", "orange curaçao"}, Tags: []string{"fruity", "sweet", "strong"}, ABV: 20, Available: true},
	{ID: "moscow-mule", Name: "Moscow Mule", Section: "Highballs", Ingredients: []string{"vodka", "ginger beer", "lime juice"}, Tags: []string{"spicy", "fresh"}, ABV: 10, Available: true},
	{ID: "virgin-colada", Name: "Virgin Colada", Section: "Alcohol-free", Ingredients: []string{"pineapple juice", "coconut cream", "lime juice"}, Tags: []string{"sweet", "creamy", "fruity"}, AlcoholFree: true, Available: true},
	{ID: "espresso-martini", Name: "Espresso Martini", Section: "Classics", Ingredients: []string{"vodka", "coffee liqueur", "espresso"}, Tags: []string{"bitter", "strong", "creamy"}, ABV: 18, Available: false},
	{ID: "lemonade", Name: "House Lemonade", Section: "Alcohol-free", Ingredients: []string{"lemon juice", "sugar syrup", "soda water"}, Tags: []string{"sour", "sweet", "fresh"}, AlcoholFree: true, Available: true},
	{ID: "white-russian", Name: "White Russian", Section: "Classics", Ingredients: []string{"vodka", "coffee liqueur", "cream"}, Tags: []string{"creamy", "sweet", "strong"}, ABV: 20, Available: true},
}

// ask runs the local recommender with a seeded random source.
func ask(menu []ai.Drink, g ai.Guest, p ai.Preferences, past []ai.PastOrder, seed uint64) ai.LocalAnswer {
	return ai.Recommend(ai.LocalInput{Menu: menu, Guest: g, Prefs: p, Past: past, Now: evening, Texts: texts}, rand.New(rand.NewPCG(seed, 7)))
}

// texts are the server's catalogues, loaded once: the reasons come from them.
var texts = func() *locale.Catalog {
	c, err := locale.New()
	if err != nil {
		panic(err) // a broken embedded catalogue; go test ./locale/ says which
	}
	return c
}()

var evening = time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)

func ids(picks []ai.Pick) []string {
	out := make([]string, len(picks))
	for i, p := range picks {
		out[i] = p.Drink.ID
	}
	return out
}

func TestRecommendLocal(t *testing.T) {
	tests := []struct {
		name  string
		guest ai.Guest
		prefs ai.Preferences
		past  []ai.PastOrder
		// first: the first pick is one of these; top: the first len(top)
		// picks are these, in any order; only: every pick is one of
		// these; never: no pick is one of these.
		first, top, only, never []string
		n                       int // how many picks (default MaxPicks)
		fits                    bool
		reason                  map[string]string // drink id → the whole reason
	}{
		{
			name:   "a liked taste: its drinks first",
			prefs:  ai.Preferences{Likes: []string{"bitter"}},
			top:    []string{"aperol-spritz", "negroni"},
			never:  []string{"espresso-martini"},
			fits:   true,
			reason: map[string]string{"negroni": "Bitter, just what you like."},
		},
		{
			name:   "alcohol-free asked: only alcohol-free drinks",
			prefs:  ai.Preferences{Likes: []string{"sweet"}, AlcoholFree: true},
			only:   []string{"lemonade", "virgin-colada", "garden-spritz"},
			fits:   true,
			reason: map[string]string{"virgin-colada": "Sweet, just what you like — and alcohol-free."},
		},
		{
			name:  "a nut allergy excludes the drink with orgeat, though it is not tagged",
			guest: ai.Guest{DietaryTags: []string{"nuts"}},
			prefs: ai.Preferences{Likes: []string{"fruity", "sweet"}},
			first: []string{"virgin-colada"},
			never: []string{"mai-tai"},
			fits:  true,
		},
		{
			name:  "a Swedish nut allergy excludes it too",
			guest: ai.Guest{DietaryText: "nötallergi"},
			prefs: ai.Preferences{Likes: []string{"nutty", "fruity"}},
			never: []string{"mai-tai"},
			fits:  true,
		},
		{
			name:  "vegan in free text excludes egg and dairy but not coconut cream",
			guest: ai.Guest{DietaryText: "I'm vegan, thanks!"},
			prefs: ai.Preferences{Likes: []string{"sour", "creamy"}},
			top:   []string{"lemonade", "virgin-colada"},
			never: []string{"whiskey-sour", "white-russian"},
			fits:  true,
		},
		{
			name:  "a disliked ingredient rules a drink out; gin is not in ginger beer",
			prefs: ai.Preferences{Likes: []string{"spicy"}, Dislikes: []string{"gin"}},
			first: []string{"moscow-mule"},
			never: []string{"negroni"},
			fits:  true,
		},
		{
			name:   "whisky finds the bourbon drink",
			prefs:  ai.Preferences{Likes: []string{"whisky"}},
			first:  []string{"whiskey-sour"},
			fits:   true,
			reason: map[string]string{"whiskey-sour": "Bourbon, just what you like."},
		},
		{
			name:   "a related taste word counts",
			prefs:  ai.Preferences{Likes: []string{"citrusy"}},
			top:    []string{"lemonade", "whiskey-sour"},
			fits:   true,
			reason: map[string]string{"lemonade": "Sour, just what you like."},
		},
		{
			name:   "strength is read from the ABV",
			prefs:  ai.Preferences{Likes: []string{"boozy"}},
			only:   []string{"negroni", "whiskey-sour", "mai-tai", "white-russian"},
			fits:   true,
			reason: map[string]string{"negroni": "Strong, just what you like."},
		},
		{
			name:   "a festive mood favours sparkling, fruity and sweet",
			prefs:  ai.Preferences{Mood: "Celebrating tonight!"},
			first:  []string{"aperol-spritz", "mai-tai", "virgin-colada", "lemonade", "garden-spritz"},
			fits:   true,
			reason: map[string]string{"mai-tai": "Made for a festive mood."},
		},
		{
			// Reproduction: "Made for a adventurous mood".
			name:   "an adventurous mood, in good grammar",
			prefs:  ai.Preferences{Mood: "adventurous"},
			first:  []string{"negroni", "aperol-spritz", "moscow-mule", "garden-spritz"},
			fits:   true,
			reason: map[string]string{"moscow-mule": "Made for an adventurous mood.", "garden-spritz": "Made for an adventurous mood."},
		},
		{
			name:  "past orders: the same drink again, or drinks like it",
			past:  []ai.PastOrder{{DrinkID: "negroni", At: evening.Add(-3 * time.Hour), StandardDrinks: 1.5}, {DrinkID: "gone-from-the-menu"}},
			first: []string{"negroni", "aperol-spritz", "mai-tai", "whiskey-sour", "white-russian"},
			never: []string{"espresso-martini"},
			reason: map[string]string{
				"negroni":       "You have enjoyed it before.",
				"aperol-spritz": "Close to the Negroni you ordered before.",
			},
			fits: true,
		},
		{
			name: "after a few drinks within the hour, an alcohol-free one first",
			past: []ai.PastOrder{
				{DrinkID: "negroni", At: evening.Add(-40 * time.Minute), StandardDrinks: 1.5},
				{DrinkID: "mai-tai", At: evening.Add(-10 * time.Minute), StandardDrinks: 1.5},
			},
			prefs: ai.Preferences{Likes: []string{"bitter"}},
			first: []string{"garden-spritz", "lemonade", "virgin-colada"},
			fits:  true,
		},
		{
			name:  "a dietary answer that rules out alcohol is respected",
			guest: ai.Guest{DietaryTags: []string{"pregnant"}},
			prefs: ai.Preferences{Likes: []string{"strong"}},
			only:  []string{"garden-spritz", "lemonade", "virgin-colada"},
			reason: map[string]string{
				"garden-spritz": "A good place to start: fresh and floral, with elderflower cordial and soda water — and alcohol-free.",
			},
		},
		{
			name:  "the designated driver gets alcohol-free drinks",
			guest: ai.Guest{DietaryText: "designated driver tonight"},
			only:  []string{"garden-spritz", "lemonade", "virgin-colada"},
			fits:  true,
		},
		{
			name:  "nothing left to offer: no picks, never a refused drink",
			guest: ai.Guest{DietaryTags: []string{"alcohol-free"}},
			prefs: ai.Preferences{Dislikes: []string{"sweet", "fresh"}},
			n:     -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(12) {
				a := ask(testMenu, tt.guest, tt.prefs, tt.past, seed)
				got := ids(a.Picks)
				n := tt.n
				if n == 0 {
					n = ai.MaxPicks
				}
				if len(got) != max(n, 0) {
					t.Fatalf("seed %d: picks %v, want %d", seed, got, max(n, 0))
				}
				if a.Fits != tt.fits {
					t.Errorf("seed %d: fits %v, want %v", seed, a.Fits, tt.fits)
				}
				for i, p := range a.Picks {
					if p.Reason == "" || !strings.HasSuffix(p.Reason, ".") {
						t.Errorf("%s: reason %q is not a sentence", p.Drink.ID, p.Reason)
					}
					if want, ok := tt.reason[p.Drink.ID]; ok && p.Reason != want {
						t.Errorf("seed %d: %s: reason %q, want %q", seed, p.Drink.ID, p.Reason, want)
					}
					if i < len(tt.top) && !slices.Contains(tt.top, p.Drink.ID) {
						t.Errorf("seed %d: pick %d is %s, want one of %v (%v)", seed, i, p.Drink.ID, tt.top, got)
					}
					if tt.only != nil && !slices.Contains(tt.only, p.Drink.ID) {
						t.Errorf("seed %d: %s picked, want only %v", seed, p.Drink.ID, tt.only)
					}
					if slices.Contains(tt.never, p.Drink.ID) {
						t.Errorf("seed %d: %s recommended", seed, p.Drink.ID)
					}
				}
				if tt.first != nil && len(got) > 0 && !slices.Contains(tt.first, got[0]) {
					t.Errorf("seed %d: first pick %s, want one of %v", seed, got[0], tt.first)
				}
			}
		})
	}
}

// Reproduction: the local recommender gave the same answer every time
// and, with no taste match, the alphabetically first drinks.
func TestRecommendLocalVaries(t *testing.T) {
	for _, p := range []ai.Preferences{{}, {Likes: []string{"sweet"}}, {Likes: []string{"smoky"}}} {
		answers := map[string]bool{}
		firsts := map[string]bool{}
		for seed := range uint64(20) {
			got := ids(ask(testMenu, ai.Guest{}, p, nil, seed).Picks)
			answers[strings.Join(got, ",")] = true
			firsts[got[0]] = true
		}
		if len(answers) < 3 {
			t.Errorf("%+v: %d different answers in 20 asks, want variety: %v", p, len(answers), answers)
		}
		if len(p.Likes) == 0 || p.Likes[0] == "smoky" {
			// No match at all: not merely the alphabetically first.
			if len(firsts) < 3 {
				t.Errorf("%+v: the first pick is always one of %v", p, firsts)
			}
		}
	}
	a := ask(testMenu, ai.Guest{}, ai.Preferences{Likes: []string{"smoky"}}, nil, 1)
	if a.Fits {
		t.Error("nothing smoky on the menu, yet the answer fits")
	}
}

func TestSurpriseMeSpreadsAcrossSections(t *testing.T) {
	for seed := range uint64(10) {
		a := ask(testMenu, ai.Guest{}, ai.Preferences{Mood: "surprise me!"}, nil, seed)
		sections := map[string]bool{}
		for _, p := range a.Picks {
			sections[p.Drink.Section] = true
		}
		if len(a.Picks) != ai.MaxPicks || len(sections) != ai.MaxPicks || !a.Fits {
			t.Errorf("seed %d: %v from %d sections (fits %v)", seed, ids(a.Picks), len(sections), a.Fits)
		}
	}
}

func TestRecommendLocalIgnoresMenuOrder(t *testing.T) {
	menu := slices.Clone(testMenu)
	slices.Reverse(menu)
	for seed := range uint64(5) {
		a := ids(ask(testMenu, ai.Guest{}, ai.Preferences{Likes: []string{"fruity"}}, nil, seed).Picks)
		b := ids(ask(menu, ai.Guest{}, ai.Preferences{Likes: []string{"fruity"}}, nil, seed).Picks)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d: menu order changed the answer: %v vs %v", seed, a, b)
		}
	}
}

// Reproduction: the house recommender read moods only in English and
// wrote its reasons in English, whatever the guest's page showed. A guest
// who asks in Swedish or Portuguese is understood (tastes, moods, and the
// tastes they turn down) and answered in their language.
func TestRecommendLocalInTheGuestsLanguage(t *testing.T) {
	sourOrFresh := []string{"whiskey-sour", "garden-spritz", "moscow-mule"}
	sweet := []string{"lemonade", "virgin-colada", "mai-tai", "white-russian"}
	tests := []struct {
		name   string
		guest  ai.Guest
		prefs  ai.Preferences
		past   []ai.PastOrder
		only   []string
		never  []string
		first  []string
		reason map[string]string // drink id → the whole reason
	}{
		{
			name:  "Swedish: something fresh and sour, nothing sweet",
			prefs: ai.Preferences{Mood: "något friskt och surt, inget sött", Language: "sv"},
			only:  sourOrFresh,
			never: sweet,
			reason: map[string]string{
				"whiskey-sour":  "Syrlig – precis som du gillar.",
				"garden-spritz": "Frisk – precis som du gillar.",
				"moscow-mule":   "Frisk – precis som du gillar.",
			},
		},
		{
			name:  "Swedish without the ring above, as a foreign keyboard types it",
			prefs: ai.Preferences{Mood: "nagot frascht och surt, inget sott", Language: "sv"},
			only:  sourOrFresh,
			never: sweet,
		},
		{
			name:  "Brazilian Portuguese: something refreshing and sour, nothing sweet",
			prefs: ai.Preferences{Mood: "algo refrescante e azedo, nada doce", Language: "pt-BR"},
			only:  sourOrFresh,
			never: sweet,
			reason: map[string]string{
				"whiskey-sour":  "Ácido, do jeito que você gosta.",
				"garden-spritz": "Refrescante, do jeito que você gosta.",
				"moscow-mule":   "Refrescante, do jeito que você gosta.",
			},
		},
		{
			name:  "English reads the negation too",
			prefs: ai.Preferences{Mood: "something fresh and sour, nothing sweet"},
			only:  sourOrFresh,
			never: sweet,
			reason: map[string]string{
				"whiskey-sour": "Sour, just what you like.",
				"moscow-mule":  "Fresh, just what you like.",
			},
		},
		{
			name:   "a taste chip (sent in English) answered in Swedish, tags translated",
			prefs:  ai.Preferences{Likes: []string{"bitter", "sparkling"}, Language: "sv"},
			first:  []string{"aperol-spritz"},
			reason: map[string]string{"aperol-spritz": "Besk och bubblig – precis som du gillar."},
		},
		{
			name:   "a Swedish dislike typed in the guest's words",
			prefs:  ai.Preferences{Dislikes: []string{"beska"}, Language: "sv"},
			never:  []string{"negroni", "aperol-spritz"},
			reason: map[string]string{},
		},
		{
			name:   "a Portuguese mood: celebrating",
			prefs:  ai.Preferences{Mood: "Comemorando meu aniversário!", Language: "pt-BR"},
			first:  []string{"aperol-spritz", "mai-tai", "virgin-colada", "lemonade", "garden-spritz"},
			reason: map[string]string{"mai-tai": "Perfeito para o clima de festa."},
		},
		{
			name:   "a Swedish mood: cosy",
			prefs:  ai.Preferences{Mood: "en mysig kväll, det är kallt ute", Language: "sv"},
			reason: map[string]string{"white-russian": "Som gjord för en mysig kväll."},
		},
		{
			name:  "past orders, in Portuguese",
			past:  []ai.PastOrder{{DrinkID: "negroni", At: evening.Add(-3 * time.Hour), StandardDrinks: 1.5}},
			prefs: ai.Preferences{Language: "pt-BR"},
			reason: map[string]string{
				"negroni":       "Você já curtiu esse antes.",
				"aperol-spritz": "Parecido com o Negroni que você pediu antes.",
			},
		},
		{
			name:  "nothing particular, in Swedish: tastes and the starter menu's ingredients translated",
			guest: ai.Guest{DietaryTags: []string{"pregnant"}},
			prefs: ai.Preferences{Likes: []string{"strong"}, Language: "sv"},
			only:  []string{"garden-spritz", "lemonade", "virgin-colada"},
			reason: map[string]string{
				"garden-spritz": "En bra början: frisk och blommig, med fläderblomssaft och sodavatten – och alkoholfri.",
			},
		},
		{
			name: "pacing, in Portuguese",
			past: []ai.PastOrder{
				{DrinkID: "negroni", At: evening.Add(-40 * time.Minute), StandardDrinks: 1.5},
				{DrinkID: "mai-tai", At: evening.Add(-10 * time.Minute), StandardDrinks: 1.5},
			},
			prefs:  ai.Preferences{Language: "pt-BR"},
			first:  []string{"garden-spritz", "lemonade", "virgin-colada"},
			reason: map[string]string{"garden-spritz": "Um sem álcool, para ir no seu ritmo."},
		},
		{
			name:   "a language barhub does not speak: English",
			prefs:  ai.Preferences{Likes: []string{"bitter"}, Language: "de"},
			reason: map[string]string{"negroni": "Bitter, just what you like."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[string]bool{}
			for seed := range uint64(12) {
				a := ai.Recommend(ai.LocalInput{Menu: testMenu, Guest: tt.guest, Prefs: tt.prefs, Past: tt.past, Now: evening, Texts: texts}, rand.New(rand.NewPCG(seed, 7)))
				if len(a.Picks) == 0 {
					t.Fatalf("seed %d: no picks", seed)
				}
				for _, p := range a.Picks {
					seen[p.Drink.ID] = true
					if tt.only != nil && !slices.Contains(tt.only, p.Drink.ID) {
						t.Errorf("seed %d: %s picked, want only %v", seed, p.Drink.ID, tt.only)
					}
					if slices.Contains(tt.never, p.Drink.ID) {
						t.Errorf("seed %d: %s recommended", seed, p.Drink.ID)
					}
					if want, ok := tt.reason[p.Drink.ID]; ok && p.Reason != want {
						t.Errorf("seed %d: %s: reason %q, want %q", seed, p.Drink.ID, p.Reason, want)
					}
				}
				if tt.first != nil && !slices.Contains(tt.first, a.Picks[0].Drink.ID) {
					t.Errorf("seed %d: first pick %s, want one of %v", seed, a.Picks[0].Drink.ID, tt.first)
				}
			}
			// The reasons checked were written at least once.
			for id := range tt.reason {
				if !seen[id] {
					t.Errorf("%s never picked in 12 asks, so its reason was not checked", id)
				}
			}
		})
	}
}

// "Surprise me" in Swedish and Portuguese spreads over the menu as in English.
func TestSurpriseMeInEveryLanguage(t *testing.T) {
	for _, mood := range []string{"överraska mig!", "me surpreenda", "surpreenda-me"} {
		for seed := range uint64(6) {
			a := ask(testMenu, ai.Guest{}, ai.Preferences{Mood: mood}, nil, seed)
			sections := map[string]bool{}
			for _, p := range a.Picks {
				sections[p.Drink.Section] = true
			}
			if len(sections) != ai.MaxPicks {
				t.Errorf("%q, seed %d: %v from %d sections", mood, seed, ids(a.Picks), len(sections))
			}
		}
	}
}
