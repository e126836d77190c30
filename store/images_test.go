package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"testing"

	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/store/storetest"
)

// Photos kept in the database come back byte for byte, the largest
// accepted one included, and behave like the disk store's.
func TestImagesInTheDatabase(t *testing.T) {
	ctx := context.Background()
	var im images.Store = storetest.New(t).Images()
	small := []byte("\x89PNG\r\n\x1a\n small")
	large := make([]byte, images.MaxBytes)
	rand.Read(large)
	for name, data := range map[string][]byte{"negroni-1.png": small, "negroni-2.jpg": large} {
		if err := im.Put(ctx, name, data); err != nil {
			t.Fatalf("put %s: %v", name, err)
		}
		f, mod, err := im.Open(ctx, name)
		if err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		got, _ := io.ReadAll(f)
		f.Close()
		if !bytes.Equal(got, data) || mod.IsZero() {
			t.Errorf("%s: read back %d bytes (want %d), mod %v", name, len(got), len(data), mod)
		}
		// http.ServeContent seeks for Range requests.
		if n, err := f.Seek(-4, io.SeekEnd); err != nil || n != int64(len(data)-4) {
			t.Errorf("%s: seek to the end: %d, %v", name, n, err)
		}
	}
	if err := im.Put(ctx, "negroni-1.png", small); err == nil {
		t.Error("a second photo under a taken name was accepted")
	}
	if err := im.Delete(ctx, "negroni-1.png"); err != nil {
		t.Fatal(err)
	}
	if err := im.Delete(ctx, "negroni-1.png"); err != nil {
		t.Errorf("deleting a missing photo: %v", err)
	}
	if _, _, err := im.Open(ctx, "negroni-1.png"); !errors.Is(err, images.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if _, _, err := im.Open(ctx, "../secret.png"); !errors.Is(err, images.ErrNotFound) {
		t.Errorf("an invalid name: %v", err)
	}
	if err := im.Put(ctx, "../x.png", small); err == nil {
		t.Error("stored a photo under an invalid name")
	}
}
