package ai

import (
	"strings"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/menu"
)

// reasons writes the house recommender's explanations in the guest's
// language, from the server's catalogues (keys reco.reason.*, reco.list
// and taste.*). Drink names stay as they are; taste tags the catalogue
// knows and the starter menu's ingredients are translated, the host's
// own words are not.
type reasons struct {
	c    *locale.Catalog
	lang language.Tag
}

// newReasons picks the catalogue's language for lang (a tag such as "sv"
// or "pt-BR"; English when empty or unknown). A nil catalogue loads one.
func newReasons(c *locale.Catalog, lang string) reasons {
	if c == nil {
		// Only a build defect (a broken embedded catalogue) fails here,
		// and the locale package's tests catch that.
		c, _ = locale.New()
	}
	r := reasons{c: c, lang: language.English}
	if c != nil && lang != "" {
		r.lang = c.Match(lang)
	}
	return r
}

// text is message id in the guest's language, else in English.
func (r reasons) text(id string, vars map[string]any) string {
	if r.c == nil {
		return ""
	}
	if s, ok := r.c.Text(r.lang, id, vars); ok {
		return s
	}
	s, _ := r.c.Text(language.English, id, vars)
	return s
}

// word translates a taste tag, or an ingredient of the starter menu, for
// a sentence: lower case, as the English sentence has it.
func (r reasons) word(w string) string {
	if r.c == nil {
		return w
	}
	if s, ok := r.c.Text(r.lang, "taste."+w, nil); ok {
		return s
	}
	if r.lang == language.English {
		return w
	}
	for _, en := range []string{w, capitalize(w)} {
		if tr := menu.Translate(en)[r.lang.String()]; tr != "" {
			return strings.ToLower(tr)
		}
	}
	return w
}

func (r reasons) words(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = r.word(w)
	}
	return out
}

// list joins items as the language does: "a, b and c", "a, b och c",
// "a, b e c".
func (r reasons) list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return r.text("reco.list", map[string]any{"Head": strings.Join(items[:len(items)-1], ", "), "Last": items[len(items)-1]})
}

// explain says in one sentence why s was picked.
func (r reasons) explain(s scored, alcoholFree bool) string {
	var parts []string
	if s.pace {
		parts = append(parts, r.text("reco.reason.pace", nil))
	}
	if s.resembles != "" {
		parts = append(parts, r.text("reco.reason.resembles", map[string]any{"Drink": s.resembles}))
	}
	if len(s.liked) > 0 && len(parts) < 2 {
		parts = append(parts, r.text("reco.reason.liked", map[string]any{"Tastes": r.list(r.words(s.liked[:min(len(s.liked), 3)]))}))
	}
	if s.moodLabel != "" && len(parts) < 2 {
		parts = append(parts, r.text("reco.reason.mood."+s.moodLabel, nil))
	}
	switch {
	case len(parts) >= 2:
	case s.again:
		parts = append(parts, r.text("reco.reason.again", nil))
	case s.like != "":
		parts = append(parts, r.text("reco.reason.similar", map[string]any{"Drink": s.like}))
	}
	if len(parts) == 0 {
		parts = append(parts, r.describe(s.Drink))
	}
	sentence := r.list(parts)
	if alcoholFree && s.Drink.AlcoholFree && !s.pace {
		sentence = r.text("reco.reason.alcoholFree", map[string]any{"Reason": sentence})
	}
	return capitalize(sentence) + "."
}

// describe is the explanation of a pick with no particular match: what
// kind of drink it is.
func (r reasons) describe(d Drink) string {
	vars := map[string]any{}
	id := "reco.reason.start"
	if len(d.Tags) > 0 {
		vars["Tastes"] = r.list(r.words(lower(d.Tags[:min(len(d.Tags), 2)])))
		id += ".tastes"
	}
	if len(d.Ingredients) > 0 {
		vars["Ingredients"] = r.list(r.words(lower(d.Ingredients[:min(len(d.Ingredients), 2)])))
		if id == "reco.reason.start" {
			id += ".ingredients"
		} else {
			id = "reco.reason.start.both"
		}
	}
	return r.text(id, vars)
}

// sentence is a whole reason (capitalised, with a full stop) for a drink
// the model named without saying why.
func (r reasons) sentence(d Drink) string {
	return capitalize(r.describe(d)) + "."
}

// languageNames name the guest's language in the model's prompt.
var languageNames = map[string]string{"en": "English", "sv": "Swedish", "pt-BR": "Brazilian Portuguese"}

// name is the guest's language in English words, for the model.
func (r reasons) name() string {
	if n, ok := languageNames[r.lang.String()]; ok {
		return n
	}
	return "English"
}
