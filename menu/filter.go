package menu

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Filter selects drinks. Zero fields select everything.
type Filter struct {
	// Section is a section id.
	Section string
	// Ingredient matches drinks with an ingredient whose name contains it.
	Ingredient string
	// Tag matches drinks carrying this tag.
	Tag string
	// Text matches name, description, section, ingredients or tags.
	Text string
	// AvailableOnly leaves out drinks that cannot be ordered now.
	AvailableOnly bool
	// AlcoholFree, when set, selects alcohol-free (true) or alcoholic
	// (false) drinks only.
	AlcoholFree *bool
}

// maxFilterLen bounds each text filter.
const maxFilterLen = 100

// ParseFilter reads a filter from a query string:
// ?section=&ingredient=&tag=&q=&available=true&alcoholFree=true.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{
		Section:    strings.TrimSpace(q.Get("section")),
		Ingredient: IngredientKey(q.Get("ingredient")),
		Tag:        strings.ToLower(strings.TrimSpace(q.Get("tag"))),
		Text:       strings.ToLower(strings.TrimSpace(q.Get("q"))),
	}
	for name, v := range map[string]string{"section": f.Section, "ingredient": f.Ingredient, "tag": f.Tag, "q": f.Text} {
		if utf8.RuneCountInString(v) > maxFilterLen {
			return Filter{}, fmt.Errorf("the %s filter is longer than %d characters", name, maxFilterLen)
		}
	}
	if v := q.Get("available"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Filter{}, fmt.Errorf("available must be true or false, not %q", v)
		}
		f.AvailableOnly = b
	}
	if v := q.Get("alcoholFree"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Filter{}, fmt.Errorf("alcoholFree must be true or false, not %q", v)
		}
		f.AlcoholFree = &b
	}
	return f, nil
}

// Key is a canonical string for the filter, for caching responses.
func (f Filter) Key() string {
	af := ""
	if f.AlcoholFree != nil {
		af = strconv.FormatBool(*f.AlcoholFree)
	}
	return strings.Join([]string{f.Section, f.Ingredient, f.Tag, f.Text, strconv.FormatBool(f.AvailableOnly), af}, "\x00")
}

// Match reports whether d passes the filter.
func (f Filter) Match(d Drink) bool {
	if f.Section != "" && d.Section != f.Section {
		return false
	}
	if f.AvailableOnly && !d.Available {
		return false
	}
	if f.AlcoholFree != nil && d.AlcoholFree != *f.AlcoholFree {
		return false
	}
	if f.Tag != "" && !contains(d.Tags, f.Tag) {
		return false
	}
	if f.Ingredient != "" {
		found := false
		for _, in := range d.Ingredients {
			if hasWords(in.Key, f.Ingredient, true) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if f.Text != "" && !d.mentions(f.Text) {
		return false
	}
	return true
}

// mentions matches text at the start of a word anywhere in the drink, so
// a guest typing "spark" finds sparkling drinks.
func (d Drink) mentions(text string) bool {
	if hasWords(strings.ToLower(d.Name), text, false) ||
		hasWords(strings.ToLower(d.Description), text, false) ||
		hasWords(d.Section, text, false) {
		return true
	}
	for _, in := range d.Ingredients {
		if hasWords(in.Key, text, false) {
			return true
		}
	}
	for _, t := range d.Tags {
		if hasWords(t, text, false) {
			return true
		}
	}
	return false
}

// hasWords reports whether q occurs in s starting at a word boundary and,
// when whole is set, also ending at one: "gin" is in "sloe gin" but not in
// "ginger beer".
func hasWords(s, q string, whole bool) bool {
	for i := 0; i+len(q) <= len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		if !strings.HasPrefix(s[i:], q) {
			continue
		}
		if end := i + len(q); whole && end < len(s) && isWordByte(s[end]) {
			continue
		}
		return true
	}
	return false
}

// isWordByte treats every non-ASCII byte as part of a word, so accented
// letters never split one.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
