package diet

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRead(t *testing.T) {
	tests := []struct {
		lang, text string
		tags       []string
		unclear    []string
	}{
		// English
		{"en", "nut allergy", []string{Nuts}, nil},
		{"en", "My son: nut allergy", []string{Nuts}, nil},
		{"en", "no eggwhite please", []string{Eggs}, nil},
		{"en", "allergic to anchovies", []string{Fish}, nil},
		{"en", "dairy-free", []string{Milk}, nil},
		{"en", "I'm the designated driver tonight", []string{AlcoholFree, Driving}, nil},
		{"en", "I'm driving", []string{AlcoholFree, Driving}, nil},
		{"en", "pregnant", []string{AlcoholFree, Pregnant}, nil},
		{"en", "not drinking tonight", []string{AlcoholFree}, nil},
		{"en", "I don't drink", []string{AlcoholFree}, nil},
		{"en", "coeliac, and lactose intolerant", []string{Gluten, Milk}, nil},
		{"en", "shellfish", []string{Crustaceans, Molluscs}, nil},
		{"en", "vegan", []string{Vegan}, nil},
		{"en", "halal please", []string{Halal}, nil},
		{"en", "peanuts and sesame", []string{Peanuts, Sesame}, nil},
		{"en", "sulfites (wine gives me headaches)", []string{Sulphites}, []string{"wine gives me headaches"}},
		{"en", "no coriander", nil, []string{"no coriander"}},
		{"en", "nut allergy, and no coriander please", []string{Nuts}, []string{"no coriander please"}},
		{"en", "allergic to kiwi", nil, []string{"allergic to kiwi"}},
		{"en", "nutmeg", nil, []string{"nutmeg"}},
		{"en", "coconut allergy", nil, []string{"coconut allergy"}},
		// Typos
		{"en", "glutten free", []string{Gluten}, nil},
		{"en", "penauts", []string{Peanuts}, nil},
		{"en", "allergic to almnds", []string{Nuts}, nil},
		{"en", "diary free", []string{Milk}, nil},
		{"en", "pregant", []string{AlcoholFree, Pregnant}, nil},
		{"en", "alergic to shrimp", []string{Crustaceans}, nil},
		// Swedish
		{"sv", "nötallergi", []string{Nuts}, nil},
		{"sv", "Nötallergi", []string{Nuts}, nil},
		{"sv", "notallergi", []string{Nuts}, nil},
		{"sv", "jordnötsallergi", []string{Peanuts}, nil},
		{"sv", "laktosintolerant", []string{Milk}, nil},
		{"sv", "glutenfri", []string{Gluten}, nil},
		{"sv", "jag kör bil", []string{AlcoholFree, Driving}, nil},
		{"sv", "jag är gravid", []string{AlcoholFree, Pregnant}, nil},
		{"sv", "jag dricker inte", []string{AlcoholFree}, nil},
		{"sv", "allergisk mot ägg och selleri", []string{Eggs, Celery}, nil},
		{"sv", "skaldjur", []string{Crustaceans, Molluscs}, nil},
		{"sv", "mjölkallergi", []string{Milk}, nil},
		// German
		{"de", "glutenfrei", []string{Gluten}, nil},
		{"de", "Nussallergie", []string{Nuts}, nil},
		{"de", "Erdnussallergie", []string{Peanuts}, nil},
		{"de", "Laktoseintoleranz", []string{Milk}, nil},
		{"de", "ich bin schwanger", []string{AlcoholFree, Pregnant}, nil},
		{"de", "ich fahre heute", []string{AlcoholFree, Driving}, nil},
		{"de", "keine Milch, kein Ei bitte", []string{Eggs, Milk}, nil},
		{"de", "allergisch gegen Senf", []string{Mustard}, nil},
		{"de", "vegetarisch", []string{Vegetarian}, nil},
		// French
		{"fr", "allergie aux noix", []string{Nuts}, nil},
		{"fr", "sans gluten", []string{Gluten}, nil},
		{"fr", "je suis enceinte", []string{AlcoholFree, Pregnant}, nil},
		{"fr", "je ne bois pas", []string{AlcoholFree}, nil},
		{"fr", "allergique aux arachides", []string{Peanuts}, nil},
		{"fr", "pas de fruits de mer", []string{Crustaceans, Molluscs}, nil},
		{"fr", "intolérant au lactose", []string{Milk}, nil},
		{"fr", "allergie aux œufs", []string{Eggs}, nil},
		// Spanish
		{"es", "sin gluten", []string{Gluten}, nil},
		{"es", "alergia a los frutos secos", []string{Nuts}, nil},
		{"es", "estoy embarazada", []string{AlcoholFree, Pregnant}, nil},
		{"es", "no bebo alcohol", []string{AlcoholFree}, nil},
		{"es", "sin leche ni huevo", []string{Eggs, Milk}, nil},
		{"es", "alérgico al cacahuete", []string{Peanuts}, nil},
		{"es", "soy vegano", []string{Vegan}, nil},
		{"es", "soy celíaca", []string{Gluten}, nil},
		{"en", "soy allergy", []string{Soy}, nil},
		{"es", "alergia al marisco", []string{Crustaceans, Molluscs}, nil},
		// Portuguese
		{"pt", "sem lactose", []string{Milk}, nil},
		{"pt", "sem glúten", []string{Gluten}, nil},
		{"pt", "alergia a amendoim", []string{Peanuts}, nil},
		{"pt", "estou grávida", []string{AlcoholFree, Pregnant}, nil},
		{"pt", "sou grávida", []string{AlcoholFree, Pregnant}, nil},
		{"pt", "não bebo", []string{AlcoholFree}, nil},
		{"pt", "vou dirigir", []string{AlcoholFree, Driving}, nil},
		{"pt", "alergia a nozes e camarão", []string{Crustaceans, Nuts}, nil},
		{"pt", "intolerância à lactose", []string{Milk}, nil},
		// Nothing
		{"", "", nil, nil},
		{"", "   ", nil, nil},
		{"", "none", nil, nil},
	}
	for _, tt := range tests {
		got := Read(tt.text)
		want := slices.Clone(tt.tags)
		slices.SortFunc(want, tagOrder)
		if !slices.Equal(got.Tags, want) || !slices.Equal(got.Unclear, tt.unclear) {
			t.Errorf("%s: Read(%q) = %+v, want tags %q unclear %q", tt.lang, tt.text, got, want, tt.unclear)
		}
	}
}

func TestWithinOne(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"gluten", "gluten", true}, {"gluten", "glutten", true}, {"gluten", "gluen", true}, {"gluten", "glutan", true},
		{"peanut", "penaut", true}, {"gluten", "gultne", false}, {"almond", "alomnd", true}, {"almond", "lamond", true},
		{"almond", "almonds", true}, {"almond", "almondss", false}, {"almond", "xlmonx", false},
	}
	for _, tt := range tests {
		if got := withinOne([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("withinOne(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzRead checks Read never panics, only returns canonical tags, and
// returns unclear parts that are pieces of the text.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"nötallergi", "no eggwhite please", "I'm the designated driver", "sin gluten, y sin leche",
		"allergie aux noix", "…", "a\x00b", "Nüsse!!", "ß", strings.Repeat("nut ", 200),
		"ei alkoholia", "senza glutine", "kein Ei", "nøddeallergi, uden gluten", "ik ben de BOB", "prendo il Flagyl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Read(s)
		for _, tag := range r.Tags {
			if !IsTag(tag) {
				t.Fatalf("Read(%q) gave tag %q", s, tag)
			}
		}
		for _, u := range r.Unclear {
			if u == "" || !utf8.ValidString(u) && utf8.ValidString(s) || utf8.RuneCountInString(u) > maxPart {
				t.Fatalf("Read(%q) gave unclear part %q", s, u)
			}
		}
		n := Normalize(Needs{Text: s})
		if utf8.RuneCountInString(n.Text) > MaxText || !slices.Equal(Normalize(n).Tags, n.Tags) {
			t.Fatalf("Normalize(%q) = %+v, not stable", s, n)
		}
	})
}
