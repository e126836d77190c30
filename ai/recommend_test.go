package ai_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/ai"
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

func TestRecommendLocalRanking(t *testing.T) {
	tests := []struct {
		name  string
		guest ai.Guest
		prefs ai.Preferences
		past  []string
		// want is the exact ranking; never lists drinks that must not appear.
		want   []string
		never  []string
		reason map[string]string // drink id → the whole reason
	}{
		{
			name:   "a liked taste ranks its drinks first, ties by name",
			prefs:  ai.Preferences{Likes: []string{"bitter"}},
			want:   []string{"aperol-spritz", "negroni", "garden-spritz"},
			never:  []string{"espresso-martini"},
			reason: map[string]string{"negroni": "Bitter, just what you like."},
		},
		{
			name:   "alcohol-free asked: only alcohol-free drinks",
			prefs:  ai.Preferences{Likes: []string{"sweet"}, AlcoholFree: true},
			want:   []string{"lemonade", "virgin-colada", "garden-spritz"},
			reason: map[string]string{"virgin-colada": "Sweet, just what you like — and alcohol-free."},
		},
		{
			name:  "a nut allergy excludes the drink with orgeat, though it is not tagged",
			guest: ai.Guest{DietaryTags: []string{"nuts"}},
			prefs: ai.Preferences{Likes: []string{"fruity", "sweet"}},
			want:  []string{"virgin-colada", "aperol-spritz", "lemonade"},
			never: []string{"mai-tai"},
		},
		{
			name:  "vegan in free text excludes egg and dairy but not coconut cream",
			guest: ai.Guest{DietaryText: "I'm vegan, thanks!"},
			prefs: ai.Preferences{Likes: []string{"sour", "creamy"}},
			want:  []string{"lemonade", "virgin-colada", "aperol-spritz"},
			never: []string{"whiskey-sour", "white-russian"},
		},
		{
			name:  "a disliked ingredient rules a drink out; gin is not in ginger beer",
			prefs: ai.Preferences{Likes: []string{"spicy", "bitter"}, Dislikes: []string{"gin"}},
			want:  []string{"aperol-spritz", "moscow-mule", "garden-spritz"},
			never: []string{"negroni"},
		},
		{
			name:   "a related taste word counts, less than the tag itself",
			prefs:  ai.Preferences{Likes: []string{"citrusy"}},
			want:   []string{"lemonade", "whiskey-sour", "aperol-spritz"},
			reason: map[string]string{"lemonade": "Sour, just what you like."},
		},
		{
			name:   "a festive mood favours sparkling, fruity and sweet",
			prefs:  ai.Preferences{Mood: "Celebrating tonight!"},
			want:   []string{"aperol-spritz", "mai-tai", "virgin-colada"},
			reason: map[string]string{"mai-tai": "Made for a festive mood."},
		},
		{
			name:  "a hot day: fresh, light drinks",
			prefs: ai.Preferences{Mood: "hot day, I want something refreshing"},
			want:  []string{"garden-spritz", "lemonade", "moscow-mule"},
		},
		{
			name: "past orders: the same drink again, then drinks like it",
			past: []string{"negroni", "negroni", "gone-from-the-menu"},
			want: []string{"negroni", "aperol-spritz", "mai-tai"},
			reason: map[string]string{
				"negroni":       "You have enjoyed it before.",
				"aperol-spritz": "Close to the Negroni you ordered before.",
			},
		},
		{
			name:  "an ingredient liked; the drink out of stock is skipped",
			prefs: ai.Preferences{Likes: []string{"coffee"}},
			want:  []string{"white-russian", "aperol-spritz", "garden-spritz"},
			never: []string{"espresso-martini"},
		},
		{
			name:  "tastes from the RSVP count without a request",
			guest: ai.Guest{Likes: []string{"creamy"}},
			want:  []string{"virgin-colada", "white-russian", "aperol-spritz"},
		},
		{
			name:  "a dietary answer that rules out alcohol is respected",
			guest: ai.Guest{DietaryTags: []string{"pregnant"}},
			prefs: ai.Preferences{Likes: []string{"strong"}},
			want:  []string{"garden-spritz", "lemonade", "virgin-colada"},
			never: []string{"negroni", "mai-tai", "white-russian"},
			reason: map[string]string{
				"garden-spritz": "A good place to start: fresh and floral, with elderflower cordial and soda water — and alcohol-free.",
			},
		},
		{
			name:  "nothing left to offer: fewer picks, never a refused drink",
			guest: ai.Guest{DietaryTags: []string{"alcohol-free"}},
			prefs: ai.Preferences{Dislikes: []string{"sweet", "fresh"}},
			want:  []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			picks := ai.RecommendLocal(testMenu, tt.guest, tt.prefs, tt.past)
			got := make([]string, len(picks))
			for i, p := range picks {
				got[i] = p.Drink.ID
				if p.Reason == "" || !strings.HasSuffix(p.Reason, ".") {
					t.Errorf("%s: reason %q is not a sentence", p.Drink.ID, p.Reason)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ranking %v, want %v", got, tt.want)
				for _, p := range picks {
					t.Logf("  %s %.1f %q", p.Drink.ID, p.Score, p.Reason)
				}
			}
			for _, id := range tt.never {
				if slices.Contains(got, id) {
					t.Errorf("%s recommended", id)
				}
			}
			for id, want := range tt.reason {
				i := slices.Index(got, id)
				if i < 0 {
					continue
				}
				if picks[i].Reason != want {
					t.Errorf("%s: reason %q, want %q", id, picks[i].Reason, want)
				}
			}
		})
	}
}

func TestRecommendLocalIsDeterministic(t *testing.T) {
	menu := slices.Clone(testMenu)
	slices.Reverse(menu)
	a := ai.RecommendLocal(testMenu, ai.Guest{}, ai.Preferences{}, nil)
	b := ai.RecommendLocal(menu, ai.Guest{}, ai.Preferences{}, nil)
	if len(a) != ai.MaxPicks || len(b) != ai.MaxPicks {
		t.Fatalf("%d and %d picks, want %d", len(a), len(b), ai.MaxPicks)
	}
	for i := range a {
		if a[i].Drink.ID != b[i].Drink.ID {
			t.Fatalf("menu order changed the answer: %s vs %s at %d", a[i].Drink.ID, b[i].Drink.ID, i)
		}
	}
}
