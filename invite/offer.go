package invite

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/mail"
)

// KindOffer tells a person on the waiting list that a place is theirs to
// take until a time (docs/REGISTRATION.md). Its delivery's GuestID is the
// registration's id: the person is not a guest yet.
const KindOffer = "offer"

// OfferMailing names the e-mail of one offer: the registration and the
// offer's time limit, so each offer is e-mailed once.
func OfferMailing(r guest.Registration) string {
	return "offer/" + strconv.FormatInt(r.OfferedUntil.UnixMilli(), 10)
}

// JoinLink is a registration's status page, where the offer is taken;
// event names the event when it is not the installation's first, whose
// page has no token to say it (docs/EVENTS.md).
func JoinLink(publicURL, event string, r guest.Registration) string {
	link := strings.TrimRight(publicURL, "/") + "/join?r=" + url.QueryEscape(r.ID+"."+r.Secret)
	if event != "" {
		link += "&event=" + url.QueryEscape(event)
	}
	return link
}

// ComposeOffer writes the e-mail of r's offer in lang (English where the
// catalogue lacks a text): the time limit in the event's time zone and
// the link to the status page.
func ComposeOffer(texts Texts, lang language.Tag, r guest.Registration, st guest.Settings, publicURL, eventID string) (mail.Message, error) {
	if r.OfferedUntil == nil {
		return mail.Message{}, fmt.Errorf("compose offer: %s has no offer", r.ID)
	}
	sp := &speaker{texts: texts, lang: lang}
	say := sp.say
	loc := st.Loc()
	until := longDate(say, r.OfferedUntil.In(loc)) + " (" + loc.String() + ")"
	event := map[string]any{"Event": st.EventName}
	subject := say("mail.offer.subject", event)
	text := say("mail.greeting", map[string]any{"Name": r.FirstName}) + "\n\n" +
		say("mail.offer.intro", event) + "\n\n" +
		say("mail.offer.until", map[string]any{"Until": until}) + "\n" +
		JoinLink(publicURL, eventID, r) + "\n\n" +
		say("mail.offer.later", nil) + "\n"
	if err := sp.err("compose offer"); err != nil {
		return mail.Message{}, err
	}
	return registrationMessage(r, lang, subject, text), nil
}
