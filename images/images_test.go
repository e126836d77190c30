package images

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"
)

// webpHead is the start of a real lossy WebP file.
var webpHead = append([]byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"), make([]byte, 24)...)

func encoded(t *testing.T, format string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var buf bytes.Buffer
	var err error
	if format == "png" {
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		ct   string
		ext  string
		ok   bool
	}{
		{"jpeg", encoded(t, "jpeg"), "image/jpeg", ".jpg", true},
		{"png", encoded(t, "png"), "image/png", ".png", true},
		{"webp", webpHead, "image/webp", ".webp", true},
		{"gif", []byte("GIF89a\x01\x00\x01\x00"), "image/gif", "", false},
		{"html named .jpg", []byte("<html><script>alert(1)</script>"), "text/html; charset=utf-8", "", false},
		{"riff but wav", append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 8)...), "audio/wave", "", false},
		{"empty", nil, "text/plain; charset=utf-8", "", false},
	}
	for _, tt := range tests {
		ct, ext, ok := Sniff(tt.data)
		if ct != tt.ct || ext != tt.ext || ok != tt.ok {
			t.Errorf("%s: Sniff = %q %q %v, want %q %q %v", tt.name, ct, ext, ok, tt.ct, tt.ext, tt.ok)
		}
	}
}

func TestNames(t *testing.T) {
	n := NewName("negroni", ".jpg")
	if !strings.HasPrefix(n, "negroni-") || len(n) != len("negroni-")+16+4 || !ValidName(n) {
		t.Errorf("NewName = %q", n)
	}
	if NewName("negroni", ".jpg") == n {
		t.Error("two uploads got one name")
	}
	if n := NewName("../../etc/Passwd", ".png"); !ValidName(n) || strings.Contains(n, "/") {
		t.Errorf("NewName with a hostile id = %q", n)
	}
	for _, bad := range []string{"", ".jpg", "../x.jpg", "a/b.jpg", "x.gif", "UPPER.jpg", "x.jpg/", strings.Repeat("a", 65) + ".jpg"} {
		if ValidName(bad) {
			t.Errorf("ValidName(%q) = true", bad)
		}
	}
	if ContentTypeOf("a.webp") != "image/webp" || ContentTypeOf("a.png") != "image/png" || ContentTypeOf("a.jpg") != "image/jpeg" {
		t.Error("ContentTypeOf")
	}
}

func TestDisk(t *testing.T) {
	ctx := context.Background()
	d := NewDisk(t.TempDir() + "/images")
	data := encoded(t, "png")
	if err := d.Put(ctx, "x-1.png", data); err != nil {
		t.Fatal(err)
	}
	f, mod, err := d.Open(ctx, "x-1.png")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, data) || mod.IsZero() {
		t.Errorf("read back %d bytes (want %d), mod %v", len(got), len(data), mod)
	}
	if err := d.Delete(ctx, "x-1.png"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Open(ctx, "x-1.png"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if _, _, err := d.Open(ctx, "../secret.png"); !errors.Is(err, ErrNotFound) {
		t.Errorf("path escape: %v", err)
	}
	if err := d.Put(ctx, "../x.png", data); err == nil {
		t.Error("wrote outside the directory")
	}
}

func TestSigner(t *testing.T) {
	s := NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Unix(1_780_000_000, 0)
	path := s.UploadPath("negroni", now.Add(UploadTTL))
	if !strings.HasPrefix(path, "/uploads/drinks/negroni?expires=1780000600&sig=") {
		t.Fatalf("path %s", path)
	}
	sig := path[strings.Index(path, "sig=")+4:]
	tests := []struct {
		name       string
		drink, exp string
		sig        string
		now        time.Time
		want       error
	}{
		{"valid", "negroni", "1780000600", sig, now, nil},
		{"valid at the last second", "negroni", "1780000600", sig, now.Add(UploadTTL), nil},
		{"expired", "negroni", "1780000600", sig, now.Add(UploadTTL + time.Second), ErrExpired},
		{"other drink", "mojito", "1780000600", sig, now, ErrBadSignature},
		{"extended expiry", "negroni", "1780009999", sig, now, ErrBadSignature},
		{"no signature", "negroni", "1780000600", "", now, ErrBadSignature},
		{"junk expiry", "negroni", "soon", sig, now, ErrBadSignature},
	}
	for _, tt := range tests {
		if err := s.Verify(tt.drink, tt.exp, tt.sig, tt.now); err != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	other := NewSigner([]byte("another key, another instance..."))
	if err := other.Verify("negroni", "1780000600", sig, now); err != ErrBadSignature {
		t.Errorf("other key accepted: %v", err)
	}
}
