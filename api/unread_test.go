package api

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
)

// unreadWords is a need in a language barhub does not read ("I take
// disulfiram, I cannot drink alcohol", in Hungarian).
const unreadWords = "diszulfirámot szedek, nem ihatok"

// drinkMarks is GET /api/drinks as a signed-in guest: the marks and the
// unread words.
func drinkMarks(t *testing.T, e *barEnv, tok string) (map[string][]string, []string) {
	t.Helper()
	status, raw := e.do("GET", "/api/drinks", tok, nil)
	var l struct {
		AllergenWarnings map[string][]string `json:"allergenWarnings"`
		Unread           []string            `json:"unread"`
	}
	if status != 200 {
		t.Fatalf("drinks: %d %s", status, raw)
	}
	decodeInto(t, raw, &l)
	return l.AllergenWarnings, l.Unread
}

// A need barhub cannot read protects the person before anyone reviews
// it: the menu marks every drink with one of the fourteen allergens or
// alcohol ("check"), ordering one asks for the allergen confirmation, the
// bar ticket carries the words, and the guest's own answer (choosing what
// applies) lifts exactly that, audited and live. Before, the menu marked
// nothing and French 75 was ordered without a question.
func TestUnreadNeedTakesCareUntilAnswered(t *testing.T) {
	e := newBarEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Aino", LastName: "Virtanen", Status: guest.StatusComing, ExpectedGuests: 1,
		Dietary: guest.NormalizeDietary(guest.Dietary{Text: unreadWords})})
	tok := e.tokenFor(g)
	phone := listen(t, e.hub, live.GuestTopic(g.ID))

	marks, unread := drinkMarks(t, e, tok)
	if !slices.Equal(unread, g.Dietary.Unclear) || len(unread) == 0 {
		t.Fatalf("unread %q, want %q", unread, g.Dietary.Unclear)
	}
	for id, want := range map[string]bool{"french-75": true, "negroni": true, "virgin-mary": true, "amaretto-sour": true, "virgin-mojito": false, "shirley-temple": false} {
		if got := slices.Contains(marks[id], "check"); got != want {
			t.Errorf("%s marked check=%v, want %v (%q)", id, got, want, marks[id])
		}
	}

	// Ordering French 75 asks first, as a known allergen does.
	status, raw := e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{one("french-75")}}, "Idempotency-Key", newKey())
	var refusal struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details struct {
				Drinks []struct {
					Unread []string `json:"unread"`
					Causes []string `json:"causes"`
				} `json:"drinks"`
			} `json:"details"`
		} `json:"error"`
	}
	decodeInto(t, raw, &refusal)
	if status != 422 || refusal.Error.Code != "allergen_confirmation_required" || len(refusal.Error.Details.Drinks) != 1 ||
		!slices.Equal(refusal.Error.Details.Drinks[0].Unread, unread) || !strings.Contains(refusal.Error.Message, "the bar will check this with you") {
		t.Fatalf("French 75 without confirmation: %d %s", status, raw)
	}
	// A drink free of the fourteen and of alcohol needs no question.
	e.order(tok, 201, one("virgin-mojito"))
	// Confirmed, it goes to the bar with the words to check.
	status, raw = e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{one("french-75")}, ConfirmAllergens: true}, "Idempotency-Key", newKey())
	var placed orderView
	decodeInto(t, raw, &placed)
	if status != 201 || !slices.Equal(placed.Items[0].Check, unread) || len(placed.Items[0].Confirmed) != 0 {
		t.Fatalf("French 75 confirmed: %d %s", status, raw)
	}
	_, raw = e.do("GET", "/api/bar/queue", e.bTok, nil)
	var q struct{ Orders []order.Order }
	decodeInto(t, raw, &q)
	i := slices.IndexFunc(q.Orders, func(o order.Order) bool { return o.ID == placed.ID })
	if i < 0 || !slices.Equal(q.Orders[i].Items[0].Check, unread) {
		t.Fatalf("the bar's ticket lacks the words to check: %s", raw)
	}
	if j := slices.IndexFunc(q.Orders, func(o order.Order) bool { return o.ID != placed.ID }); j < 0 || len(q.Orders[j].Items[0].Check) != 0 {
		t.Errorf("the Virgin Mojito's ticket: %s", raw)
	}

	// The guest answers on the form: the words mean "no alcohol".
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": map[string]any{"text": unreadWords, "tags": []string{"alcohol-free"}, "answered": unread}})
	var rv rsvpView
	decodeInto(t, raw, &rv)
	if status != 200 || !slices.Equal(rv.Guest.Dietary.Answered, unread) || !slices.Contains(rv.Guest.Dietary.Tags, "alcohol-free") {
		t.Fatalf("answer: %d %s", status, raw)
	}
	marks, unread2 := drinkMarks(t, e, tok)
	if len(unread2) != 0 || slices.Contains(marks["french-75"], "check") || !slices.Contains(marks["french-75"], "alcohol") {
		t.Errorf("after the answer: unread %q, French 75 %q", unread2, marks["french-75"])
	}
	// Exactly that is lifted: the Virgin Mary (fish, celery) is fine now.
	if _, ok := marks["virgin-mary"]; ok {
		t.Errorf("Virgin Mary still marked: %q", marks["virgin-mary"])
	}
	ev := phone.waitFor(t, live.EventNeedsChanged, func(b []byte) bool {
		var n live.NeedsChanged
		return json.Unmarshal(b, &n) == nil && len(n.Unread) == 0
	})
	if ev.Event != live.EventNeedsChanged {
		t.Errorf("no needs.changed for the phone")
	}
	entries, _ := e.auditLog(e.aTok, "?action=rsvp.answer")
	if len(entries.Entries) != 1 || entries.Entries[0].Details["unreadAnswered"] != float64(len(unread)) {
		t.Errorf("audit of the answer: %+v", entries.Entries)
	}
	// Someone who says none of the chips apply and leaves it to the host
	// keeps the caution: no "answered" is sent.
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": map[string]any{"text": "nem ihatok semmit", "tags": []string{}}})
	if status != 200 {
		t.Fatalf("new words: %d %s", status, raw)
	}
	if marks, unread := drinkMarks(t, e, tok); len(unread) != 1 || !slices.Contains(marks["negroni"], "check") {
		t.Errorf("new unread words: %q, Negroni %q", unread, marks["negroni"])
	}
	// Answered words that are not unread are dropped, not trusted.
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": map[string]any{"text": "nem ihatok semmit", "answered": []string{"something else"}}})
	rv = rsvpView{}
	decodeInto(t, raw, &rv)
	if status != 200 || len(rv.Guest.Dietary.Answered) != 0 || len(rv.Guest.Dietary.Unread()) != 1 {
		t.Errorf("answering other words: %d %s", status, raw)
	}
	if status, raw := e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": map[string]any{"text": "x", "answered": make([]string, 13)}}); status != 400 {
		t.Errorf("13 answered words: %d %s", status, raw)
	}
}

// The host's review on the dietary report lifts the caution for that
// person only, audited, and the guest's phone hears it.
func TestHostReviewLiftsTheCaution(t *testing.T) {
	e := newBarEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Aino", LastName: "Virtanen", Status: guest.StatusComing, ExpectedGuests: 2,
		Dietary:    guest.NormalizeDietary(guest.Dietary{Text: unreadWords}),
		Companions: []guest.Companion{{Name: "Eeva", Dietary: guest.NormalizeDietary(guest.Dietary{Text: "ofnæmi fyrir hnetum"})}}})
	tok := e.tokenFor(g)
	words := len(g.Dietary.Unread())
	phone := listen(t, e.hub, live.GuestTopic(g.ID))
	// For the companion too: her own words ask before her drink.
	status, raw := e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{{DrinkID: "mai-tai", Qty: 1, For: "+1"}}}, "Idempotency-Key", newKey())
	if status != 422 || errorCode(t, raw) != "allergen_confirmation_required" || !strings.Contains(string(raw), "Eeva") {
		t.Fatalf("Mai Tai for Eeva: %d %s", status, raw)
	}
	if status, raw := e.do("PUT", "/api/admin/guests/"+g.ID+"/dietary", e.aTok, map[string]any{"tags": []string{"alcohol-free"}}); status != 200 {
		t.Fatalf("review: %d %s", status, raw)
	}
	marks, unread := drinkMarks(t, e, tok)
	if len(unread) != 0 || slices.ContainsFunc(marks["negroni"], func(c string) bool { return c == "check" }) || !slices.Contains(marks["negroni"], "alcohol") {
		t.Errorf("after the review: unread %q, Negroni %q", unread, marks["negroni"])
	}
	phone.waitFor(t, live.EventNeedsChanged, func(b []byte) bool {
		var n live.NeedsChanged
		return json.Unmarshal(b, &n) == nil && len(n.Unread) == 0
	})
	// Eeva's words were not reviewed: her Mai Tai still asks.
	status, raw = e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{{DrinkID: "mai-tai", Qty: 1, For: "+1"}}}, "Idempotency-Key", newKey())
	if status != 422 || !strings.Contains(string(raw), "ofnæmi fyrir hnetum") {
		t.Fatalf("Mai Tai for Eeva after Aino's review: %d %s", status, raw)
	}
	entries, _ := e.auditLog(e.aTok, "?action=guest.dietary_review")
	if len(entries.Entries) != 1 || entries.Entries[0].Details["unreadLifted"] != float64(words) {
		t.Errorf("audit of the review: %+v", entries.Entries)
	}
}

// With Bedrock, the form's reading of unread words carries the model's
// suggestion (to confirm, never applied); without it, or when the model
// fails, the reading is as before.
func TestReadDietarySuggestsWithTheModel(t *testing.T) {
	bedrocktest.IsolateAWS(t)
	srv := bedrocktest.New(t)
	c, err := bedrock.New(context.Background(), bedrock.Config{Region: "eu-north-1", Endpoint: srv.URL, Credentials: bedrocktest.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, func(d *Deps) { d.AI.Needs = ai.NewNeedsReader(c, 2*time.Second) })
	tok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Aino"}))
	srv.Script(bedrocktest.ToolUse(`{"tags":["alcohol-free"]}`), bedrocktest.Throttle(), bedrocktest.Throttle(), bedrocktest.Throttle(), bedrocktest.Throttle())
	status, raw := e.do("POST", "/api/dietary/read", tok, map[string]string{"text": "nötallergi, " + unreadWords})
	if status != 200 || string(raw) != `{"tags":["nuts"],"unclear":["diszulfirámot szedek","nem ihatok"],"suggested":{"tags":["alcohol-free"],"source":"bedrock"}}`+"\n" {
		t.Errorf("read with the model: %d %s", status, raw)
	}
	// Read, the words are not sent to the model.
	n := srv.Count()
	if status, raw := e.do("POST", "/api/dietary/read", tok, map[string]string{"text": "nötallergi"}); status != 200 || strings.Contains(string(raw), "suggested") || srv.Count() != n {
		t.Errorf("read without unread words: %d %s, %d calls", status, raw, srv.Count()-n)
	}
	// The model throttled: the reading comes without a suggestion.
	if status, raw := e.do("POST", "/api/dietary/read", tok, map[string]string{"text": "sinywi pombe"}); status != 200 || string(raw) != `{"tags":[],"unclear":["sinywi pombe"]}`+"\n" {
		t.Errorf("read with the model throttled: %d %s", status, raw)
	}
}

// The host's edit of a guest answers unread words too: rewritten in words
// barhub reads, or answered with the tags that hold; the phone hears it.
func TestHostEditLiftsTheCaution(t *testing.T) {
	e := newBarEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Aino", LastName: "Virtanen", Status: guest.StatusComing, ExpectedGuests: 1,
		Dietary: guest.NormalizeDietary(guest.Dietary{Text: unreadWords})})
	tok := e.tokenFor(g)
	phone := listen(t, e.hub, live.GuestTopic(g.ID))
	if _, unread := drinkMarks(t, e, tok); len(unread) != 2 {
		t.Fatalf("unread %q", unread)
	}
	status, raw := e.do("PUT", "/api/admin/guests/"+g.ID, e.aTok, map[string]any{"dietary": map[string]any{"text": unreadWords, "tags": []string{"alcohol-free"}, "answered": g.Dietary.Unclear}})
	if status != 200 {
		t.Fatalf("edit: %d %s", status, raw)
	}
	marks, unread := drinkMarks(t, e, tok)
	if len(unread) != 0 || !slices.Contains(marks["negroni"], "alcohol") || slices.Contains(marks["negroni"], "check") {
		t.Errorf("after the host's edit: unread %q, Negroni %q", unread, marks["negroni"])
	}
	phone.waitFor(t, live.EventNeedsChanged, func(b []byte) bool {
		var n live.NeedsChanged
		return json.Unmarshal(b, &n) == nil && len(n.Unread) == 0
	})
}
