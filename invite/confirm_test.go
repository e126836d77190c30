package invite_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
)

// TestComposeConfirm: the e-mail asking a registrant to confirm, in each
// language, with the status page's link and the time limit in the
// event's time zone.
func TestComposeConfirm(t *testing.T) {
	by := time.Date(2026, 6, 20, 16, 0, 0, 0, time.UTC) // 18:00 in Stockholm
	r := guest.Registration{ID: "0123456789abcdef01234567", Secret: "s3cret", FirstName: "Bo", LastName: "Lind", Email: "bo@example.com", ConfirmBy: &by}
	st := guest.Settings{EventName: "Crayfish party", Timezone: "Europe/Stockholm"}
	for _, tc := range []struct {
		lang          string
		subject, when string
	}{
		{"en", "Confirm your registration: Crayfish party", "Saturday 20 June 2026, 18:00 (Europe/Stockholm)"},
		{"sv", "Bekräfta din anmälan: Crayfish party", "lördag 20 juni 2026 kl. 18:00 (Europe/Stockholm)"},
		{"pt-BR", "Confirme sua inscrição: Crayfish party", "(Europe/Stockholm)"},
	} {
		m, err := invite.ComposeConfirm(texts(t), language.MustParse(tc.lang), r, st, "https://party.test/")
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != tc.subject || m.To != "bo@example.com" || m.ToName != "Bo Lind" {
			t.Errorf("%s: %q to %q <%s>", tc.lang, m.Subject, m.ToName, m.To)
		}
		for _, want := range []string{tc.when, "https://party.test/join?r=0123456789abcdef01234567.s3cret", "18:00"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("%s: the text lacks %q:\n%s", tc.lang, want, m.Text)
			}
		}
	}
	if _, err := invite.ComposeConfirm(texts(t), language.English, guest.Registration{ID: "x"}, st, ""); err == nil {
		t.Error("a registration not waiting for confirmation composed")
	}
	if got := invite.ConfirmMailing(r); got != "confirm/"+"1781971200000" {
		t.Errorf("mailing %q", got)
	}
}
