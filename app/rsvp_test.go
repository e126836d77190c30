package app_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// events records what a use case publishes.
type events struct {
	mu  sync.Mutex
	out []hub.Outgoing
}

func (e *events) Publish(_ context.Context, topic, event string, data any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.out = append(e.out, hub.Outgoing{Topic: topic, Event: event, Data: data})
	return nil
}

func (e *events) PublishMany(_ context.Context, out []hub.Outgoing) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.out = append(e.out, out...)
	return nil
}

// names lists the events as topic/event.
func (e *events) names() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var n []string
	for _, o := range e.out {
		n = append(n, o.Topic+"/"+o.Event)
	}
	return n
}

func addGuest(t *testing.T, st *store.Store, g guest.Guest) guest.Guest {
	t.Helper()
	if g.FirstName == "" {
		g.FirstName = "Test"
	}
	if g.LastName == "" {
		g.LastName = "Guest"
	}
	if err := st.CreateGuest(context.Background(), &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// wantError fails t unless err is an *app.Error of kind and code.
func wantError(t *testing.T, err error, kind app.Kind, code string) *app.Error {
	t.Helper()
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Kind != kind || ae.Code != code {
		t.Fatalf("error %v, want kind %d code %s", err, kind, code)
	}
	return ae
}

func identityOf(g guest.Guest) auth.Identity {
	return auth.Identity{GuestID: g.ID, Name: g.Name(), Role: g.Role}
}

func TestRSVPAnswer(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	ev := &events{}
	rsvp := app.NewRSVP(st, app.NewDashboard(ev, st, nil))
	mia := addGuest(t, st, guest.Guest{FirstName: "Mia", ExpectedGuests: 2})
	two := 2
	v, err := rsvp.Answer(ctx, identityOf(mia), guest.Answer{Status: guest.StatusComing, NumGuests: &two})
	if err != nil {
		t.Fatal(err)
	}
	if v.ComingTotal != 2 || v.Guest.Status != guest.StatusComing || v.Message != "Thank you! 2 of you are coming. See you there!" {
		t.Errorf("view %+v", v)
	}
	if got := ev.names(); len(got) != 2 || got[0] != "admin/rsvp.changed" || got[1] != "admin/stats.updated" {
		t.Errorf("published %v, want rsvp.changed then stats.updated", got)
	}
	again, err := rsvp.View(ctx, mia.ID)
	if err != nil || again.ComingTotal != 2 || again.GroupVersion != v.GroupVersion {
		t.Errorf("view after the answer: %+v, %v", again, err)
	}
}

func TestRSVPRefused(t *testing.T) {
	past := time.Now().Add(-time.Hour)
	two := 2
	for _, tc := range []struct {
		name     string
		deadline *time.Time
		deleted  bool
		answer   guest.Answer
		kind     app.Kind
		code     string
	}{
		{"after the deadline", &past, false, guest.Answer{Status: guest.StatusComing, NumGuests: &two}, app.Conflict, guest.CodeDeadlinePassed},
		{"invitation deleted", nil, true, guest.Answer{Status: guest.StatusComing, NumGuests: &two}, app.Unauthenticated, "unauthorized"},
		{"nothing to change", nil, false, guest.Answer{}, app.Invalid, guest.CodeNothingToChange},
		{"unknown status", nil, false, guest.Answer{Status: "maybe"}, app.Invalid, guest.CodeInvalidAnswer},
		{"the group changed", nil, false, guest.Answer{Status: guest.StatusDeclined, GroupVersion: "stale"}, app.Conflict, guest.CodeGroupChanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := storetest.New(t)
			if _, err := st.SaveSettings(ctx, guest.Settings{EventName: "Party", RSVPDeadline: tc.deadline}); err != nil {
				t.Fatal(err)
			}
			ev := &events{}
			rsvp := app.NewRSVP(st, app.NewDashboard(ev, st, nil))
			mia := addGuest(t, st, guest.Guest{FirstName: "Mia", ExpectedGuests: 2})
			if tc.deleted {
				mia.ID = "gone"
			}
			_, err := rsvp.Answer(ctx, identityOf(mia), tc.answer)
			ae := wantError(t, err, tc.kind, tc.code)
			if tc.code == guest.CodeGroupChanged {
				if v, ok := ae.Details.(app.RSVPView); !ok || v.Guest.ID != mia.ID {
					t.Errorf("details %#v, want the view as it is now", ae.Details)
				}
			}
			if got := ev.names(); len(got) != 0 {
				t.Errorf("a refused answer published %v", got)
			}
			if after, err := st.GuestByID(ctx, mia.ID); err == nil && after.Status != "" && after.Status != guest.StatusPending {
				t.Errorf("a refused answer was stored: %q", after.Status)
			}
		})
	}
}
