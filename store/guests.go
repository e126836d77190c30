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

// guestIndexes are the guest collection's indexes. On MongoDB they serve
// the admin list filters (status, status+needs: anyone on the answer with
// a dietary need) and group look-ups
// (groupId); code is unique as a second line of defence behind the codes
// collection, which is what sign-in reads (an _id look-up, fast on every
// backend).
func guestIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "code", Value: 1}}, Options: options.Index().SetName("code_unique").SetUnique(true)},
		{Keys: bson.D{{Key: "groupId", Value: 1}}, Options: options.Index().SetName("groupId_sparse").SetSparse(true)},
		{Keys: bson.D{{Key: "status", Value: 1}}, Options: options.Index().SetName("status")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "needs", Value: 1}}, Options: options.Index().SetName("status_needs")},
	}
}

// codeDoc reserves a sign-in code. Its _id is the code, so reserving is an
// insert that fails on a duplicate on every backend, and sign-in is an _id
// look-up.
type codeDoc struct {
	Code    string    `bson:"_id"`
	GuestID string    `bson:"guestId"`
	At      time.Time `bson:"createdAt"`
	// ReplacedAt is set when the host gave the guest a new code: the old
	// one signs nobody in, and stays reserved so the sign-in can say why
	// (GuestOfReplacedCode) and no other guest is ever given it.
	ReplacedAt *time.Time `bson:"replacedAt,omitempty"`
}

// codeAttempts bounds the fresh codes tried for one guest.
const codeAttempts = 10

// reserveCode inserts a fresh random code for guestID, retrying on the
// (rare) collision.
func (s *Store) reserveCode(ctx context.Context, guestID string) (string, error) {
	for range codeAttempts {
		code := guest.NewCode()
		err := s.retry(ctx, onBusy, func() error {
			_, err := s.coll(collCodes).InsertOne(ctx, codeDoc{Code: code, GuestID: guestID, At: time.Now().UTC()})
			return err
		})
		if err == nil {
			if err := s.indexCodes(ctx, code); err != nil {
				s.freeCode(ctx, code)
				return "", fmt.Errorf("reserve code: %w", err)
			}
			return code, nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return "", fmt.Errorf("reserve code: %w", err)
		}
	}
	return "", errors.New("reserve code: too many collisions")
}

// NewID makes a document id.
func NewID() string { return bson.NewObjectID().Hex() }

// CreateGuest stores a new guest with a freshly reserved code (see
// InsertGuest, which also keeps the host's figures up to date).
func (s *Store) CreateGuest(ctx context.Context, g *guest.Guest) error {
	g.Code = ""
	return s.InsertGuest(ctx, g)
}

// GuestByID loads one guest.
func (s *Store) GuestByID(ctx context.Context, id string) (guest.Guest, error) {
	var g guest.Guest
	err := s.coll(collGuests).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&g)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return g, fmt.Errorf("load guest %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("load guest %s: %w", id, err)
	}
	return g, nil
}

// GuestByCode finds the guest a sign-in code belongs to, through the codes
// collection so both reads are _id look-ups.
func (s *Store) GuestByCode(ctx context.Context, code string) (guest.Guest, error) {
	var c codeDoc
	err := s.coll(collCodes).FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&c)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return guest.Guest{}, fmt.Errorf("find code: %w", ErrNotFound)
	}
	if err != nil {
		return guest.Guest{}, fmt.Errorf("find code: %w", err)
	}
	g, err := s.GuestByID(ctx, c.GuestID)
	if err != nil {
		return g, err
	}
	// A code regenerated a moment ago may still point here; trust the guest.
	if g.Code != code {
		return guest.Guest{}, fmt.Errorf("find code: %w", ErrNotFound)
	}
	return g, nil
}

// RegenerateCode gives a guest a new code; the old one stops working.
func (s *Store) RegenerateCode(ctx context.Context, id string) (string, error) {
	g, err := s.GuestByID(ctx, id)
	if err != nil {
		return "", err
	}
	code, err := s.reserveCode(ctx, id)
	if err != nil {
		return "", err
	}
	var res *mongo.UpdateResult
	err = s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{
				{Key: "$set", Value: bson.D{{Key: "code", Value: code}, {Key: "updatedAt", Value: time.Now().UTC()}}},
				// The sessions signed in with the old code end with it.
				{Key: "$inc", Value: bson.D{{Key: "sessionVersion", Value: 1}}},
			})
		return err
	})
	if err != nil {
		s.freeCode(ctx, code)
		return "", fmt.Errorf("regenerate code for %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		s.freeCode(ctx, code)
		return "", fmt.Errorf("regenerate code for %s: %w", id, ErrNotFound)
	}
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collCodes).UpdateOne(ctx, bson.D{{Key: "_id", Value: g.Code}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "replacedAt", Value: time.Now().UTC()}}}})
		return err
	}); err != nil {
		s.log.WarnContext(ctx, "mark old code replaced", "guest", id, "err", err)
	}
	// A replaced code signs nobody in at any event but the control one,
	// where the sign-in says it was replaced.
	s.unindexCode(ctx, g.Code)
	s.guestsChanged(ctx, id)
	return code, nil
}

// GuestOfReplacedCode finds the guest whose code was code before the
// host replaced it; ErrNotFound when code is unknown or still the
// guest's own. The caller decides what it may tell (the sign-in does so
// only to someone who also knows the guest's last name).
func (s *Store) GuestOfReplacedCode(ctx context.Context, code string) (guest.Guest, error) {
	var c codeDoc
	err := s.coll(collCodes).FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&c)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return guest.Guest{}, fmt.Errorf("find replaced code: %w", ErrNotFound)
	}
	if err != nil {
		return guest.Guest{}, fmt.Errorf("find replaced code: %w", err)
	}
	g, err := s.GuestByID(ctx, c.GuestID)
	if err != nil {
		return guest.Guest{}, err
	}
	if g.Code == code {
		return guest.Guest{}, fmt.Errorf("find replaced code: %w", ErrNotFound)
	}
	return g, nil
}

// DeleteGuest removes a guest and frees their code.
func (s *Store) DeleteGuest(ctx context.Context, id string) error {
	g, err := s.GuestByID(ctx, id)
	if err != nil {
		return err
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collGuests).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}}); return err }); err != nil {
		return fmt.Errorf("delete guest %s: %w", id, err)
	}
	s.guestsChanged(ctx, id)
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collCodes).DeleteOne(ctx, bson.D{{Key: "_id", Value: g.Code}})
		return err
	}); err != nil {
		return fmt.Errorf("delete code of guest %s: %w", id, err)
	}
	s.unindexCode(ctx, g.Code)
	return nil
}

// CountGuests counts guests matching filter (nil for all).
func (s *Store) CountGuests(ctx context.Context, filter bson.D) (int64, error) {
	if filter == nil {
		filter = bson.D{}
	}
	n, err := s.coll(collGuests).CountDocuments(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("count guests: %w", err)
	}
	return n, nil
}
