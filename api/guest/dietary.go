package guest

import (
	"slices"
	"strings"
	"unicode"
)

// Dietary tags. The allergens are the EU's fourteen, named as the drink
// menu names allergens, so a drink can be checked against a guest's
// answer; the rest are diets.
const (
	TagOther     = "other"
	TagNoAlcohol = "alcohol-free"
)

// dietaryWords maps words (and short phrases) people write to tags.
var dietaryWords = map[string]string{
	"gluten": "gluten", "wheat": "gluten", "coeliac": "gluten", "celiac": "gluten", "barley": "gluten", "rye": "gluten",
	"crustacean": "crustaceans", "crustaceans": "crustaceans", "shrimp": "crustaceans", "prawn": "crustaceans", "prawns": "crustaceans", "crab": "crustaceans", "lobster": "crustaceans", "shellfish": "crustaceans",
	"egg": "eggs", "eggs": "eggs",
	"fish":   "fish",
	"peanut": "peanuts", "peanuts": "peanuts",
	"soy": "soy", "soya": "soy", "soybean": "soy", "soybeans": "soy",
	"milk": "milk", "dairy": "milk", "lactose": "milk", "cream": "milk",
	"nut": "nuts", "nuts": "nuts", "almond": "nuts", "almonds": "nuts", "hazelnut": "nuts", "hazelnuts": "nuts", "walnut": "nuts", "walnuts": "nuts",
	"cashew": "nuts", "cashews": "nuts", "pistachio": "nuts", "pistachios": "nuts", "pecan": "nuts", "pecans": "nuts",
	"celery":   "celery",
	"mustard":  "mustard",
	"sesame":   "sesame",
	"sulphite": "sulphites", "sulphites": "sulphites", "sulfite": "sulphites", "sulfites": "sulphites",
	"lupin": "lupin", "lupine": "lupin",
	"mollusc": "molluscs", "molluscs": "molluscs", "mollusk": "molluscs", "mollusks": "molluscs", "oyster": "molluscs", "oysters": "molluscs", "mussel": "molluscs", "mussels": "molluscs", "squid": "molluscs",
	"vegan":      "vegan",
	"vegetarian": "vegetarian", "veggie": "vegetarian", "pescatarian": "vegetarian",
	"halal":        "halal",
	"kosher":       "kosher",
	"alcohol-free": TagNoAlcohol, "alcoholfree": TagNoAlcohol, "no alcohol": TagNoAlcohol, "non-alcoholic": TagNoAlcohol, "sober": TagNoAlcohol,
	"teetotal": TagNoAlcohol, "teetotaler": TagNoAlcohol, "pregnant": TagNoAlcohol, "don't drink": TagNoAlcohol, "do not drink": TagNoAlcohol,
	"alcohol free": TagNoAlcohol,
}

// DietaryTags lists the tags barhub recognises, for the forms.
func DietaryTags() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range dietaryWords {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return append(out, TagOther)
}

// Limits on dietary and taste answers.
const (
	MaxDietaryText = 500
	maxTags        = 12
	maxTagLen      = 30
	maxTastes      = 20
)

// NormalizeDietary trims the text, cleans the tags and adds the tags the
// text names ("no nuts please" → nuts). Text that names nothing barhub
// knows gets the tag "other", so "has a dietary need" is always "has a
// tag" — the query the (status, dietary) index serves.
func NormalizeDietary(d Dietary) Dietary {
	out := Dietary{Text: strings.TrimSpace(d.Text)}
	if len(out.Text) > MaxDietaryText {
		out.Text = truncate(out.Text, MaxDietaryText)
	}
	var tags []string
	add := func(t string) {
		if t != "" && !slices.Contains(tags, t) && len(tags) < maxTags {
			tags = append(tags, t)
		}
	}
	for _, t := range d.Tags {
		t = cleanWord(t, maxTagLen)
		if known, ok := dietaryWords[t]; ok {
			t = known
		}
		add(t)
	}
	for _, t := range tagsIn(out.Text) {
		add(t)
	}
	if len(tags) == 0 && out.Text != "" {
		add(TagOther)
	}
	if len(tags) > 1 {
		tags = slices.DeleteFunc(tags, func(t string) bool { return t == TagOther })
	}
	slices.Sort(tags)
	out.Tags = tags
	return out
}

// tagsIn finds the tags a free text names.
func tagsIn(text string) []string {
	folded := strings.ToLower(text)
	words := strings.FieldsFunc(folded, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-' && r != '\''
	})
	var out []string
	for i, w := range words {
		if t, ok := dietaryWords[w]; ok {
			out = append(out, t)
		}
		if i+1 < len(words) {
			if t, ok := dietaryWords[w+" "+words[i+1]]; ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// NormalizeTastes cleans likes and dislikes: lower case, trimmed, no
// duplicates, a bounded number.
func NormalizeTastes(t Tastes) Tastes {
	return Tastes{Likes: cleanList(t.Likes), Dislikes: cleanList(t.Dislikes), AlcoholFree: t.AlcoholFree}
}

func cleanList(in []string) []string {
	var out []string
	for _, s := range in {
		s = cleanWord(s, maxTagLen)
		if s != "" && !slices.Contains(out, s) && len(out) < maxTastes {
			out = append(out, s)
		}
	}
	return out
}

// cleanWord keeps letters, digits, spaces and dashes, in lower case.
func cleanWord(s string, limit int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(strings.ToLower(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-':
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '_':
			space = true
		}
	}
	return truncate(b.String(), limit)
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
