package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

// pageLanguages are the page catalogues under static/i18n, English first;
// LANGUAGES in static/js/i18n.js lists the same.
var pageLanguages = []string{"en", "sv", "pt-BR"}

// loadPageCatalogue reads static/i18n/<lang>.json as key → its texts (one,
// or a plural message's forms).
func loadPageCatalogue(t *testing.T, lang string) map[string]map[string]string {
	t.Helper()
	buf, err := fs.ReadFile(static, "static/i18n/"+lang+".json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf, &raw); err != nil {
		t.Fatalf("%s.json: %v", lang, err)
	}
	out := make(map[string]map[string]string, len(raw))
	for key, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[key] = map[string]string{"": s}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			t.Errorf("%s.json: %q is neither a text nor plural forms", lang, key)
			continue
		}
		out[key] = forms
	}
	return out
}

var pagePlaceholder = regexp.MustCompile(`\{(\w+)\}`)

func placeholders(forms map[string]string) []string {
	set := map[string]bool{}
	for _, text := range forms {
		for _, m := range pagePlaceholder.FindAllStringSubmatch(text, -1) {
			set[m[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestPageCataloguesAgree fails when a page catalogue misses a key English
// has (or has one it lacks), drops or misspells a placeholder, leaves a
// text empty, or gives plural forms without "other".
func TestPageCataloguesAgree(t *testing.T) {
	en := loadPageCatalogue(t, "en")
	if len(en) < 20 {
		t.Fatalf("the English page catalogue has only %d keys", len(en))
	}
	plural := map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}
	for _, lang := range pageLanguages {
		cat := loadPageCatalogue(t, lang)
		for key, forms := range cat {
			if _, ok := en[key]; !ok {
				t.Errorf("%s.json has %q, which en.json does not", lang, key)
			}
			for form, text := range forms {
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s.json: %q is empty", lang, key)
				}
				if form != "" && !plural[form] {
					t.Errorf("%s.json: %q has form %q, not a plural category", lang, key, form)
				}
			}
			if _, single := forms[""]; !single && forms["other"] == "" {
				t.Errorf("%s.json: %q has plural forms but no \"other\"", lang, key)
			}
		}
		for key, forms := range en {
			tr, ok := cat[key]
			if !ok {
				t.Errorf("%s.json misses %q", lang, key)
				continue
			}
			if want, got := placeholders(forms), placeholders(tr); !slices.Equal(want, got) {
				t.Errorf("%s.json: %q has placeholders %v, en.json has %v", lang, key, got, want)
			}
		}
	}
	js, err := fs.ReadFile(static, "static/js/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range pageLanguages {
		if !strings.Contains(string(js), `code: "`+lang+`"`) {
			t.Errorf("i18n.js's LANGUAGES does not offer %s", lang)
		}
	}
}

var (
	// data-i18n="key", data-i18n-placeholder="key", … in HTML, and the
	// same attributes set from scripts (setAttribute("data-i18n", "key")
	// or dataset.i18n = "key").
	i18nAttr = regexp.MustCompile(`data-i18n(?:-[a-z-]+)?=["']([^"']+)["']|setAttribute\(\s*["']data-i18n(?:-[a-z-]+)?["']\s*,\s*["']([^"']+)["']|dataset\.i18n\w*\s*=\s*["']([^"']+)["']`)
	// t("key") and t("key", {…}) with a literal key in scripts.
	i18nCall = regexp.MustCompile(`\bt\(\s*["']([A-Za-z0-9_.-]+)["']`)
)

// TestPageKeysExist fails when a page or script names a translation key
// that en.json lacks (a typo, or a string added without its translations).
func TestPageKeysExist(t *testing.T) {
	en := loadPageCatalogue(t, "en")
	used := map[string][]string{}
	err := fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := path.Ext(name)
		if ext != ".html" && ext != ".js" {
			return nil
		}
		buf, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		for _, m := range i18nAttr.FindAllStringSubmatch(string(buf), -1) {
			key := m[1] + m[2] + m[3]
			used[key] = append(used[key], name)
		}
		if ext == ".js" {
			for _, m := range i18nCall.FindAllStringSubmatch(string(buf), -1) {
				used[m[1]] = append(used[m[1]], name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) < 10 {
		t.Fatalf("found only %d keys in use: the scan has stopped seeing them", len(used))
	}
	var missing []string
	for key, where := range used {
		if _, ok := en[key]; !ok {
			missing = append(missing, key+" (used in "+strings.Join(slices.Compact(where), ", ")+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("en.json misses %d keys:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestEveryPageHasLanguageSwitch: each app page puts <barhub-lang> in
// reach, so a person can change the language wherever they are (the
// service worker and the manifest are files, not pages).
func TestEveryPageHasLanguageSwitch(t *testing.T) {
	for route, name := range pages {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		buf, err := fs.ReadFile(static, "static/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(buf), "<barhub-lang></barhub-lang>") {
			t.Errorf("%s (%s) has no language switch", route, name)
		}
	}
}

// TestAdminPageIsTranslated fails when the admin page shows text that no
// catalogue key names: every text node with a letter sits in an element
// with data-i18n (or is the brand), and every placeholder, title,
// aria-label and alt has its data-i18n-<attribute>. The shopping panel is
// its own module's (see TestPageKeysExist for the keys it names).
func TestAdminPageIsTranslated(t *testing.T) {
	buf, err := fs.ReadFile(static, "static/admin.html")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, name string) (string, bool) {
		for _, a := range n.Attr {
			if a.Key == name {
				return a.Val, true
			}
		}
		return "", false
	}
	var untranslated []string
	var walk func(n *html.Node, translated bool)
	walk = func(n *html.Node, translated bool) {
		if n.Type == html.ElementNode {
			if id, _ := attr(n, "id"); id == "shopping" {
				return
			}
			switch n.Data {
			case "script", "style":
				return
			}
			if _, ok := attr(n, "data-i18n"); ok {
				translated = true
			}
			for _, a := range []string{"placeholder", "title", "aria-label", "alt"} {
				v, ok := attr(n, a)
				if _, has := attr(n, "data-i18n-"+a); ok && strings.TrimSpace(v) != "" && !has && strings.ContainsFunc(v, unicode.IsLetter) {
					if a == "placeholder" && v == "Europe/Stockholm" {
						continue // an example of a name that is the same in every language
					}
					untranslated = append(untranslated, fmt.Sprintf("<%s %s=%q>", n.Data, a, v))
				}
			}
		}
		if n.Type == html.TextNode && !translated && strings.ContainsFunc(n.Data, unicode.IsLetter) && strings.TrimSpace(n.Data) != "barhub" {
			untranslated = append(untranslated, fmt.Sprintf("<%s>%s", n.Parent.Data, strings.TrimSpace(n.Data)))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, translated)
		}
	}
	walk(doc, false)
	if len(untranslated) > 0 {
		t.Errorf("admin.html has %d texts without a data-i18n key:\n%s", len(untranslated), strings.Join(untranslated, "\n"))
	}
}
