package invite

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/mail"
)

// speaker says the catalogue's texts in one language, English where the
// language lacks one, and remembers the ids neither has, so a composer
// writes its whole message and then reports every missing text at once.
type speaker struct {
	texts   Texts
	lang    language.Tag
	missing []string
}

func (s *speaker) say(id string, vars map[string]any) string {
	if t, ok := s.texts.Text(s.lang, id, vars); ok {
		return t
	}
	if t, ok := s.texts.Text(language.English, id, vars); ok {
		return t
	}
	s.missing = append(s.missing, id)
	return ""
}

// err names the texts found in no catalogue, nil when there were none.
func (s *speaker) err(what string) error {
	if len(s.missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s: no text for %s", what, strings.Join(s.missing, ", "))
}

// registrationMessage is an e-mail to a person on the registration page:
// an automatic message in lang, to their address.
func registrationMessage(r guest.Registration, lang language.Tag, subject, text string) mail.Message {
	return mail.Message{
		To: r.Email, ToName: strings.TrimSpace(r.FirstName + " " + r.LastName), Subject: subject, Text: text,
		Headers: map[string]string{"Auto-Submitted": "auto-generated", "Content-Language": lang.String()},
	}
}
