package api

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/drinkart"
	"github.com/barhub/barhub/store"
)

// Drinks' pictures beyond the host's upload: barhub's drawing of each
// drink, and the host's regenerate and remove (docs/MENU.md, "Pictures").

// handleDrawnImage serves barhub's drawing of a drink: the SVG the menu
// links, or the same drawing as a PNG (480 pixels wide) for clients that
// show no SVG, such as e-mail. The menu's URL carries the drawing's
// hash, and the ETag is the same hash, so a browser asks again only
// after the recipe changed and then mostly hears 304.
func (s *Server) handleDrawnImage(w http.ResponseWriter, r *http.Request) {
	id, kind, ok := drawnFile(chi.URLParam(r, "file"))
	if !ok {
		s.writeError(w, r, http.StatusNotFound, "not_found", "no such image")
		return
	}
	d, err := s.menu.Drawing(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body, ct, etag := d.SVG, drinkart.ContentType, `"`+d.Hash+`"`
	if kind == "png" {
		etag = `"png-` + d.Hash + `"`
		if match := r.Header.Get("If-None-Match"); match != etag {
			if body, err = d.PNG(drawnPNGWidth); err != nil {
				s.fail(w, r, err)
				return
			}
		}
		ct = "image/png"
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	// Opened on its own, the drawing may run nothing and load nothing.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// drawnPNGWidth is the PNG drawing's width: sharp at 240 CSS pixels on a
// phone's screen.
const drawnPNGWidth = 480

// handleRegenerateImage has the image model picture the drink again
// from its prompt. A photo the host uploaded is never replaced: it must
// be removed first.
func (s *Server) handleRegenerateImage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	d, err := s.store.DrinkByID(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu")
		}
		s.fail(w, r, err)
		return
	}
	cfg := s.aiConfig()
	if cfg.ImageModel == "" {
		s.fail(w, r, &apiError{Status: http.StatusConflict, Code: "no_image_model",
			Message: "no image model is configured, so barhub draws the drink's picture itself; configure Amazon Bedrock to have photos generated"})
		return
	}
	if d.HasUpload() {
		s.fail(w, r, &apiError{Status: http.StatusConflict, Code: "photo_uploaded",
			Message: "this drink has a photo you uploaded; remove it first to have one generated"})
		return
	}
	j, err := s.store.EnqueueJob(ctx, store.DrinkImageJob(id))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if cfg.JobQueued != nil {
		cfg.JobQueued(j)
	}
	audit.Note(ctx, "name", d.Name)
	audit.Note(ctx, "job", j.ID)
	writeJSON(w, http.StatusAccepted, j)
}

// handleRemoveImage takes the drink's photo or generated picture off, so
// barhub's drawing shows again, and answers with the drink.
func (s *Server) handleRemoveImage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	was, err := s.menu.RemoveImage(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(ctx, "name", was.Name)
	if was.ImageURL != "" {
		source := was.ImageSource
		if source == "" {
			source = "uploaded"
		}
		audit.Note(ctx, "removed", source)
	}
	d, err := s.store.DrinkByID(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu any more")
		}
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, app.ViewOf(d))
}

// drawnFile reads a drawing's file name ("negroni.svg", "negroni.png").
func drawnFile(file string) (id, kind string, ok bool) {
	for _, kind := range []string{"svg", "png"} {
		if id, ok := strings.CutSuffix(file, "."+kind); ok && id != "" {
			return id, kind, true
		}
	}
	return "", "", false
}
