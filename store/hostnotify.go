package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// collHostPrefs holds what each admin wants to be told on their devices
// (docs/PUSH.md, "The host's notifications"): one document per admin,
// _id the admin's guest id, read by _id.
const collHostPrefs = "hostprefs"

// HostPrefs is one admin's choice of notifications.
type HostPrefs struct {
	AdminID string `bson:"_id" json:"-"`
	// Off lists the kinds the admin turned off; every other kind is on.
	Off []string `bson:"off" json:"off"`
	// BatchMinutes is the least time between two summaries of answers.
	BatchMinutes int `bson:"batchMinutes" json:"batchMinutes"`
	// DigestHour is the hour (0–23, the event's time zone) of the daily
	// e-mail digest.
	DigestHour int `bson:"digestHour" json:"digestHour"`
	// AnswersSince is the time of the last answer told: the next summary
	// counts the answers after it. AnswersSentAt is when the last summary
	// went out, for the batch.
	AnswersSince  time.Time `bson:"answersSince,omitempty" json:"-"`
	AnswersSentAt time.Time `bson:"answersSentAt,omitempty" json:"-"`
}

// Defaults of HostPrefs for an admin who never chose.
const (
	DefaultBatchMinutes = 5
	DefaultDigestHour   = 9
)

// HostPrefs reads admin id's choice, or the defaults.
func (s *Store) HostPrefs(ctx context.Context, id string) (HostPrefs, error) {
	p, err := findByID[HostPrefs](ctx, s, collHostPrefs, "notification settings of", id)
	if errors.Is(err, ErrNotFound) {
		return HostPrefs{AdminID: id, Off: []string{}, BatchMinutes: DefaultBatchMinutes, DigestHour: DefaultDigestHour}, nil
	}
	if err != nil {
		return HostPrefs{}, err
	}
	if p.Off == nil {
		p.Off = []string{}
	}
	return p, nil
}

// SaveHostPrefs stores what the admin chose; when the summaries of
// answers start is left as it is.
func (s *Store) SaveHostPrefs(ctx context.Context, p HostPrefs) error {
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collHostPrefs).UpdateOne(ctx, bson.D{{Key: "_id", Value: p.AdminID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "off", Value: p.Off}, {Key: "batchMinutes", Value: p.BatchMinutes}, {Key: "digestHour", Value: p.DigestHour}}}},
			options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save notification settings of %s: %w", p.AdminID, err)
	}
	return nil
}

// MarkAnswersSummarised records that admin id was told at sentAt of the
// answers up to since.
func (s *Store) MarkAnswersSummarised(ctx context.Context, id string, since, sentAt time.Time) error {
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collHostPrefs).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{
				{Key: "$set", Value: bson.D{{Key: "answersSince", Value: since}, {Key: "answersSentAt", Value: sentAt}}},
				{Key: "$setOnInsert", Value: bson.D{{Key: "off", Value: bson.A{}}, {Key: "batchMinutes", Value: DefaultBatchMinutes}, {Key: "digestHour", Value: DefaultDigestHour}}},
			},
			options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("mark answers told to %s: %w", id, err)
	}
	return nil
}

// Admins lists the hosts: every admin, with what a notification needs.
func (s *Store) Admins(ctx context.Context) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "role", Value: string(guest.RoleAdmin)}},
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	return out, nil
}

// AnswersAfter returns the guests whose latest answer came after from,
// oldest first, with their status, answer time and name. It reads the
// collection on the embedded database (not an _id look-up): the host's
// summaries ask every few minutes, not per request.
func (s *Store) AnswersAfter(ctx context.Context, from time.Time) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "rsvpDate", Value: bson.D{{Key: "$gt", Value: from}}}},
		options.Find().SetProjection(bson.D{{Key: "status", Value: 1}, {Key: "rsvpDate", Value: 1}, {Key: "firstName", Value: 1}, {Key: "lastName", Value: 1}}).
			SetSort(bson.D{{Key: "rsvpDate", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	return out, nil
}
