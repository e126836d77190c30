// Package diet is barhub's one reading of what a person cannot or will not
// have, and its one rule for whether a drink is safe for them.
//
// A person's needs are canonical tags (the EU's fourteen allergens as the
// menu names them, the diets, "alcohol-free" and the reasons that imply
// it: pregnant, breastfeeding, medicine, driving) plus the free text they
// wrote. Read turns free text in several languages into tags; whatever it
// does not understand is kept as Unclear, for the host to look at, and is
// never turned into a tag no check uses. Check is the rule every path
// (menu badges, ordering, the door, the shopping plan, recommendations)
// asks.
package diet

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The canonical allergens: the fourteen the EU requires on menus, named as
// the menu names them.
const (
	Gluten      = "gluten"
	Crustaceans = "crustaceans"
	Eggs        = "eggs"
	Fish        = "fish"
	Peanuts     = "peanuts"
	Soy         = "soy"
	Milk        = "milk"
	Nuts        = "nuts"
	Celery      = "celery"
	Mustard     = "mustard"
	Sesame      = "sesame"
	Sulphites   = "sulphites"
	Lupin       = "lupin"
	Molluscs    = "molluscs"
)

// The diets and the one drinking need.
const (
	Vegan       = "vegan"
	Vegetarian  = "vegetarian"
	Halal       = "halal"
	Kosher      = "kosher"
	AlcoholFree = "alcohol-free"
)

// The reasons a person takes no alcohol, kept as tags of their own so the
// host's report and the chips say why ("pregnant", not just "no
// alcohol"). Each implies AlcoholFree: Read and Normalize add it beside
// them, and Check enforces it even without.
const (
	Pregnant      = "pregnant"
	Breastfeeding = "breastfeeding"
	// Medicine is a medicine that forbids alcohol: disulfiram (Antabus),
	// metronidazole (Flagyl), tinidazole, "on antibiotics".
	Medicine = "medicine"
	// Driving is driving tonight: the designated driver.
	Driving = "driving"
)

// Contents a drink can have that are not among the fourteen but that
// diets rule out.
const (
	Honey   = "honey"
	Gelatin = "gelatin"
)

var allergens = []string{Gluten, Crustaceans, Eggs, Fish, Peanuts, Soy, Milk, Nuts, Celery, Mustard, Sesame, Sulphites, Lupin, Molluscs}

var diets = []string{Vegan, Vegetarian, Halal, Kosher}

var noAlcoholReasons = []string{Pregnant, Breastfeeding, Medicine, Driving}

// Allergens returns the fourteen canonical allergens, in the EU's order.
func Allergens() []string { return slices.Clone(allergens) }

// Diets returns the diets barhub checks.
func Diets() []string { return slices.Clone(diets) }

// NoAlcoholReasons returns the tags that say why a person takes no
// alcohol (pregnant, breastfeeding, medicine, driving).
func NoAlcoholReasons() []string { return slices.Clone(noAlcoholReasons) }

// Tags returns every canonical tag: the allergens, the diets,
// "alcohol-free" and the reasons for it.
func Tags() []string {
	return append(append(append(Allergens(), diets...), AlcoholFree), noAlcoholReasons...)
}

// IsTag reports whether t is a canonical tag.
func IsTag(t string) bool {
	return slices.Contains(allergens, t) || slices.Contains(diets, t) || t == AlcoholFree || slices.Contains(noAlcoholReasons, t)
}

// NoAlcohol reports whether tag t means the person takes no alcohol:
// "alcohol-free" or one of its reasons.
func NoAlcohol(t string) bool { return t == AlcoholFree || slices.Contains(noAlcoholReasons, t) }

// withImplied adds "alcohol-free" to tags that give a reason for it.
func withImplied(tags []string) []string {
	if slices.ContainsFunc(tags, NoAlcohol) {
		tags = appendNew(tags, AlcoholFree)
	}
	return tags
}

// IsAllergen reports whether t is one of the fourteen allergens.
func IsAllergen(t string) bool { return slices.Contains(allergens, t) }

// Limits on what is kept of one person's needs.
const (
	MaxText    = 500
	maxUnclear = 12
	maxPart    = 120
)

// Needs is one person's needs.
type Needs struct {
	// Tags are canonical (see Tags).
	Tags []string `bson:"tags,omitempty" json:"tags,omitempty"`
	// Text is what the person wrote, as they wrote it.
	Text string `bson:"text,omitempty" json:"text,omitempty"`
	// Unclear are the parts of Text (or tags) not understood: they need
	// the host's eyes.
	Unclear []string `bson:"unclear,omitempty" json:"unclear,omitempty"`
	// Reviewed is set when the host confirmed or corrected the tags; the
	// tags are then taken as they are and nothing is unclear.
	Reviewed bool `bson:"reviewed,omitempty" json:"reviewed,omitempty"`
	// Answered are the parts of Unclear the person answered themselves,
	// by choosing the tags that apply (which are in Tags): barhub no
	// longer takes care over them, though the host may still look.
	Answered []string `bson:"answered,omitempty" json:"answered,omitempty"`
}

// Empty reports whether the person has no need at all.
func (n Needs) Empty() bool {
	return len(n.Tags) == 0 && len(n.Unclear) == 0 && strings.TrimSpace(n.Text) == ""
}

// NeedsReview reports whether some of the needs were not understood and
// the host has not looked at them yet.
func (n Needs) NeedsReview() bool { return !n.Reviewed && len(n.Unclear) > 0 }

// Unread are the parts of the needs barhub could not read that neither
// the person nor the host has answered yet: until they do, Check takes
// care over every drink with one of the fourteen allergens or alcohol.
func (n Needs) Unread() []string {
	if n.Reviewed {
		return nil
	}
	var out []string
	for _, u := range n.Unclear {
		if !slices.Contains(n.Answered, u) {
			out = append(out, u)
		}
	}
	return out
}

// Has reports whether the needs carry the tag t.
func (n Needs) Has(t string) bool { return slices.Contains(n.Tags, t) }

// Normalize cleans n: the text trimmed and bounded, the tags mapped to
// canonical ones (legacy "other" dropped, synonyms such as "dairy" read as
// "milk"), and, unless the host reviewed them, the tags Read finds in the
// text added. A tag or text part not understood goes to Unclear, never to
// a silent catch-all tag.
func Normalize(n Needs) Needs {
	out := Needs{Text: truncate(strings.TrimSpace(n.Text), MaxText), Reviewed: n.Reviewed}
	var tags, unclear []string
	for _, t := range n.Tags {
		t = strings.Join(strings.Fields(strings.ToLower(t)), " ")
		switch {
		case t == "" || t == "other":
		case IsTag(t):
			tags = appendNew(tags, t)
		default:
			r := Read(t)
			tags = appendNew(tags, r.Tags...)
			unclear = appendNew(unclear, r.Unclear...)
		}
	}
	if !out.Reviewed {
		r := Read(out.Text)
		tags = appendNew(tags, r.Tags...)
		unclear = appendNew(unclear, r.Unclear...)
		for _, u := range n.Unclear {
			if u = truncate(strings.TrimSpace(u), maxPart); u != "" && strings.Contains(out.Text, u) {
				unclear = appendNew(unclear, u)
			}
		}
		for _, a := range n.Answered {
			if slices.Contains(unclear, a) {
				out.Answered = appendNew(out.Answered, a)
			}
		}
	} else {
		unclear = nil
	}
	tags = withImplied(tags)
	slices.SortFunc(tags, tagOrder)
	out.Tags = tags
	if len(unclear) > maxUnclear {
		unclear = unclear[:maxUnclear]
	}
	out.Unclear = unclear
	return out
}

// tagOrder sorts tags as the lists present them: allergens in the EU's
// order, then diets, then alcohol-free and its reasons.
func tagOrder(a, b string) int {
	return tagRank(a) - tagRank(b)
}

func tagRank(t string) int {
	if i := slices.Index(allergens, t); i >= 0 {
		return i
	}
	if i := slices.Index(diets, t); i >= 0 {
		return len(allergens) + i
	}
	if i := slices.Index(noAlcoholReasons, t); i >= 0 {
		return len(allergens) + len(diets) + 1 + i
	}
	return len(allergens) + len(diets)
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if it != "" && !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// truncate cuts s to at most n characters (the limits people are told are
// in characters) and drops the spaces it leaves at the end.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return strings.TrimRightFunc(s[:i], unicode.IsSpace)
}
