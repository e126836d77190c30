package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// The admin's drink editor and photo uploads.

// parseDrinkInput decodes and validates a drink body. It is its own
// function so the fuzz test reaches every path a body can take.
func parseDrinkInput(r *http.Request) (menu.Drink, error) {
	var in menu.Input
	if err := decode(r, &in); err != nil {
		return menu.Drink{}, err
	}
	d, err := in.Normalize()
	var ve *menu.ValidationError
	if errors.As(err, &ve) {
		return d, &apiError{Status: http.StatusBadRequest, Code: "invalid_drink", Message: ve.Error(), Details: map[string]any{"problems": ve.Problems}}
	}
	return d, err
}

func (s *Server) handleCreateDrink(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d, err := parseDrinkInput(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, err = s.menu.CreateDrink(ctx, d)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.SetSubject(ctx, d.ID)
	audit.Note(ctx, "name", d.Name)
	if s.onDrinkCreated != nil {
		s.onDrinkCreated(context.WithoutCancel(ctx), d.ID)
	}
	writeJSON(w, http.StatusCreated, app.ViewOf(d))
}

func (s *Server) handleUpdateDrink(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d, err := parseDrinkInput(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.ID = chi.URLParam(r, "id")
	u, err := s.menu.UpdateDrink(ctx, d)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(ctx, "name", u.Drink.Name)
	if u.Before != nil {
		// What the host edited, not what follows from it (stock, times).
		audit.Note(ctx, "changed", audit.Changed(*u.Before, u.Drink, "id", "createdAt", "updatedAt", "available", "outOfStock", "missingIngredients", "imagePrompt"))
	}
	writeJSON(w, http.StatusOK, app.ViewOf(u.Drink))
}

func (s *Server) handleDeleteDrink(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d, err := s.menu.DeleteDrink(ctx, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(ctx, "name", d.Name)
	w.WriteHeader(http.StatusNoContent)
}

type uploadURLResponse struct {
	UploadURL    string    `json:"uploadUrl"`
	Method       string    `json:"method"`
	ExpiresAt    time.Time `json:"expiresAt"`
	MaxBytes     int       `json:"maxBytes"`
	ContentTypes []string  `json:"contentTypes"`
}

// handleImageUpload hands the admin's browser a signed URL to PUT one
// photo to, valid for ten minutes. The URL is relative to this server.
func (s *Server) handleImageUpload(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	if _, err := s.store.DrinkByID(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu")
		}
		s.fail(w, r, err)
		return
	}
	signer, err := s.uploadSigner(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	exp := time.Now().Add(images.UploadTTL).Truncate(time.Second).UTC()
	upload := signer.UploadPath(id, exp)
	if s.event != "" {
		// The photo is sent without a sign-in: the link names the event
		// whose drink it is, and whose key signed it.
		upload += "&event=" + url.QueryEscape(s.event)
	}
	writeJSON(w, http.StatusOK, uploadURLResponse{
		UploadURL:    upload,
		Method:       http.MethodPut,
		ExpiresAt:    exp,
		MaxBytes:     images.MaxBytes,
		ContentTypes: images.ContentTypes,
	})
}

type uploadResponse struct {
	ImageURL    string `json:"imageUrl"`
	ContentType string `json:"contentType"`
	Bytes       int    `json:"bytes"`
}

// handleImagePut receives a photo at a signed URL. The signature is the
// authorisation: the admin's browser sends the file as the raw body. It
// is judged by its content, not its name or declared type.
func (s *Server) handleImagePut(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "id")
	signer, err := s.uploadSigner(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	switch err := signer.Verify(id, q.Get("expires"), q.Get("sig"), time.Now()); {
	case errors.Is(err, images.ErrExpired):
		s.fail(w, r, &apiError{Status: http.StatusGone, Code: "upload_url_expired", Message: "this upload link has expired (they last 10 minutes); ask for a new one"})
		return
	case err != nil:
		s.fail(w, r, errBadRequest("invalid_upload_url", "this upload link is not valid; ask for a new one"))
		return
	}
	tooBig := &apiError{Status: http.StatusRequestEntityTooLarge, Code: "image_too_large", Message: fmt.Sprintf("photos may be at most %d MB", images.MaxBytes>>20)}
	if r.ContentLength > images.MaxBytes {
		s.fail(w, r, tooBig)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, images.MaxBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.fail(w, r, tooBig)
			return
		}
		s.fail(w, r, errBadRequest("upload_failed", "the upload was interrupted; please try again"))
		return
	}
	if len(data) == 0 {
		s.fail(w, r, errBadRequest("empty_upload", "send the photo as the request body"))
		return
	}
	ct, ext, ok := images.Sniff(data[:min(len(data), 512)])
	if !ok {
		s.fail(w, r, &apiError{Status: http.StatusUnsupportedMediaType, Code: "unsupported_image",
			Message: "send a JPEG, PNG or WebP photo (this file looks like " + strings.SplitN(ct, ";", 2)[0] + ")"})
		return
	}
	if _, err := s.store.DrinkByID(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu any more")
		}
		s.fail(w, r, err)
		return
	}
	name := images.NewName(id, ext)
	if err := s.bar.images.Put(ctx, name, data); err != nil {
		s.fail(w, r, err)
		return
	}
	url := "/images/" + name
	old, err := s.store.SetDrinkImage(ctx, id, url)
	if err != nil {
		s.bar.images.Delete(context.WithoutCancel(ctx), name)
		if errors.Is(err, store.ErrNotFound) {
			err = errNotFound("there is no such drink on the menu any more")
		}
		s.fail(w, r, err)
		return
	}
	if old != url {
		s.menu.DeleteImage(ctx, old)
	}
	s.menu.Changed(ctx, "drink.image", []string{id})
	writeJSON(w, http.StatusOK, uploadResponse{ImageURL: url, ContentType: ct, Bytes: len(data)})
}

// handleImage serves a stored photo. Names are new for every upload, so a
// photo can be cached for a year.
func (s *Server) handleImage(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	f, mod, err := s.bar.images.Open(r.Context(), name)
	if err != nil {
		if errors.Is(err, images.ErrNotFound) {
			s.writeError(w, r, http.StatusNotFound, "not_found", "no such image")
			return
		}
		s.fail(w, r, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", images.ContentTypeOf(name))
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+name+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'")
	http.ServeContent(w, r, name, mod, f)
}
