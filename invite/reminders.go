package invite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/store"
)

// Reminders the host schedules go out from the durable job queue: every
// worker's Scheduler looks at the clock, and the first to see one due
// claims it (store.ClaimReminderFire) and queues one job of kind
// ReminderJobKind; that job, run once by whichever worker takes it,
// queues one mail job per guest, each guarded by its delivery
// "reminder/<id>/<guestId>": each guest gets each reminder once.

// ReminderJobKind is the job that sends a reminder out.
const ReminderJobKind = "reminder"

// ReminderHour is when a reminder to answer goes, in the event's time
// zone: mid-morning, when people read their mail.
const ReminderHour = 10

// MorningHour is when the morning-of reminder goes, in the event's time
// zone; an event that starts earlier gets it two hours before.
const MorningHour = 9

// Due is when r goes out with the event's settings st; false while the
// date it hangs on (the deadline, the event) is not set.
func Due(r store.Reminder, st guest.Settings) (time.Time, bool) {
	switch r.Kind {
	case KindUnanswered:
		if st.RSVPDeadline == nil {
			return time.Time{}, false
		}
		// The day DaysBefore days before the deadline, at ReminderHour in
		// the event's time zone: a deadline set at the end of a day would
		// otherwise send it at 23:59. One on the deadline's own day that
		// is early goes two hours before it.
		deadline := st.RSVPDeadline.In(st.Loc())
		day := deadline.AddDate(0, 0, -r.DaysBefore)
		due := time.Date(day.Year(), day.Month(), day.Day(), ReminderHour, 0, 0, 0, st.Loc())
		if !due.Before(deadline) {
			due = deadline.Add(-2 * time.Hour)
		}
		return due, true
	case KindMorning:
		if st.EventDate == nil {
			return time.Time{}, false
		}
		start := st.EventDate.In(st.Loc())
		morning := time.Date(start.Year(), start.Month(), start.Day(), MorningHour, 0, 0, 0, st.Loc())
		if early := start.Add(-2 * time.Hour); early.Before(morning) {
			morning = early
		}
		return morning, true
	}
	return time.Time{}, false
}

// wants reports whether g is one of r's recipients.
func wants(kind string, g guest.Guest) bool {
	if !g.Counted() || g.Email == "" {
		return false
	}
	switch kind {
	case KindUnanswered:
		return g.Status == guest.StatusPending
	case KindMorning:
		return g.Status == guest.StatusComing
	}
	return false
}

// ReminderMailing names a reminder's mailing.
func ReminderMailing(id string) string { return "reminder/" + id }

// Scheduler queues reminders that are due.
type Scheduler struct {
	st  ReminderStore
	now func() time.Time
	// queued hands a job just queued to this process's worker.
	queued func(store.Job)
	log    *slog.Logger
}

// NewScheduler returns a Scheduler on clock now (time.Now when nil);
// queued may be nil.
func NewScheduler(st ReminderStore, now func() time.Time, queued func(store.Job), logger *slog.Logger) *Scheduler {
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Scheduler{st: st, now: now, queued: queued, log: logger}
}

// Tick queues the job of every reminder due now that no instance has
// queued yet, and returns how many it queued.
func (s *Scheduler) Tick(ctx context.Context) (int, error) {
	rs, err := s.st.Reminders(ctx)
	if err != nil {
		return 0, err
	}
	st, err := s.st.Settings(ctx)
	if err != nil {
		return 0, err
	}
	now := s.now()
	n := 0
	for _, r := range rs {
		due, ok := Due(r, st)
		if r.Status != store.ReminderScheduled || !ok || now.Before(due) {
			continue
		}
		if err := s.st.ClaimReminderFire(ctx, r.ID); err != nil {
			if errors.Is(err, store.ErrConflict) {
				continue // another instance has it
			}
			return n, err
		}
		j, err := s.st.EnqueueJob(ctx, store.NewJob{Kind: ReminderJobKind, Subject: "reminder:" + r.ID, Payload: map[string]string{"reminderId": r.ID}})
		if err != nil {
			return n, fmt.Errorf("queue reminder %s: %w", r.ID, err)
		}
		if err := s.st.MarkReminder(ctx, r.ID, store.ReminderQueued, nil, 0); err != nil {
			s.log.WarnContext(ctx, "mark reminder queued", "reminder", r.ID, "err", err)
		}
		if s.queued != nil {
			s.queued(j)
		}
		n++
	}
	return n, nil
}

// Check is Tick for a periodic task: it queues what fell due.
func (s *Scheduler) Check(ctx context.Context) error {
	_, err := s.Tick(ctx)
	return err
}

// Register hands the reminder jobs to r. Check has to run now and then
// beside it, to queue the reminders that fall due.
func (s *Scheduler) Register(r Registry) { r.Handle(ReminderJobKind, s) }

// Handle sends reminder j out.
func (s *Scheduler) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	values, err := s.fire(ctx, j)
	return jobs.Result{Values: values}, err
}

// fire sends reminder j out: one mail job per recipient.
func (s *Scheduler) fire(ctx context.Context, j store.Job) (map[string]string, error) {
	r, err := s.st.ReminderByID(ctx, j.Payload["reminderId"])
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, permanentError{err}
		}
		return nil, err
	}
	guests, err := s.st.AllGuests(ctx)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, g := range guests {
		if !wants(r.Kind, g) {
			continue
		}
		mj, err := Queue(ctx, s.st, g, ReminderMailing(r.ID), r.Kind, r.Lang)
		if errors.Is(err, store.ErrConflict) {
			n++ // queued by an earlier attempt of this job
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.queued != nil {
			s.queued(mj)
		}
		n++
	}
	at := s.now()
	if err := s.st.MarkReminder(ctx, r.ID, store.ReminderDone, &at, n); err != nil {
		return nil, err
	}
	return map[string]string{"recipients": fmt.Sprint(n)}, nil
}

// Failed needs no record of its own: the job's status is the reminder's.
func (s *Scheduler) Failed(ctx context.Context, j store.Job, err error, final bool) {
	if final {
		s.log.ErrorContext(ctx, "reminder could not be sent out", "reminder", j.Payload["reminderId"], "err", err)
	}
}
