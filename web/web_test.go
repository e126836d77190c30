package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestHandlerServesPagesAndAssets(t *testing.T) {
	h := Handler()
	tests := []struct {
		path        string
		contentType string
		cache       string
		contains    string
	}{
		{"/", "text/html; charset=utf-8", "no-cache", `id="whoami"`},
		{"/login", "text/html; charset=utf-8", "no-cache", `id="login-form"`},
		{"/bar", "text/html; charset=utf-8", "no-cache", `src="/static/js/bar.js"`},
		{"/admin", "text/html; charset=utf-8", "no-cache", `src="/static/js/admin.js"`},
		{"/door", "text/html; charset=utf-8", "no-cache", `src="/static/js/door.js"`},
		{"/static/css/app.css", "text/css; charset=utf-8", "public, max-age=300", "prefers-color-scheme: dark"},
		{"/static/js/api.js", "text/javascript; charset=utf-8", "public, max-age=300", `"barhub.token"`},
		{"/static/js/login.js", "text/javascript; charset=utf-8", "public, max-age=300", "landingFor("},
		{"/static/img/icon.svg", "image/svg+xml", "public, max-age=300", "<svg"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			res := rec.Result()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status = %d, want 200; body %s", res.StatusCode, rec.Body)
			}
			if got := res.Header.Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
			}
			if got := res.Header.Get("Cache-Control"); got != tt.cache {
				t.Errorf("Cache-Control = %q, want %q", got, tt.cache)
			}
			if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
			}
			etag := res.Header.Get("ETag")
			if len(etag) < 10 || !strings.HasPrefix(etag, `"`) {
				t.Errorf("ETag = %q, want a quoted content hash", etag)
			}
			if !strings.Contains(rec.Body.String(), tt.contains) {
				t.Errorf("body does not contain %q", tt.contains)
			}

			// A browser revalidating with the ETag it has gets a 304 and no body.
			req := httptest.NewRequest(http.MethodGet, tt.path, nil)
			req.Header.Set("If-None-Match", etag)
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotModified {
				t.Errorf("revalidation status = %d, want 304", rec.Code)
			}
			if rec.Body.Len() != 0 {
				t.Errorf("304 has a %d-byte body", rec.Body.Len())
			}
		})
	}
}

func TestHandlerPagesHaveSecurityHeaders(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("Content-Security-Policy allows inline code: %q", csp)
	}
}

func TestHandlerHead(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/static/css/app.css", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200", rec.Code)
	}
	if rec.Body.Len() != 0 {
		t.Errorf("HEAD returned a %d-byte body", rec.Body.Len())
	}
	if rec.Header().Get("Content-Length") == "" {
		t.Error("HEAD has no Content-Length")
	}
}

func TestHandlerNotFound(t *testing.T) {
	h := Handler()
	for _, path := range []string{
		"/nope",
		"/index.html",
		"/login/",
		"/login.html",
		"/static/",
		"/static/missing.css",
		"/static/css",
		"/static/css/",
		"/static/../web.go",
		"/static/./css/app.css",
		"/static//css/app.css",
		"/static/css/../css/app.css",
		"/api/unknown",
		"/favicon.ico",
	} {
		t.Run(path, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path = path // NewRequest would clean some of these
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("status = %d, want 404", rec.Code)
			}
			assertErrorBody(t, rec, "not_found")
		})
	}
}

func TestHandlerRejectsOtherMethods(t *testing.T) {
	h := Handler()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		t.Run(method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(method, "/login", strings.NewReader("{}")))
			if rec.Code != http.StatusMethodNotAllowed {
				t.Fatalf("status = %d, want 405", rec.Code)
			}
			if got := rec.Header().Get("Allow"); got != "GET, HEAD" {
				t.Errorf("Allow = %q, want %q", got, "GET, HEAD")
			}
			assertErrorBody(t, rec, "method_not_allowed")
		})
	}
}

func TestNewHandlerNeedsEveryPage(t *testing.T) {
	fsys := fstest.MapFS{
		"static/index.html": {Data: []byte("<!doctype html>")},
		"static/login.html": {Data: []byte("<!doctype html>")},
	}
	_, err := newHandler(fsys)
	if err == nil {
		t.Fatal("newHandler accepted a tree without bar.html and admin.html")
	}
	if !strings.Contains(err.Error(), "is missing") {
		t.Errorf("error = %q, want it to name the missing page", err)
	}
}

func TestNewHandlerContentTypes(t *testing.T) {
	fsys := fstest.MapFS{
		"static/index.html":           {Data: []byte("<!doctype html>")},
		"static/login.html":           {Data: []byte("<!doctype html>")},
		"static/join.html":            {Data: []byte("<!doctype html>")},
		"static/bar.html":             {Data: []byte("<!doctype html>")},
		"static/admin.html":           {Data: []byte("<!doctype html>")},
		"static/orders.html":          {Data: []byte("<!doctype html>")},
		"static/door.html":            {Data: []byte("<!doctype html>")},
		"static/board.html":           {Data: []byte("<!doctype html>")},
		"static/menu.html":            {Data: []byte("<!doctype html>")},
		"static/sw.js":                {Data: []byte("")},
		"static/manifest.webmanifest": {Data: []byte("{}")},
		"static/js/x.mjs":             {Data: []byte("export {}")},
		"static/sound/ding.mp3":       {Data: []byte("ID3")},
		"static/data.unknown":         {Data: []byte("plain words")},
	}
	h, err := newHandler(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"js/x.mjs":             "text/javascript; charset=utf-8",
		"manifest.webmanifest": "application/manifest+json",
		"sound/ding.mp3":       "audio/mpeg",
		"data.unknown":         "text/plain; charset=utf-8",
	} {
		if got := h.files[name].contentType; got != want {
			t.Errorf("%s: content type %q, want %q", name, got, want)
		}
	}
}

func assertErrorBody(t *testing.T, rec *httptest.ResponseRecorder, code string) {
	t.Helper()
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", got)
	}
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q is not JSON: %v", rec.Body, err)
	}
	if body.Error.Code != code {
		t.Errorf("error.code = %q, want %q", body.Error.Code, code)
	}
	if body.Error.Message == "" {
		t.Error("error.message is empty")
	}
}

// FuzzHandlerPath checks that no request path panics the handler or reaches a file by a
// path other than its canonical one.
func FuzzHandlerPath(f *testing.F) {
	for _, p := range []string{"/", "/login", "/static/css/app.css", "/static/../web.go",
		"/static//js/api.js", "/static/js/./api.js", "/static/\x00", "/%2e%2e/"} {
		f.Add(p)
	}
	h := Handler()
	f.Fuzz(func(t *testing.T, p string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path = p
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			if _, page := pages[p]; page {
				return
			}
			rest, ok := strings.CutPrefix(p, "/static/")
			if !ok || strings.Contains(rest, "..") || strings.Contains(rest, "//") ||
				strings.HasPrefix(rest, "/") || strings.Contains(rest, "./") {
				t.Fatalf("served %q", p)
			}
		case http.StatusNotFound:
			assertErrorBody(t, rec, "not_found")
		default:
			t.Fatalf("status %d for %q", rec.Code, p)
		}
	})
}

// TestServiceWorkerAndManifest: the service worker is served from the root
// (so its scope is the whole app) and always revalidated; the manifest
// names icons that exist.
func TestServiceWorkerAndManifest(t *testing.T) {
	h := Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/sw.js", nil))
	if rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-cache" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Fatalf("/sw.js: %d %v", rec.Code, rec.Header())
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/manifest.webmanifest", nil))
	var m struct {
		StartURL string `json:"start_url"`
		Display  string
		Icons    []struct{ Src, Sizes string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != 200 {
		t.Fatalf("manifest: %d %v", rec.Code, err)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		r := httptest.NewRecorder()
		h.ServeHTTP(r, httptest.NewRequest("GET", ic.Src, nil))
		if r.Code != 200 {
			t.Errorf("icon %s: %d", ic.Src, r.Code)
		}
		sizes[ic.Sizes] = true
	}
	if m.StartURL != "/" || m.Display != "standalone" || !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("manifest %+v is not installable", m)
	}
}

// TestServiceWorkerShell: every file the service worker caches at install
// is served; one missing would make the browser refuse to install it.
func TestServiceWorkerShell(t *testing.T) {
	h := Handler()
	sw, err := static.ReadFile("static/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(sw), "const SHELL = [")
	list, _, ok2 := strings.Cut(list, "];")
	if !ok || !ok2 {
		t.Fatal("sw.js has no SHELL list")
	}
	n := 0
	for _, line := range strings.Split(list, "\n") {
		p := strings.Trim(strings.TrimSpace(line), `",`)
		if p == "" {
			continue
		}
		n++
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != 200 {
			t.Errorf("shell file %s: %d", p, rec.Code)
		}
	}
	if n < 10 {
		t.Errorf("only %d shell files", n)
	}
}

// TestNotFoundPage: a person who follows a bad link gets a page with a way
// back; scripts and API clients keep the JSON error.
func TestNotFoundPage(t *testing.T) {
	h := Handler()
	for _, tt := range []struct {
		path, accept string
		html         bool
	}{
		{"/nope", "text/html,application/xhtml+xml,*/*;q=0.8", true},
		{"/bar/extra", "text/html", true},
		{"/nope", "application/json", false},
		{"/nope", "", false},
		{"/static/js/nope.js", "text/html", false},
	} {
		req := httptest.NewRequest("GET", tt.path, nil)
		req.Header.Set("Accept", tt.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != 404 {
			t.Errorf("%s (%s): %d", tt.path, tt.accept, rec.Code)
		}
		gotHTML := strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html")
		if gotHTML != tt.html {
			t.Errorf("%s (%s): Content-Type %s", tt.path, tt.accept, rec.Header().Get("Content-Type"))
		}
		if tt.html && !strings.Contains(body, `href="/"`) {
			t.Errorf("%s: the 404 page has no way back: %s", tt.path, body)
		}
		if !tt.html && !strings.Contains(body, `"not_found"`) {
			t.Errorf("%s: %s", tt.path, body)
		}
	}
}

// TestIconsDrawnFromCode: the PNG icons are made by the server, not kept as
// files: the right size, the square's green with the white glass on it and
// clear corners, cacheable, and answered 304 from their ETag.
func TestIconsDrawnFromCode(t *testing.T) {
	if _, err := fs.Stat(static, "static/"+iconPath(192)); err == nil {
		t.Fatalf("%s is a file in the repository again", iconPath(192))
	}
	h := Handler()
	for _, px := range iconSizes {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/static/"+iconPath(px), nil))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" || rec.Header().Get("Cache-Control") != "public, max-age=300" {
			t.Fatalf("icon %d: %d %v", px, rec.Code, rec.Header())
		}
		img, err := png.Decode(rec.Body)
		if err != nil {
			t.Fatalf("icon %d: %v", px, err)
		}
		if b := img.Bounds(); b.Dx() != px || b.Dy() != px {
			t.Fatalf("icon %d is %v", px, b)
		}
		at := func(x, y float64) color.RGBA {
			return color.RGBAModel.Convert(img.At(int(x*float64(px)/64), int(y*float64(px)/64))).(color.RGBA)
		}
		if c := at(1, 1); c.A != 0 {
			t.Errorf("icon %d: corner %v, want clear", px, c)
		}
		if c := at(8, 40); c != iconGreen {
			t.Errorf("icon %d: square %v, want %v", px, c, iconGreen)
		}
		if c := at(32, 20); c != iconWhite {
			t.Errorf("icon %d: glass %v, want white", px, c)
		}
		if c := at(43, 19); c != iconGold {
			t.Errorf("icon %d: dot %v, want %v", px, c, iconGold)
		}
		again := httptest.NewRequest("GET", "/static/"+iconPath(px), nil)
		again.Header.Set("If-None-Match", rec.Header().Get("ETag"))
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, again)
		if rec.Code != http.StatusNotModified {
			t.Errorf("icon %d with its ETag: %d, want 304", px, rec.Code)
		}
	}
}

// TestGzip: scripts, styles, pages and catalogues go gzipped to a browser
// that takes it, with their own ETag (a 304 from it) and Vary; a client
// that does not take gzip, or refuses it, gets the plain file; images that
// are compressed already go as they are.
func TestGzip(t *testing.T) {
	h := Handler()
	get := func(path, acceptEncoding, ifNoneMatch string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	plain := get("/static/js/menu.js", "", "")
	for _, path := range []string{"/static/js/menu.js", "/static/css/app.css", "/", "/static/i18n/sv.json"} {
		rec := get(path, "gzip, deflate, br", "")
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s: %d %v", path, rec.Code, rec.Header())
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body, err := io.ReadAll(zr)
		if err != nil || len(body) == 0 {
			t.Fatalf("%s: %d bytes, %v", path, len(body), err)
		}
		if path == "/static/js/menu.js" {
			if !bytes.Equal(body, plain.Body.Bytes()) {
				t.Error("menu.js gunzipped is not menu.js")
			}
			if rec.Body.Len() >= plain.Body.Len()/2 {
				t.Errorf("menu.js gzipped is %d bytes of %d", rec.Body.Len(), plain.Body.Len())
			}
			if etag := rec.Header().Get("ETag"); etag == plain.Header().Get("ETag") {
				t.Errorf("the gzipped and plain files share the ETag %s", etag)
			} else if r := get(path, "gzip", etag); r.Code != http.StatusNotModified {
				t.Errorf("gzipped menu.js with its ETag: %d, want 304", r.Code)
			}
		}
	}
	if plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("no Accept-Encoding: %v", plain.Header())
	}
	if rec := get("/static/js/menu.js", "gzip;q=0, identity", ""); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 got %v", rec.Header())
	}
	if rec := get("/static/"+iconPath(192), "gzip", ""); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("a PNG went gzipped: %v", rec.Header())
	}
}
