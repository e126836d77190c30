package ai

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// spiritFamily is a base spirit under all the names a guest or a recipe
// may give it, and the liqueurs made on it. A guest who dislikes
// "whiskey" does not want a bourbon drink, nor one with Drambuie; a guest
// who loves "whisky" is looking for exactly those.
type spiritFamily struct {
	name     string
	words    []string
	liqueurs []string
}

var spiritFamilies = []spiritFamily{
	{"whisky", []string{"whisky", "whiskey", "whiskies", "whiskeys", "bourbon", "rye", "scotch"},
		[]string{"drambuie", "irish cream", "baileys", "southern comfort", "fireball", "glayva", "irish mist"}},
	{"gin", []string{"gin", "gins", "genever", "jenever"}, []string{"sloe gin"}},
	{"tequila", []string{"tequila", "tequilas", "mezcal", "mescal"}, nil},
	{"rum", []string{"rum", "rums", "rhum", "cachaca"},
		[]string{"kahlua", "malibu", "tia maria", "allspice dram", "pimento dram", "velvet falernum"}},
	{"vodka", []string{"vodka", "vodkas"}, nil},
	{"brandy", []string{"brandy", "brandies", "cognac", "pisco", "armagnac", "calvados", "applejack", "grappa"},
		[]string{"grand marnier", "chambord", "mandarine napoleon"}},
	// Not spirits, but named by so many brands that a guest who dislikes
	// coffee dislikes all of them.
	{"coffee", []string{"coffee", "espresso", "cold brew"}, []string{"kahlua", "tia maria"}},
}

// spiritFamilyOf returns the family a guest's word names, if any.
func spiritFamilyOf(term string) (spiritFamily, bool) {
	t := strings.Join(words(fold(term)), " ")
	for _, f := range spiritFamilies {
		if slices.Contains(f.words, t) || slices.Contains(f.liqueurs, t) {
			return f, true
		}
	}
	return spiritFamily{}, false
}

// holds returns the first ingredient (or the name) of d that belongs to f.
func (f spiritFamily) holds(d Drink) (string, bool) {
	for _, s := range append(slices.Clone(d.Ingredients), d.Name) {
		for _, w := range append(slices.Clone(f.words), f.liqueurs...) {
			if containsWords(fold(s), w) {
				return strings.ToLower(s), true
			}
		}
	}
	return "", false
}

// fold lower-cases s and strips accents, so "Cachaça" meets "cachaca" and
// "Kahlúa" meets "kahlua".
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dislikedBy returns why a guest with dislikes does not want d ("disliked
// "whisky": bourbon"), or "" when they may like it. A disliked word
// matches a tag or a tag of the same taste ("sweet", "sugary"), an
// ingredient or a word of the name, and a spirit by its whole family.
// Both recommenders, and the check of the model's picks, use it.
func dislikedBy(d Drink, dislikes []string) string {
	for _, term := range dislikes {
		if w, label := termMatch(d, term); w > 0 {
			return "the guest dislikes " + strings.ToLower(strings.TrimSpace(term)) + " (" + label + ")"
		}
	}
	return ""
}
