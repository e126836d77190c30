package store_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/barhub/barhub/store/storetest"
)

// Every instance on one database signs tickets with the same key, made
// once.
func TestTicketSigningKeyIsSharedAndKept(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	a, err := s.TicketSigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.TicketSigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 32 || !bytes.Equal(a, b) {
		t.Fatalf("keys %x and %x, want the same 32 bytes", a, b)
	}
	img, err := s.ImageSigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, img) {
		t.Fatal("the ticket key is the image-upload key")
	}
}
