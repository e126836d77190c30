// Package images keeps drink photos: where they are stored, which files
// count as photos, and the signed URLs an admin's browser uploads to.
//
// The store is local disk under the data directory by default; the Store
// interface is what an object store (S3 with presigned PUTs) implements to
// replace it.
package images

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MaxBytes is the largest photo accepted.
const MaxBytes = 5 << 20

// UploadTTL is how long a signed upload URL stays valid.
const UploadTTL = 10 * time.Minute

// ErrNotFound is returned for an image that does not exist.
var ErrNotFound = errors.New("image not found")

// Store keeps image files by name.
type Store interface {
	// Put stores the bytes under name, replacing nothing: names are new.
	Put(ctx context.Context, name string, data []byte) error
	// Open returns the image for reading; ErrNotFound when it is absent.
	Open(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error)
	// Delete removes an image; a missing one is not an error.
	Delete(ctx context.Context, name string) error
}

// Disk is a Store in a directory.
type Disk struct {
	dir string
}

// NewDisk returns a store in dir, created when needed.
func NewDisk(dir string) *Disk { return &Disk{dir: dir} }

func (d *Disk) path(name string) (string, error) {
	if !ValidName(name) {
		return "", fmt.Errorf("image name %q: %w", name, ErrNotFound)
	}
	return filepath.Join(d.dir, name), nil
}

// Put writes to a temporary file and renames it, so a reader never sees
// half a photo.
func (d *Disk) Put(ctx context.Context, name string, data []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return fmt.Errorf("create image directory: %w", err)
	}
	tmp, err := os.CreateTemp(d.dir, ".upload-*")
	if err != nil {
		return fmt.Errorf("store image %s: %w", name, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("store image %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("store image %s: %w", name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("store image %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("store image %s: %w", name, err)
	}
	return nil
}

// Open opens a stored image.
func (d *Disk) Open(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, time.Time{}, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, time.Time{}, fmt.Errorf("open image %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("open image %s: %w", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, time.Time{}, fmt.Errorf("open image %s: %w", name, err)
	}
	return f, st.ModTime(), nil
}

// Delete removes an image file.
func (d *Disk) Delete(ctx context.Context, name string) error {
	p, err := d.path(name)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("delete image %s: %w", name, err)
	}
	return nil
}

// Kinds of image accepted, by content type, with their file extension.
var extensions = map[string]string{
	"image/jpeg": ".jpg",
	"image/png":  ".png",
	"image/webp": ".webp",
}

// ContentTypes lists the accepted types, for error messages and clients.
var ContentTypes = []string{"image/jpeg", "image/png", "image/webp"}

// Sniff returns the content type and extension of a JPEG, PNG or WebP
// file judged by its first bytes, never by its name or declared type.
func Sniff(head []byte) (contentType, ext string, ok bool) {
	// WebP is checked by hand as well: a RIFF container says WEBP at
	// bytes 8–11 and then names its chunk (VP8, VP8L or VP8X).
	if len(head) >= 16 && bytes.Equal(head[0:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")) &&
		bytes.HasPrefix(head[12:16], []byte("VP8")) {
		return "image/webp", ".webp", true
	}
	ct := http.DetectContentType(head)
	if ext, ok := extensions[ct]; ok {
		return ct, ext, true
	}
	return ct, "", false
}

// ContentTypeOf gives the content type to serve a stored name with.
func ContentTypeOf(name string) string {
	switch filepath.Ext(name) {
	case ".jpg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".webp":
		return "image/webp"
	}
	return "application/octet-stream"
}

// NewName makes a fresh, unguessable file name for a drink's photo. A new
// name for each upload lets the photo be cached for ever.
func NewName(drinkID, ext string) string {
	var b [8]byte
	rand.Read(b[:])
	prefix := make([]byte, 0, len(drinkID))
	for i := 0; i < len(drinkID) && len(prefix) < 40; i++ {
		c := drinkID[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' {
			prefix = append(prefix, c)
		}
	}
	if len(prefix) == 0 {
		prefix = append(prefix, "drink"...)
	}
	return string(prefix) + "-" + hex.EncodeToString(b[:]) + ext
}

// ValidName reports whether name is one NewName could have made, so no
// path trickery reaches the disk.
func ValidName(name string) bool {
	ext := filepath.Ext(name)
	if ext != ".jpg" && ext != ".png" && ext != ".webp" {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	if base == "" || len(base) > 64 {
		return false
	}
	for i := 0; i < len(base); i++ {
		c := base[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Signer signs and checks upload URLs with an HMAC key kept in the
// database (so every instance accepts every other's URLs).
type Signer struct {
	key []byte
}

// NewSigner returns a signer with key.
func NewSigner(key []byte) *Signer { return &Signer{key: key} }

func (s *Signer) mac(drinkID string, expires int64) string {
	m := hmac.New(sha256.New, s.key)
	fmt.Fprintf(m, "drink-image\n%s\n%d", drinkID, expires)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// UploadPath returns the path and query a photo for drinkID may be
// uploaded to until expires.
func (s *Signer) UploadPath(drinkID string, expires time.Time) string {
	exp := expires.Unix()
	return "/uploads/drinks/" + drinkID + "?expires=" + strconv.FormatInt(exp, 10) + "&sig=" + s.mac(drinkID, exp)
}

// Errors from Verify.
var (
	ErrBadSignature = errors.New("the upload link is not valid")
	ErrExpired      = errors.New("the upload link has expired")
)

// Verify checks an upload URL's signature and expiry.
func (s *Signer) Verify(drinkID, expires, sig string, now time.Time) error {
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || sig == "" {
		return ErrBadSignature
	}
	if !hmac.Equal([]byte(sig), []byte(s.mac(drinkID, exp))) {
		return ErrBadSignature
	}
	if now.Unix() > exp {
		return ErrExpired
	}
	return nil
}
