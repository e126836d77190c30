package browsertest

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core 4.14.1, the accessibility engine of Deque Systems (MPL-2.0), as
// its npm package ships it; testdata/axe/README.md says how to update it.
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// Violation is one element that fails one of axe's rules.
type Violation struct {
	Rule    string `json:"rule"`    // axe's rule id, e.g. "color-contrast"
	Impact  string `json:"impact"`  // "serious" or "critical"
	Help    string `json:"help"`    // what the rule asks, in a sentence
	Target  string `json:"target"`  // a CSS selector of the element
	HTML    string `json:"html"`    // the element's opening markup, shortened
	Summary string `json:"summary"` // what axe found wrong with it, e.g. the measured contrast
}

func (v Violation) String() string {
	return fmt.Sprintf("%s (%s) at %s: %s\n\t%s\n\t%s", v.Rule, v.Impact, v.Target, v.Help, v.HTML, v.Summary)
}

// ColourRules are the axe rules whose outcome depends on the page's colours alone: after
// a switch of colour scheme that changes nothing but colours, they are the ones worth
// running again (Axe(t, ctx, ColourRules...)).
var ColourRules = []string{"color-contrast", "link-in-text-block"}

// axeRunJS lets transitions and animations that end and change more than a shape's
// place finish (a theme switch runs colour transitions, an overlay fades in, and axe
// measures the colours of the moment; a bounce changes none), runs axe's rules (all of
// them, or those given) on the document and returns the serious and critical violations,
// one per element.
const axeRunJS = `(async (rules) => {
	const moves = (a) => a instanceof CSSTransition ? a.transitionProperty === "transform"
		: a.effect.getKeyframes().every((k) => Object.keys(k).every((p) => ["transform", "offset", "easing", "composite", "computedOffset"].includes(p)));
	const ending = document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity && !moves(a));
	await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => {}))),
		new Promise((resolve) => setTimeout(resolve, 3000))]);
	const options = {resultTypes: ["violations"]};
	if (rules.length) options.runOnly = {type: "rule", values: rules};
	// Behind a modal dialog the page is inert, out of a person's reach: the dialog is what
	// there is to check (and the page was checked before it opened).
	const modal = document.querySelector("dialog:modal");
	const r = await axe.run(modal || document, options);
	const out = [];
	for (const v of r.violations) {
		for (const n of v.nodes) {
			const impact = n.impact || v.impact;
			if (impact !== "serious" && impact !== "critical") continue;
			const html = n.html.replace(/\s+/g, " ");
			const summary = (n.failureSummary || "").replace(/^Fix (any|all) of the following:\s*/gm, "").replace(/\s+/g, " ").trim();
			out.push({rule: v.id, impact, help: v.help, target: n.target.flat(Infinity).join(" "),
				html: html.length > 160 ? html.slice(0, 157) + "..." : html,
				summary: summary.length > 300 ? summary.slice(0, 297) + "..." : summary});
		}
	}
	return out;
})`

// Axe runs axe-core on the tab's document as it is now and returns its serious and
// critical violations, each naming the rule, the element and what is wrong, so a failure
// says what to fix. It runs every rule of axe's default set, or only the rules given by
// id, on the whole document or, while a modal dialog is open, on the dialog. axe is put
// into each document once, the first time Axe looks at it. Run it once per state worth
// checking: with a dialog open, in each colour scheme (ColorScheme), at each viewport.
func Axe(t testing.TB, ctx context.Context, rules ...string) []Violation {
	t.Helper()
	if !Eval[bool](t, ctx, `typeof window.axe === "object"`) {
		sctx, cancel := context.WithTimeout(ctx, StepTimeout)
		defer cancel()
		if _, err := chromedp.Run(sctx, chromedp.Evaluate[bool](axeSource+"\n;typeof window.axe === \"object\"")); err != nil {
			t.Fatalf("load axe-core into the page: %v%s", err, pageState(ctx))
		}
	}
	list, err := json.Marshal(append([]string{}, rules...))
	if err != nil {
		t.Fatalf("axe rules %q: %v", rules, err)
	}
	return Eval[[]Violation](t, ctx, axeRunJS+"("+string(list)+")")
}
