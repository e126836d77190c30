package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// Every drink of the menu has a picture without a camera or an image
// model: the drawing, served as an inert SVG with an ETag.
func TestEveryDrinkIsDrawn(t *testing.T) {
	e := newBarEnv(t)
	_, body := e.do("GET", "/api/drinks", "", nil)
	var list drinksBody
	decodeInto(t, body, &list)
	if len(list.Drinks) < 30 {
		t.Fatalf("%d drinks", len(list.Drinks))
	}
	for _, d := range list.Drinks {
		if d.ImageSource != menu.ImageDrawn || !strings.HasPrefix(d.ImageURL, "/images/drinks/"+d.ID+".svg?v=") {
			t.Errorf("%s: picture %q (%s)", d.ID, d.ImageURL, d.ImageSource)
		}
	}

	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	var negroni drinkView
	decodeInto(t, body, &negroni)
	resp := e.doResp("GET", negroni.ImageURL, "", nil)
	svg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Content-Type") != "image/svg+xml" || h.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("Cache-Control") != "public, max-age=300" ||
		!strings.HasSuffix(negroni.ImageURL, strings.Trim(h.Get("ETag"), `"`)) {
		t.Fatalf("drawing: %d %v", resp.StatusCode, h)
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil || !bytes.Contains(svg, []byte(`class="glass rocks"`)) || bytes.Contains(svg, []byte("<script")) {
		t.Errorf("the Negroni's drawing (%v): %s", err, svg)
	}
	resp = e.doResp("GET", negroni.ImageURL, "", nil, "If-None-Match", h.Get("ETag"))
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("revalidate: %d", resp.StatusCode)
	}
	// The same drawing as a PNG, for e-mail.
	resp = e.doResp("GET", "/images/drinks/negroni.png", "", nil)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	img, err := png.Decode(bytes.NewReader(raw))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || err != nil || img.Bounds().Dx() != 480 || img.Bounds().Dy() != 600 {
		t.Fatalf("PNG drawing: %d %v, %v", resp.StatusCode, resp.Header, err)
	}
	resp = e.doResp("GET", "/images/drinks/negroni.png", "", nil, "If-None-Match", resp.Header.Get("ETag"))
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("revalidate the PNG: %d", resp.StatusCode)
	}
	for _, p := range []string{"/images/drinks/nope.svg", "/images/drinks/negroni", "/images/drinks/negroni.gif", "/images/drinks/.svg"} {
		if status, body := e.do("GET", p, "", nil); status != 404 || errorCode(t, body) != "not_found" {
			t.Errorf("GET %s: %d %s", p, status, body)
		}
	}

	// An edit of the recipe draws it anew, under a new URL.
	edit := map[string]any{"name": "Negroni", "section": "Classics", "abv": 24, "glass": "Coupe", "ice": "none",
		"imageUrl":    negroni.ImageURL, // the editor sends back the drawing it was shown
		"ingredients": []map[string]any{{"name": "Gin", "amount": 30, "unit": "ml"}, {"name": "Campari", "amount": 30, "unit": "ml"}}}
	if status, body := e.do("PUT", "/api/admin/drinks/negroni", e.aTok, edit); status != 200 {
		t.Fatalf("edit: %d %s", status, body)
	}
	stored, _ := e.store.DrinkByID(t.Context(), "negroni")
	if stored.ImageURL != "" {
		t.Errorf("the drawing's URL was stored as a photo: %q", stored.ImageURL)
	}
	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	var edited drinkView
	decodeInto(t, body, &edited)
	if edited.ImageURL == negroni.ImageURL || edited.ImageSource != menu.ImageDrawn {
		t.Errorf("after the edit: %q (%s)", edited.ImageURL, edited.ImageSource)
	}
	_, body = e.do("GET", edited.ImageURL, "", nil)
	if !bytes.Contains(body, []byte(`class="glass coupe"`)) {
		t.Errorf("the edited drawing: %s", body)
	}
}

// The host removes a photo and the drawing shows again; without an image
// model, or over an upload, nothing is generated.
func TestRemoveAndRegeneratePicture(t *testing.T) {
	dir := t.TempDir()
	e := barEnvOf(newTestEnv(t, func(d *Deps) { d.Bar.ImageDir = dir }))
	menuEvents := listen(t, e.hub, live.TopicMenu)

	if status, body := e.do("POST", "/api/admin/drinks/negroni/image/regenerate", e.aTok, nil); status != 409 || errorCode(t, body) != "no_image_model" {
		t.Errorf("regenerate without a model: %d %s", status, body)
	}
	u := e.uploadURL("negroni")
	status, body := e.do("PUT", u.UploadURL, "", testPNG(t))
	var up uploadResponse
	decodeInto(t, body, &up)
	if status != 200 {
		t.Fatalf("upload: %d %s", status, body)
	}
	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	var d drinkView
	decodeInto(t, body, &d)
	if d.ImageURL != up.ImageURL || d.ImageSource != menu.ImageUploaded {
		t.Fatalf("after the upload: %q (%s)", d.ImageURL, d.ImageSource)
	}

	status, body = e.do("DELETE", "/api/admin/drinks/negroni/image", e.aTok, nil)
	decodeInto(t, body, &d)
	if status != 200 || d.ImageSource != menu.ImageDrawn || !strings.HasPrefix(d.ImageURL, "/images/drinks/negroni.svg?v=") {
		t.Fatalf("remove: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(dir, strings.TrimPrefix(up.ImageURL, "/images/"))); !os.IsNotExist(err) {
		t.Errorf("the removed photo's file: %v", err)
	}
	if status, _ := e.do("GET", up.ImageURL, "", nil); status != 404 {
		t.Errorf("the removed photo is still served: %d", status)
	}
	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	decodeInto(t, body, &d)
	if d.ImageSource != menu.ImageDrawn {
		t.Errorf("the menu after removal: %s", body)
	}
	// Removing again is harmless; an unknown drink is a 404; guests and
	// bartenders may not.
	for _, tt := range []struct {
		method, path, tok string
		status            int
	}{
		{"DELETE", "/api/admin/drinks/negroni/image", e.aTok, 200},
		{"DELETE", "/api/admin/drinks/nope/image", e.aTok, 404},
		{"POST", "/api/admin/drinks/nope/image/regenerate", e.aTok, 404},
		{"DELETE", "/api/admin/drinks/negroni/image", e.gTok, 403},
		{"POST", "/api/admin/drinks/negroni/image/regenerate", e.bTok, 403},
	} {
		if status, body := e.do(tt.method, tt.path, tt.tok, nil); status != tt.status {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, status, body)
		}
	}

	var reasons []string
	for _, ev := range menuEvents.named(t, "menu.changed") {
		var data struct {
			Reason string `json:"reason"`
		}
		json.Unmarshal(ev.Data, &data)
		reasons = append(reasons, data.Reason)
	}
	if strings.Join(reasons, ",") != "drink.image,drink.image,drink.image" {
		t.Errorf("menu.changed reasons %q", reasons)
	}
	entries, _, err := e.store.ListAudit(t.Context(), store.AuditFilter{Action: "drink.image_remove"})
	if err != nil || len(entries) != 2 || entries[len(entries)-1].Details["removed"] != "uploaded" {
		t.Errorf("audit %+v, %v", entries, err)
	}
}

// With an image model, the host's regenerate queues the picture's job,
// unless the drink has an uploaded photo.
func TestRegeneratePictureQueuesItsJob(t *testing.T) {
	var queued []store.Job
	e := barEnvOf(newTestEnv(t, func(d *Deps) {
		d.AI = AIConfig{Source: "bedrock", Model: "amazon.nova-pro-v1:0", ImageModel: "amazon.nova-canvas-v1:0", JobQueued: func(j store.Job) { queued = append(queued, j) }}
	}))
	status, body := e.do("POST", "/api/admin/drinks/mojito/image/regenerate", e.aTok, nil)
	var j store.Job
	decodeInto(t, body, &j)
	if status != 202 || j.Kind != store.JobDrinkImage || j.Payload[store.PayloadDrinkID] != "mojito" || len(queued) != 1 || queued[0].ID != j.ID {
		t.Fatalf("regenerate: %d %s (%d handed to the worker)", status, body, len(queued))
	}
	u := e.uploadURL("mojito")
	if status, body := e.do("PUT", u.UploadURL, "", testPNG(t)); status != 200 {
		t.Fatalf("upload: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/admin/drinks/mojito/image/regenerate", e.aTok, nil); status != 409 || errorCode(t, body) != "photo_uploaded" {
		t.Errorf("regenerate over an upload: %d %s", status, body)
	}
}
