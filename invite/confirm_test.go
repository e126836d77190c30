package invite_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/mail"
)

// TestComposeRegistrationMail: the two e-mails to a registrant, asking
// them to confirm and offering a freed place, in each language, with the
// status page's link and the time limit in the event's time zone; neither
// is composed without its time limit.
func TestComposeRegistrationMail(t *testing.T) {
	by := time.Date(2026, 6, 20, 16, 0, 0, 0, time.UTC) // 18:00 in Stockholm
	st := guest.Settings{EventName: "Crayfish party", Timezone: "Europe/Stockholm"}
	type composer func(invite.Texts, language.Tag, guest.Registration, guest.Settings, string, string) (mail.Message, error)
	for _, m := range []struct {
		name     string
		compose  composer
		limit    func(r *guest.Registration)
		subjects map[string]string
		refused  string
	}{
		{"confirm", invite.ComposeConfirm, func(r *guest.Registration) { r.ConfirmBy = &by }, map[string]string{
			"en": "Confirm your registration: Crayfish party", "sv": "Bekräfta din anmälan: Crayfish party", "pt-BR": "Confirme sua inscrição: Crayfish party",
		}, "a registration not waiting for confirmation composed"},
		{"offer", invite.ComposeOffer, func(r *guest.Registration) { r.OfferedUntil = &by }, map[string]string{
			"en": "A place is free for you: Crayfish party", "sv": "En plats är ledig för dig: Crayfish party", "pt-BR": "Há uma vaga para você: Crayfish party",
		}, "an offer without a time limit composed"},
	} {
		r := guest.Registration{ID: "0123456789abcdef01234567", Secret: "s3cret", FirstName: "Bo", LastName: "Lind", Email: "bo@example.com"}
		m.limit(&r)
		for _, tc := range []struct{ lang, when string }{
			{"en", "Saturday 20 June 2026, 18:00 (Europe/Stockholm)"},
			{"sv", "lördag 20 juni 2026 kl. 18:00 (Europe/Stockholm)"},
			{"pt-BR", "(Europe/Stockholm)"},
		} {
			// The first event's page, and another's, which its link names
			// (docs/EVENTS.md).
			for event, link := range map[string]string{
				"":                         "https://party.test/join?r=0123456789abcdef01234567.s3cret\n",
				"6b11aa00ff00ee00dd00cc00": "https://party.test/join?r=0123456789abcdef01234567.s3cret&event=6b11aa00ff00ee00dd00cc00\n",
			} {
				msg, err := m.compose(texts(t), language.MustParse(tc.lang), r, st, "https://party.test/", event)
				if err != nil {
					t.Fatalf("%s, %s: %v", m.name, tc.lang, err)
				}
				if msg.Subject != m.subjects[tc.lang] || msg.To != "bo@example.com" || msg.ToName != "Bo Lind" {
					t.Errorf("%s, %s: %q to %q <%s>", m.name, tc.lang, msg.Subject, msg.ToName, msg.To)
				}
				for _, want := range []string{tc.when, link, "18:00"} {
					if !strings.Contains(msg.Text, want) {
						t.Errorf("%s, %s: the text lacks %q:\n%s", m.name, tc.lang, want, msg.Text)
					}
				}
			}
		}
		if _, err := m.compose(texts(t), language.English, guest.Registration{ID: "x"}, st, "", ""); err == nil {
			t.Error(m.refused)
		}
	}
	if got := invite.ConfirmMailing(guest.Registration{ID: "0123456789abcdef01234567", ConfirmBy: &by}); got != "confirm/"+"1781971200000" {
		t.Errorf("mailing %q", got)
	}
}
