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
	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
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
// so adding it twice updates one calendar entry. dressCode is the label of
// the dress code in the reader's language ("Dress code" when empty).
func ICS(st guest.Settings, publicURL, dressCode string, now time.Time) []byte {
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
		if dressCode == "" {
			dressCode = "Dress code"
		}
		desc = append(desc, dressCode+": "+st.DressCode)
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
	Kind    string
	Guest   guest.Guest
	Event   guest.Settings
	When    string
	Link    string
	MapLink string
	HasQR   bool
	HasICS  bool
	Morning bool
	// W holds the message's words in the guest's language (locale keys
	// mail.*), so one template serves every language.
	W map[string]string
}

// Texts is the server's message catalogue (package locale): the e-mails'
// words in each language.
type Texts interface {
	Text(lang language.Tag, id string, vars map[string]any) (string, bool)
}

// Compose writes kind's e-mail to g in lang (English where the catalogue
// lacks a text). publicURL is where the link points.
func Compose(texts Texts, lang language.Tag, kind string, g guest.Guest, st guest.Settings, publicURL string, now time.Time) (mail.Message, error) {
	switch kind {
	case KindInvitation, KindUnanswered, KindMorning:
	default:
		return mail.Message{}, fmt.Errorf("compose: unknown kind %q", kind)
	}
	words, err := wordsFor(texts, lang, kind, g, st)
	if err != nil {
		return mail.Message{}, err
	}
	m := message{
		Kind: kind, Guest: g, Event: st, Morning: kind == KindMorning,
		Link: Link(publicURL, g.Code), MapLink: MapLink(st.Location),
		When: words.When, W: words.W,
	}
	subject := words.Subject
	var attachments []mail.Attachment
	png, err := qrcode.Encode(m.Link, qrcode.Medium, 256)
	if err != nil {
		return mail.Message{}, fmt.Errorf("qr code of the link: %w", err)
	}
	attachments = append(attachments, mail.Attachment{Name: "invitation-qr.png", ContentType: "image/png", Data: png, ContentID: "qr"})
	m.HasQR = true
	if ics := ICS(st, publicURL, m.W["dressCode"], now); ics != nil {
		attachments = append(attachments, mail.Attachment{Name: "invitation.ics", ContentType: "text/calendar; charset=utf-8; method=PUBLISH", Data: ics})
		m.HasICS = true
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
		Headers: map[string]string{"Auto-Submitted": "auto-generated", "Content-Language": lang.String()},
	}, nil
}

// Words is what a message to one guest says, in one language.
type Words struct {
	Subject string
	// When is the event's date, time and time zone, written out.
	When string
	// W holds the words by name (locale keys mail.*), so one template
	// serves every language.
	W map[string]string
}

// CardWords returns the words of g's printed invitation card in lang
// (English where the catalogue lacks a text): the e-mail invitation's.
func CardWords(texts Texts, lang language.Tag, g guest.Guest, st guest.Settings) (Words, error) {
	return wordsFor(texts, lang, KindInvitation, g, st)
}

func wordsFor(texts Texts, lang language.Tag, kind string, g guest.Guest, st guest.Settings) (Words, error) {
	sp := &speaker{texts: texts, lang: lang}
	say := sp.say
	loc := st.Loc()
	var words Words
	if st.EventDate != nil {
		words.When = longDate(say, st.EventDate.In(loc)) + " (" + loc.String() + ")"
	}
	event := map[string]any{"Event": st.EventName}
	words.Subject = say("mail."+kind+".subject", event)
	others := max(1, g.ExpectedGuests) - 1
	w := map[string]string{
		"lead": say("mail."+kind+".lead", nil), "intro": say("mail."+kind+".intro", event),
		"when": say("mail.when", nil), "where": say("mail.where", nil), "map": say("mail.map", nil), "mapLink": say("mail.mapLink", nil),
		"dressCode": say("mail.dressCode", nil), "open": say("mail.open", nil), "scan": say("mail.scan", nil), "qrAlt": say("mail.qrAlt", nil),
		"code": say("mail.code", nil), "icsText": say("mail.icsText", nil), "icsHTML": say("mail.icsHTML", nil),
	}
	if others == 0 {
		w["greeting"] = say("mail.greeting", map[string]any{"Name": g.FirstName})
	} else {
		w["greeting"] = say("mail.greetingOthers", map[string]any{"Name": g.FirstName, "Count": others})
	}
	switch {
	case kind == KindMorning:
		w["ask"] = say("mail.morningLink", nil)
	case st.RSVPDeadline != nil:
		w["ask"] = say("mail.askBy", map[string]any{"Deadline": longDate(say, st.RSVPDeadline.In(loc))})
	default:
		w["ask"] = say("mail.ask", nil)
	}
	if err := sp.err("compose " + kind); err != nil {
		return Words{}, err
	}
	words.W = w
	return words, nil
}

// longDate writes a date and time the way a letter in the language does:
// "Saturday 20 June 2026, 18:00", "lördag 20 juni 2026 kl. 18:00".
func longDate(say func(string, map[string]any) string, t time.Time) string {
	return say("mail.date", map[string]any{
		"Weekday": say("mail.weekday."+strings.ToLower(t.Weekday().String()), nil),
		"Day":     t.Day(),
		"Month":   say("mail.month."+strings.ToLower(t.Month().String()), nil),
		"Year":    t.Year(),
		"Time":    t.Format("15:04"),
	})
}

var textTemplate = texttemplate.Must(texttemplate.New("text").Parse(`{{.W.greeting}}

{{.W.intro}}

{{with .When}}{{$.W.when}}: {{.}}
{{end}}{{with .Event.Location}}{{$.W.where}}: {{.}}
{{end}}{{with .MapLink}}{{$.W.map}}: {{.}}
{{end}}{{with .Event.DressCode}}{{$.W.dressCode}}: {{.}}
{{end}}{{with .Event.Info}}
{{.}}
{{end}}
{{.W.ask}}:
{{.Link}}

{{.W.code}} {{.Guest.Code}}
{{if .HasICS}}
{{.W.icsText}}
{{end}}`))

var htmlTemplate = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #1d2421; max-width: 36em">
<p>{{.W.greeting}}</p>
<p>{{.W.lead}}</p>
<h1 style="font-size: 1.6em">{{.Event.EventName}}</h1>
{{with .When}}<p><strong>{{$.W.when}}:</strong> {{.}}</p>{{end}}
{{with .Event.Location}}<p><strong>{{$.W.where}}:</strong> {{.}}{{with $.MapLink}} · <a href="{{.}}">{{$.W.mapLink}}</a>{{end}}</p>{{end}}
{{with .Event.DressCode}}<p><strong>{{$.W.dressCode}}:</strong> {{.}}</p>{{end}}
{{with .Event.Info}}<p style="white-space: pre-line">{{.}}</p>{{end}}
<p>{{.W.ask}}{{if .Morning}}:{{else}}.{{end}}</p>
<p><a href="{{.Link}}" style="display: inline-block; padding: 0.6em 1.2em; background: #2f6f5e; color: #fff; text-decoration: none; border-radius: 6px">{{.W.open}}</a></p>
<p>{{.W.scan}}<br><img src="cid:qr" alt="{{.W.qrAlt}}" width="192" height="192"></p>
<p>{{.W.code}} <strong>{{.Guest.Code}}</strong><br><a href="{{.Link}}">{{.Link}}</a></p>
{{if .HasICS}}<p>{{.W.icsHTML}}</p>{{end}}
</body></html>
`))
