package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// SetGuestLanguage records the language a guest's page showed at sign-in
// (en, sv, pt-BR): their invitations and reminders are written in it.
func (s *Store) SetGuestLanguage(ctx context.Context, id, lang string) error {
	return s.setGuestFields(ctx, id, bson.D{{Key: "language", Value: lang}}, bson.D{})
}

// GuestLanguage is the language recorded for guest id (SetGuestLanguage),
// or "" when none is; a guest no longer on the list has none.
func (s *Store) GuestLanguage(ctx context.Context, id string) (string, error) {
	var doc struct {
		Language string `bson:"language"`
	}
	err := s.coll(collGuests).FindOne(ctx, bson.D{{Key: "_id", Value: id}},
		options.FindOne().SetProjection(bson.D{{Key: "language", Value: 1}})).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the language of guest %s: %w", id, err)
	}
	return doc.Language, nil
}
