package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// A reminder is a mailing the host scheduled: to those who have not
// answered N days before the deadline, or to those coming on the morning
// of the party. When it is due, one job (on one instance) queues one mail
// job per guest; each guest's delivery "reminder/<id>/<guestId>" makes
// sure they get it once (deliveries.go).
type Reminder struct {
	ID   string `bson:"_id" json:"id"`
	Kind string `bson:"kind" json:"kind"`
	// DaysBefore is, for an unanswered reminder, how many days before the
	// RSVP deadline it goes.
	DaysBefore int `bson:"daysBefore,omitempty" json:"daysBefore"`
	// Status: scheduled, queued (its job is under way), done.
	Status    string     `bson:"status" json:"status"`
	CreatedAt time.Time  `bson:"createdAt" json:"createdAt"`
	CreatedBy string     `bson:"createdBy,omitempty" json:"createdBy,omitempty"`
	FiredAt   *time.Time `bson:"firedAt,omitempty" json:"firedAt,omitempty"`
	// Recipients is how many guests it was queued for.
	Recipients int `bson:"recipients" json:"recipients"`
	// Lang is the host's language when they scheduled it: the e-mail's
	// language for a guest who has never signed in.
	Lang string `bson:"lang,omitempty" json:"-"`
}

// Reminder statuses.
const (
	ReminderScheduled = "scheduled"
	ReminderQueued    = "queued"
	ReminderDone      = "done"
)

const collReminders = "reminders"

// InsertReminder stores a new scheduled reminder.
func (s *Store) InsertReminder(ctx context.Context, r *Reminder) error {
	r.ID = NewID()
	r.Status = ReminderScheduled
	r.CreatedAt = time.Now().UTC().Truncate(time.Millisecond)
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collReminders).InsertOne(ctx, r); return err }); err != nil {
		return fmt.Errorf("create reminder: %w", err)
	}
	return nil
}

// Reminders lists every reminder, oldest first. A party has a handful.
func (s *Store) Reminders(ctx context.Context) ([]Reminder, error) {
	cur, err := s.coll(collReminders).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list reminders: %w", err)
	}
	out := []Reminder{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list reminders: %w", err)
	}
	return out, nil
}

// ReminderByID loads one reminder.
func (s *Store) ReminderByID(ctx context.Context, id string) (Reminder, error) {
	return findByID[Reminder](ctx, s, collReminders, "reminder", id)
}

// DeleteReminder removes a reminder that has not gone out; one that was
// queued or sent stays, so the host still sees who got it (ErrConflict).
func (s *Store) DeleteReminder(ctx context.Context, id string) error {
	r, err := s.ReminderByID(ctx, id)
	if err != nil {
		return err
	}
	if r.Status != ReminderScheduled {
		return fmt.Errorf("delete reminder %s: it has gone out: %w", id, ErrConflict)
	}
	if err := s.Claim(ctx, "reminder/"+id+"/fire", 100*365*24*time.Hour); err != nil {
		return fmt.Errorf("delete reminder %s: it is going out: %w", id, err)
	}
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collReminders).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}})
		return err
	})
	if err != nil {
		return fmt.Errorf("delete reminder %s: %w", id, err)
	}
	return nil
}

// ClaimReminderFire makes the caller the only one ever to send reminder
// id out (on any instance); ErrConflict means another did.
func (s *Store) ClaimReminderFire(ctx context.Context, id string) error {
	return s.Claim(ctx, "reminder/"+id+"/fire", 100*365*24*time.Hour)
}

// MarkReminder records a reminder's progress.
func (s *Store) MarkReminder(ctx context.Context, id, status string, firedAt *time.Time, recipients int) error {
	set := bson.D{{Key: "status", Value: status}, {Key: "recipients", Value: recipients}}
	if firedAt != nil {
		set = append(set, bson.E{Key: "firedAt", Value: firedAt.UTC().Truncate(time.Millisecond)})
	}
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collReminders).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: set}})
		return err
	})
	if err != nil {
		return fmt.Errorf("update reminder %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("update reminder %s: %w", id, ErrNotFound)
	}
	return nil
}
