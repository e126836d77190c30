package guest

import (
	"errors"
	"fmt"
	"strings"
	"time"
	// Time zone names must resolve on machines without /usr/share/zoneinfo
	// (a scratch container, Windows).
	_ "time/tzdata"

	"github.com/barhub/barhub/text"
)

// Settings describe the event; one document per database.
type Settings struct {
	EventName    string     `bson:"eventName" json:"eventName"`
	EventDate    *time.Time `bson:"eventDate,omitempty" json:"eventDate"`
	Location     string     `bson:"location" json:"location"`
	DressCode    string     `bson:"dressCode" json:"dressCode"`
	Info         string     `bson:"info" json:"info"`
	RSVPDeadline *time.Time `bson:"rsvpDeadline,omitempty" json:"rsvpDeadline"`
	// Timezone is an IANA name ("Europe/Stockholm"); dates are shown in it.
	Timezone string `bson:"timezone" json:"timezone"`
	// PublicMenu is the host's switch of the public menu (/menu readable
	// without signing in, docs/MENU.md): nil until the host sets it, and
	// then --public-menu (BARHUB_PUBLIC_MENU) decides; once set, it wins.
	PublicMenu *bool `bson:"publicMenu,omitempty" json:"publicMenu,omitempty"`
	// Registration is who may join without an invitation: closed (the
	// default), open or approval; Capacity bounds the people registrations
	// bring (0: no bound); OfferHours is how long a freed place waits for
	// the first in line (docs/REGISTRATION.md).
	Registration string    `bson:"registration,omitempty" json:"registration"`
	Capacity     int       `bson:"capacity,omitempty" json:"capacity"`
	OfferHours   int       `bson:"offerHours,omitempty" json:"offerHours"`
	UpdatedAt    time.Time `bson:"updatedAt" json:"updatedAt"`
}

// MenuIsPublic is whether the menu may be read without signing in: the
// host's switch when set, else def (the flag).
func (s Settings) MenuIsPublic(def bool) bool {
	if s.PublicMenu != nil {
		return *s.PublicMenu
	}
	return def
}

// RegistrationMode is the registration mode, closed when unset.
func (s Settings) RegistrationMode() string {
	if ValidRegistrationMode(s.Registration) {
		return s.Registration
	}
	return RegistrationClosed
}

// OfferFor is how long an offered place waits for its answer.
func (s Settings) OfferFor() time.Duration {
	if s.OfferHours <= 0 {
		return DefaultOfferHours * time.Hour
	}
	return time.Duration(s.OfferHours) * time.Hour
}

// DefaultSettings are what a new party starts with.
func DefaultSettings() Settings {
	return Settings{EventName: "Our party", Timezone: "UTC"}
}

// Loc returns the event's time zone (UTC when unset or unknown).
func (s Settings) Loc() *time.Location {
	if loc, err := time.LoadLocation(s.Timezone); err == nil && s.Timezone != "" {
		return loc
	}
	return time.UTC
}

// SettingsInput is the admin's form, with dates as text so each mistake
// gets its own message.
type SettingsInput struct {
	EventName    string `json:"eventName"`
	EventDate    string `json:"eventDate"`
	Location     string `json:"location"`
	DressCode    string `json:"dressCode"`
	Info         string `json:"info"`
	RSVPDeadline string `json:"rsvpDeadline"`
	Timezone     string `json:"timezone"`
	// PublicMenu switches the public menu; absent keeps it as it is.
	PublicMenu *bool `json:"publicMenu"`
	// Registration, Capacity and OfferHours left out keep what is saved
	// (the settings form of older pages does not send them).
	Registration *string `json:"registration"`
	Capacity     *int    `json:"capacity"`
	OfferHours   *int    `json:"offerHours"`
}

// MaxCapacity and MaxOfferHours bound the registration settings.
const (
	MaxCapacity   = 1_000_000
	MaxOfferHours = 24 * 30
)

// FieldError names the field an input is wrong in.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Limits on the free-text fields.
const (
	maxShortText = 200
	maxInfoText  = 4000
)

// ParseSettings checks the form and returns the settings it describes.
// Dates are RFC 3339 ("2026-06-12T18:00:00+02:00"); a date and time
// without an offset ("2026-06-12T18:00", what a datetime-local input
// sends) is read in the event's time zone.
func ParseSettings(in SettingsInput) (Settings, error) {
	s := Settings{Timezone: strings.TrimSpace(in.Timezone), PublicMenu: in.PublicMenu}
	// The details are typed by the host and shown on every guest's page,
	// in invitations and in the calendar file: barhub's text rule
	// (package text) applies, the information alone running over lines.
	for _, f := range []struct {
		name  string
		typed string
		rule  text.Rule
		kept  *string
	}{
		{"eventName", in.EventName, text.Rule{Max: maxShortText, Required: true}, &s.EventName},
		{"location", in.Location, text.Rule{Max: maxShortText}, &s.Location},
		{"dressCode", in.DressCode, text.Rule{Max: maxShortText}, &s.DressCode},
		{"info", in.Info, text.Rule{Max: maxInfoText, Lines: true}, &s.Info},
	} {
		v, err := f.rule.Clean(f.typed)
		if errors.Is(err, text.ErrEmpty) && f.name == "eventName" {
			return s, &FieldError{f.name, "give the event a name"}
		}
		if err != nil {
			return s, &FieldError{f.name, err.Error()}
		}
		*f.kept = v
	}
	if s.Timezone == "" {
		s.Timezone = "UTC"
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil || strings.EqualFold(s.Timezone, "local") {
		return s, &FieldError{"timezone", fmt.Sprintf("%q is not a time zone name; use one like Europe/Stockholm or America/New_York", s.Timezone)}
	}
	if s.EventDate, err = parseWhen(in.EventDate, loc); err != nil {
		return s, &FieldError{"eventDate", err.Error()}
	}
	if s.RSVPDeadline, err = parseWhen(in.RSVPDeadline, loc); err != nil {
		return s, &FieldError{"rsvpDeadline", err.Error()}
	}
	if s.EventDate != nil && s.RSVPDeadline != nil && s.RSVPDeadline.After(*s.EventDate) {
		return s, &FieldError{"rsvpDeadline", "is after the event; set it before the event date"}
	}
	if in.Registration != nil {
		if !ValidRegistrationMode(*in.Registration) {
			return s, &FieldError{"registration", "is closed, open or approval"}
		}
		s.Registration = *in.Registration
	}
	if in.Capacity != nil {
		if *in.Capacity < 0 || *in.Capacity > MaxCapacity {
			return s, &FieldError{"capacity", "is a number of people from 0 (no limit) to 1000000"}
		}
		s.Capacity = *in.Capacity
	}
	if in.OfferHours != nil {
		if *in.OfferHours < 1 || *in.OfferHours > MaxOfferHours {
			return s, &FieldError{"offerHours", "is a number of hours from 1 to 720"}
		}
		s.OfferHours = *in.OfferHours
	}
	return s, nil
}

// KeepRegistration copies into s the registration settings of before
// that the form in left out.
func (s *Settings) KeepRegistration(in SettingsInput, before Settings) {
	if in.Registration == nil {
		s.Registration = before.Registration
	}
	if in.Capacity == nil {
		s.Capacity = before.Capacity
	}
	if in.OfferHours == nil {
		s.OfferHours = before.OfferHours
	}
}

func parseWhen(v string, loc *time.Location) (*time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		t = t.In(loc)
		return &t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return &t, nil
		}
	}
	return nil, fmt.Errorf("%q is not a date and time; use RFC 3339 like 2026-06-12T18:00:00+02:00 (or 2026-06-12T18:00 in the event's time zone)", v)
}

// Public is what anyone may see about the event, signed in or not: no
// address and no details, which only invited guests get.
type Public struct {
	EventName      string     `json:"eventName"`
	EventDate      *time.Time `json:"eventDate"`
	DressCode      string     `json:"dressCode"`
	RSVPDeadline   *time.Time `json:"rsvpDeadline"`
	Timezone       string     `json:"timezone"`
	DeadlinePassed bool       `json:"deadlinePassed"`
	// Registration is closed, open or approval: whether the public
	// registration page (/join) takes people.
	Registration string `json:"registration"`
}

// Public returns the public part of s at now.
func (s Settings) Public(now time.Time) Public {
	return Public{
		EventName: s.EventName, EventDate: s.local(s.EventDate), DressCode: s.DressCode,
		RSVPDeadline: s.local(s.RSVPDeadline), Timezone: s.Timezone, DeadlinePassed: s.DeadlinePassed(now),
		Registration: s.RegistrationMode(),
	}
}

// Details is the event as invited guests see it.
type Details struct {
	Public
	Location string `json:"location"`
	Info     string `json:"info"`
}

// Details returns everything a signed-in guest sees at now.
func (s Settings) Details(now time.Time) Details {
	return Details{Public: s.Public(now), Location: s.Location, Info: s.Info}
}

// InZone returns s with its dates in the event's time zone, so their RFC
// 3339 text carries the event's offset (the database keeps UTC).
func (s Settings) InZone() Settings {
	s.EventDate = s.local(s.EventDate)
	s.RSVPDeadline = s.local(s.RSVPDeadline)
	return s
}

func (s Settings) local(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	l := t.In(s.Loc())
	return &l
}
