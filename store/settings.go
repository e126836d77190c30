package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// The event's settings are one document, read by _id.
const settingsEvent = "event"

// Settings returns the event's settings, or the defaults before the host
// has saved any.
func (s *Store) Settings(ctx context.Context) (guest.Settings, error) {
	return settingsIn(ctx, s.db)
}

// settingsIn reads the settings of the event whose database is db: the
// store's own, or another event's for the list of events (events.go).
func settingsIn(ctx context.Context, db *mongo.Database) (guest.Settings, error) {
	var doc struct {
		guest.Settings `bson:",inline"`
	}
	err := db.Collection(collSettings).FindOne(ctx, bson.D{{Key: "_id", Value: settingsEvent}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return guest.DefaultSettings(), nil
	}
	if err != nil {
		return guest.Settings{}, fmt.Errorf("load settings: %w", err)
	}
	return doc.Settings, nil
}

// SaveSettings stores the event's settings (dates in UTC) and returns them
// as stored.
func (s *Store) SaveSettings(ctx context.Context, st guest.Settings) (guest.Settings, error) {
	st.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
	utc := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.UTC()
		return &u
	}
	st.EventDate, st.RSVPDeadline = utc(st.EventDate), utc(st.RSVPDeadline)
	doc := struct {
		ID             string `bson:"_id"`
		guest.Settings `bson:",inline"`
	}{settingsEvent, st}
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).ReplaceOne(ctx, bson.D{{Key: "_id", Value: settingsEvent}}, doc, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return st, fmt.Errorf("save settings: %w", err)
	}
	return st, nil
}

// The public URL the host picked on the admin page (when the configured
// one cannot be opened from a phone) is its own document beside the
// event's settings: it is the installation's, not the event's.
const settingsPublicURL = "publicUrl"

type publicURLDoc struct {
	ID        string    `bson:"_id"`
	URL       string    `bson:"url"`
	UpdatedAt time.Time `bson:"updatedAt"`
	UpdatedBy string    `bson:"updatedBy,omitempty"`
}

// PublicURLChoice returns the public URL the host picked, or "" when the
// configured one stands.
func (s *Store) PublicURLChoice(ctx context.Context) (string, error) {
	var doc publicURLDoc
	err := s.coll(collSettings).FindOne(ctx, bson.D{{Key: "_id", Value: settingsPublicURL}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("load public url: %w", err)
	}
	return doc.URL, nil
}

// SetPublicURLChoice keeps the host's pick; "" goes back to the configured one.
func (s *Store) SetPublicURLChoice(ctx context.Context, url, by string) error {
	doc := publicURLDoc{ID: settingsPublicURL, URL: url, UpdatedAt: time.Now().UTC().Truncate(time.Millisecond), UpdatedBy: by}
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).ReplaceOne(ctx, bson.D{{Key: "_id", Value: settingsPublicURL}}, doc, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save public url: %w", err)
	}
	return nil
}
