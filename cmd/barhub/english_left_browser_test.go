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
// seen on a page shown in lang, they are English left behind. The
// literal runs of at least 14 characters between placeholders count
// wherever they show; a shorter message (marked with a leading "=")
// only as the whole text of an element or attribute, so a name or a word
// the languages share is no finding.
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
	// A short text (a button's "Cancel") counts when it is a whole
	// message the language words differently and uses nowhere as its own.
	words := map[string]bool{}
	for _, raw := range other {
		for _, text := range texts(raw) {
			words[strings.TrimSpace(text)] = true
		}
	}
	for _, raw := range en {
		for _, text := range texts(raw) {
			text = strings.TrimSpace(text)
			if n := len([]rune(text)); n >= 4 && n < 14 && !placeholder.MatchString(text) && !words[text] {
				seen["="+text] = true
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

// findTextJS finds, for each of the strings given, where a person reads
// it on the page: the title, a label, placeholder or tooltip, or the
// innermost shown element whose text holds it. It returns [string, where]
// pairs for those it finds.
const findTextJS = `((strings) => {
	const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.classList.length ? "." + [...el.classList].join(".") : "");
	const path = el => {
		const p = [];
		for (; el && el !== document.body && p.length < 3; el = el.parentElement) {
			p.unshift(name(el));
			if (el.id) break;
		}
		return p.join(" > ") || "body";
	};
	const labelled = document.querySelectorAll("[placeholder],[aria-label],[title]");
	const text = document.body.innerText;
	const out = [];
	const whole = new Map();
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const el = n.parentElement;
		if (el && el.getClientRects().length > 0 && !whole.has(n.data.trim())) whole.set(n.data.trim(), path(el));
	}
	for (const el of labelled) {
		for (const a of ["placeholder", "aria-label", "title"]) {
			const v = (el.getAttribute(a) || "").trim();
			if (v && !whole.has(v)) whole.set(v, path(el) + "[" + a + "]");
		}
	}
	whole.set(document.title.trim(), "<title>");
	for (const s of strings) {
		if (s.startsWith("=")) {
			if (whole.has(s.slice(1))) out.push([s.slice(1), whole.get(s.slice(1))]);
			continue;
		}
		let where = document.title.includes(s) ? "<title>" : "";
		for (const el of labelled) {
			for (const a of ["placeholder", "aria-label", "title"]) {
				if (!where && (el.getAttribute(a) || "").includes(s)) where = path(el) + "[" + a + "]";
			}
		}
		if (!where && text.includes(s)) {
			let el = document.body;
			for (;;) {
				const next = [...el.children].find(c => c.getClientRects().length > 0 && (c.innerText || "").includes(s));
				if (!next) break;
				el = next;
			}
			where = path(el);
		}
		if (where) out.push([s, where]);
	}
	return out;
})`

// assertNoEnglish fails the test for every English-only string on the
// page in ctx, naming the page, the element and the string.
func assertNoEnglish(t *testing.T, ctx context.Context, page string, english []string) {
	t.Helper()
	// The page's words are in once i18n.js has set the page's language.
	waitEval(t, ctx, page+" translated", `document.documentElement.lang !== "en"`)
	list, err := json.Marshal(english)
	if err != nil {
		t.Fatal(err)
	}
	for _, hit := range browsertest.Eval[[][2]string](t, ctx, findTextJS+"("+string(list)+")") {
		t.Errorf("%s: %s reads English %q", page, hit[1], hit[0])
	}
}

// TestBrowserNoEnglishLeft (issue 26): a guest whose phone reads Swedish
// or Brazilian Portuguese walks the pages of the night, the sign-in
// page's refusal, the RSVP, the menu with a drink's details and the order
// sheet, and a page that does not exist; a bartender, the door, the
// pick-up board, a stranger on /menu and /join and the host on /admin and
// /admin/orders work in the same languages; and none of them meets an
// English string of the catalogues. (The push notification's words are
// push.TestNotificationInTheGuestsLanguage.)
func TestBrowserNoEnglishLeft(t *testing.T) {
	p := startBarParty(t, map[string]string{"BARHUB_PUBLIC_MENU": "1"})
	if status := p.admin.call("PUT", "/api/admin/settings", map[string]any{"eventName": "Garden party", "timezone": "Europe/Stockholm", "registration": "open", "capacity": 20}, nil); status != 200 {
		t.Fatalf("open registration: %d", status)
	}
	// Orders in every state the bar shows: queued, in the making, ready.
	ids := p.ordersInEveryState(t, "walk-")
	fragment := p.openBoard(t)
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

		walkStaffPages(t, b, p, lang.code, lang.accept, ids[0], fragment, english)
	}
}

// walkStaffPages is the rest of TestBrowserNoEnglishLeft in one
// language: the bar with a recipe and the stock panel open, the door's
// card with its warnings, the board, the public menu and sign-up page,
// and the host's desk and orders screen.
func walkStaffPages(t *testing.T, b *browsertest.Browser, p *barParty, code, accept, queued, fragment string, english []string) {
	tablet := b.Page(t, browsertest.Tablet)
	browsertest.Language(t, tablet, accept)
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	ticket := `.ticket[data-id="` + queued + `"]`
	browsertest.WaitVisible(t, tablet, ticket+" .act-start")
	waitEval(t, tablet, "a ticket in the making and one ready", `document.querySelectorAll("#tickets-preparing .ticket, #tickets-ready .ticket").length >= 2`)
	assertNoEnglish(t, tablet, code+" /bar", english)
	browsertest.Click(t, tablet, ticket+" .recipe-open")
	browsertest.WaitVisible(t, tablet, "#recipe-close")
	assertNoEnglish(t, tablet, code+" /bar recipe", english)
	browsertest.Click(t, tablet, "#recipe-close")
	browsertest.Click(t, tablet, "#stock-toggle")
	browsertest.WaitVisible(t, tablet, "#stock-panel")
	assertNoEnglish(t, tablet, code+" /bar stock", english)

	// The door: Ada's card, with its warnings (never answered, then let
	// in anyway; in the second language, already inside).
	browsertest.Navigate(t, tablet, p.s.URL+"/door")
	browsertest.Fill(t, tablet, "#door-code", p.guestCode)
	browsertest.Click(t, tablet, "#door-submit")
	browsertest.WaitVisible(t, tablet, "#door-warnings")
	assertNoEnglish(t, tablet, code+" /door card", english)
	if browsertest.Eval[bool](t, tablet, `!document.getElementById("door-force").hidden`) {
		browsertest.Click(t, tablet, "#door-force")
		browsertest.WaitText(t, tablet, "#door-warnings", " ")
	}
	assertNoEnglish(t, tablet, code+" /door checked in", english)

	browsertest.Navigate(t, tablet, p.s.URL+"/board#"+fragment)
	waitEval(t, tablet, "board live", `document.getElementById("live-status").dataset.status === "open"`)
	browsertest.WaitText(t, tablet, "#waiting", "Mojito")
	assertNoEnglish(t, tablet, code+" /board", english)

	stranger := b.Page(t, browsertest.Phone)
	browsertest.Language(t, stranger, accept)
	browsertest.Navigate(t, stranger, p.s.URL+"/menu")
	browsertest.WaitText(t, stranger, "#pm-list", "Negroni")
	assertNoEnglish(t, stranger, code+" /menu", english)
	browsertest.Navigate(t, stranger, p.s.URL+"/join")
	browsertest.WaitVisible(t, stranger, "#join-form")
	assertNoEnglish(t, stranger, code+" /join", english)

	desk := b.Page(t, browsertest.Laptop)
	browsertest.Language(t, desk, accept)
	browsertest.SignIn(t, desk, p.s.URL, p.s.Code, p.s.LastName, "/admin")
	waitEval(t, desk, "desk live", `document.getElementById("live-status").dataset.status === "open"`)
	browsertest.WaitText(t, desk, "#guests", "Lovelace")
	assertNoEnglish(t, desk, code+" /admin", english)
	browsertest.Navigate(t, desk, p.s.URL+"/admin/orders")
	browsertest.WaitText(t, desk, "#orders-body", "Mojito")
	assertNoEnglish(t, desk, code+" /admin/orders", english)
}
