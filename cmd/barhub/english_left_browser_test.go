package main

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// englishOnly are the English page strings that read differently in lang:
// seen on a page shown in lang, they are English left behind. Only the
// literal runs of at least 14 characters between placeholders count, so
// a name or a word the languages share is no finding.
func englishOnly(t *testing.T, lang string) []string {
	t.Helper()
	read := func(l string) map[string]json.RawMessage {
		buf, err := os.ReadFile("../../web/static/i18n/" + l + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(buf, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	texts := func(raw json.RawMessage) []string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []string{s}
		}
		var forms map[string]string
		json.Unmarshal(raw, &forms)
		var out []string
		for _, f := range forms {
			out = append(out, f)
		}
		return out
	}
	en, other := read("en"), read(lang)
	placeholder := regexp.MustCompile(`\{[^}]*\}`)
	seen := map[string]bool{}
	for key, raw := range en {
		theirs := strings.Join(texts(other[key]), "\n")
		for _, text := range texts(raw) {
			for _, run := range placeholder.Split(text, -1) {
				run = strings.TrimSpace(run)
				if len([]rune(run)) >= 14 && !strings.Contains(theirs, run) {
					seen[run] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// pageTextJS is what a person reads on the page: its title, the text
// shown and the words of labels, placeholders and tooltips.
const pageTextJS = `(() => {
	const parts = [document.title, document.body.innerText];
	for (const el of document.querySelectorAll("[placeholder],[aria-label],[title]")) {
		for (const a of ["placeholder", "aria-label", "title"]) if (el.hasAttribute(a)) parts.push(el.getAttribute(a));
	}
	return parts.join("\n");
})()`

// assertNoEnglish fails the test for every English-only string on the
// page in ctx.
func assertNoEnglish(t *testing.T, ctx context.Context, where string, english []string) {
	t.Helper()
	text := browsertest.Eval[string](t, ctx, pageTextJS)
	for _, s := range english {
		if strings.Contains(text, s) {
			t.Errorf("%s: English left on the page: %q", where, s)
		}
	}
}

// TestBrowserNoEnglishLeft (issue 26): a guest whose phone reads Swedish
// or Brazilian Portuguese walks the pages of the night, the sign-in
// page's refusal, the RSVP, the menu with a drink's details and the order
// sheet, and a page that does not exist, and meets no English string of
// the catalogues. (The push notification's words are
// push.TestNotificationInTheGuestsLanguage.)
func TestBrowserNoEnglishLeft(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)
	for _, lang := range []struct{ code, accept string }{{"sv", "sv-SE,sv;q=0.9"}, {"pt-BR", "pt-BR,pt;q=0.9"}} {
		english := englishOnly(t, lang.code)
		phone := b.Page(t, browsertest.Phone)
		browsertest.Language(t, phone, lang.accept)

		browsertest.Navigate(t, phone, p.s.URL+"/no-such-page")
		browsertest.WaitVisible(t, phone, "#back-home")
		assertNoEnglish(t, phone, lang.code+" 404", english)
		browsertest.Screenshot(t, phone, "not-found-"+lang.code)

		browsertest.Navigate(t, phone, p.s.URL+"/login?code="+p.guestCode)
		browsertest.Fill(t, phone, "#lastName", "Wrong")
		browsertest.Click(t, phone, "#login-submit")
		browsertest.WaitVisible(t, phone, "#login-error")
		assertNoEnglish(t, phone, lang.code+" sign-in refused", english)

		browsertest.SignIn(t, phone, p.s.URL, p.guestCode, p.guestLast, "/")
		browsertest.WaitVisible(t, phone, "#rsvp-yes")
		assertNoEnglish(t, phone, lang.code+" RSVP", english)

		browsertest.Click(t, phone, "#tab-menu")
		negroni := `#menu-list .drink[data-id="negroni"]`
		browsertest.WaitVisible(t, phone, negroni+" .order-button")
		browsertest.Eval[bool](t, phone, `(document.querySelector('#menu-list .drink[data-id="negroni"]').scrollIntoView({block: "center"}), true)`)
		browsertest.Click(t, phone, negroni+" .drink-toggle")
		browsertest.WaitVisible(t, phone, negroni+" .drink-details")
		if serving := browsertest.Text(t, phone, negroni+" .serving"); strings.Contains(serving, "Rocks glass") || strings.Contains(serving, "orange slice") {
			t.Errorf("%s: the Negroni's glass and garnish read %q", lang.code, serving)
		}
		assertNoEnglish(t, phone, lang.code+" menu", english)
		browsertest.Click(t, phone, negroni+" .order-button")
		browsertest.WaitVisible(t, phone, "#order-dialog")
		if desc := browsertest.Text(t, phone, "#order-desc"); strings.Contains(desc, "Equal parts") {
			t.Errorf("%s: the order sheet describes the Negroni in English: %q", lang.code, desc)
		}
		assertNoEnglish(t, phone, lang.code+" order sheet", english)
		browsertest.ScreenshotScreen(t, phone, "order-sheet-"+lang.code)
		browsertest.Click(t, phone, "#order-back")
		browsertest.Eval[bool](t, phone, `(localStorage.clear(), true)`)
	}
}
