package main

import (
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserAdminSignsIn is the first flow a host meets: the login printed
// at first start, typed into the sign-in page, lands on the admin page.
func TestBrowserAdminSignsIn(t *testing.T) {
	s := startServer(t, "", nil)
	for _, vp := range []browsertest.Viewport{browsertest.Laptop, browsertest.Phone} {
		t.Run(vp.Name, func(t *testing.T) {
			// A browser each, as a host would sign in on two devices.
			ctx := browsertest.New(t).Page(t, vp)
			browsertest.Navigate(t, ctx, s.URL+"/admin")
			// Signed out: the admin page sends the host to sign in.
			browsertest.WaitPath(t, ctx, "/login")
			browsertest.Fill(t, ctx, "#code", s.Code)
			browsertest.Fill(t, ctx, "#lastName", "host") // any case
			browsertest.Screenshot(t, ctx, "admin-sign-in-form")
			browsertest.Click(t, ctx, "#login-submit")
			browsertest.WaitPath(t, ctx, "/admin")
			browsertest.WaitText(t, ctx, "#whoami", "Party")
			browsertest.Screenshot(t, ctx, "admin-signed-in")
		})
	}
}

// TestBrowserWrongLoginShowsError checks the message a guest sees when the
// last name does not match.
func TestBrowserWrongLoginShowsError(t *testing.T) {
	s := startServer(t, "", nil)
	b := browsertest.New(t)
	ctx := b.Page(t, browsertest.Phone)
	browsertest.Navigate(t, ctx, s.URL+"/login?code="+s.Code)
	browsertest.Fill(t, ctx, "#lastName", "Nobody")
	browsertest.Click(t, ctx, "#login-submit")
	browsertest.WaitText(t, ctx, "#login-error", "do not match")
	browsertest.Screenshot(t, ctx, "login-error")
}
