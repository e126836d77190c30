package app

import "github.com/barhub/barhub/menu"

// The menu carries its translations beside the English texts, per
// language ("i18n": {"sv": {…}, "pt-BR": {…}}), rather than being encoded
// once per Accept-Language: the cached, ready-encoded answers and their
// ETags stay one per filter (menu_cache.go), and a phone switching language
// needs no new request. Only the starter menu's own wording has
// translations (menu.Translate); a text the host wrote shows as written.

// DrinkText is a drink's texts in one language; empty fields fall back to
// the English ones.
type DrinkText struct {
	Description string `json:"description,omitempty"`
	// Ingredients are the recipe's ingredient names, in recipe order; an
	// untranslated one is given in English.
	Ingredients []string `json:"ingredients,omitempty"`
	// Glass and Garnish are the recipe's, for the menu's serving line.
	Glass   string `json:"glass,omitempty"`
	Garnish string `json:"garnish,omitempty"`
}

// SectionText is a section's texts in one language.
type SectionText struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

func drinkTranslations(d menu.Drink) map[string]DrinkText {
	var out map[string]DrinkText
	add := func(lang string, f func(*DrinkText)) {
		if out == nil {
			out = make(map[string]DrinkText, 2)
		}
		t := out[lang]
		f(&t)
		out[lang] = t
	}
	for lang, text := range menu.Translate(d.Description) {
		add(lang, func(t *DrinkText) { t.Description = text })
	}
	for lang, text := range menu.Translate(d.Glass) {
		add(lang, func(t *DrinkText) { t.Glass = text })
	}
	for lang, text := range menu.Translate(d.Garnish) {
		add(lang, func(t *DrinkText) { t.Garnish = text })
	}
	for i, in := range d.Ingredients {
		for lang, name := range menu.Translate(in.Name) {
			add(lang, func(t *DrinkText) {
				if t.Ingredients == nil {
					t.Ingredients = make([]string, len(d.Ingredients))
					for j, other := range d.Ingredients {
						t.Ingredients[j] = other.Name
					}
				}
				t.Ingredients[i] = name
			})
		}
	}
	return out
}

func sectionTranslations(s menu.Section) map[string]SectionText {
	var out map[string]SectionText
	set := func(lang string, f func(*SectionText)) {
		if out == nil {
			out = make(map[string]SectionText, 2)
		}
		t := out[lang]
		f(&t)
		out[lang] = t
	}
	for lang, name := range menu.Translate(s.Name) {
		set(lang, func(t *SectionText) { t.Name = name })
	}
	for lang, text := range menu.Translate(s.Description) {
		set(lang, func(t *SectionText) { t.Description = text })
	}
	return out
}
