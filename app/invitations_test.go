package app_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// mailbox queues e-mails in memory, once per guest and mailing.
type mailbox struct{ queued map[string]bool }

func (m *mailbox) Queue(_ context.Context, g guest.Guest, mailing, kind, lang string) (store.Job, error) {
	key := g.ID + "/" + mailing
	if m.queued[key] {
		return store.Job{}, fmt.Errorf("reserve: %w", store.ErrConflict)
	}
	m.queued[key] = true
	return store.Job{}, nil
}

func TestSendInvitations(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	ev := &events{}
	jobs := 0
	inv := app.NewInvitations(app.InvitationsDeps{Store: st, Mail: &mailbox{queued: map[string]bool{}}, JobQueued: func(store.Job) { jobs++ }, Publish: ev})
	mia := addGuest(t, st, guest.Guest{FirstName: "Mia", Email: "mia@example.com"})
	leo := addGuest(t, st, guest.Guest{FirstName: "Leo"})
	addGuest(t, st, guest.Guest{FirstName: "Bo", Role: guest.RoleBartender, Email: "bo@example.com"})

	res, err := inv.Send(ctx, app.SendRequest{How: guest.InviteEmail}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if res.Queued != 1 || jobs != 1 || len(res.Skipped) != 1 || res.Skipped[0] != (app.Skipped{GuestID: leo.ID, Name: leo.Name(), Reason: "no_email"}) {
		t.Errorf("first sending %+v (%d jobs)", res, jobs)
	}
	res, err = inv.Send(ctx, app.SendRequest{How: guest.InviteEmail, GuestIDs: []string{mia.ID}}, "en")
	if err != nil || res.Queued != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "already_sent" {
		t.Errorf("second sending %+v, %v", res, err)
	}
	after, err := st.GuestByID(ctx, mia.ID)
	if err != nil || after.Invite.Status != guest.InviteQueued {
		t.Errorf("mia's invitation %+v, %v", after.Invite, err)
	}

	res, err = inv.Send(ctx, app.SendRequest{How: guest.InvitePrint, Staff: true}, "")
	if err != nil || res.Recorded != 3 {
		t.Errorf("printed %+v, %v", res, err)
	}
	if got := ev.names(); len(got) != 2 || got[0] != "admin/invite.updated" {
		t.Errorf("published %v, want invite.updated for each sending that did something", got)
	}

	cards, err := inv.Cards(ctx, "", false)
	if err != nil || len(cards.Guests) != 2 {
		t.Errorf("cards for the counted guests: %d, %v", len(cards.Guests), err)
	}
}

func TestSendInvitationsRefused(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	noMail := app.NewInvitations(app.InvitationsDeps{Store: st})
	if noMail.MailConfigured() {
		t.Error("mail configured without a queue")
	}
	_, err := noMail.Send(ctx, app.SendRequest{How: guest.InviteEmail}, "")
	wantError(t, err, app.Conflict, "mail_not_configured")
	_, err = noMail.Send(ctx, app.SendRequest{How: "pigeon"}, "")
	wantError(t, err, app.Unprocessable, "invalid_how")
	_, err = noMail.Send(ctx, app.SendRequest{How: guest.InviteLink, GuestIDs: make([]string, app.MaxSendIDs+1)}, "")
	wantError(t, err, app.Unprocessable, "too_many")
	_, err = noMail.Send(ctx, app.SendRequest{How: guest.InviteLink, GuestIDs: []string{"nobody"}}, "")
	if ae := wantError(t, err, app.NotFound, "not_found"); ae.Message != "guest nobody does not exist" {
		t.Errorf("message %q", ae.Message)
	}
	_, err = noMail.Cards(ctx, "nobody", false)
	wantError(t, err, app.NotFound, "not_found")
}
