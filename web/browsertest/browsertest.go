// Package browsertest drives Debian's Chromium headless from Go tests, so barhub's pages
// are tested the way people use them: on a phone, a tablet and a laptop.
//
// A test starts one browser and opens a tab per viewport:
//
//	b := browsertest.New(t)
//	ctx := b.Page(t, browsertest.Phone)
//	browsertest.Navigate(t, ctx, srv.URL+"/login")
//	browsertest.Fill(t, ctx, "#code", code)
//	browsertest.Click(t, ctx, "#login-submit")
//	browsertest.WaitText(t, ctx, "#whoami", "Ada")
//	browsertest.Screenshot(t, ctx, "signed-in")
//
// Axe runs axe-core, embedded from testdata/axe, on a tab and returns what a person must
// fix for the page to be accessible:
//
//	for _, v := range browsertest.Axe(t, ctx) {
//		t.Error(v)
//	}
//
// The helpers fail the test with a message that says what was expected; each step has
// its own deadline (StepTimeout) so a page that never shows an element fails the test
// instead of hanging it.
package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// StepTimeout bounds each helper's wait. It is generous because two cores are shared by
// the browser, the server under test and other test packages; it guards against hangs
// and is not a speed requirement.
const StepTimeout = 20 * time.Second

// Viewport is an emulated screen.
type Viewport struct {
	Name   string // used in screenshot file names
	Width  int64
	Height int64
	Scale  float64 // device pixel ratio
	Mobile bool
	Touch  bool
}

// The screens barhub is designed for: a guest's phone, the bar's tablet, the host's laptop.
var (
	Phone  = Viewport{Name: "phone", Width: 390, Height: 844, Scale: 3, Mobile: true, Touch: true}
	Tablet = Viewport{Name: "tablet", Width: 1024, Height: 768, Scale: 1, Touch: true}
	Laptop = Viewport{Name: "laptop", Width: 1440, Height: 900, Scale: 1}
)

// Viewports lists every designed screen, for tests that check a page on all of them.
var Viewports = []Viewport{Phone, Tablet, Laptop}

// Browser is a headless Chromium owned by one test.
type Browser struct {
	ctx context.Context // the browser's first tab; new tabs derive from it
}

// ChromePath returns the browser binary the tests use: $BARHUB_CHROME, or Debian's
// /usr/bin/chromium.
func ChromePath() string {
	if p := os.Getenv("BARHUB_CHROME"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// New starts a headless Chromium with its own profile and temporary directories. It is
// stopped and its files removed when the test ends.
func New(t testing.TB) *Browser {
	t.Helper()
	execPath := ChromePath()
	if _, err := exec.LookPath(execPath); err != nil {
		t.Fatalf("browser tests need Chromium at %s (%v): install chromium "+
			"(sudo apt-get install chromium) or run make test, which installs it; "+
			"set BARHUB_CHROME to use another Chromium binary", execPath, err)
	}

	// Everything the browser writes stays in the test's folder: the profile, temporary
	// files, and what it would otherwise put in $HOME (.config, .cache, dconf).
	// A short folder of its own rather than t.TempDir(), whose path grows with the
	// test's name: Chromium puts a Unix socket in it, and socket paths are limited to
	// 107 bytes.
	dir, err := os.MkdirTemp("", "bht")
	if err != nil {
		t.Fatalf("create browser directory: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	profile := filepath.Join(dir, "profile")
	tmp := filepath.Join(dir, "tmp")
	home := filepath.Join(dir, "home")
	for _, d := range []string{profile, tmp, home} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatalf("create browser directory: %v", err)
		}
	}

	output := &syncBuffer{}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.Headless,
		chromedp.NoSandbox, // tests often run as root, where the sandbox refuses to start
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-proxy-server", true),
		// Resolve nothing but loopback: the pages under test are local, and a test must
		// never depend on, or leak to, the outside network.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(profile),
		chromedp.Env("TMPDIR="+tmp, "HOME="+home,
			"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
			"XDG_CACHE_HOME="+filepath.Join(home, ".cache")),
		chromedp.WindowSize(int(Laptop.Width), int(Laptop.Height)),
		chromedp.CombinedOutput(output),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithErrorf(func(format string, args ...any) {
		output.Printf("chromedp: "+format+"\n", args...)
	}))
	b := &Browser{ctx: ctx}
	t.Cleanup(func() {
		cancel()
		cancelAlloc() // waits for the process to exit, before its folder is removed
		if t.Failed() {
			if out := output.Relevant(); out != "" {
				t.Logf("browser output:\n%s", out)
			}
		}
	})

	// Start the browser now, without a deadline: the first Run binds the browser's life
	// to its context.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v\n%s", execPath, err, output.Relevant())
	}
	return b
}

type viewportKey struct{}

// Page opens a new tab emulating the viewport and returns its context for the helpers.
// Each page is a separate browser profile, like another person's device: pages share
// no cookies or localStorage, so one browser can hold a guest's phone and the bar's
// tablet signed in side by side. The tab closes when the test ends; messages the page
// writes to its console, and its uncaught exceptions, are added to the test log.
func (b *Browser) Page(t testing.TB, vp Viewport) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	ctx = context.WithValue(ctx, viewportKey{}, vp)

	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(vp.Scale)}
	if vp.Mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if vp.Touch {
		opts = append(opts, chromedp.EmulateTouch)
	}
	if vp.Width > vp.Height {
		opts = append(opts, chromedp.EmulateLandscape)
	} else {
		opts = append(opts, chromedp.EmulatePortrait)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.Width, vp.Height, opts...)); err != nil {
		cancel()
		t.Fatalf("open %s tab: %v", vp.Name, err)
	}

	var wg sync.WaitGroup
	messages := chromedp.Console(ctx)
	wg.Go(func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			t.Logf("browser console (%s) %s: %s", vp.Name, m.Type, m.Text)
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait() // t.Logf must not run after the test has finished
	})
	return ctx
}

// ViewportOf returns the viewport a Page context emulates.
func ViewportOf(ctx context.Context) (Viewport, bool) {
	vp, ok := ctx.Value(viewportKey{}).(Viewport)
	return vp, ok
}

// step runs actions with StepTimeout and fails the test with what on error.
func step(t testing.TB, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	if err := againIfReplaced(sctx, func() error { return chromedp.Do(sctx, actions...) }); err != nil {
		t.Fatalf("%s: %v%s", what, err, pageState(ctx))
	}
}

// againIfReplaced runs do, and runs it again while it fails because the element it
// found was replaced before it could act on it: a page redraws a list or a form when a
// live event or its catalogue arrives, and a person would simply type into, or look at,
// the new one. Under load the redraw can fall between chromedp finding the node and
// using it ("Could not find node with given id"). Any other error, or ctx's end, stops it.
func againIfReplaced(ctx context.Context, do func() error) error {
	for {
		err := do()
		if err == nil || !replacedNode(err) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// replacedNode reports whether err is the browser saying a node it was given is no
// longer in the document.
func replacedNode(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Could not find node with given id") ||
		strings.Contains(msg, "No node with given id found") ||
		strings.Contains(msg, "Node with given id does not belong to the document")
}

// pageState describes where the tab is, to make a failed step easy to read.
func pageState(ctx context.Context) string {
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	loc, err := chromedp.Run(sctx, chromedp.Location())
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" (page at %s)", loc)
}

// Navigate loads url and waits for the page's load event.
func Navigate(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	step(t, ctx, "navigate to "+url, chromedp.Navigate(url))
}

// WaitVisible waits until the CSS selector matches a visible element.
func WaitVisible(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	step(t, ctx, "wait for "+sel+" to be visible", chromedp.WaitVisible(chromedp.CSS(sel)))
}

// WaitNotVisible waits until no element matching the CSS selector is visible.
func WaitNotVisible(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	step(t, ctx, "wait for "+sel+" to be hidden", chromedp.WaitNotVisible(chromedp.CSS(sel)))
}

// Fill replaces the value of the input matched by sel with text, typing it key by key so
// the page sees the same input events as from a person.
func Fill(t testing.TB, ctx context.Context, sel, text string) {
	t.Helper()
	step(t, ctx, fmt.Sprintf("fill %s with %q", sel, text),
		chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const el = document.querySelector(%q);
			el.value = ""; el.dispatchEvent(new Event("input", {bubbles: true})); })()`, sel)),
		chromedp.SendKeys(chromedp.CSS(sel), text),
	)
}

// Click clicks the first visible element matched by sel; on touch viewports it taps it.
//
// A click lands at a point on the screen, so it waits until the element stands still
// and is the one a person's finger would hit there: a page that is still laying out
// (a list redrawn by a live event, a view sliding in, a catalogue arriving) would
// otherwise take the click somewhere else, and the test would fail far from the cause.
func Click(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	x, y := clickPoint(t, ctx, sel)
	action := chromedp.MouseClickXY(x, y)
	if vp, ok := ViewportOf(ctx); ok && vp.Touch {
		action = chromedp.TapXY(x, y)
	}
	step(t, ctx, "click "+sel, action)
}

// clickTarget is what clickPointJS reports about the element to click.
type clickTarget struct {
	Found   bool    `json:"found"`
	Visible bool    `json:"visible"`
	Hit     bool    `json:"hit"`
	Covered string  `json:"covered"`
	Box     string  `json:"box"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
}

// clickPointJS finds the element, brings it to the middle of the screen when it is not
// wholly on it, and says where its centre is and whether that point hits it (or a child
// of it, or the same label or button it sits in).
const clickPointJS = `((sel) => {
	const el = document.querySelector(sel);
	if (!el) return {found: false};
	let r = el.getBoundingClientRect();
	const style = getComputedStyle(el);
	if (r.width === 0 || r.height === 0 || style.visibility === "hidden") return {found: true, visible: false};
	if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
		el.scrollIntoView({block: "center", inline: "center", behavior: "instant"});
		r = el.getBoundingClientRect();
	}
	const x = r.left + r.width / 2, y = r.top + r.height / 2;
	const hit = document.elementFromPoint(x, y);
	const holder = (n) => n && n.closest("label, button, a, summary");
	const ok = !!hit && (el.contains(hit) || hit.contains(el) || (holder(el) !== null && holder(el) === holder(hit)));
	const name = (n) => n ? n.tagName.toLowerCase() + (n.id ? "#" + n.id : "") + (typeof n.className === "string" && n.className.trim() ? "." + n.className.trim().split(/\s+/).join(".") : "") : "nothing";
	return {found: true, visible: true, hit: ok, covered: ok ? "" : name(hit),
		box: [r.left, r.top, r.width, r.height].map((v) => v.toFixed(1)).join(","), x, y};
})`

// clickPoint waits until the element matched by sel is visible, has not moved since the
// last look 50 ms before, and is what a click at its centre hits; it returns that centre.
func clickPoint(t testing.TB, ctx context.Context, sel string) (x, y float64) {
	t.Helper()
	js := fmt.Sprintf("%s(%q)", clickPointJS, sel)
	var last, prev clickTarget
	ok := waitFor(ctx, func(ctx context.Context) (bool, error) {
		prev = last
		got, err := chromedp.Run(ctx, chromedp.Evaluate[clickTarget](js))
		if err != nil {
			last = clickTarget{}
			return false, err
		}
		last = got
		return got.Visible && got.Hit && got.Box == prev.Box, nil
	})
	if !ok {
		why := "it is not on the page"
		switch {
		case last.Found && !last.Visible:
			why = "it is not visible"
		case last.Visible && !last.Hit:
			why = "a click at its centre would hit " + last.Covered
		case last.Visible:
			why = "it kept moving (last box " + last.Box + ")"
		}
		t.Fatalf("click %s: %s%s", sel, why, pageState(ctx))
	}
	return last.X, last.Y
}

// Text returns the visible text of the first element matched by sel.
func Text(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	text, err := chromedp.Run(sctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("read text of %s: %v%s", sel, err, pageState(ctx))
	}
	return text
}

// WaitText waits until the element matched by sel shows text containing substr, and
// returns the whole text.
func WaitText(t testing.TB, ctx context.Context, sel, substr string) string {
	t.Helper()
	js := fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		return el ? el.innerText : null; })()`, sel)
	var last *string
	ok := waitFor(ctx, func(ctx context.Context) (bool, error) {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[*string](js))
		last = text
		return text != nil && strings.Contains(*text, substr), err
	})
	if !ok {
		shows := "no such element"
		if last != nil {
			shows = fmt.Sprintf("it shows %q", *last)
		}
		t.Fatalf("wait for %s to contain %q: %s%s", sel, substr, shows, pageState(ctx))
	}
	return *last
}

// WaitPath waits until the page's location.pathname is path, as after a redirect.
func WaitPath(t testing.TB, ctx context.Context, path string) {
	t.Helper()
	var last string
	ok := waitFor(ctx, func(ctx context.Context) (bool, error) {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		last = p
		return p == path, err
	})
	if !ok {
		t.Fatalf("wait for the page to reach %s: it is at %q", path, last)
	}
}

// waitFor checks cond every 50 ms until it holds or StepTimeout passes. Errors count as
// "not yet": a page that is navigating has no document to evaluate in for a moment.
func waitFor(ctx context.Context, cond func(context.Context) (bool, error)) bool {
	deadline := time.Now().Add(StepTimeout)
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		done, err := cond(cctx)
		cancel()
		if done && err == nil {
			return true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its value into T.
// Promises are awaited.
func Eval[T any](t testing.TB, ctx context.Context, expression string) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[T](expression, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v%s", expression, err, pageState(ctx))
	}
	return v
}

// maxScreenshotHeight bounds a whole-page screenshot: encoding a page many screens long
// costs seconds of CPU on a loaded machine (and Chromium stops at 16,384 pixels), while
// the first few screens are what a person looks at.
const maxScreenshotHeight = 4000

// Screenshot saves a PNG of the page (its first maxScreenshotHeight pixels when it is
// longer) as <OutputDir>/screenshots/<Test>/<name>-<viewport>.png and returns its path.
// Screenshots are kept after the run for people to look at; nothing compares them.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.Action[[]byte](func(ctx context.Context, target *chromedp.Target) ([]byte, error) {
		m, err := cdp.Call(ctx, target, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		size := m.CSSContentSize
		if size == nil {
			return nil, errors.New("no content size")
		}
		yes := true
		r, err := cdp.Call(ctx, target, page.CaptureScreenshot, page.CaptureScreenshotParams{
			CaptureBeyondViewport: &yes,
			FromSurface:           &yes,
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{Width: math.Ceil(size.Width), Height: min(math.Ceil(size.Height), maxScreenshotHeight), Scale: 1},
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}))
	if err != nil {
		t.Fatalf("screenshot %s: %v%s", name, err, pageState(ctx))
	}
	return saveScreenshot(t, ctx, name, png)
}

func saveScreenshot(t testing.TB, ctx context.Context, name string, png []byte) string {
	t.Helper()
	file := safeName(name)
	if vp, ok := ViewportOf(ctx); ok {
		file += "-" + vp.Name
	}
	dir := filepath.Join(OutputDir(t), "screenshots", testDir(t.Name()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, file+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	return p
}

// ScreenshotScreen saves what is on the screen right now (the viewport at its scroll
// position, with fixed bars and banners where a person sees them), named as Screenshot.
func ScreenshotScreen(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.Action[[]byte](func(ctx context.Context, target *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, target, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}))
	if err != nil {
		t.Fatalf("screenshot %s: %v%s", name, err, pageState(ctx))
	}
	return saveScreenshot(t, ctx, name, png)
}

// ScreenshotOf saves a screenshot of the first element matched by sel, for
// pages too long to capture whole (Chromium stops at 16,384 pixels).
func ScreenshotOf(t testing.TB, ctx context.Context, sel, name string) string {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	var png []byte
	err := againIfReplaced(sctx, func() (err error) {
		png, err = chromedp.Run(sctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible))
		return err
	})
	if err != nil {
		t.Fatalf("screenshot %s of %s: %v%s", name, sel, err, pageState(ctx))
	}
	return saveScreenshot(t, ctx, name, png)
}

// OutputDir is where tests keep artefacts: $BARHUB_TEST_OUTPUT, or test-output/ at the
// root of the module.
func OutputDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("BARHUB_TEST_OUTPUT"); dir != "" {
		return dir
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("find the test output folder: %v (set BARHUB_TEST_OUTPUT)", err)
	}
	return filepath.Join(root, "test-output")
}

// moduleRoot walks up from the working directory, which go test sets to the package's
// folder, to the folder holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeName(s string) string {
	s = strings.Trim(unsafeChars.ReplaceAllString(s, "_"), "._")
	if s == "" {
		return "_"
	}
	return s
}

// testDir maps a test name, with its subtests, to nested folders.
func testDir(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = safeName(p)
	}
	return filepath.Join(parts...)
}

// syncBuffer collects the browser's output, written from chromedp's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Printf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprintf(&b.buf, format, args...)
}

// Relevant returns the output without the lines a headless browser prints on every
// machine without a desktop session (D-Bus, UPower), which hide the ones that matter.
func (b *syncBuffer) Relevant() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out strings.Builder
	for line := range strings.Lines(b.buf.String()) {
		if strings.Contains(line, "dbus/") || strings.Contains(line, "unexpected operator") {
			continue
		}
		out.WriteString(line)
	}
	return out.String()
}

// SignIn signs in on barhub's sign-in page the way an invitation link does
// (/login?code=…, then the last name) and waits for the role's home page.
func SignIn(t testing.TB, ctx context.Context, baseURL, code, lastName, home string) {
	t.Helper()
	Navigate(t, ctx, baseURL+"/login?code="+url.QueryEscape(code))
	// The page's script has filled in the code and sends the form itself.
	WaitVisible(t, ctx, "#login-form[data-ready]")
	Fill(t, ctx, "#lastName", lastName)
	Click(t, ctx, "#login-submit")
	WaitPath(t, ctx, home)
	// The path changes when the new page commits; its document may still
	// be loading, and a node found now may be replaced a moment later.
	ok := waitFor(ctx, func(ctx context.Context) (bool, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === "complete"`))
	})
	if !ok {
		t.Fatalf("%s did not finish loading", home)
	}
}

// Language makes the tab's browser speak acceptLanguage (say "sv-SE,sv;q=0.9"), like a
// phone set to that language: navigator.languages, the Accept-Language header and Intl's
// default locale all follow it. Call it before the first Navigate.
func Language(t testing.TB, ctx context.Context, acceptLanguage string) {
	t.Helper()
	ua := Eval[string](t, ctx, `navigator.userAgent`)
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride,
		emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: acceptLanguage}); err != nil {
		t.Fatalf("set the browser's language to %s: %v", acceptLanguage, err)
	}
	first, _, _ := strings.Cut(acceptLanguage, ",")
	first, _, _ = strings.Cut(first, ";")
	if _, err := chromedp.Call(ctx, emulation.SetLocaleOverride,
		emulation.SetLocaleOverrideParams{Locale: strings.ReplaceAll(strings.TrimSpace(first), "-", "_")}); err != nil {
		t.Fatalf("set the browser's locale to %s: %v", first, err)
	}
}

// CheckHeader fails the test when two visible items of the page's top bar overlap, or one
// sticks out of the screen, measured by their boxes, and keeps a picture of the bar.
// The screen is the emulated one: a page wider than a phone makes the browser zoom out
// and widen innerWidth, which would hide the very overflow this looks for.
func CheckHeader(t testing.TB, ctx context.Context, page string) {
	t.Helper()
	width := "innerWidth"
	if vp, ok := ViewportOf(ctx); ok {
		width = strconv.FormatInt(vp.Width, 10)
	}
	problems := Eval[[]string](t, ctx, `((width) => {
		const out = [];
		if (document.documentElement.scrollWidth > width + 0.5) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
		const bar = document.querySelector("header.topbar");
		if (!bar) return out.concat(["no header.topbar"]);
		const items = [...bar.querySelectorAll(":scope > *, :scope > nav > a")]
			.filter((el) => !el.matches("nav, .spacer"))
			.map((el) => ({el, r: el.getBoundingClientRect(), name: el.id || el.className || el.tagName}))
			.filter((x) => x.r.width > 0 && x.r.height > 0 && getComputedStyle(x.el).visibility !== "hidden");
		// A link of a nav that scrolls sideways is clipped by it, not out of the screen: the nav's own box is what must fit.
		const scrolls = (el) => el && el.matches("nav") && /auto|scroll/.test(getComputedStyle(el).overflowX);
		for (const nav of bar.querySelectorAll(":scope > nav")) {
			const r = nav.getBoundingClientRect();
			if (r.width > 0 && (r.left < 0 || r.right > width + 0.5)) out.push("the nav sticks out: " + Math.round(r.left) + "–" + Math.round(r.right));
		}
		for (const x of items) {
			if (!scrolls(x.el.parentElement) && (x.r.left < 0 || x.r.right > width + 0.5)) out.push(x.name + " sticks out: " + Math.round(x.r.left) + "–" + Math.round(x.r.right));
			// Text wider than its own box runs over its neighbours.
			if (x.el.scrollWidth > x.el.clientWidth + 1 && !x.el.matches(".whoami")) out.push(x.name + " text overflows its box");
		}
		for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
			const a = items[i].r, b = items[j].r;
			if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(items[i].name + " overlaps " + items[j].name);
		}
		return out;
	})(`+width+`)`)
	vp, _ := ViewportOf(ctx)
	for _, p := range problems {
		t.Errorf("%s header on a %d px screen: %s", page, vp.Width, p)
	}
	ScreenshotOf(t, ctx, "header.topbar", page+"-header")
}

// ColorScheme makes the tab prefer a light or dark colour scheme ("light", "dark").
func ColorScheme(t testing.TB, ctx context.Context, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatalf("emulate prefers-color-scheme: %s: %v", scheme, err)
	}
}
