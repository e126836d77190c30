package invite

import (
	"fmt"
	"strconv"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/mail"
)

// KindConfirm asks a person who registered to confirm their address by
// opening a link (docs/REGISTRATION.md). Like KindOffer, its delivery's
// GuestID is the registration's id.
const KindConfirm = "confirm"

// ConfirmMailing names the e-mail of one registration's confirmation: its
// time limit, so each registration is asked once.
func ConfirmMailing(r guest.Registration) string {
	return "confirm/" + strconv.FormatInt(r.ConfirmBy.UnixMilli(), 10)
}

// ComposeConfirm writes the e-mail that asks r to confirm the
// registration, in lang (English where the catalogue lacks a text), with
// the link to the status page, which confirms it, and the time limit in
// the event's time zone.
func ComposeConfirm(texts Texts, lang language.Tag, r guest.Registration, st guest.Settings, publicURL, eventID string) (mail.Message, error) {
	if r.ConfirmBy == nil {
		return mail.Message{}, fmt.Errorf("compose confirmation: %s is not waiting for one", r.ID)
	}
	sp := &speaker{texts: texts, lang: lang}
	say := sp.say
	loc := st.Loc()
	until := longDate(say, r.ConfirmBy.In(loc)) + " (" + loc.String() + ")"
	event := map[string]any{"Event": st.EventName}
	subject := say("mail.confirm.subject", event)
	text := say("mail.greeting", map[string]any{"Name": r.FirstName}) + "\n\n" +
		say("mail.confirm.intro", event) + "\n" +
		JoinLink(publicURL, eventID, r) + "\n\n" +
		say("mail.confirm.until", map[string]any{"Until": until}) + "\n\n" +
		say("mail.confirm.notYou", nil) + "\n"
	if err := sp.err("compose confirmation"); err != nil {
		return mail.Message{}, err
	}
	return registrationMessage(r, lang, subject, text), nil
}
