package invite

import (
	"context"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// MailStore is what the mailer reads and records (store.Store is one).
type MailStore interface {
	DeliveryByID(ctx context.Context, id string) (store.Delivery, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	// Registration reads the registration an offer's e-mail goes to.
	Registration(ctx context.Context, id string) (guest.Registration, error)
	Settings(ctx context.Context) (guest.Settings, error)
	MarkDelivery(ctx context.Context, id, status, lastError string, sentAt *time.Time) error
	MarkInvite(ctx context.Context, id, status, lastError string, deliveredAt *time.Time) error
	URLChoice
}

// URLChoice is the host's pick of the public address, if any.
type URLChoice interface {
	PublicURLChoice(ctx context.Context) (string, error)
}

// Outbox reserves a guest's message of a mailing and queues its job.
type Outbox interface {
	ReserveDelivery(ctx context.Context, d *store.Delivery) error
	ReleaseDelivery(ctx context.Context, id string) error
	EnqueueJob(ctx context.Context, nj store.NewJob) (store.Job, error)
	SetDeliveryJob(ctx context.Context, id, jobID string) error
}

// ReminderStore is what the reminders' scheduler reads and records.
type ReminderStore interface {
	Reminders(ctx context.Context) ([]store.Reminder, error)
	ReminderByID(ctx context.Context, id string) (store.Reminder, error)
	ClaimReminderFire(ctx context.Context, id string) error
	MarkReminder(ctx context.Context, id, status string, firedAt *time.Time, recipients int) error
	Settings(ctx context.Context) (guest.Settings, error)
	AllGuests(ctx context.Context) ([]guest.Guest, error)
	Outbox
}
