package push_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store/storetest"
)

// TestNotificationInTheGuestsLanguage (issue 26): "Your drink is ready"
// reached a phone that reads Swedish or Portuguese in English. The
// sender words each notification in the language recorded for the guest
// when it sends it; a guest with none gets English.
func TestNotificationInTheGuestsLanguage(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	svc, keys := pushService(t, st)
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	translate := func(lang, key string, vars map[string]any) (string, bool) {
		return cat.Text(language.Make(lang), key, vars)
	}
	s := push.New(st, push.Config{Keys: keys, Contact: "host@party.test", Policy: svc.Policy(), RootCAs: svc.RootCAs(), Translate: translate}, quiet, prometheus.NewRegistry())
	run(t, s)
	pub := push.Forward(nopPublisher{}, s)

	for _, tc := range []struct {
		lang, title, body string
	}{
		{"sv", "Din drink är klar (#7)", "Mojito — hämta i baren."},
		{"pt-BR", "Sua bebida está pronta (#7)", "Mojito — retire no bar."},
		{"", "Your drink is ready (#7)", "Mojito — collect it at the bar."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			g := guest.Guest{FirstName: "Ada", LastName: "Lang"}
			if err := st.InsertGuest(ctx, &g); err != nil {
				t.Fatal(err)
			}
			if tc.lang != "" {
				if err := st.SetGuestLanguage(ctx, g.ID, tc.lang); err != nil {
					t.Fatal(err)
				}
			}
			phone := subscribePhone(t, st, svc, g.ID)
			ready := map[string]any{"id": "o-" + g.ID, "guestId": g.ID, "status": "ready", "ticket": 7, "items": []map[string]any{{"name": "Mojito", "qty": 1}}}
			if err := pub.Publish(ctx, "guest:"+g.ID, "order.ready", ready); err != nil {
				t.Fatal(err)
			}
			msgs, err := phone.Wait(1, 20*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var n push.Notification
			if err := json.Unmarshal(msgs[0].Payload, &n); err != nil {
				t.Fatal(err)
			}
			if n.Title != tc.title || n.Body != tc.body {
				t.Errorf("the phone shows %q / %q, want %q / %q", n.Title, n.Body, tc.title, tc.body)
			}
			if tc.lang == "" {
				return
			}
			assertNoEnglishPayload(t, tc.lang, "order.ready", msgs[0].Payload)
			// An announcement the host sends by push, from them and not.
			for _, from := range []string{"Grace", ""} {
				a := live.Announcement{Text: "Tårtan serveras nu", From: from, At: time.Now(), Push: true}
				if err := pub.Publish(ctx, "guest:"+g.ID, live.EventAnnouncement, a); err != nil {
					t.Fatal(err)
				}
				msgs, err := phone.Wait(1, 20*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				assertNoEnglishPayload(t, tc.lang, "announcement from "+from, msgs[0].Payload)
			}
		})
	}
}

// assertNoEnglishPayload fails the test for every English-only string of
// the server's catalogue (locale/messages) in a push payload shown in
// lang: a literal run of at least four characters between placeholders
// that the language's catalogue does not hold.
func assertNoEnglishPayload(t *testing.T, lang, what string, payload []byte) {
	t.Helper()
	read := func(l string) map[string]json.RawMessage {
		buf, err := os.ReadFile("../locale/messages/" + l + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(buf, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	texts := func(raw json.RawMessage) []string {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			return []string{one}
		}
		var forms map[string]string
		json.Unmarshal(raw, &forms)
		return slices.Collect(maps.Values(forms))
	}
	var n map[string]any
	if err := json.Unmarshal(payload, &n); err != nil {
		t.Fatal(err)
	}
	en, other := read("en"), read(lang)
	placeholder := regexp.MustCompile(`\{\{[^}]*\}\}`)
	for key, raw := range en {
		if !strings.HasPrefix(key, "push.") {
			continue
		}
		theirs := strings.Join(texts(other[key]), "\n")
		for _, text := range texts(raw) {
			for _, run := range placeholder.Split(text, -1) {
				run = strings.TrimSpace(run)
				if len([]rune(run)) < 4 || strings.Contains(theirs, run) {
					continue
				}
				for _, field := range []string{"title", "body"} {
					if v, _ := n[field].(string); strings.Contains(v, run) {
						t.Errorf("%s %s: the %s %q reads English %q", lang, what, field, v, run)
					}
				}
			}
		}
	}
}

type nopPublisher struct{}

func (nopPublisher) Publish(context.Context, string, string, any) error { return nil }
func (nopPublisher) PublishMany(context.Context, []hub.Outgoing) error  { return nil }
