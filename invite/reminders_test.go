package invite_test

import (
	"context"
	"io"
	"log/slog"
	"sort"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/store"
)

func TestDue(t *testing.T) {
	st := party() // deadline 10 June 10:00 UTC, party 19 June 16:00 UTC (18:00 in Stockholm)
	un := store.Reminder{Kind: invite.KindUnanswered, DaysBefore: 3}
	if due, ok := invite.Due(un, st); !ok || !due.Equal(time.Date(2030, 6, 7, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("unanswered due %v %v, want 10:00 Stockholm", due, ok)
	}
	// A deadline at the end of a day: the reminder goes in the morning,
	// not at 23:59 (the issue); one on the deadline's own day that is
	// early goes two hours before it.
	for _, tc := range []struct {
		deadline time.Time
		days     int
		want     time.Time
	}{
		{time.Date(2030, 6, 10, 21, 59, 0, 0, time.UTC), 3, time.Date(2030, 6, 7, 8, 0, 0, 0, time.UTC)},
		{time.Date(2030, 6, 10, 21, 59, 0, 0, time.UTC), 0, time.Date(2030, 6, 10, 8, 0, 0, 0, time.UTC)},
		{time.Date(2030, 6, 10, 6, 0, 0, 0, time.UTC), 0, time.Date(2030, 6, 10, 4, 0, 0, 0, time.UTC)},
	} {
		end := party()
		end.RSVPDeadline = &tc.deadline
		if due, _ := invite.Due(store.Reminder{Kind: invite.KindUnanswered, DaysBefore: tc.days}, end); !due.Equal(tc.want) {
			t.Errorf("deadline %v, %d days before: due %v, want %v", tc.deadline, tc.days, due.UTC(), tc.want)
		}
	}
	if due, ok := invite.Due(store.Reminder{Kind: invite.KindMorning}, st); !ok || !due.Equal(time.Date(2030, 6, 19, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("morning due %v %v, want 09:00 Stockholm", due, ok)
	}
	early := party()
	at := time.Date(2030, 6, 19, 6, 0, 0, 0, time.UTC) // 08:00 in Stockholm: a breakfast
	early.EventDate = &at
	if due, _ := invite.Due(store.Reminder{Kind: invite.KindMorning}, early); !due.Equal(at.Add(-2 * time.Hour)) {
		t.Errorf("early event: due %v", due)
	}
	st.RSVPDeadline = nil
	if _, ok := invite.Due(un, st); ok {
		t.Error("due without a deadline")
	}
}

// TestRemindersOnAControllableClock: the host schedules "3 days before the
// deadline, to those who have not answered" and "the morning of the
// party, to those coming"; the clock is moved, nobody sleeps on it. Two
// instances' schedulers tick together: each reminder goes out once, to
// the right guests (not to staff, nor to guests without an address), and
// each guest gets it once.
func TestRemindersOnAControllableClock(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	pending := r.addGuest(t, "Pia", "pia@example.com")
	coming := r.addGuest(t, "Cole", "cole@example.com")
	r.addGuest(t, "Noah", "") // pending, no address
	bar := guest.Guest{FirstName: "Bea", LastName: "Tender", Role: guest.RoleBartender, Email: "bea@example.com"}
	if err := r.st.InsertGuest(ctx, &bar); err != nil {
		t.Fatal(err)
	}
	yes := guest.StatusComing
	if _, err := r.st.UpdateGuest(ctx, coming.ID, guest.Patch{Status: &yes}, coming.ID); err != nil {
		t.Fatal(err)
	}
	unanswered := store.Reminder{Kind: invite.KindUnanswered, DaysBefore: 3}
	morning := store.Reminder{Kind: invite.KindMorning}
	for _, rem := range []*store.Reminder{&unanswered, &morning} {
		if err := r.st.InsertReminder(ctx, rem); err != nil {
			t.Fatal(err)
		}
	}
	other := invite.NewScheduler(r.st, r.clock.Now, nil, slog.New(slog.NewTextHandler(io.Discard, nil))) // a second instance
	tick := func() int {
		n1, err1 := r.sched.Tick(ctx)
		n2, err2 := other.Tick(ctx)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		r.w.Wake()
		return n1 + n2
	}

	if n := tick(); n != 0 {
		t.Fatalf("%d reminders went out a month early", n)
	}
	r.clock.Set(time.Date(2030, 6, 7, 7, 59, 0, 0, time.UTC))
	if n := tick(); n != 0 {
		t.Fatalf("%d went out a minute early", n)
	}
	r.clock.Set(time.Date(2030, 6, 7, 8, 0, 0, 0, time.UTC)) // 10:00 in Stockholm
	if n := tick(); n != 1 {
		t.Fatalf("%d reminders queued at the due time, want 1", n)
	}
	got := r.srv.Wait(ctxTimeout(t), t, 1)
	if got[0].To[0] != pending.Email {
		t.Fatalf("unanswered reminder went to %v", got[0].To)
	}
	if n := tick(); n != 0 {
		t.Fatalf("queued again: %d", n)
	}

	r.clock.Set(time.Date(2030, 6, 19, 7, 0, 0, 0, time.UTC))
	if n := tick(); n != 1 {
		t.Fatalf("morning reminder: %d queued", n)
	}
	got = r.srv.Wait(ctxTimeout(t), t, 2)
	if got[1].To[0] != coming.Email {
		t.Fatalf("morning reminder went to %v", got[1].To)
	}
	waitFor(t, "both reminders done", func() bool {
		rs, _ := r.st.Reminders(ctx)
		return len(rs) == 2 && rs[0].Status == store.ReminderDone && rs[1].Status == store.ReminderDone
	})
	// The host sees who got what.
	for _, c := range []struct {
		id   string
		want []string
	}{{unanswered.ID, []string{pending.ID}}, {morning.ID, []string{coming.ID}}} {
		ds, err := r.st.Deliveries(ctx, invite.ReminderMailing(c.id))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range ds {
			ids = append(ids, d.GuestID)
			if d.Status != store.DeliverySent && d.Status != store.DeliveryQueued {
				t.Errorf("delivery %+v", d)
			}
		}
		sort.Strings(ids)
		if len(ids) != len(c.want) || ids[0] != c.want[0] {
			t.Errorf("reminder %s went to %v, want %v", c.id, ids, c.want)
		}
	}
	r.clock.Set(time.Date(2030, 6, 20, 0, 0, 0, 0, time.UTC))
	tick()
	time.Sleep(200 * time.Millisecond) // a duplicate would arrive by now
	if n := len(r.srv.Messages()); n != 2 {
		t.Fatalf("%d messages, want 2", n)
	}
	// A sent reminder stays, so the host still sees who got it.
	if err := r.st.DeleteReminder(ctx, morning.ID); err == nil {
		t.Error("a reminder that went out was deleted")
	}
}
