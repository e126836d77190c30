package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/barhub/barhub/web/browsertest"
)

// waitEval polls a JavaScript condition until it is true, failing after
// browsertest.StepTimeout with what was awaited.
func waitEval(t *testing.T, ctx context.Context, what, expression string) {
	t.Helper()
	deadline := time.Now().Add(browsertest.StepTimeout)
	for !browsertest.Eval[bool](t, ctx, expression) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still false after %s: %s", what, browsertest.StepTimeout, expression)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserGuestAppOffline: on a phone the guest app registers its
// service worker, which keeps the app shell; with the server gone the page
// still opens from it, showing that it is reconnecting, and the offline
// banner shows when the phone loses its network.
func TestBrowserGuestAppOffline(t *testing.T) {
	s := startServer(t, "", nil)
	admin := signInAdmin(t, s)
	mia := addFamily(t, admin, "Holm", "", "Mia")[0]
	b := browsertest.New(t)
	phone := b.Page(t, browsertest.Phone)
	browsertest.SignIn(t, phone, s.URL, mia.Code, "holm", "/")

	waitEval(t, phone, "service worker registered", `document.documentElement.dataset.sw === "registered"`)
	waitEval(t, phone, "service worker controls the page", `navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)`)
	waitEval(t, phone, "app shell cached", `caches.open("barhub-shell-v1").then(c => c.match("/")).then(r => !!r)`)
	waitEval(t, phone, "live", `document.getElementById("live-status").dataset.status === "open"`)

	// The server goes away: the page still opens, from the shell.
	s.Stop(t)
	browsertest.Navigate(t, phone, s.URL+"/")
	browsertest.WaitVisible(t, phone, "#greeting")
	waitEval(t, phone, "page served by the service worker", `!!navigator.serviceWorker.controller`)
	waitEval(t, phone, "reconnecting shown", `["connecting", "reconnecting"].includes(document.getElementById("live-status").dataset.status)`)

	// The phone loses its network: the banner says so.
	if _, err := chromedp.Call(phone, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitVisible(t, phone, "#offline-banner")
	browsertest.Screenshot(t, phone, "guest-offline")
}
