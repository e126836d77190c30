package menu

import (
	"strings"
	"testing"
)

// TestStarterMenuTranslated fails when a text of the starter menu a guest
// reads (section names and descriptions, drink descriptions, ingredient
// names, the recipes' glasses, garnishes and steps) lacks its Swedish or Portuguese translation, as when a drink is
// added or reworded in English only.
func TestStarterMenuTranslated(t *testing.T) {
	sections, drinks, err := StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range sections {
		texts = append(texts, s.Name, s.Description)
	}
	for _, d := range drinks {
		texts = append(texts, d.Description)
		for _, x := range []string{d.Glass, d.Garnish} {
			if x != "" {
				texts = append(texts, x)
			}
		}
		for _, in := range d.Ingredients {
			texts = append(texts, in.Name)
		}
		texts = append(texts, d.Method...)
	}
	for _, text := range texts {
		tr := Translate(text)
		for _, lang := range []string{"sv", "pt-BR"} {
			if strings.TrimSpace(tr[lang]) == "" {
				t.Errorf("no %s translation of %q", lang, text)
			}
		}
		for lang := range tr {
			if lang != "sv" && lang != "pt-BR" {
				t.Errorf("%q has a translation into %q, a language barhub does not speak", text, lang)
			}
		}
	}
	if Translate("A drink the host wrote herself.") != nil {
		t.Error("a text that is not the starter menu's has a translation")
	}
}
