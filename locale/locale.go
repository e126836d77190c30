// Package locale holds the server's message catalogues (English, Swedish and
// Brazilian Portuguese) and picks one for a request from its Accept-Language.
// The catalogues are go-i18n JSON files embedded in the binary; the browser
// pages have their own catalogues under web/static/i18n (see docs/I18N.md).
package locale

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed messages/*.json
var messages embed.FS

// Tags are the languages barhub speaks, the default (English) first.
var tags = []language.Tag{language.English, language.Swedish, language.BrazilianPortuguese}

// Catalog translates message IDs into the supported languages. It is safe
// for concurrent use; build one per process with New.
type Catalog struct {
	bundle     *i18n.Bundle
	matcher    language.Matcher
	localizers map[language.Tag]*i18n.Localizer
	// vars lists, per message ID, the placeholders its English text uses,
	// so a caller that lacks one gets the plain message rather than a
	// "<no value>" in the middle of a sentence.
	vars map[string][]string
	// plain holds, per language, the messages without placeholders,
	// rendered once: an error storm (say 429s) costs a map lookup each.
	plain map[language.Tag]map[string]string
}

// New loads the embedded catalogues. It fails only on a build defect (a
// catalogue that is not valid JSON), which the package's tests catch.
func New() (*Catalog, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	c := &Catalog{
		bundle:     b,
		matcher:    language.NewMatcher(tags),
		localizers: make(map[language.Tag]*i18n.Localizer, len(tags)),
		vars:       make(map[string][]string),
		plain:      make(map[language.Tag]map[string]string, len(tags)),
	}
	for _, tag := range tags {
		name := "messages/" + tag.String() + ".json"
		if _, err := b.LoadMessageFileFS(messages, name); err != nil {
			return nil, fmt.Errorf("locale: load %s: %w", name, err)
		}
		c.localizers[tag] = i18n.NewLocalizer(b, tag.String())
	}
	en, err := Messages(tags[0].String())
	if err != nil {
		return nil, err
	}
	for id, text := range en {
		c.vars[id] = Placeholders(text)
	}
	for _, tag := range tags {
		c.plain[tag] = make(map[string]string)
		for id, need := range c.vars {
			if len(need) > 0 {
				continue
			}
			text, err := c.localizers[tag].Localize(&i18n.LocalizeConfig{MessageID: id})
			if err != nil {
				return nil, fmt.Errorf("locale: %s %s: %w", tag, id, err)
			}
			c.plain[tag][id] = text
		}
	}
	return c, nil
}

// Languages returns the supported language tags, the default first.
func Languages() []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.String()
	}
	return out
}

// Match picks the supported language that best fits an Accept-Language
// header (or several, most preferred first); English when none fits.
// "sv-SE" is Swedish, and "pt" or "pt-PT" is Brazilian Portuguese, the
// nearest barhub has.
func (c *Catalog) Match(acceptLanguage ...string) language.Tag {
	var want []language.Tag
	for _, h := range acceptLanguage {
		t, _, err := language.ParseAcceptLanguage(h)
		if err != nil {
			continue
		}
		want = append(want, t...)
	}
	if len(want) == 0 {
		return tags[0]
	}
	_, i, conf := c.matcher.Match(want...)
	if conf == language.No {
		return tags[0]
	}
	return tags[i]
}

// Text returns message id in lang with vars filled in. ok is false when the
// catalogue has no such message or vars lacks one of its placeholders; the
// caller then keeps its own (English) wording.
func (c *Catalog) Text(lang language.Tag, id string, vars map[string]any) (text string, ok bool) {
	l := c.localizers[lang]
	if l == nil {
		lang = tags[0]
		l = c.localizers[lang]
	}
	if text, ok := c.plain[lang][id]; ok {
		return text, true
	}
	need, known := c.vars[id]
	if !known {
		return "", false
	}
	for _, v := range need {
		if _, has := vars[v]; !has {
			return "", false
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: vars}
	if n, has := vars["Count"]; has {
		cfg.PluralCount = n
	}
	s, err := l.Localize(cfg)
	if err != nil {
		return "", false
	}
	return s, true
}

// Messages returns one embedded catalogue as message ID → text; a plural
// message's forms are joined into one text (for checking placeholders).
// It is what the consistency tests and docs tools read.
func Messages(lang string) (map[string]string, error) {
	return readCatalogue(messages, "messages/"+lang+".json")
}

func readCatalogue(fsys fs.FS, name string) (map[string]string, error) {
	buf, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("locale: read %s: %w", name, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf, &raw); err != nil {
		return nil, fmt.Errorf("locale: parse %s: %w", name, err)
	}
	out := make(map[string]string, len(raw))
	for id, v := range raw {
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			out[id] = s
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			return nil, fmt.Errorf("locale: %s: message %q is neither a text nor plural forms", name, id)
		}
		keys := make([]string, 0, len(forms))
		for k := range forms {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, forms[k])
		}
		out[id] = strings.Join(parts, "\n")
	}
	return out, nil
}

var placeholder = regexp.MustCompile(`{{\s*\.([A-Za-z0-9_]+)\s*}}`)

// Placeholders returns the template fields a message text uses, sorted and
// without repeats: "{{.Name}} has {{.Count}}" gives [Count Name].
func Placeholders(text string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}
