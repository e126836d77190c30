package ai_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/ai/eval"
)

// starter is the starter menu as the recommenders see it, with, when
// smoky, two smoky drinks the starter menu does not have.
func starter(t *testing.T, smoky bool) []ai.Drink {
	t.Helper()
	m, err := eval.Menu()
	if err != nil {
		t.Fatal(err)
	}
	if smoky {
		m = append(m,
			ai.Drink{ID: "mezcal-negroni", Name: "Mezcal Negroni", Section: "classics", Ingredients: []string{"Mezcal joven", "Campari", "Sweet vermouth"},
				Tags: []string{"bitter", "strong", "stirred"}, ABV: 26, Available: true},
			ai.Drink{ID: "penicillin", Name: "Penicillin", Section: "sours", Ingredients: []string{"Blended Scotch", "Islay whisky", "Lemon juice", "Honey-ginger syrup"},
				Tags: []string{"sour", "sweet", "strong"}, ABV: 22, Available: true})
	}
	return m
}

// TestTastesPeopleUse: the tastes guests ask for in their own words, in
// the three languages, find the drinks of the starter menu that have
// them, strictly: "tiki" the Mai Tai and the Piña Coladas, "smoky" only
// the smoky drinks, "bitter like Campari" the Campari drinks first and
// the other bitter aperitifs after, never a tonic.
func TestTastesPeopleUse(t *testing.T) {
	bitterAperitif := []string{"negroni", "boulevardier", "aperol-spritz", "paper-plane"}
	campari := []string{"negroni", "boulevardier"}
	tests := []struct {
		name  string
		prefs ai.Preferences
		smoky bool
		// first: the first pick is one of these; all: every pick is;
		// seen: each is picked in some answer; maxABV: no pick is stronger.
		first, all, seen []string
		maxABV           float64
	}{
		{name: "likes tiki", prefs: ai.Preferences{Likes: []string{"tiki"}},
			all: []string{"mai-tai", "pina-colada", "virgin-pina-colada"}, seen: []string{"mai-tai", "pina-colada"}},
		{name: "en: something tiki", prefs: ai.Preferences{Mood: "something tiki please"},
			all: []string{"mai-tai", "pina-colada", "virgin-pina-colada"}, seen: []string{"mai-tai", "pina-colada"}},
		{name: "sv: något tiki", prefs: ai.Preferences{Mood: "något tiki", Language: "sv"},
			all: []string{"mai-tai", "pina-colada", "virgin-pina-colada"}},
		{name: "pt: algo tiki", prefs: ai.Preferences{Mood: "algo tiki", Language: "pt-BR"},
			all: []string{"mai-tai", "pina-colada", "virgin-pina-colada"}},
		{name: "likes smoky", prefs: ai.Preferences{Likes: []string{"smoky"}}, smoky: true,
			first: []string{"mezcal-negroni", "penicillin"}, seen: []string{"mezcal-negroni", "penicillin"}},
		{name: "sv: något rökigt", prefs: ai.Preferences{Mood: "något rökigt", Language: "sv"}, smoky: true,
			first: []string{"mezcal-negroni", "penicillin"}},
		{name: "pt: algo defumado", prefs: ai.Preferences{Mood: "algo defumado", Language: "pt-BR"}, smoky: true,
			first: []string{"mezcal-negroni", "penicillin"}},
		{name: "en: bitter like Campari", prefs: ai.Preferences{Mood: "bitter like Campari"},
			first: campari, all: bitterAperitif, seen: campari},
		{name: "sv: beskt som Campari", prefs: ai.Preferences{Mood: "något beskt, som Campari", Language: "sv"},
			first: campari, all: bitterAperitif},
		{name: "pt: amargo como Campari", prefs: ai.Preferences{Mood: "amargo como Campari", Language: "pt-BR"},
			first: campari, all: bitterAperitif},
		{name: "en: something like a Negroni", prefs: ai.Preferences{Mood: "something like a Negroni"},
			first: campari, seen: campari},
		{name: "sv: något som en Negroni", prefs: ai.Preferences{Mood: "något som en Negroni", Language: "sv"}, first: campari},
		{name: "pt: algo tipo Negroni", prefs: ai.Preferences{Mood: "algo tipo Negroni", Language: "pt-BR"}, first: campari},
		{name: "likes herbal", prefs: ai.Preferences{Likes: []string{"herbal"}}, first: []string{"last-word"}},
		{name: "sv: örtigt", prefs: ai.Preferences{Mood: "något örtigt", Language: "sv"}, first: []string{"last-word"}},
		{name: "likes creamy", prefs: ai.Preferences{Likes: []string{"creamy"}},
			all: []string{"white-russian", "pina-colada", "virgin-pina-colada"}},
		{name: "pt: algo cremoso", prefs: ai.Preferences{Mood: "algo cremoso", Language: "pt-BR"},
			all: []string{"white-russian", "pina-colada", "virgin-pina-colada"}},
		{name: "likes spicy", prefs: ai.Preferences{Likes: []string{"spicy"}},
			all: []string{"moscow-mule", "dark-n-stormy", "bloody-mary", "virgin-mary"}},
		{name: "sv: kryddigt", prefs: ai.Preferences{Mood: "kryddigt", Language: "sv"},
			all: []string{"moscow-mule", "dark-n-stormy", "bloody-mary", "virgin-mary"}},
		{name: "en: not too strong", prefs: ai.Preferences{Mood: "not too strong"}, maxABV: 12},
		{name: "sv: inte för starkt", prefs: ai.Preferences{Mood: "inte för starkt", Language: "sv"}, maxABV: 12},
		{name: "pt: nada muito forte", prefs: ai.Preferences{Mood: "nada muito forte", Language: "pt-BR"}, maxABV: 12},
	}
	for _, tt := range tests {
		menu := starter(t, tt.smoky)
		seen := map[string]bool{}
		for seed := range uint64(12) {
			a := ask(menu, ai.Guest{}, tt.prefs, nil, seed)
			got := ids(a.Picks)
			if !a.Fits || len(got) == 0 {
				t.Errorf("%s: %v, fits %v", tt.name, got, a.Fits)
				continue
			}
			if len(tt.first) > 0 && !slices.Contains(tt.first, got[0]) {
				t.Errorf("%s: first pick %s (%v), want one of %v", tt.name, got[0], got, tt.first)
			}
			if tt.smoky && len(got) >= 2 && !slices.Contains(tt.first, got[1]) {
				t.Errorf("%s: second pick %s (%v), want the other smoky drink", tt.name, got[1], got)
			}
			for _, p := range a.Picks {
				id := p.Drink.ID
				seen[id] = true
				if len(tt.all) > 0 && !slices.Contains(tt.all, id) {
					t.Errorf("%s: picked %s (%v), want only %v", tt.name, id, got, tt.all)
				}
				if tt.maxABV > 0 && (p.Drink.ABV > tt.maxABV || p.Drink.ABV >= 20) {
					t.Errorf("%s: picked %s at %.1f%%", tt.name, id, p.Drink.ABV)
				}
			}
		}
		for _, id := range tt.seen {
			if !seen[id] {
				t.Errorf("%s: %s never picked (%v)", tt.name, id, seen)
			}
		}
	}
}

// Without a smoky drink on the menu, "smoky" fits nothing: it is not read
// loosely as any strong or spicy drink.
func TestSmokyIsStrict(t *testing.T) {
	a := ask(starter(t, false), ai.Guest{}, ai.Preferences{Likes: []string{"smoky"}}, nil, 1)
	if a.Fits {
		t.Errorf("smoky on the starter menu: %v said to fit", ids(a.Picks))
	}
}

// TestModelToldWhatTheReaderUnderstood: the Bedrock path's request
// carries the reader's understanding of the guest's words, with the
// drinks that meet it, besides the words themselves.
func TestModelToldWhatTheReaderUnderstood(t *testing.T) {
	bedrocktest.IsolateAWS(t)
	menu := starter(t, false)
	tests := []struct {
		prefs ai.Preferences
		want  []string
	}{
		{ai.Preferences{Likes: []string{"tiki"}}, []string{`"tiki: Mai Tai, Piña Colada, Virgin Piña Colada"`}},
		{ai.Preferences{Mood: "bitter like Campari"}, []string{`"like campari: Negroni, Boulevardier, Paper Plane, Aperol Spritz"`, `"bitter: `}},
		{ai.Preferences{Mood: "something like a Negroni"}, []string{`"like Negroni: Negroni, Dry Martini, Manhattan, Boulevardier"`}},
		{ai.Preferences{Mood: "not too strong"}, []string{`"nothing too strong: lower-alcohol drinks first"`}},
		{ai.Preferences{Likes: []string{"smoky"}}, []string{`"smoky: no drink on this menu"`}},
		{ai.Preferences{Likes: []string{"sour"}}, []string{`- understood: ["sour: `}},
		{ai.Preferences{}, []string{`- understood: []`}},
	}
	for _, tt := range tests {
		srv := bedrocktest.New(t)
		var user string
		srv.Handle(func(r bedrocktest.Request) bedrocktest.Response {
			user = r.UserText()
			return bedrocktest.ToolUse(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter and bright."}]}`)
		})
		client, err := bedrock.New(context.Background(), bedrock.Config{Region: "eu-north-1", Endpoint: srv.URL, Credentials: bedrocktest.Credentials()})
		if err != nil {
			t.Fatal(err)
		}
		w := ai.NewBartender(ai.Deps{Model: client, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, ai.Config{RecommendBudget: time.Minute, ModelCallTimeout: 20 * time.Second})
		if _, rep := w.Answer(context.Background(), ai.AnswerRequest{Prefs: tt.prefs, Menu: menu, Asked: time.Now()}); rep.ModelCalls == 0 {
			t.Fatalf("%+v: the model was not asked", tt.prefs)
		}
		for _, s := range tt.want {
			if !strings.Contains(user, s) {
				t.Errorf("%+v: the prompt has no %s:\n%s", tt.prefs, s, user)
			}
		}
	}
}

// A drink picked for being close to the one the guest named says so, in
// the guest's language; the named drink itself is "just what you like".
func TestReasonForALikeness(t *testing.T) {
	tests := []struct{ mood, lang, boulevardier, negroni string }{
		{"something like a Negroni", "en", "Close to the Negroni you asked about", "Negroni, just what you like"},
		{"något som en Negroni", "sv", "I stil med Negroni, som du frågade efter", "Negroni"},
		{"algo tipo Negroni", "pt-BR", "Parecido com o Negroni que você pediu", "Negroni"},
	}
	menu := starter(t, false)
	for _, tt := range tests {
		seen := map[string]bool{}
		for seed := range uint64(10) {
			for _, p := range ask(menu, ai.Guest{}, ai.Preferences{Mood: tt.mood, Language: tt.lang}, nil, seed).Picks {
				want := map[string]string{"boulevardier": tt.boulevardier, "negroni": tt.negroni}[p.Drink.ID]
				if want != "" && !strings.Contains(p.Reason, want) {
					t.Errorf("%s: %s: %q, want %q in it", tt.lang, p.Drink.ID, p.Reason, want)
				}
				seen[p.Drink.ID] = true
			}
		}
		if !seen["boulevardier"] {
			t.Errorf("%s: the Boulevardier never picked: %v", tt.lang, seen)
		}
	}
}
