package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/barhub/barhub/app"
)

func TestAnnounce(t *testing.T) {
	ctx := context.Background()
	ev := &events{}
	a := app.NewAnnouncements(ev)

	res, err := a.Announce(ctx, "Hal Host", app.AnnouncementRequest{Text: "  Cake in the garden  ", SentAt: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Topic != "guests" || res.Guests != 0 || res.Announcement.Text != "Cake in the garden" || res.Announcement.From != "Hal Host" || res.Announcement.SentAt != 7 {
		t.Errorf("to everyone: %+v", res)
	}

	res, err = a.Announce(ctx, "Hal Host", app.AnnouncementRequest{Text: "Last call", GuestIDs: []string{"g1", "g2", "g1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Topic != "" || res.Guests != 2 {
		t.Errorf("to a list: %+v", res)
	}
	want := []string{"guests/announcement", "guest:g1/announcement", "guest:g2/announcement"}
	if got := ev.names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("published %v, want %v", got, want)
	}
}

func TestAnnounceRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  app.AnnouncementRequest
		code string
	}{
		{"empty", app.AnnouncementRequest{Text: " \n "}, "missing_text"},
		{"too long", app.AnnouncementRequest{Text: strings.Repeat("a", app.MaxAnnouncement+1)}, "too_long"},
		{"one and a list", app.AnnouncementRequest{Text: "hi", GuestID: "g1", GuestIDs: []string{"g2"}}, "invalid_guest_id"},
		{"empty list", app.AnnouncementRequest{Text: "hi", GuestIDs: []string{}}, "invalid_guest_id"},
		{"not an id", app.AnnouncementRequest{Text: "hi", GuestIDs: []string{"g1", "no such/id"}}, "invalid_guest_id"},
		{"too many", app.AnnouncementRequest{Text: "hi", GuestIDs: make([]string, app.MaxAnnouncementGuests+1)}, "too_many_guests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := &events{}
			_, err := app.NewAnnouncements(ev).Announce(context.Background(), "Hal Host", tc.req)
			wantError(t, err, app.Invalid, tc.code)
			if got := ev.names(); len(got) != 0 {
				t.Errorf("a refused announcement published %v", got)
			}
		})
	}
}
