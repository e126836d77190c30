package locale

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// TestCataloguesAgree fails when a catalogue misses a message another has,
// or a translation drops, adds or misspells a placeholder.
func TestCataloguesAgree(t *testing.T) {
	en, err := Messages("en")
	if err != nil {
		t.Fatal(err)
	}
	if len(en) == 0 {
		t.Fatal("the English catalogue is empty")
	}
	for _, lang := range Languages()[1:] {
		other, err := Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for id, text := range en {
			tr, ok := other[id]
			if !ok {
				t.Errorf("%s misses %q", lang, id)
				continue
			}
			if strings.TrimSpace(tr) == "" {
				t.Errorf("%s: %q is empty", lang, id)
			}
			if want, got := Placeholders(text), Placeholders(tr); !slices.Equal(want, got) {
				t.Errorf("%s: %q has placeholders %v, English has %v", lang, id, got, want)
			}
		}
		for id := range other {
			if _, ok := en[id]; !ok {
				t.Errorf("%s has %q, which English does not", lang, id)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		header string
		want   language.Tag
	}{
		{"", language.English},
		{"sv-SE,sv;q=0.9,en;q=0.8", language.Swedish},
		{"sv", language.Swedish},
		{"pt-BR", language.BrazilianPortuguese},
		{"pt", language.BrazilianPortuguese},
		{"pt-PT,pt;q=0.9", language.BrazilianPortuguese},
		{"en-GB,en;q=0.9,sv;q=0.5", language.English},
		{"de-DE,de;q=0.9", language.English},
		{"de-DE,sv;q=0.5", language.Swedish},
		{"*", language.English},
		{";;;garbage", language.English},
	} {
		if got := c.Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang language.Tag
		id   string
		vars map[string]any
		want string
		ok   bool
	}{
		{language.Swedish, "error.busy", nil, "Festens databas är upptagen just nu; försök igen.", true},
		{language.BrazilianPortuguese, "error.rate_limited.wait", map[string]any{"Seconds": 3}, "Solicitações demais; vá com calma e tente de novo em 3 s.", true},
		{language.Swedish, "error.open_order_limit.count", map[string]any{"Count": 1}, "Du har redan 1 beställning som väntar i baren; du kan beställa igen så fort den är klar.", true},
		{language.Swedish, "error.open_order_limit.count", map[string]any{"Count": 3}, "Du har redan 3 beställningar som väntar i baren; du kan beställa igen så fort en av dem är klar.", true},
		// A missing placeholder value gives nothing, never "<no value>".
		{language.Swedish, "error.rate_limited.wait", nil, "", false},
		{language.Swedish, "no.such.message", nil, "", false},
	} {
		got, ok := c.Text(tc.lang, tc.id, tc.vars)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Text(%v, %q, %v) = %q, %v; want %q, %v", tc.lang, tc.id, tc.vars, got, ok, tc.want, tc.ok)
		}
	}
}

func BenchmarkMatchAndText(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		lang := c.Match("sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7")
		if _, ok := c.Text(lang, "error.busy", nil); !ok {
			b.Fatal("no text")
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Match("sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7")
	}
}

func BenchmarkTextWithVars(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	vars := map[string]any{"Seconds": 3}
	for b.Loop() {
		if _, ok := c.Text(language.Swedish, "error.rate_limited.wait", vars); !ok {
			b.Fatal("no text")
		}
	}
}
