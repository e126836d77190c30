package browsertest_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// axePage has one serious finding in each theme (grey text at 2.8:1 on white; a link
// that is dark grey on black only in the dark), a critical one in both (a button with no
// name), and moderate ones (no main landmark, no h1) that Axe leaves out; a dialog that,
// open, is all a person can reach, with a button of no name.
const axePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>axe</title>
<style>
  :root { color-scheme: light dark; --faint: #222; }
  body { background: #fff; color: #000; }
  @media (prefers-color-scheme: dark) { :root { --faint: #333; } body { background: #000; color: #fff; } }
  #grey { color: #999; background: #fff; }
  #faint { color: var(--faint); }
</style></head>
<body>
  <p id="grey">Low contrast in both themes.</p>
  <p><a id="faint" href="#x">Faint only in the dark</a></p>
  <button id="icon" type="button"><svg width="10" height="10" aria-hidden="true"></svg></button>
  <dialog id="sheet"><p>A sheet.</p><button id="unnamed" type="button"></button></dialog>
</body></html>`

// TestAxe: the helper reports what a person must fix, serious and critical only, per
// theme, restricted to the rules asked for, with axe loaded once per document.
func TestAxe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(axePage))
	}))
	t.Cleanup(srv.Close)
	ctx := browsertest.New(t).Page(t, browsertest.Phone)
	browsertest.Navigate(t, ctx, srv.URL)

	found := func(vs []browsertest.Violation) []string {
		var out []string
		for _, v := range vs {
			out = append(out, v.Rule+" "+v.Impact+" "+v.Target)
			if v.HTML == "" || v.Help == "" || v.Summary == "" {
				t.Errorf("%s at %s lacks what to fix: %+v", v.Rule, v.Target, v)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		scheme string
		rules  []string
		want   []string
	}{
		{"light", nil, []string{"button-name critical #icon", "color-contrast serious #grey"}},
		{"dark", nil, []string{"button-name critical #icon", "color-contrast serious #faint", "color-contrast serious #grey"}},
		{"dark", browsertest.ColourRules, []string{"color-contrast serious #faint", "color-contrast serious #grey"}},
	} {
		browsertest.ColorScheme(t, ctx, tc.scheme)
		if got := found(browsertest.Axe(t, ctx, tc.rules...)); !slices.Equal(got, tc.want) {
			t.Errorf("%s theme, rules %q: axe found\n%s\nwant\n%s", tc.scheme, tc.rules, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	for _, v := range browsertest.Axe(t, ctx) {
		if v.Rule == "color-contrast" && v.Target == "#grey" && !strings.Contains(v.Summary, "contrast of 2.8") {
			t.Errorf("the contrast finding does not say the ratio: %s", v.Summary)
		}
	}

	// A modal dialog open: the page behind it is inert, and only the dialog is checked.
	browsertest.Eval[bool](t, ctx, `(document.getElementById("sheet").showModal(), true)`)
	if got, want := found(browsertest.Axe(t, ctx)), []string{"button-name critical #unnamed"}; !slices.Equal(got, want) {
		t.Errorf("with the dialog open axe found %q, want %q", got, want)
	}

	// Loaded once: a mark left on the first copy is still there after more runs.
	browsertest.Eval[bool](t, ctx, `(window.axe.loadedOnce = true)`)
	browsertest.Axe(t, ctx, "button-name")
	if !browsertest.Eval[bool](t, ctx, `window.axe.loadedOnce === true`) {
		t.Error("Axe loaded axe-core again into a document that had it")
	}
}
