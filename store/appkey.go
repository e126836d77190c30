package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// collSecrets holds values made at first start and shared by every
// instance: the image-upload signing key and the public app's API key.
// They live in the database, never in the repository or the config.
const collSecrets = "secrets"

type secretDoc struct {
	ID        string    `bson:"_id"`
	Value     string    `bson:"value"`
	Enabled   bool      `bson:"enabled"`
	UpdatedAt time.Time `bson:"updatedAt"`
	UpdatedBy string    `bson:"updatedBy,omitempty"`
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ensureSecret returns the secret named id, creating it on first use. Two
// instances starting together both try the insert; the loser reads the
// winner's value.
func (s *Store) ensureSecret(ctx context.Context, id string, size int) (secretDoc, error) {
	return s.ensureSecretWith(ctx, id, func() string { return randomHex(size) })
}

// ensureSecretWith is ensureSecret for a value newValue makes.
func (s *Store) ensureSecretWith(ctx context.Context, id string, newValue func() string) (secretDoc, error) {
	var doc secretDoc
	err := s.coll(collSecrets).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc)
	if err == nil {
		return doc, nil
	}
	if !errors.Is(err, mongo.ErrNoDocuments) {
		return doc, fmt.Errorf("load secret %s: %w", id, err)
	}
	doc = secretDoc{ID: id, Value: newValue(), Enabled: true, UpdatedAt: time.Now().UTC().Truncate(time.Millisecond), UpdatedBy: "first start"}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collSecrets).InsertOne(ctx, doc); return err }); err != nil {
		if !mongo.IsDuplicateKeyError(err) {
			return doc, fmt.Errorf("create secret %s: %w", id, err)
		}
		if err := s.coll(collSecrets).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc); err != nil {
			return doc, fmt.Errorf("load secret %s: %w", id, err)
		}
	}
	return doc, nil
}

// ImageSigningKey returns the key that signs photo upload URLs.
func (s *Store) ImageSigningKey(ctx context.Context) ([]byte, error) {
	doc, err := s.ensureSecret(ctx, "image-upload", 32)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(doc.Value)
	if err != nil {
		return nil, fmt.Errorf("image signing key: %w", err)
	}
	return key, nil
}

// AppKey is the public app's API key and whether it is switched on.
type AppKey struct {
	Key       string    `json:"key"`
	Enabled   bool      `json:"enabled"`
	UpdatedAt time.Time `json:"updatedAt"`
	UpdatedBy string    `json:"updatedBy,omitempty"`
}

const appKeyID = "app-key"

// AppKey returns the public app's key, making one on first use.
func (s *Store) AppKey(ctx context.Context) (AppKey, error) {
	doc, err := s.ensureSecret(ctx, appKeyID, 16)
	if err != nil {
		return AppKey{}, err
	}
	return AppKey{Key: doc.Value, Enabled: doc.Enabled, UpdatedAt: doc.UpdatedAt, UpdatedBy: doc.UpdatedBy}, nil
}

// SetAppKey switches the public app's key on or off and, when rotate is
// set, replaces it, so copies of the old one stop working.
func (s *Store) SetAppKey(ctx context.Context, enabled, rotate bool, by string) (AppKey, error) {
	if _, err := s.AppKey(ctx); err != nil {
		return AppKey{}, err
	}
	set := bson.D{{Key: "enabled", Value: enabled}, {Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)}, {Key: "updatedBy", Value: by}}
	if rotate {
		set = append(set, bson.E{Key: "value", Value: randomHex(16)})
	}
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSecrets).UpdateOne(ctx, bson.D{{Key: "_id", Value: appKeyID}}, bson.D{{Key: "$set", Value: set}})
		return err
	}); err != nil {
		return AppKey{}, fmt.Errorf("update app key: %w", err)
	}
	return s.AppKey(ctx)
}

// RegistrationChallengeKey returns the key that signs the registration
// page's proof-of-work challenges (docs/REGISTRATION.md).
func (s *Store) RegistrationChallengeKey(ctx context.Context) ([]byte, error) {
	doc, err := s.ensureSecret(ctx, "registration-challenge", 32)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(doc.Value)
	if err != nil {
		return nil, fmt.Errorf("registration challenge key: %w", err)
	}
	return key, nil
}
