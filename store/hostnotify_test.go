package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func TestHostPrefs(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	p, err := s.HostPrefs(ctx, "hal")
	if err != nil {
		t.Fatal(err)
	}
	if p.BatchMinutes != store.DefaultBatchMinutes || p.DigestHour != store.DefaultDigestHour || len(p.Off) != 0 || !p.AnswersSince.IsZero() {
		t.Errorf("defaults %+v", p)
	}
	since, sent := t0, t0.Add(time.Minute)
	if err := s.MarkAnswersSummarised(ctx, "hal", since, sent); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveHostPrefs(ctx, store.HostPrefs{AdminID: "hal", Off: []string{"digest"}, BatchMinutes: 10, DigestHour: 7}); err != nil {
		t.Fatal(err)
	}
	p, err = s.HostPrefs(ctx, "hal")
	if err != nil {
		t.Fatal(err)
	}
	// Saving the choice keeps where the summaries are.
	if !slices.Equal(p.Off, []string{"digest"}) || p.BatchMinutes != 10 || p.DigestHour != 7 || !p.AnswersSince.Equal(since) || !p.AnswersSentAt.Equal(sent) {
		t.Errorf("saved %+v", p)
	}
}

func TestAdminsAndAnswersAfter(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	at := func(m int) *time.Time { v := t0.Add(time.Duration(m) * time.Minute); return &v }
	for _, g := range []guest.Guest{
		{ID: "a1", FirstName: "Hal", LastName: "Host", Role: guest.RoleAdmin},
		{ID: "a2", FirstName: "Ida", LastName: "Host", Role: guest.RoleAdmin},
		{ID: "b1", FirstName: "Bea", LastName: "Bar", Role: guest.RoleBartender},
		{ID: "g1", FirstName: "Ann", LastName: "Early", Status: guest.StatusComing, RSVPDate: at(1)},
		{ID: "g2", FirstName: "Bo", LastName: "Late", Status: guest.StatusDeclined, RSVPDate: at(12)},
		{ID: "g3", FirstName: "Cy", LastName: "Later", Status: guest.StatusComing, RSVPDate: at(11)},
		{ID: "g4", FirstName: "Di", LastName: "Silent"},
	} {
		if err := s.CreateGuest(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	admins, err := s.Admins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(admins) != 2 || admins[0].ID != "a1" || admins[1].ID != "a2" {
		t.Errorf("admins %+v", admins)
	}
	after, err := s.AnswersAfter(ctx, t0.Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	// Oldest first: Cy at 11, Bo at 12; Ann's answer at 1 is older.
	if len(after) != 2 || after[0].ID != "g3" || after[1].ID != "g2" || after[1].Status != guest.StatusDeclined || after[0].FirstName != "Cy" {
		t.Errorf("answers after 20:10: %+v", after)
	}
}
