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

// The public registrations (docs/REGISTRATION.md): one document per
// e-mail address, its _id derived from the address (guest.RegistrationID),
// so a second registration of the same address is a duplicate key.
const collRegistrations = "registrations"

func registrationIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		// The waiting list in order, and the offers by expiry.
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "seq", Value: 1}}, Options: options.Index().SetName("status_seq")},
	}
}

// RegistrationLock is the name of the turn (Lock) every change of places
// takes: the places counter, the waiting list and the offers move
// together, on every instance, one change at a time.
const RegistrationLock = "registration"

// Places is the registrations' counter: the people holding a place
// (placed or offered) and the next number in line. One document, read and
// written by _id.
type Places struct {
	Taken   int   `bson:"taken" json:"taken"`
	NextSeq int64 `bson:"nextSeq" json:"-"`
}

const placesID = "registration-places"

// RegistrationPlaces returns the counter (zero before the first registration).
func (s *Store) RegistrationPlaces(ctx context.Context) (Places, error) {
	var p Places
	err := s.coll(collSettings).FindOne(ctx, bson.D{{Key: "_id", Value: placesID}}).Decode(&p)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Places{}, nil
	}
	if err != nil {
		return p, fmt.Errorf("load registration places: %w", err)
	}
	return p, nil
}

func (s *Store) ensurePlaces(ctx context.Context) error {
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).InsertOne(ctx, bson.D{{Key: "_id", Value: placesID}, {Key: "taken", Value: 0}, {Key: "nextSeq", Value: int64(0)}})
		return err
	})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("create registration places: %w", err)
	}
	return nil
}

// TakePlaces adds n people to the places taken if they fit under
// capacity (0: no bound) and reports whether they did. The filter is the
// check: on MongoDB the update alone is atomic; on embedded FerretDB,
// whose updates are a read and a write, callers hold RegistrationLock, as
// they must for the waiting list anyway.
func (s *Store) TakePlaces(ctx context.Context, n, capacity int) (bool, error) {
	if err := s.ensurePlaces(ctx); err != nil {
		return false, err
	}
	filter := bson.D{{Key: "_id", Value: placesID}}
	if capacity > 0 {
		filter = append(filter, bson.E{Key: "taken", Value: bson.D{{Key: "$lte", Value: capacity - n}}})
	}
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() error {
		var err error
		res, err = s.coll(collSettings).UpdateOne(ctx, filter, bson.D{{Key: "$inc", Value: bson.D{{Key: "taken", Value: n}}}})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("take %d places: %w", n, err)
	}
	return res.MatchedCount == 1, nil
}

// ReleasePlaces gives n places back.
func (s *Store) ReleasePlaces(ctx context.Context, n int) error {
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).UpdateOne(ctx, bson.D{{Key: "_id", Value: placesID}}, bson.D{{Key: "$inc", Value: bson.D{{Key: "taken", Value: -n}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("release %d places: %w", n, err)
	}
	return nil
}

// NextRegistrationSeq returns the next number in line. Callers hold
// RegistrationLock.
func (s *Store) NextRegistrationSeq(ctx context.Context) (int64, error) {
	if err := s.ensurePlaces(ctx); err != nil {
		return 0, err
	}
	var p Places
	err := s.retry(ctx, onBusy, func() error {
		return s.coll(collSettings).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: placesID}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "nextSeq", Value: int64(1)}}}},
			options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&p)
	})
	if err != nil {
		return 0, fmt.Errorf("next registration number: %w", err)
	}
	return p.NextSeq, nil
}

// Registration loads one registration by id.
func (s *Store) Registration(ctx context.Context, id string) (guest.Registration, error) {
	var r guest.Registration
	err := s.coll(collRegistrations).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&r)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return r, fmt.Errorf("registration %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("load registration %s: %w", id, err)
	}
	return r, nil
}

// SaveRegistration writes r whole, creating it when new.
func (s *Store) SaveRegistration(ctx context.Context, r *guest.Registration) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	r.UpdatedAt = now
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collRegistrations).ReplaceOne(ctx, bson.D{{Key: "_id", Value: r.ID}}, r, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save registration %s: %w", r.ID, err)
	}
	return nil
}

// Registrations lists every registration, in line order.
func (s *Store) Registrations(ctx context.Context) ([]guest.Registration, error) {
	return s.findRegistrations(ctx, bson.D{}, 0)
}

// RegistrationsWith lists the registrations in status st, in line order,
// at most limit (0: all).
func (s *Store) RegistrationsWith(ctx context.Context, st guest.RegStatus, limit int64) ([]guest.Registration, error) {
	return s.findRegistrations(ctx, bson.D{{Key: "status", Value: st}}, limit)
}

func (s *Store) findRegistrations(ctx context.Context, filter bson.D, limit int64) ([]guest.Registration, error) {
	opts := options.Find().SetSort(bson.D{{Key: "seq", Value: 1}})
	if limit > 0 {
		opts.SetLimit(limit)
	}
	cur, err := s.coll(collRegistrations).Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("list registrations: %w", err)
	}
	var out []guest.Registration
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list registrations: %w", err)
	}
	return out, nil
}

// WaitingAhead counts the people's registrations waiting before seq.
func (s *Store) WaitingAhead(ctx context.Context, seq int64) (int64, error) {
	n, err := s.coll(collRegistrations).CountDocuments(ctx, bson.D{{Key: "status", Value: guest.RegWaiting}, {Key: "seq", Value: bson.D{{Key: "$lt", Value: seq}}}})
	if err != nil {
		return 0, fmt.Errorf("count the waiting list: %w", err)
	}
	return n, nil
}
