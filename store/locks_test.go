package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// Two instances on one database, each with many callers, doing a read
// then a write under one lock: no update is lost (the database itself
// has no atomic read-modify-write to fall back on).
func TestLockAcrossInstances(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)
	counter := func(s *store.Store) error {
		unlock, err := s.Lock(ctx, "counter", time.Minute)
		if err != nil {
			return err
		}
		defer unlock()
		c := s.DB().Collection("counters")
		var doc struct{ N int }
		err = c.FindOne(ctx, bson.D{{Key: "_id", Value: "n"}}).Decode(&doc)
		if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
			return err
		}
		_, err = c.ReplaceOne(ctx, bson.D{{Key: "_id", Value: "n"}}, bson.D{{Key: "_id", Value: "n"}, {Key: "n", Value: doc.N + 1}}, options.Replace().SetUpsert(true))
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() { errs <- counter(s) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var doc struct{ N int }
	if err := a.DB().Collection("counters").FindOne(ctx, bson.D{{Key: "_id", Value: "n"}}).Decode(&doc); err != nil || doc.N != 40 {
		t.Errorf("counter = %d (%v), want 40: an update was lost", doc.N, err)
	}
}

// A holder that never unlocks (it crashed) holds the lock until its ttl
// passes, and no longer; a caller that gives up waiting gets its
// context's error.
func TestLockOfADeadHolderExpires(t *testing.T) {
	ctx := context.Background()
	a := storetest.New(t)
	b := storetest.Instance(t, a)
	if _, err := a.Lock(ctx, "stock", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := b.Lock(short, "stock", time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("while held: %v, want the context's deadline", err)
	}
	unlock, err := b.Lock(ctx, "stock", time.Minute)
	if err != nil {
		t.Fatalf("after the dead holder's ttl: %v", err)
	}
	unlock()
	unlock() // twice is harmless
}
