// Package web serves barhub's browser apps: the guest, bartender and admin pages and the
// sign-in page, embedded in the binary so that a laptop needs nothing but the one file.
// The pages are plain HTML, CSS and ES modules; there is no build step.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed static
var static embed.FS

// pages maps the app URLs to the HTML files that serve them. Every other path outside
// /static/ is a 404, so a typo never silently shows the guest app.
var pages = map[string]string{
	"/":      "index.html",
	"/login": "login.html",
	"/join":  "join.html",
	"/bar":   "bar.html",
	"/admin": "admin.html",
	"/door":  "door.html",
	"/board": "board.html",
	// The public menu: readable without signing in while the host has it on.
	"/menu": "menu.html",
	// The host's Orders screen and the night's report (docs/REPORTS.md).
	"/admin/orders": "orders.html",
	// The service worker lives at the root so its scope is the whole app
	// (docs/PUSH.md); the manifest makes the guest app installable.
	"/sw.js":                "sw.js",
	"/manifest.webmanifest": "manifest.webmanifest",
}

// assetMaxAge keeps assets cacheable for a short while without fingerprinted names: a
// deploy reaches every phone within minutes, and the ETag makes revalidation cheap.
const assetMaxAge = 5 * time.Minute

// contentTypes is fixed here rather than read from the system MIME tables, which differ
// between machines (some map .js to text/plain, which browsers refuse for modules).
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".webp":        "image/webp",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".mp3":         "audio/mpeg",
	".ogg":         "audio/ogg",
	".wav":         "audio/wav",
}

// contentSecurityPolicy allows only same-origin scripts and styles (no inline code), the
// live WebSocket, and images and uploads from https origins such as presigned S3 URLs.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data: blob: https:; connect-src 'self' ws: wss: https:; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

type file struct {
	name        string
	body        []byte
	etag        string
	contentType string
	html        bool

	// draw, when set, makes body on the first request (the PNG icons, icon.go):
	// a server that is never asked for them never spends the time.
	draw     func() ([]byte, error)
	drawOnce sync.Once
	drawErr  error

	// Text files are also sent gzipped to browsers that take it (all do): the
	// guest page's scripts, styles and catalogue shrink to about a third on a
	// phone's slow network. Compressed on the first request that asks.
	compressible bool
	gzOnce       sync.Once
	gz           []byte // nil when gzip would not make it smaller
	gzETag       string
}

// gzipped returns the compressed body and its ETag, or nil.
func (f *file) gzipped() ([]byte, string) {
	f.gzOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(f.body)
		if zw.Close() != nil || buf.Len() >= len(f.body)*9/10 {
			return
		}
		f.gz = buf.Bytes()
		f.gzETag = strings.TrimSuffix(f.etag, `"`) + `-gz"`
	})
	return f.gz, f.gzETag
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if name = strings.TrimSpace(name); name != "gzip" && name != "*" {
			continue
		}
		q, ok := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}

// ready fills body and etag of a drawn file, once.
func (f *file) ready() error {
	if f.draw != nil {
		f.drawOnce.Do(func() {
			f.body, f.drawErr = f.draw()
			sum := sha256.Sum256(f.body)
			f.etag = `"` + hex.EncodeToString(sum[:8]) + `"`
		})
	}
	return f.drawErr
}

type handler struct {
	files map[string]*file // by path below static/, e.g. "css/app.css"
}

// Handler returns the handler for the pages and /static/ assets. It answers only GET and
// HEAD; anything it does not serve gets a JSON 404, like the API.
func Handler() http.Handler {
	h, err := newHandler(static)
	if err != nil {
		// The files are compiled into the binary, so this can only be a build defect.
		panic(fmt.Sprintf("web: load embedded files: %v", err))
	}
	return h
}

func newHandler(fsys fs.FS) (*handler, error) {
	sub, err := fs.Sub(fsys, "static")
	if err != nil {
		return nil, fmt.Errorf("open static: %w", err)
	}
	h := &handler{files: make(map[string]*file)}
	err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(sub, name)
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		sum := sha256.Sum256(body)
		ext := path.Ext(name)
		ct, ok := contentTypes[ext]
		if !ok {
			ct = mime.TypeByExtension(ext)
		}
		if ct == "" {
			ct = http.DetectContentType(body)
		}
		h.files[name] = &file{
			name:        name,
			body:        body,
			etag:        `"` + hex.EncodeToString(sum[:8]) + `"`,
			contentType: ct,
			html:        ext == ".html",
			compressible: strings.HasPrefix(ct, "text/") || strings.HasPrefix(ct, "application/json") ||
				strings.HasPrefix(ct, "application/manifest+json") || strings.HasPrefix(ct, "image/svg+xml"),
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk static: %w", err)
	}
	for _, px := range iconSizes {
		h.files[iconPath(px)] = &file{name: iconPath(px), contentType: "image/png", draw: func() ([]byte, error) { return drawIcon(px) }}
	}
	for route, name := range pages {
		if h.files[name] == nil {
			return nil, fmt.Errorf("page %s: %s is missing", route, name)
		}
	}
	return h, nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := h.lookup(r.URL.Path)
	if f == nil {
		if nf := h.files["404.html"]; nf != nil && wantsPage(r) {
			// A person followed a bad link: a page with a way back, not JSON.
			hdr := w.Header()
			hdr.Set("Content-Type", nf.contentType)
			hdr.Set("Cache-Control", "no-cache")
			hdr.Set("X-Content-Type-Options", "nosniff")
			hdr.Set("Content-Security-Policy", contentSecurityPolicy)
			w.WriteHeader(http.StatusNotFound)
			if r.Method != http.MethodHead {
				w.Write(nf.body)
			}
			return
		}
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("nothing at %s", r.URL.Path))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed",
			fmt.Sprintf("%s is not allowed on %s", r.Method, r.URL.Path))
		return
	}
	if err := f.ready(); err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "the file could not be made")
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", f.contentType)
	hdr.Set("ETag", f.etag)
	hdr.Set("X-Content-Type-Options", "nosniff")
	switch {
	case f.html:
		// Always revalidate pages so a new release shows up on the next load.
		hdr.Set("Cache-Control", "no-cache")
		hdr.Set("Content-Security-Policy", contentSecurityPolicy)
		hdr.Set("Referrer-Policy", "same-origin")
	case f.name == "sw.js":
		// The service worker too: it decides what every later load sees.
		hdr.Set("Cache-Control", "no-cache")
	default:
		hdr.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(assetMaxAge.Seconds())))
	}
	body := f.body
	if f.compressible {
		hdr.Set("Vary", "Accept-Encoding")
		if gz, etag := f.gzipped(); gz != nil && acceptsGzip(r) {
			hdr.Set("Content-Encoding", "gzip")
			hdr.Set("ETag", etag)
			body = gz
		}
	}
	// ServeContent answers If-None-Match with 304, HEAD, and Range requests.
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(body))
}

// wantsPage reports whether a browser navigated to the URL (it asks for
// HTML), as opposed to a script or a client of the API asking for data.
func wantsPage(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if strings.HasPrefix(r.URL.Path, "/static/") || strings.HasPrefix(r.URL.Path, "/api/") {
		return false
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// lookup returns the file for an app URL or a /static/ asset path, or nil.
func (h *handler) lookup(urlPath string) *file {
	if name, ok := pages[urlPath]; ok {
		return h.files[name]
	}
	rest, ok := strings.CutPrefix(urlPath, "/static/")
	if !ok || rest == "" {
		return nil
	}
	// Reject rather than clean "..", "//" and the like: no real link has them.
	if path.Clean(rest) != rest || !fs.ValidPath(rest) {
		return nil
	}
	return h.files[rest]
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	body.Error.Code = code
	body.Error.Message = message
	// The client may be gone; there is nobody left to tell.
	_ = json.NewEncoder(w).Encode(body)
}
