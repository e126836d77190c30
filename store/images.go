package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/barhub/barhub/images"
)

const collImages = "images"

// Images keeps drink photos in the database, one document each (a photo
// is at most images.MaxBytes, far below a document's 16 MB), so every
// instance behind a load balancer serves every photo with nothing more
// than the database they already share. It is an images.Store.
type Images struct{ s *Store }

// Images returns the photo store in this database.
func (s *Store) Images() *Images { return &Images{s: s} }

type imageDoc struct {
	Name      string    `bson:"_id"`
	Data      []byte    `bson:"data"`
	CreatedAt time.Time `bson:"createdAt"`
}

// Put stores data under name; a name already taken is an error, since
// names are new for every upload.
func (im *Images) Put(ctx context.Context, name string, data []byte) error {
	if !images.ValidName(name) {
		return fmt.Errorf("store image %q: invalid name", name)
	}
	doc := imageDoc{Name: name, Data: data, CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	err := im.s.retry(ctx, onBusy, func() error { _, err := im.s.coll(collImages).InsertOne(ctx, doc); return err })
	if err != nil {
		return fmt.Errorf("store image %s: %w", name, err)
	}
	return nil
}

// Open returns the photo called name, or images.ErrNotFound.
func (im *Images) Open(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error) {
	if !images.ValidName(name) {
		return nil, time.Time{}, fmt.Errorf("image %q: %w", name, images.ErrNotFound)
	}
	var doc imageDoc
	err := im.s.coll(collImages).FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, time.Time{}, fmt.Errorf("image %s: %w", name, images.ErrNotFound)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("load image %s: %w", name, err)
	}
	return nopCloser{bytes.NewReader(doc.Data)}, doc.CreatedAt, nil
}

// Delete removes the photo called name; a missing one is not an error.
func (im *Images) Delete(ctx context.Context, name string) error {
	err := im.s.retry(ctx, onBusy, func() error {
		_, err := im.s.coll(collImages).DeleteOne(ctx, bson.D{{Key: "_id", Value: name}})
		return err
	})
	if err != nil {
		return fmt.Errorf("delete image %s: %w", name, err)
	}
	return nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }
