package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/text"
)

// MaxAnnouncement bounds an announcement, in characters.
const MaxAnnouncement = 500

// MaxAnnouncementGuests bounds one announcement's list; a larger crowd is
// everyone or several announcements.
const MaxAnnouncementGuests = 10000

// AnnouncementPublisher sends live events, one or many in one exchange
// with the broker.
type AnnouncementPublisher interface {
	Publisher
	PublishMany(ctx context.Context, out []hub.Outgoing) error
}

// Announcements are the host's messages ("cake in the garden in 5
// minutes") to every guest's page, or to some guests'.
type Announcements struct {
	pub AnnouncementPublisher
	now func() time.Time
}

// NewAnnouncements returns the announcements, sent through pub.
func NewAnnouncements(pub AnnouncementPublisher) *Announcements {
	return &Announcements{pub: pub, now: time.Now}
}

// AnnouncementRequest is what the host sends.
type AnnouncementRequest struct {
	Text string
	// GuestID sends the message to one guest's topic instead of everyone;
	// GuestIDs to each of these guests' topics. Not both.
	GuestID  string
	GuestIDs []string
	// Push also sends it as a notification to the devices of the guests
	// who allowed them, for pages that are closed (docs/PUSH.md).
	Push bool
	// SentAt (Unix nanoseconds) is echoed so a client can measure delivery
	// latency.
	SentAt int64
}

// Announcement is the announcement event's data.
type Announcement struct {
	Text   string    `json:"text"`
	From   string    `json:"from"`
	At     time.Time `json:"at"`
	SentAt int64     `json:"sentAt,omitempty"`
	// Push tells the push sender to notify devices too.
	Push bool `json:"push,omitempty"`
}

// AnnouncementResult says who the announcement went to.
type AnnouncementResult struct {
	// Topic is the one topic it went to: everyone's, or one guest's;
	// empty for several guests.
	Topic string
	// Guests is how many guests it was addressed to, 0 for everyone.
	Guests       int
	Announcement Announcement
}

// Announce publishes req's text, from the host named from, to everyone
// or to the guests req names (each once). The audit entry names who heard
// it; the words stay out of the log.
func (a *Announcements) Announce(ctx context.Context, from string, req AnnouncementRequest) (AnnouncementResult, error) {
	// Every guest's phone shows it: barhub's text rule, over lines.
	msg, err := text.Rule{Max: MaxAnnouncement, Lines: true, Required: true}.Clean(req.Text)
	switch {
	case errors.Is(err, text.ErrEmpty):
		return AnnouncementResult{}, NewError(Invalid, "missing_text", "write the announcement in \"text\"")
	case errors.Is(err, text.ErrTooLong):
		return AnnouncementResult{}, NewError(Invalid, "too_long", fmt.Sprintf("keep announcements under %d characters", MaxAnnouncement))
	case err != nil:
		return AnnouncementResult{}, NewError(Invalid, "invalid_text", "the announcement "+err.Error())
	}
	ids, err := announcementGuests(req)
	if err != nil {
		return AnnouncementResult{}, err
	}
	ann := Announcement{Text: msg, From: from, At: a.now().UTC(), SentAt: req.SentAt, Push: req.Push}
	if ids == nil {
		if err := a.pub.Publish(ctx, live.TopicGuests, live.EventAnnouncement, ann); err != nil {
			return AnnouncementResult{}, err
		}
		audit.SetSubject(ctx, live.TopicGuests)
		return AnnouncementResult{Topic: live.TopicGuests, Announcement: ann}, nil
	}
	out := make([]hub.Outgoing, len(ids))
	for i, id := range ids {
		out[i] = hub.Outgoing{Topic: live.GuestTopic(id), Event: live.EventAnnouncement, Data: ann}
	}
	if err := a.pub.PublishMany(ctx, out); err != nil {
		return AnnouncementResult{}, err
	}
	res := AnnouncementResult{Guests: len(ids), Announcement: ann}
	if len(ids) == 1 {
		res.Topic = out[0].Topic
		audit.SetSubject(ctx, res.Topic)
	} else {
		audit.SetSubject(ctx, fmt.Sprintf("%d guests", len(ids)))
	}
	return res, nil
}

// announcementGuests returns the guests a request names, without repeats
// and in the order given, or nil for everyone.
func announcementGuests(req AnnouncementRequest) ([]string, error) {
	if req.GuestID != "" && len(req.GuestIDs) > 0 {
		return nil, NewError(Invalid, "invalid_guest_id", "give guestId or guestIds, not both")
	}
	list := req.GuestIDs
	if req.GuestID != "" {
		list = []string{req.GuestID}
	}
	if req.GuestIDs != nil && len(req.GuestIDs) == 0 {
		return nil, NewError(Invalid, "invalid_guest_id", "guestIds is empty; leave it out to announce to everyone")
	}
	if len(list) > MaxAnnouncementGuests {
		return nil, NewError(Invalid, "too_many_guests", fmt.Sprintf("at most %d guestIds in one announcement; announce to everyone, or send several", MaxAnnouncementGuests))
	}
	if len(list) == 0 {
		return nil, nil
	}
	seen := make(map[string]bool, len(list))
	ids := make([]string, 0, len(list))
	for i, id := range list {
		if !guest.ValidID(id) {
			return nil, NewError(Invalid, "invalid_guest_id", fmt.Sprintf("guest id number %d is not a guest id", i+1))
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}
