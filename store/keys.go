package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// SigningKey is an RSA key pair that signs access tokens, stored so every
// instance and every restart uses the same keys.
type SigningKey struct {
	KID        string    `bson:"_id"`
	PrivatePEM string    `bson:"privatePem"`
	CreatedAt  time.Time `bson:"createdAt"`
	// RetireAfter is when verification stops accepting this key; zero
	// while it is current.
	RetireAfter time.Time `bson:"retireAfter,omitempty"`
}

// SigningKeys lists all keys, oldest first.
func (s *Store) SigningKeys(ctx context.Context) ([]SigningKey, error) {
	cur, err := s.coll(collKeys).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list signing keys: %w", err)
	}
	var keys []SigningKey
	if err := cur.All(ctx, &keys); err != nil {
		return nil, fmt.Errorf("list signing keys: %w", err)
	}
	return keys, nil
}

// AddSigningKey stores a key. A duplicate kid is ErrConflict.
func (s *Store) AddSigningKey(ctx context.Context, k SigningKey) error {
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collKeys).InsertOne(ctx, k); return err }); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("add signing key %s: %w", k.KID, ErrConflict)
		}
		return fmt.Errorf("add signing key %s: %w", k.KID, err)
	}
	return nil
}

// RetireSigningKeys marks every current key except keep as retiring at
// retireAfter (when the last token it signed expires).
func (s *Store) RetireSigningKeys(ctx context.Context, keep string, retireAfter time.Time) error {
	_, err := s.coll(collKeys).UpdateMany(ctx,
		bson.D{{Key: "_id", Value: bson.D{{Key: "$ne", Value: keep}}}, {Key: "retireAfter", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "retireAfter", Value: retireAfter}}}})
	if err != nil {
		return fmt.Errorf("retire signing keys: %w", err)
	}
	return nil
}

// DeleteRetiredKeys removes keys whose tokens have all expired.
func (s *Store) DeleteRetiredKeys(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.coll(collKeys).DeleteMany(ctx, bson.D{{Key: "retireAfter", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return 0, fmt.Errorf("delete retired keys: %w", err)
	}
	return res.DeletedCount, nil
}
