package app

import (
	"testing"

	"github.com/barhub/barhub/locale"
)

func TestStockLevelLow(t *testing.T) {
	for _, c := range []struct {
		name string
		s    StockLevel
		want bool
	}{
		{"marked out", StockLevel{Out: true, MinutesLeft: -1}, true},
		{"no estimate", StockLevel{MinutesLeft: -1}, false},
		{"29 minutes left", StockLevel{MinutesLeft: 29}, true},
		{"half an hour left", StockLevel{MinutesLeft: LowStockMinutes}, false},
		{"nothing left", StockLevel{MinutesLeft: 0}, true},
	} {
		if got := c.s.Low(); got != c.want {
			t.Errorf("%s: Low() = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestHostMessagesTranslate: every message the host is sent names texts
// the server's catalogues have, in each language, with its variables.
func TestHostMessagesTranslate(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(HostDeps{Locale: cat})
	msgs := []HostMessage{
		WaitlistOffer("Ana", true), WaitlistOffer("Ana", false),
		{Title: "host.answers.title", Body: "host.answers.body", Vars: map[string]any{"Count": 3, "Coming": 2, "Declined": 1}},
		{Title: "host.deadline.title", Body: "host.deadline.body", Vars: map[string]any{"Count": 2, "Hours": 30}},
		{Title: "host.lowstock.title", Body: "host.lowstock.body", Vars: map[string]any{"Name": "Gin", "Minutes": 14, "Left": 0.4, "Pack": "bottles"}},
		{Title: "host.out.title", Body: "host.out.body", Vars: map[string]any{"Name": "Mint", "Count": 3}},
		{Title: "host.deadjob.title", Body: "host.deadjob.body", Vars: map[string]any{"Count": 2}},
		{Title: "host.backplane.lost.title", Body: "host.backplane.lost.body"},
		{Title: "host.backplane.back.title", Body: "host.backplane.back.body"},
	}
	for _, lang := range locale.Languages() {
		for _, m := range msgs {
			for _, id := range []string{m.Title, m.Body} {
				if got := h.text(lang, id, m.Vars); got == id || got == "" {
					t.Errorf("%s: %s is not in the catalogue (or lacks a variable)", lang, id)
				}
			}
		}
	}
	if got := h.text("sv", "host.answers.body", msgs[2].Vars); got != "3 nya svar: 2 kommer, 1 tackar nej" {
		t.Errorf("Swedish answers %q", got)
	}
}
