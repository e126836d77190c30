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

// SessionState is what a signed-in request is checked against: the
// holder's current role, name and session version.
type SessionState struct {
	Role      guest.Role
	Name      string
	Version   int64
	CreatedAt time.Time
}

// SessionState reads guest id's current session state: one _id look-up
// of the few fields it needs. A deleted guest is ErrNotFound.
func (s *Store) SessionState(ctx context.Context, id string) (SessionState, error) {
	if IsBoardID(id) {
		return s.boardSessionState(ctx, id)
	}
	var g guest.Guest
	opts := options.FindOne().SetProjection(bson.D{
		{Key: "firstName", Value: 1}, {Key: "lastName", Value: 1}, {Key: "role", Value: 1},
		{Key: "sessionVersion", Value: 1}, {Key: "createdAt", Value: 1},
	})
	err := s.coll(collGuests).FindOne(ctx, bson.D{{Key: "_id", Value: id}}, opts).Decode(&g)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return SessionState{}, fmt.Errorf("load session of %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return SessionState{}, fmt.Errorf("load session of %s: %w", id, err)
	}
	return SessionState{Role: g.Role, Name: g.Name(), Version: g.SessionVersion, CreatedAt: g.CreatedAt}, nil
}

// EndSessions moves guest id's session version on, so every token signed
// before ends ("sign out everywhere"), and returns the new version.
func (s *Store) EndSessions(ctx context.Context, id string) (int64, error) {
	var g guest.Guest
	err := s.retry(ctx, onBusy, func() error {
		return s.coll(collGuests).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "sessionVersion", Value: 1}}}},
			// No projection: the embedded database has none on findAndModify.
			options.FindOneAndUpdate().SetReturnDocument(options.After),
		).Decode(&g)
	})
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, fmt.Errorf("end sessions of %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("end sessions of %s: %w", id, err)
	}
	s.guestsChanged(ctx, id)
	return g.SessionVersion, nil
}
