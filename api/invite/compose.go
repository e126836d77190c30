// Package invite writes what a guest receives, an invitation or a
// reminder, as an e-mail (with the personal link, its QR code, the event,
// a calendar file and a map link) and the event as an iCalendar file; and
// runs the durable jobs that send them (mailer.go).
package invite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/barhub/barhub/api/guest"
	"github.com/barhub/barhub/mail"
)

// Kinds of message.
const (
	KindInvitation = "invitation"
	// KindUnanswered reminds a guest who has not answered before the
	// deadline; KindMorning tells those coming the time, place and dress
	// code on the day.
	KindUnanswered = "unanswered"
	KindMorning    = "morning"
)

// Link is a guest's personal sign-in link: the sign-in page with the code
// filled in.
func Link(publicURL, code string) string {
	return strings.TrimRight(publicURL, "/") + "/login?code=" + url.QueryEscape(code)
}

// MapLink opens an address on OpenStreetMap (no account, no key).
func MapLink(location string) string {
	if strings.TrimSpace(location) == "" {
		return ""
	}
	return "https://www.openstreetmap.org/search?query=" + url.QueryEscape(location)
}

// EventLength is how long the calendar entry lasts: the settings have a
// start and no end.
const EventLength = 4 * time.Hour

// ICS is the event as an iCalendar file (RFC 5545), or nil when it has
// no date yet. Its UID is the same for every guest and every download,
// so adding it twice updates one calendar entry.
func ICS(st guest.Settings, publicURL string, now time.Time) []byte {
	if st.EventDate == nil {
		return nil
	}
	stamp := func(t time.Time) string { return t.UTC().Format("20060102T150405Z") }
	sum := sha256.Sum256([]byte(strings.TrimRight(publicURL, "/")))
	var b bytes.Buffer
	line := func(s string) { b.WriteString(fold(s)) }
	line("BEGIN:VCALENDAR")
	line("VERSION:2.0")
	line("PRODID:-//barhub//invitations//EN")
	line("CALSCALE:GREGORIAN")
	line("METHOD:PUBLISH")
	line("BEGIN:VEVENT")
	line("UID:event-" + hex.EncodeToString(sum[:8]) + "@barhub")
	line("DTSTAMP:" + stamp(now))
	line("DTSTART:" + stamp(*st.EventDate))
	line("DTEND:" + stamp(st.EventDate.Add(EventLength)))
	line("SUMMARY:" + escapeText(st.EventName))
	if st.Location != "" {
		line("LOCATION:" + escapeText(st.Location))
	}
	var desc []string
	if st.DressCode != "" {
		desc = append(desc, "Dress code: "+st.DressCode)
	}
	if st.Info != "" {
		desc = append(desc, st.Info)
	}
	if publicURL != "" {
		desc = append(desc, strings.TrimRight(publicURL, "/"))
		line("URL:" + strings.TrimRight(publicURL, "/"))
	}
	if len(desc) > 0 {
		line("DESCRIPTION:" + escapeText(strings.Join(desc, "\n\n")))
	}
	line("END:VEVENT")
	line("END:VCALENDAR")
	return b.Bytes()
}

// escapeText escapes an iCalendar TEXT value.
func escapeText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)
	return r.Replace(s)
}

// fold ends a content line with CRLF, folded at 75 octets without
// splitting a UTF-8 character.
func fold(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		size := len(string(r))
		if n+size > 75 {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteRune(r)
		n += size
	}
	b.WriteString("\r\n")
	return b.String()
}

// message is what the templates see.
type message struct {
	Kind     string
	Guest    guest.Guest
	Others   int
	Event    guest.Settings
	When     string
	Deadline string
	Link     string
	MapLink  string
	HasQR    bool
	HasICS   bool
}

// Compose writes kind's e-mail to g. publicURL is where the link points.
func Compose(kind string, g guest.Guest, st guest.Settings, publicURL string, now time.Time) (mail.Message, error) {
	loc := st.Loc()
	m := message{
		Kind: kind, Guest: g, Others: max(1, g.ExpectedGuests) - 1, Event: st,
		Link: Link(publicURL, g.Code), MapLink: MapLink(st.Location),
	}
	if st.EventDate != nil {
		m.When = st.EventDate.In(loc).Format("Monday 2 January 2006, 15:04") + " (" + loc.String() + ")"
	}
	if st.RSVPDeadline != nil {
		m.Deadline = st.RSVPDeadline.In(loc).Format("Monday 2 January 2006, 15:04")
	}
	var attachments []mail.Attachment
	png, err := qrcode.Encode(m.Link, qrcode.Medium, 256)
	if err != nil {
		return mail.Message{}, fmt.Errorf("qr code of the link: %w", err)
	}
	attachments = append(attachments, mail.Attachment{Name: "invitation-qr.png", ContentType: "image/png", Data: png, ContentID: "qr"})
	m.HasQR = true
	if ics := ICS(st, publicURL, now); ics != nil {
		attachments = append(attachments, mail.Attachment{Name: "invitation.ics", ContentType: "text/calendar; charset=utf-8; method=PUBLISH", Data: ics})
		m.HasICS = true
	}
	var subject string
	switch kind {
	case KindInvitation:
		subject = "You are invited: " + st.EventName
	case KindUnanswered:
		subject = "Can you come? " + st.EventName
	case KindMorning:
		subject = "Today: " + st.EventName
	default:
		return mail.Message{}, fmt.Errorf("compose: unknown kind %q", kind)
	}
	var text, html bytes.Buffer
	if err := textTemplate.Execute(&text, m); err != nil {
		return mail.Message{}, fmt.Errorf("compose %s text: %w", kind, err)
	}
	if err := htmlTemplate.Execute(&html, m); err != nil {
		return mail.Message{}, fmt.Errorf("compose %s html: %w", kind, err)
	}
	return mail.Message{
		To: g.Email, ToName: g.Name(), Subject: subject,
		Text: text.String(), HTML: html.String(), Attachments: attachments,
		// Invitations are sent by a program for a person: out-of-office
		// replies should not answer them.
		Headers: map[string]string{"Auto-Submitted": "auto-generated"},
	}, nil
}

var textTemplate = texttemplate.Must(texttemplate.New("text").Parse(`Dear {{.Guest.FirstName}}{{if eq .Others 1}} and one more{{else if gt .Others 1}} and {{.Others}} more{{end}},
{{if eq .Kind "invitation"}}
You are invited to {{.Event.EventName}}.
{{else if eq .Kind "unanswered"}}
We have not heard from you yet: can you come to {{.Event.EventName}}?
{{else}}
Today is the day: {{.Event.EventName}}.
{{end}}
{{with .When}}When: {{.}}
{{end}}{{with .Event.Location}}Where: {{.}}
{{end}}{{with .MapLink}}Map: {{.}}
{{end}}{{with .Event.DressCode}}Dress code: {{.}}
{{end}}{{with .Event.Info}}
{{.}}
{{end}}
{{if eq .Kind "morning"}}Your drinks menu and your answer are here:{{else}}Please let us know if you can come{{with .Deadline}} by {{.}}{{end}}: open your personal link and sign in with your last name:{{end}}
{{.Link}}

Your code: {{.Guest.Code}}
{{if .HasICS}}
The attached calendar file (invitation.ics) adds the party to your calendar.
{{end}}`))

var htmlTemplate = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #1d2421; max-width: 36em">
<p>Dear {{.Guest.FirstName}}{{if eq .Others 1}} and one more{{else if gt .Others 1}} and {{.Others}} more{{end}},</p>
{{if eq .Kind "invitation"}}<p>You are invited to</p>
{{else if eq .Kind "unanswered"}}<p>We have not heard from you yet: can you come to</p>
{{else}}<p>Today is the day:</p>
{{end}}<h1 style="font-size: 1.6em">{{.Event.EventName}}</h1>
{{with .When}}<p><strong>When:</strong> {{.}}</p>{{end}}
{{with .Event.Location}}<p><strong>Where:</strong> {{.}}{{with $.MapLink}} · <a href="{{.}}">map</a>{{end}}</p>{{end}}
{{with .Event.DressCode}}<p><strong>Dress code:</strong> {{.}}</p>{{end}}
{{with .Event.Info}}<p style="white-space: pre-line">{{.}}</p>{{end}}
<p>{{if eq .Kind "morning"}}Your drinks menu and your answer are here:{{else}}Please let us know if you can come{{with .Deadline}} by {{.}}{{end}}: open your personal link and sign in with your last name.{{end}}</p>
<p><a href="{{.Link}}" style="display: inline-block; padding: 0.6em 1.2em; background: #2f6f5e; color: #fff; text-decoration: none; border-radius: 6px">Open my invitation</a></p>
<p>Or scan this code with your phone:<br><img src="cid:qr" alt="QR code of your invitation link" width="192" height="192"></p>
<p>Your code: <strong>{{.Guest.Code}}</strong><br><a href="{{.Link}}">{{.Link}}</a></p>
{{if .HasICS}}<p>The attached calendar file adds the party to your calendar.</p>{{end}}
</body></html>
`))
