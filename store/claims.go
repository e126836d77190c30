package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Claims are barhub's one portable atomic primitive.
//
// Embedded FerretDB v1 implements findAndModify (and so FindOneAndUpdate
// and FindOneAndDelete) as a read followed by a separate write: two
// concurrent compare-and-set calls with the same filter can both succeed.
// An insert of a duplicate _id, though, is refused atomically by every
// backend. So a writer that must be the only one to do something (redeem a
// ticket, move order X from version 3 to 4, run attempt 2 of job Y) first
// inserts a claim whose _id names that step; the loser gets ErrConflict.
// On MongoDB this costs one extra small insert. Claim and Release retry
// their own writes when the embedded database refuses them for its lock
// (retry.go), so callers never wrap them in retry: that would nest the
// process's write turn.
type claimDoc struct {
	Key       string    `bson:"_id"`
	ExpiresAt time.Time `bson:"expiresAt"`
	// Owner, on a lock (locks.go), lets only its holder remove it.
	Owner string `bson:"owner,omitempty"`
}

const collClaims = "claims"

func claimIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "expiresAt", Value: 1}}, Options: options.Index().SetName("expiresAt")},
	}
}

// Claim makes the caller the only owner of key until ttl passes; a second
// claim of the same key gets ErrConflict. A claim whose ttl has passed is
// taken over, so a writer that crashed between its claim and its write
// does not block that step for ever. Pick a ttl far longer than the write
// it guards.
func (s *Store) Claim(ctx context.Context, key string, ttl time.Duration) error {
	return s.claim(ctx, key, ttl, "")
}

func (s *Store) claim(ctx context.Context, key string, ttl time.Duration, owner string) error {
	now := time.Now().UTC()
	doc := claimDoc{Key: key, ExpiresAt: now.Add(ttl), Owner: owner}
	err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collClaims).InsertOne(ctx, doc); return err })
	if err == nil {
		return nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("claim %s: %w", key, err)
	}
	// Only an expired claim may be taken over. Delete it by its exact
	// expiry so two takers cannot both delete and re-insert.
	var old claimDoc
	if err := s.coll(collClaims).FindOne(ctx, bson.D{{Key: "_id", Value: key}}).Decode(&old); err != nil {
		if errors.Is(err, mongo.ErrNoDocuments) {
			return s.retryClaim(ctx, doc)
		}
		return fmt.Errorf("claim %s: %w", key, err)
	}
	if now.Before(old.ExpiresAt) {
		return fmt.Errorf("claim %s: %w", key, ErrConflict)
	}
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collClaims).DeleteOne(ctx, bson.D{{Key: "_id", Value: key}, {Key: "expiresAt", Value: old.ExpiresAt}})
		return err
	}); err != nil {
		return fmt.Errorf("claim %s: take over: %w", key, err)
	}
	return s.retryClaim(ctx, doc)
}

func (s *Store) retryClaim(ctx context.Context, doc claimDoc) error {
	err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collClaims).InsertOne(ctx, doc); return err })
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("claim %s: %w", doc.Key, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("claim %s: %w", doc.Key, err)
	}
	return nil
}

// Release gives a claim up early, for a step that failed and may be tried again.
func (s *Store) Release(ctx context.Context, key string) error {
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collClaims).DeleteOne(ctx, bson.D{{Key: "_id", Value: key}})
		return err
	}); err != nil {
		return fmt.Errorf("release %s: %w", key, err)
	}
	return nil
}

// SweepClaims removes expired claims.
func (s *Store) SweepClaims(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.coll(collClaims).DeleteMany(ctx, bson.D{{Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return 0, fmt.Errorf("sweep claims: %w", err)
	}
	return res.DeletedCount, nil
}
