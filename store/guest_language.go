package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// SetGuestLanguage records the language a guest's page showed at sign-in
// (en, sv, pt-BR): their invitations and reminders are written in it.
func (s *Store) SetGuestLanguage(ctx context.Context, id, lang string) error {
	return s.setGuestFields(ctx, id, bson.D{{Key: "language", Value: lang}}, bson.D{})
}
