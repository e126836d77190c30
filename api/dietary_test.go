package api

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/text"
)

// Issue 10, "per invitation, not per person": a parent answers for the
// family and gives the son a nut allergy; the son signs in with his own
// code and opens Mai Tai: the menu marks it and ordering asks him to
// confirm, naming the allergen and him. The parent's own "+1" has needs
// of their own, checked when the parent orders for them.
func TestFamilyNeedsPerPerson(t *testing.T) {
	e := newBarEnv(t)
	mum := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Berg", GroupID: "berg", ExpectedGuests: 2})
	leo := e.addGuest(guest.Guest{FirstName: "Leo", LastName: "Berg", GroupID: "berg"})
	mumTok, leoTok := e.tokenFor(mum), e.tokenFor(leo)

	status, raw := e.do("PUT", "/api/rsvp", mumTok, map[string]any{
		"status":     "coming",
		"dietary":    map[string]any{"tags": []string{}, "text": ""},
		"companions": []any{map[string]any{"name": "Olle", "dietary": "I'm the designated driver tonight"}},
		"members":    []any{map[string]any{"id": leo.ID, "dietary": map[string]any{"text": "nötallergi", "tags": []string{}}}},
	})
	if status != 200 {
		t.Fatalf("family answer: %d %s", status, raw)
	}
	var v rsvpView
	decodeInto(t, raw, &v)
	var leoView *guest.Member
	for i := range v.Group {
		if v.Group[i].ID == leo.ID {
			leoView = &v.Group[i]
		}
	}
	if leoView == nil || leoView.Dietary == nil || !slices.Equal(leoView.Dietary.Tags, []string{"nuts"}) {
		t.Fatalf("Leo in the family view: %+v", leoView)
	}
	if len(v.Guest.Companions) != 1 || !slices.Equal(v.Guest.Companions[0].Dietary.Tags, []string{"alcohol-free", "driving"}) {
		t.Fatalf("Mia's +1: %+v", v.Guest.Companions)
	}
	// Leo's own menu marks Mai Tai; Mia's does not.
	var menuLeo, menuMia drinksBody
	_, raw = e.do("GET", "/api/drinks?section=sours", leoTok, nil)
	decodeInto(t, raw, &menuLeo)
	_, raw = e.do("GET", "/api/drinks?section=sours", mumTok, nil)
	decodeInto(t, raw, &menuMia)
	if got := menuLeo.AllergenWarnings["mai-tai"]; !slices.Equal(got, []string{"nuts"}) || len(menuMia.AllergenWarnings) != 0 {
		t.Errorf("menu marks: Leo %v, Mia %v", menuLeo.AllergenWarnings, menuMia.AllergenWarnings)
	}
	// Leo orders Mai Tai: a confirmation naming nuts and him.
	key := newKey()
	status, raw = e.do("POST", "/api/orders", leoTok, order.Request{Items: []order.ItemInput{one("mai-tai")}}, "Idempotency-Key", key)
	if status != 422 || errorCode(t, raw) != "allergen_confirmation_required" || !strings.Contains(string(raw), "Mai Tai contains nuts, which you listed") {
		t.Fatalf("Leo's Mai Tai: %d %s", status, raw)
	}
	status, raw = e.do("POST", "/api/orders", leoTok, order.Request{Items: []order.ItemInput{one("mai-tai")}, ConfirmAllergens: true}, "Idempotency-Key", key)
	var o orderView
	decodeInto(t, raw, &o)
	if status != 201 || !slices.Equal(o.Items[0].Confirmed, []string{"nuts"}) || !slices.Equal(o.AllergensConfirmed, []string{"nuts"}) {
		t.Fatalf("Leo confirmed: %d %s", status, raw)
	}
	// Mia orders Mai Tai for Leo: the message names him.
	status, raw = e.do("POST", "/api/orders", mumTok, order.Request{Items: []order.ItemInput{{DrinkID: "mai-tai", Qty: 1, For: leo.ID}}}, "Idempotency-Key", newKey())
	if status != 422 || !strings.Contains(string(raw), "Mai Tai contains nuts, which Leo Berg listed in their dietary needs") || !strings.Contains(string(raw), `"forName":"Leo Berg"`) {
		t.Fatalf("Mai Tai for Leo: %d %s", status, raw)
	}
	// For herself, nothing to confirm; for her +1, the designated driver,
	// a Negroni needs a yes and a Virgin Mojito does not.
	e.order(mumTok, 201, one("mai-tai"))
	status, raw = e.do("POST", "/api/orders", mumTok, order.Request{Items: []order.ItemInput{{DrinkID: "negroni", Qty: 1, For: "+1"}}}, "Idempotency-Key", newKey())
	if status != 422 || !strings.Contains(string(raw), "Negroni has alcohol, and Olle takes none") {
		t.Fatalf("Negroni for the driver: %d %s", status, raw)
	}
	v2 := e.order(mumTok, 201, order.ItemInput{DrinkID: "virgin-mojito", Qty: 1, For: "+1"})
	if v2.Items[0].ForName != "Olle" || v2.Items[0].For != mum.ID+"/1" {
		t.Errorf("the +1's drink: %+v", v2.Items[0])
	}
	// Someone not on the invitation is refused.
	status, raw = e.do("POST", "/api/orders", mumTok, order.Request{Items: []order.ItemInput{{DrinkID: "negroni", Qty: 1, For: e.guest.ID}}}, "Idempotency-Key", newKey())
	if status != 422 || errorCode(t, raw) != "unknown_person" {
		t.Errorf("a drink for a stranger: %d %s", status, raw)
	}
	// Needs for someone outside the group are refused too.
	status, raw = e.do("PUT", "/api/rsvp", mumTok, map[string]any{"members": []any{map[string]any{"id": e.guest.ID, "dietary": "vegan"}}})
	if status != 422 || errorCode(t, raw) != guest.CodeNotInGroup {
		t.Errorf("needs for a stranger: %d %s", status, raw)
	}
	// More companions than people brought: refused.
	status, raw = e.do("PUT", "/api/rsvp", leoTok, map[string]any{"companions": []any{map[string]any{"name": "Ghost"}}})
	if status != 422 || errorCode(t, raw) != guest.CodeTooManyCompanions {
		t.Errorf("a +1 Leo does not bring: %d %s", status, raw)
	}
}

// Issue 10, "unrecognised wording is silently other": each of these
// reads as the allergen it names; the order screen asks to confirm and
// the host's report lists the tag, never "other".
func TestFreeTextNeedsAreRead(t *testing.T) {
	e := newBarEnv(t)
	tests := []struct {
		text, tag, drink, name string
	}{
		{"nötallergi", "nuts", "mai-tai", "Mai Tai"},
		{"allergie aux noix", "nuts", "amaretto-sour", "Amaretto Sour"},
		{"no eggwhite please", "eggs", "whiskey-sour", "Whiskey Sour"},
		{"allergic to anchovies", "fish", "bloody-mary", "Bloody Mary"},
		{"dairy-free", "milk", "white-russian", "White Russian"},
		{"I'm the designated driver tonight", "driving", "negroni", "Negroni"},
		{"ei alkoholia", "alcohol-free", "negroni", "Negroni"},
		{"jeg er gravid", "pregnant", "aperol-spritz", "Aperol Spritz"},
	}
	for i, tt := range tests {
		g := e.addGuest(guest.Guest{FirstName: "G" + string(rune('a'+i)), LastName: "Test", Status: guest.StatusComing})
		tok := e.tokenFor(g)
		status, raw := e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": tt.text})
		var v rsvpView
		decodeInto(t, raw, &v)
		// A reason for taking no alcohol comes with "alcohol-free".
		if status != 200 || !slices.Equal(v.Guest.Dietary.Tags, guest.NormalizeDietary(guest.Dietary{Tags: []string{tt.tag}}).Tags) || len(v.Guest.Dietary.Unclear) != 0 {
			t.Errorf("%q: %d tags %q unclear %q", tt.text, status, v.Guest.Dietary.Tags, v.Guest.Dietary.Unclear)
			continue
		}
		status, raw = e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{one(tt.drink)}}, "Idempotency-Key", newKey())
		if status != 422 || errorCode(t, raw) != "allergen_confirmation_required" || !strings.Contains(string(raw), tt.name) {
			t.Errorf("%q, ordering %s: %d %s", tt.text, tt.drink, status, raw)
		}
	}
	_, raw := e.do("GET", "/api/admin/reports/dietary", e.aTok, nil)
	var r dietaryReport
	decodeInto(t, raw, &r)
	for _, tt := range tests {
		if !slices.ContainsFunc(r.Tags, func(d guest.DietaryTag) bool { return d.Tag == tt.tag }) {
			t.Errorf("the report has no %s: %s", tt.tag, raw)
		}
	}
	if slices.ContainsFunc(r.Tags, func(d guest.DietaryTag) bool { return d.Tag == "other" || d.Tag == guest.NeedReview }) {
		t.Errorf("the report has other or review: %s", raw)
	}
	// The form's preview reads the same way.
	status, raw := e.do("POST", "/api/dietary/read", e.gTok, map[string]string{"text": "nötallergi, och ingen koriander"})
	if status != 200 || string(raw) != `{"tags":["nuts"],"unclear":["ingen koriander"]}`+"\n" {
		t.Errorf("read: %d %s", status, raw)
	}
}

// Words barhub does not understand need the host's eyes: the report, the
// door card and the bar ticket flag them, and the host's review (audited)
// clears the flag and sets the tags that hold.
func TestHostReviewsUnclearNeeds(t *testing.T) {
	e := newBarEnv(t)
	g := e.addGuest(guest.Guest{FirstName: "Kim", LastName: "Kiwi", Status: guest.StatusComing, ExpectedGuests: 2,
		Dietary:    guest.Dietary{Text: "no kiwi please, nut allergy"},
		Companions: []guest.Companion{{Name: "Sam", Dietary: guest.Dietary{Text: "coriander"}}}})
	tok := e.tokenFor(g)

	_, raw := e.do("GET", "/api/admin/reports/dietary", e.aTok, nil)
	var r dietaryReport
	decodeInto(t, raw, &r)
	if len(r.Tags) == 0 || r.Tags[0].Tag != guest.NeedReview || len(r.Tags[0].Entries) != 2 || r.Tags[0].Entries[1].Name != "Sam" || r.Tags[0].Entries[1].Companion != 1 {
		t.Fatalf("report: %s", raw)
	}
	stats := func() int {
		_, raw := e.do("GET", "/api/admin/stats?recount=true", e.aTok, nil)
		var s struct{ WithAllergies int }
		decodeInto(t, raw, &s)
		return s.WithAllergies
	}
	if n := stats(); n != 1 {
		t.Errorf("with allergies: %d, want 1", n)
	}
	// The bar ticket flags the drink of someone with unreviewed words
	// (which asks first: docs/RSVP.md, "Unread means careful").
	e.order(tok, 422, one("negroni"))
	status, raw := e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{one("negroni")}, ConfirmAllergens: true}, "Idempotency-Key", newKey())
	var v orderView
	decodeInto(t, raw, &v)
	if status != 201 || !v.Items[0].Review || !slices.Equal(v.Items[0].Check, []string{"no kiwi please"}) {
		t.Errorf("ticket item not flagged: %+v", v.Items[0])
	}
	// The door card flags it too.
	status, raw = e.do("POST", "/api/door/checkin", e.bTok, map[string]any{"code": g.Code})
	if status != 200 || !strings.Contains(string(raw), `"code":"dietary_review"`) || !strings.Contains(string(raw), "needs the host's eyes") ||
		!strings.Contains(string(raw), "not Amaretto Sour") {
		t.Errorf("door card: %d %s", status, raw)
	}

	// A tag that is not canonical is refused; the review of both people
	// clears the flag.
	if status, raw := e.do("PUT", "/api/admin/guests/"+g.ID+"/dietary", e.aTok, map[string]any{"tags": []string{"kiwi"}}); status != 422 {
		t.Errorf("review with kiwi: %d %s", status, raw)
	}
	if status, raw := e.do("PUT", "/api/admin/guests/"+g.ID+"/dietary", e.aTok, map[string]any{"companion": 2, "tags": []string{}}); status != 422 {
		t.Errorf("review of a companion not described: %d %s", status, raw)
	}
	status, raw = e.do("PUT", "/api/admin/guests/"+g.ID+"/dietary", e.aTok, map[string]any{"tags": []string{"nuts"}})
	var after guest.Guest
	decodeInto(t, raw, &after)
	if status != 200 || !after.Dietary.Reviewed || len(after.Dietary.Unclear) != 0 || !slices.Equal(after.Needs, []string{"nuts", guest.NeedReview}) {
		t.Fatalf("review of Kim: %d %s", status, raw)
	}
	status, raw = e.do("PUT", "/api/admin/guests/"+g.ID+"/dietary", e.aTok, map[string]any{"companion": 1, "tags": []string{"celery"}})
	decodeInto(t, raw, &after)
	if status != 200 || !slices.Equal(after.Needs, []string{"nuts", "celery"}) || !after.Companions[0].Dietary.Reviewed {
		t.Fatalf("review of Sam: %d %s", status, raw)
	}
	_, raw = e.do("GET", "/api/admin/reports/dietary", e.aTok, nil)
	decodeInto(t, raw, &r)
	if slices.ContainsFunc(r.Tags, func(d guest.DietaryTag) bool { return d.Tag == guest.NeedReview }) {
		t.Errorf("still flagged after the review: %s", raw)
	}
	if n := stats(); n != 1 {
		t.Errorf("with allergies after the review: %d, want 1", n)
	}
	entries, _ := e.auditLog(e.aTok, "?action=guest.dietary_review")
	if len(entries.Entries) != 2 {
		t.Errorf("%d audit entries for the reviews, want 2", len(entries.Entries))
	}
	// The same words again keep the review; new words need the eyes again.
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": map[string]any{"text": "no kiwi please, nut allergy", "tags": []string{"nuts"}}})
	var rv rsvpView
	decodeInto(t, raw, &rv)
	if status != 200 || !rv.Guest.Dietary.Reviewed {
		t.Errorf("same words: %d %s", status, raw)
	}
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"dietary": "no kiwi, no mango"})
	decodeInto(t, raw, &rv)
	if status != 200 || rv.Guest.Dietary.Reviewed || !slices.Contains(rv.Guest.Needs, guest.NeedReview) {
		t.Errorf("new words: %d %s", status, raw)
	}
}

func FuzzParseDietary(f *testing.F) {
	for _, s := range []string{`{"text":"nötallergi"}`, `{"companion":1,"tags":["nuts"]}`, `{"tags":null}`, `{"companion":-1,"tags":[]}`,
		`{"text":7}`, `[]`, `{"text":"` + strings.Repeat("x", 600) + `"}`,
		`{"text":"nuts\u202e"}`, `{"text":"\u200b"}`, `{"text":"no\r\nnuts"}`, `{"text":"x","lang":"sv"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if words, err := parseDietaryRead(fuzzRequest([]byte(body))); err != nil {
			checkAPIError(t, err)
		} else if utf8.RuneCountInString(words) > guest.MaxDietaryText {
			t.Fatalf("accepted %d characters of text", utf8.RuneCountInString(words))
		} else if err := text.Lines(words); words != "" && err != nil {
			t.Fatalf("accepted %+q: %v", words, err)
		}
		companion, tags, err := parseDietaryReview(fuzzRequest([]byte(body)))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if companion < 0 || companion > guest.MaxCompanions || len(tags) > 50 {
			t.Fatalf("accepted companion %d, %d tags", companion, len(tags))
		}
		// Whatever was accepted, the review answers without panicking.
		guest.ReviewDietary(guest.Guest{ID: "g", Companions: []guest.Companion{{Name: "A"}}}, companion, tags, time.Now())
	})
}

// TestChildIsServedAlcoholFreeOnly (issue 26): a companion marked as a
// child gets no alcohol: a cocktail ordered for them is refused with a
// clear 422 that no confirmation gets past, and an alcohol-free drink is
// accepted. Before, a 16 % cocktail for a companion described as a small
// child went through silently.
func TestChildIsServedAlcoholFreeOnly(t *testing.T) {
	e := newBarEnv(t)
	mum := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Berg", ExpectedGuests: 2})
	tok := e.tokenFor(mum)
	status, raw := e.do("PUT", "/api/rsvp", tok, map[string]any{
		"status":     "coming",
		"numGuests":  2,
		"companions": []any{map[string]any{"name": "Elsa", "dietary": "nut allergy", "ageGroup": "child"}},
	})
	if status != 200 {
		t.Fatalf("answer: %d %s", status, raw)
	}
	var v rsvpView
	decodeInto(t, raw, &v)
	if len(v.Guest.Companions) != 1 || v.Guest.Companions[0].AgeGroup != guest.AgeChild {
		t.Fatalf("Elsa in the answer: %+v", v.Guest.Companions)
	}
	// The order dialog asks the menu's marks for Elsa the moment she is
	// chosen: nuts in a Mai Tai, alcohol in a Negroni.
	var marks drinksBody
	status, raw = e.do("GET", "/api/drinks?for="+mum.ID+"/1", tok, nil)
	decodeInto(t, raw, &marks)
	if status != 200 || !slices.Contains(marks.AllergenWarnings["mai-tai"], "nuts") || !slices.Contains(marks.AllergenWarnings["negroni"], "alcohol") || len(marks.AllergenWarnings["virgin-mojito"]) != 0 {
		t.Errorf("the marks for Elsa: %d %v", status, marks.AllergenWarnings)
	}
	if status, raw = e.do("GET", "/api/drinks?for="+e.guest.ID, tok, nil); status != 422 || errorCode(t, raw) != "unknown_person" {
		t.Errorf("the marks for a stranger: %d %s", status, raw)
	}
	for _, confirm := range []bool{false, true} {
		status, raw = e.do("POST", "/api/orders", tok, order.Request{Items: []order.ItemInput{{DrinkID: "negroni", Qty: 1, For: "+1"}}, ConfirmAllergens: confirm}, "Idempotency-Key", newKey())
		if status != 422 || errorCode(t, raw) != "child_alcohol" || !strings.Contains(string(raw), "Elsa is a child and Negroni has alcohol") {
			t.Errorf("a Negroni for Elsa (confirmed %v): %d %s", confirm, status, raw)
		}
	}
	if o := e.order(tok, 201, order.ItemInput{DrinkID: "virgin-mojito", Qty: 1, For: "+1"}); o.Items[0].ForName != "Elsa" {
		t.Errorf("Elsa's mojito: %+v", o.Items[0])
	}
	// A mistyped age group is refused, not read as an adult.
	status, raw = e.do("PUT", "/api/rsvp", tok, map[string]any{"companions": []any{map[string]any{"name": "Elsa", "ageGroup": "kid"}}})
	if status/100 != 4 || !strings.Contains(string(raw), "ageGroup") {
		t.Errorf("ageGroup kid: %d %s", status, raw)
	}
}

// TestChildGuestIsServedAlcoholFreeOnly (issue 26): a guest with a login
// of their own (a family's 12-year-old) can be marked a child, by the
// host on the guest or by the one answering the RSVP for the group; then
// the child's own orders and the orders for them refuse alcohol with 422
// child_alcohol, confirmed or not, as a companion marked a child does,
// and the menu's marks show the alcohol for them. Before, only a "+1"
// could be a child.
func TestChildGuestIsServedAlcoholFreeOnly(t *testing.T) {
	e := newBarEnv(t)
	admin := e.addGuest(guest.Guest{FirstName: "Party", LastName: "Host", Role: guest.RoleAdmin})
	mum := e.addGuest(guest.Guest{FirstName: "Mia", LastName: "Berg", GroupID: "berg", Status: guest.StatusComing})
	leo := e.addGuest(guest.Guest{FirstName: "Leo", LastName: "Berg", GroupID: "berg", Status: guest.StatusComing})
	nils := e.addGuest(guest.Guest{FirstName: "Nils", LastName: "Berg", GroupID: "berg", Status: guest.StatusComing})
	adminTok, mumTok, leoTok, nilsTok := e.tokenFor(admin), e.tokenFor(mum), e.tokenFor(leo), e.tokenFor(nils)

	// The host marks Leo a child; Mia marks Nils one with her answer.
	if status, raw := e.do("PUT", "/api/admin/guests/"+leo.ID, adminTok, map[string]any{"ageGroup": "child"}); status != 200 || !strings.Contains(string(raw), `"ageGroup":"child"`) {
		t.Fatalf("host marks Leo a child: %d %s", status, raw)
	}
	status, raw := e.do("PUT", "/api/rsvp", mumTok, map[string]any{"members": []any{map[string]any{"id": nils.ID, "ageGroup": "child"}}})
	if status != 200 {
		t.Fatalf("Mia marks Nils a child: %d %s", status, raw)
	}
	var v rsvpView
	decodeInto(t, raw, &v)
	for _, m := range v.Group {
		if want := m.ID != mum.ID; (m.AgeGroup == guest.AgeChild) != want {
			t.Errorf("the group after Mia's answer: %s ageGroup %q", m.FirstName, m.AgeGroup)
		}
	}

	refused := []struct {
		name, tok, drink, forRef, child string
	}{
		{"Leo orders a Negroni for himself", leoTok, "negroni", "", "Leo Berg"},
		{"Nils orders a Negroni for himself", nilsTok, "negroni", "", "Nils Berg"},
		{"Mia orders a Negroni for Leo", mumTok, "negroni", leo.ID, "Leo Berg"},
		{"Leo orders a Negroni for Nils", leoTok, "negroni", nils.ID, "Nils Berg"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			for _, confirm := range []bool{false, true} {
				status, raw := e.do("POST", "/api/orders", tt.tok, order.Request{Items: []order.ItemInput{{DrinkID: tt.drink, Qty: 1, For: tt.forRef}}, ConfirmAllergens: confirm}, "Idempotency-Key", newKey())
				if status != 422 || errorCode(t, raw) != "child_alcohol" || !strings.Contains(string(raw), tt.child+" is a child") {
					t.Errorf("confirmed %v: %d %s", confirm, status, raw)
				}
			}
		})
	}
	if o := e.order(mumTok, 201, order.ItemInput{DrinkID: "virgin-mojito", Qty: 1, For: leo.ID}); o.Items[0].ForName != "Leo Berg" {
		t.Errorf("Leo's mojito: %+v", o.Items[0])
	}
	e.order(nilsTok, 201, order.ItemInput{DrinkID: "virgin-mojito", Qty: 1})
	e.order(mumTok, 201, order.ItemInput{DrinkID: "negroni", Qty: 1})

	// The menu marks the alcohol for a child, on their own phone and in
	// the "for whom" marks of the one ordering for them.
	for _, tt := range []struct{ name, tok, path string }{
		{"Leo's own menu", leoTok, "/api/drinks"},
		{"Mia's marks for Nils", mumTok, "/api/drinks?for=" + nils.ID},
	} {
		var marks drinksBody
		status, raw := e.do("GET", tt.path, tt.tok, nil)
		decodeInto(t, raw, &marks)
		if status != 200 || !slices.Contains(marks.AllergenWarnings["negroni"], "alcohol") || len(marks.AllergenWarnings["virgin-mojito"]) != 0 {
			t.Errorf("%s: %d %v", tt.name, status, marks.AllergenWarnings)
		}
	}

	// Refused age groups: a word that is not one, and a child marking
	// themselves an adult.
	for _, tt := range []struct {
		name, tok, path string
		body            any
		status          int
	}{
		{"the host types kid", adminTok, "/api/admin/guests/" + leo.ID, map[string]any{"ageGroup": "kid"}, 422},
		{"Mia types kid", mumTok, "/api/rsvp", map[string]any{"members": []any{map[string]any{"id": nils.ID, "ageGroup": "kid"}}}, 400},
		{"Nils marks himself an adult", nilsTok, "/api/rsvp", map[string]any{"members": []any{map[string]any{"id": nils.ID, "ageGroup": "adult"}}}, 400},
	} {
		if status, raw := e.do("PUT", tt.path, tt.tok, tt.body); status != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.name, status, raw, tt.status)
		}
	}
	// The host marks Leo an adult again: his Negroni goes through.
	if status, raw := e.do("PUT", "/api/admin/guests/"+leo.ID, adminTok, map[string]any{"ageGroup": "adult"}); status != 200 || strings.Contains(string(raw), `"ageGroup"`) {
		t.Fatalf("host marks Leo an adult: %d %s", status, raw)
	}
	e.order(leoTok, 201, order.ItemInput{DrinkID: "negroni", Qty: 1})
}
