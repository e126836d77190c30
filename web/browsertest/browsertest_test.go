package browsertest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/barhub/barhub/web"
	"github.com/barhub/barhub/web/browsertest"
)

func TestLoginPageOnEveryViewport(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Setenv("BARHUB_TEST_OUTPUT", t.TempDir())

	b := browsertest.New(t)
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			ctx := b.Page(t, vp)
			browsertest.Navigate(t, ctx, srv.URL+"/login")
			browsertest.WaitVisible(t, ctx, "#login-form")
			for _, sel := range []string{"#code", "#lastName", "#login-submit"} {
				browsertest.WaitVisible(t, ctx, sel)
			}
			if got := browsertest.Text(t, ctx, "#login-submit"); got != "Sign in" {
				t.Errorf("submit button says %q, want %q", got, "Sign in")
			}

			// The page is laid out for the screen: nothing wider than the viewport, and the
			// submit button big enough to hit with a thumb.
			width := browsertest.Eval[int](t, ctx, `document.documentElement.scrollWidth`)
			if int64(width) > vp.Width {
				t.Errorf("page is %d px wide on a %d px screen", width, vp.Width)
			}
			height := browsertest.Eval[float64](t, ctx,
				`document.getElementById("login-submit").getBoundingClientRect().height`)
			if height < 44 {
				t.Errorf("submit button is %.0f px tall, want at least 44", height)
			}

			path := browsertest.Screenshot(t, ctx, "login")
			want := filepath.Join(os.Getenv("BARHUB_TEST_OUTPUT"), "screenshots",
				"TestLoginPageOnEveryViewport", vp.Name, "login-"+vp.Name+".png")
			if path != want {
				t.Errorf("screenshot saved as %s, want %s", path, want)
			}
			assertPNG(t, path, vp)
		})
	}
}

func TestLoginPageFromInvitationLink(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)

	browsertest.Navigate(t, ctx, srv.URL+"/login?code=ab12-cd34")
	browsertest.WaitVisible(t, ctx, "#login-form[data-ready]")
	if got := browsertest.Eval[string](t, ctx, `document.getElementById("code").value`); got != "AB12CD34" {
		t.Errorf("code field = %q, want the link's code in upper case, AB12CD34", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.activeElement.id`); got != "lastName" {
		t.Errorf("focused field = %q, want lastName (the code is already there)", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById("code").autocomplete`); got != "off" {
		t.Errorf("code autocomplete = %q, want off", got)
	}

	// Typing in lower case shows upper case.
	browsertest.Fill(t, ctx, "#code", "xy")
	if got := browsertest.Eval[string](t, ctx, `document.getElementById("code").value`); got != "XY" {
		t.Errorf("code field = %q after typing xy, want XY", got)
	}
}

func TestLoginPageShowsErrors(t *testing.T) {
	// web.Handler alone has no /api/auth/login, so a sign-in gets its real JSON 404; the
	// page must show the server's message rather than a generic one.
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Laptop)

	browsertest.Navigate(t, ctx, srv.URL+"/login")
	browsertest.Click(t, ctx, "#login-submit")
	browsertest.WaitText(t, ctx, "#login-error", "Enter the code from your invitation.")

	browsertest.Fill(t, ctx, "#code", "ABCD2345")
	browsertest.Click(t, ctx, "#login-submit")
	browsertest.WaitText(t, ctx, "#login-error", "Enter your last name.")

	browsertest.Fill(t, ctx, "#lastName", "Lovelace")
	browsertest.Click(t, ctx, "#login-submit")
	browsertest.WaitText(t, ctx, "#login-error", "Nothing at /api/auth/login")
	if got := browsertest.Eval[string](t, ctx, `localStorage.getItem("barhub.token") || ""`); got != "" {
		t.Errorf("a failed sign-in stored token %q", got)
	}
	browsertest.WaitPath(t, ctx, "/login")
	browsertest.Screenshot(t, ctx, "error")
}

func TestPagesRequireTheirRole(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)

	tests := []struct {
		path   string
		role   string // "" = signed out
		wantAt string
	}{
		{"/", "", "/login"},
		{"/bar", "", "/login"},
		{"/admin", "", "/login"},
		{"/admin", "guest", "/login"},
		{"/admin", "bartender", "/login"},
		{"/bar", "guest", "/login"},
		{"/", "guest", "/"},
		{"/bar", "bartender", "/bar"},
		{"/bar", "admin", "/bar"},
		{"/admin", "admin", "/admin"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s as %q", tt.path, tt.role), func(t *testing.T) {
			ctx := b.Page(t, browsertest.Tablet)
			// Set up the origin's storage first: localStorage is per origin.
			browsertest.Navigate(t, ctx, srv.URL+"/login")
			if tt.role == "" {
				browsertest.Eval[bool](t, ctx, `localStorage.clear(), true`)
			} else {
				signIn(t, ctx, tt.role, time.Now().Add(time.Hour))
			}
			browsertest.Navigate(t, ctx, srv.URL+tt.path)
			browsertest.WaitPath(t, ctx, tt.wantAt)
			if tt.wantAt != "/login" {
				browsertest.WaitText(t, ctx, "#whoami", "Ada Lovelace")
				browsertest.WaitVisible(t, ctx, "main#app")
			}
		})
	}
}

func TestExpiredTokenSignsOut(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)

	browsertest.Navigate(t, ctx, srv.URL+"/login")
	signIn(t, ctx, "guest", time.Now().Add(-time.Minute))
	browsertest.Navigate(t, ctx, srv.URL+"/")
	browsertest.WaitPath(t, ctx, "/login")
	browsertest.WaitText(t, ctx, "#login-notice", "signed out")
	if got := browsertest.Eval[string](t, ctx, `localStorage.getItem("barhub.token") || ""`); got != "" {
		t.Errorf("expired token still stored: %q", got)
	}
}

func TestPagesDoNotShareStorage(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)

	phone := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, phone, srv.URL+"/login")
	signIn(t, phone, "guest", time.Now().Add(time.Hour))

	tablet := b.Page(t, browsertest.Tablet)
	browsertest.Navigate(t, tablet, srv.URL+"/login")
	if got := browsertest.Eval[string](t, tablet, `localStorage.getItem("barhub.token") || ""`); got != "" {
		t.Fatalf("a new page sees another page's token %q", got)
	}
	browsertest.Navigate(t, tablet, srv.URL+"/")
	browsertest.WaitPath(t, tablet, "/login")

	browsertest.Navigate(t, phone, srv.URL+"/")
	browsertest.WaitText(t, phone, "#whoami", "Ada Lovelace")
}

func TestSignOut(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)

	browsertest.Navigate(t, ctx, srv.URL+"/login")
	signIn(t, ctx, "guest", time.Now().Add(time.Hour))
	browsertest.Navigate(t, ctx, srv.URL+"/")
	browsertest.WaitText(t, ctx, "#whoami", "Ada Lovelace")
	browsertest.Screenshot(t, ctx, "home")
	// This server has no live socket, so the phone's top bar says "Reconnecting…", its
	// longest state: "Sign out" must still be on the screen.
	browsertest.WaitVisible(t, ctx, "#live-status .text")
	browsertest.CheckHeader(t, ctx, "guest")
	browsertest.Click(t, ctx, "#logout")
	browsertest.WaitPath(t, ctx, "/login")
	if got := browsertest.Eval[string](t, ctx, `localStorage.getItem("barhub.token") || ""`); got != "" {
		t.Errorf("token still stored after sign-out: %q", got)
	}
}

// signIn stores a sign-in the way the login page does. The pages only read the token's
// exp; the API, which these tests do not start, checks the signature.
func signIn(t *testing.T, ctx context.Context, role string, exp time.Time) {
	t.Helper()
	claims, _ := json.Marshal(map[string]any{"sub": "g1", "role": role, "exp": exp.Unix()})
	token := "eyJhbGciOiJSUzI1NiJ9." + base64.RawURLEncoding.EncodeToString(claims) + ".c2ln"
	guest, _ := json.Marshal(map[string]any{"id": "g1", "firstName": "Ada", "lastName": "Lovelace", "role": role})
	js := fmt.Sprintf(`localStorage.setItem("barhub.token", %q);
		localStorage.setItem("barhub.role", %q);
		localStorage.setItem("barhub.guest", %q); true`, token, role, guest)
	browsertest.Eval[bool](t, ctx, js)
}

func assertPNG(t *testing.T, path string, vp browsertest.Viewport) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if len(data) == 0 {
		t.Fatalf("screenshot %s is empty", path)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", path, err)
	}
	// A full-page shot is the viewport's width in device pixels, and at least its height.
	wantW := int(float64(vp.Width) * vp.Scale)
	if cfg.Width != wantW || cfg.Height < int(float64(vp.Height)*vp.Scale) {
		t.Errorf("screenshot is %d×%d, want %d wide and at least %.0f tall",
			cfg.Width, cfg.Height, wantW, float64(vp.Height)*vp.Scale)
	}
}

// TestLoginPageFollowsLanguage: a phone set to Swedish gets the sign-in page in Swedish,
// with the page's own checks in Swedish; the switch changes it to Portuguese, and the
// choice outlives a reload.
func TestLoginPageFollowsLanguage(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)
	browsertest.Language(t, ctx, "sv-SE,sv;q=0.9,en;q=0.8")

	browsertest.Navigate(t, ctx, srv.URL+"/login")
	browsertest.WaitText(t, ctx, ".welcome h1", "Välkommen")
	if got := browsertest.Text(t, ctx, "#login-submit"); got != "Logga in" {
		t.Errorf("submit button says %q, want %q", got, "Logga in")
	}
	if got := browsertest.Eval[string](t, ctx, `document.documentElement.lang`); got != "sv" {
		t.Errorf("html lang = %q, want sv", got)
	}
	browsertest.Click(t, ctx, "#login-submit")
	browsertest.WaitText(t, ctx, "#login-error", "Ange koden från din inbjudan.")
	browsertest.Screenshot(t, ctx, "login-sv")

	// The switch: choosing Português reloads the page in Portuguese.
	browsertest.WaitVisible(t, ctx, "barhub-lang select")
	browsertest.Eval[bool](t, ctx, `(() => { const s = document.querySelector("barhub-lang select");
		s.value = "pt-BR"; s.dispatchEvent(new Event("change")); return true; })()`)
	browsertest.WaitText(t, ctx, ".welcome h1", "Bem-vindo")
	browsertest.Navigate(t, ctx, srv.URL+"/login")
	browsertest.WaitText(t, ctx, "#login-submit", "Entrar")
	if got := browsertest.Eval[string](t, ctx, `document.querySelector("barhub-lang select").value`); got != "pt-BR" {
		t.Errorf("the switch shows %q after a reload, want pt-BR", got)
	}
	width := browsertest.Eval[int](t, ctx, `document.documentElement.scrollWidth`)
	if int64(width) > browsertest.Phone.Width {
		t.Errorf("page is %d px wide on a %d px phone", width, browsertest.Phone.Width)
	}
	browsertest.Screenshot(t, ctx, "login-pt-BR")
}
