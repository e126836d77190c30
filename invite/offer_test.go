package invite_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
)

// TestComposeOffer: a waiting-list offer's e-mail in each language, with
// the time limit in the event's time zone and the status page's link.
func TestComposeOffer(t *testing.T) {
	until := time.Date(2026, 6, 20, 16, 0, 0, 0, time.UTC) // 18:00 in Stockholm
	r := guest.Registration{ID: "0123456789abcdef01234567", Secret: "s3cret", FirstName: "Bo", LastName: "Lind", Email: "bo@example.com", OfferedUntil: &until}
	st := guest.Settings{EventName: "Crayfish party", Timezone: "Europe/Stockholm"}
	for _, tc := range []struct {
		lang          string
		subject, when string
	}{
		{"en", "A place is free for you: Crayfish party", "Saturday 20 June 2026, 18:00 (Europe/Stockholm)"},
		{"sv", "En plats är ledig för dig: Crayfish party", "lördag 20 juni 2026 kl. 18:00 (Europe/Stockholm)"},
		{"pt-BR", "Há uma vaga para você: Crayfish party", "(Europe/Stockholm)"},
	} {
		m, err := invite.ComposeOffer(texts(t), language.MustParse(tc.lang), r, st, "https://party.test/")
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
	if _, err := invite.ComposeOffer(texts(t), language.English, guest.Registration{ID: "x"}, st, ""); err == nil {
		t.Error("an offer without a time limit composed")
	}
}
