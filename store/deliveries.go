package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// A delivery is one message of one mailing to one guest: an invitation,
// a reminder. Its _id is "<mailing>/<guestId>", so inserting it is the
// claim that the guest gets that mailing once: a second insert, from a
// double click, a retried request or another instance, is refused
// atomically by every backend (claims.go explains why an insert). It is
// never swept: the host sees who got what.
type Delivery struct {
	ID        string     `bson:"_id" json:"id"`
	Mailing   string     `bson:"mailing" json:"mailing"`
	Kind      string     `bson:"kind" json:"kind"`
	GuestID   string     `bson:"guestId" json:"guestId"`
	To        string     `bson:"to" json:"to"`
	Status    string     `bson:"status" json:"status"`
	JobID     string     `bson:"jobId,omitempty" json:"jobId,omitempty"`
	Attempts  int        `bson:"attempts" json:"attempts"`
	LastError string     `bson:"lastError,omitempty" json:"lastError,omitempty"`
	QueuedAt  time.Time  `bson:"queuedAt" json:"queuedAt"`
	SentAt    *time.Time `bson:"sentAt,omitempty" json:"sentAt,omitempty"`
	UpdatedAt time.Time  `bson:"updatedAt" json:"updatedAt"`
}

// Delivery statuses.
const (
	DeliveryQueued   = "queued"
	DeliveryRetrying = "retrying"
	DeliverySent     = "sent"
	DeliveryFailed   = "failed"
)

const collDeliveries = "deliveries"

func deliveryIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "mailing", Value: 1}, {Key: "queuedAt", Value: 1}}, Options: options.Index().SetName("mailing_queuedAt")},
	}
}

// DeliveryID names guestID's message of mailing.
func DeliveryID(mailing, guestID string) string { return mailing + "/" + guestID }

// ReserveDelivery stores d as queued; ErrConflict means the guest already
// has this mailing.
func (s *Store) ReserveDelivery(ctx context.Context, d *Delivery) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	d.ID = DeliveryID(d.Mailing, d.GuestID)
	d.Status, d.QueuedAt, d.UpdatedAt = DeliveryQueued, now, now
	err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collDeliveries).InsertOne(ctx, d); return err })
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%s already has %s: %w", d.GuestID, d.Mailing, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("reserve delivery %s: %w", d.ID, err)
	}
	return nil
}

// ReleaseDelivery forgets a reservation whose job could not be queued,
// so the mailing can be tried again.
func (s *Store) ReleaseDelivery(ctx context.Context, id string) error {
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collDeliveries).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "status", Value: DeliveryQueued}})
		return err
	})
	if err != nil {
		return fmt.Errorf("release delivery %s: %w", id, err)
	}
	return nil
}

// SetDeliveryJob notes the job that sends the delivery.
func (s *Store) SetDeliveryJob(ctx context.Context, id, jobID string) error {
	return s.setDelivery(ctx, id, bson.D{{Key: "jobId", Value: jobID}}, nil)
}

// DeliveryByID loads one delivery.
func (s *Store) DeliveryByID(ctx context.Context, id string) (Delivery, error) {
	return findByID[Delivery](ctx, s, collDeliveries, "delivery", id)
}

// MarkDelivery records an attempt's outcome.
func (s *Store) MarkDelivery(ctx context.Context, id, status, lastError string, sentAt *time.Time) error {
	set := bson.D{{Key: "status", Value: status}, {Key: "lastError", Value: lastError}}
	if sentAt != nil {
		set = append(set, bson.E{Key: "sentAt", Value: sentAt.UTC()})
	}
	return s.setDelivery(ctx, id, set, bson.D{{Key: "attempts", Value: 1}})
}

func (s *Store) setDelivery(ctx context.Context, id string, set, inc bson.D) error {
	set = append(set, bson.E{Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)})
	update := bson.D{{Key: "$set", Value: set}}
	if len(inc) > 0 {
		update = append(update, bson.E{Key: "$inc", Value: inc})
	}
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collDeliveries).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, update)
		return err
	})
	if err != nil {
		return fmt.Errorf("update delivery %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("update delivery %s: %w", id, ErrNotFound)
	}
	return nil
}

// Deliveries lists a mailing's deliveries, oldest first.
func (s *Store) Deliveries(ctx context.Context, mailing string) ([]Delivery, error) {
	cur, err := s.coll(collDeliveries).Find(ctx, bson.D{{Key: "mailing", Value: mailing}},
		options.Find().SetSort(bson.D{{Key: "queuedAt", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list deliveries of %s: %w", mailing, err)
	}
	out := []Delivery{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list deliveries of %s: %w", mailing, err)
	}
	return out, nil
}

// SetInvite records how the host just invited guest id, replacing the
// mark of an earlier invitation (an opened link stays).
func (s *Store) SetInvite(ctx context.Context, id string, inv guest.Invite) error {
	set := bson.D{{Key: "invite.how", Value: inv.How}, {Key: "invite.at", Value: inv.At.UTC()}, {Key: "invite.status", Value: inv.Status}}
	return s.setGuestFields(ctx, id, set, bson.D{{Key: "invite.error", Value: ""}, {Key: "invite.deliveredAt", Value: ""}})
}

// MarkInvite records how an e-mailed invitation went.
func (s *Store) MarkInvite(ctx context.Context, id, status, lastError string, deliveredAt *time.Time) error {
	set := bson.D{{Key: "invite.status", Value: status}}
	unset := bson.D{}
	if lastError != "" {
		set = append(set, bson.E{Key: "invite.error", Value: lastError})
	} else {
		unset = append(unset, bson.E{Key: "invite.error", Value: ""})
	}
	if deliveredAt != nil {
		set = append(set, bson.E{Key: "invite.deliveredAt", Value: deliveredAt.UTC()})
	}
	return s.setGuestFields(ctx, id, set, unset)
}

// MarkInviteOpened records the first sign-in with the invitation link.
// Later ones change nothing.
func (s *Store) MarkInviteOpened(ctx context.Context, id string, at time.Time) error {
	var g struct {
		Invite *guest.Invite `bson:"invite"`
	}
	err := s.coll(collGuests).FindOne(ctx, bson.D{{Key: "_id", Value: id}}, options.FindOne().SetProjection(bson.D{{Key: "invite", Value: 1}})).Decode(&g)
	if err != nil {
		return fmt.Errorf("load guest %s: %w", id, err)
	}
	if g.Invite != nil && g.Invite.OpenedAt != nil {
		return nil
	}
	set := bson.D{{Key: "invite.openedAt", Value: at.UTC().Truncate(time.Millisecond)}}
	if g.Invite == nil {
		// Opened without a recorded invitation: the host passed the link
		// on some other way.
		set = append(set, bson.E{Key: "invite.how", Value: guest.InviteLink}, bson.E{Key: "invite.at", Value: at.UTC().Truncate(time.Millisecond)}, bson.E{Key: "invite.status", Value: guest.InviteDone})
	}
	return s.setGuestFields(ctx, id, set, nil)
}

// setGuestFields writes fields no figure depends on, by _id.
func (s *Store) setGuestFields(ctx context.Context, id string, set, unset bson.D) error {
	update := bson.D{{Key: "$set", Value: set}}
	if len(unset) > 0 {
		update = append(update, bson.E{Key: "$unset", Value: unset})
	}
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collGuests).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, update)
		return err
	})
	if err != nil {
		return fmt.Errorf("update guest %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("update guest %s: %w", id, ErrNotFound)
	}
	s.guestsChanged(ctx, id)
	return nil
}
