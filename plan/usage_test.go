package plan

import (
	"testing"
)

func TestUsage(t *testing.T) {
	drinks := threeDrinks(t)
	// 14 gin & tonics and 7 negronis served; the virgin mojito none.
	served := map[string]int{"gin-tonic": 14, "negroni": 7}
	p := Plan{Ingredients: []Need{
		{Key: "gin", Name: "Gin", Packs: 2, Pack: "bottle", PackID: "bottle"},
		{Key: "mint", Name: "Mint", Packs: 1, Pack: "bunch", PackID: "bunch"},
	}}
	got := map[string]Used{}
	for _, u := range Usage(drinks, served, p) {
		got[u.Key] = u
	}
	// Gin: 14 × 50 ml + 7 × 30 ml = 910 ml = 1.3 bottles of 700 ml,
	// of the 2 the plan bought.
	if g := got["gin"]; g.Amounts[0] != (Amount{910, "ml"}) || g.Packs != 1.3 || g.Planned != 2 || g.Ratio != 0.65 || g.PackID != "bottle700" {
		t.Errorf("gin %+v", g)
	}
	// Lime: 14 wedges, 8 a lime: 1.75 limes, 1.8 to one decimal.
	if l := got["lime"]; l.Amounts[0] != (Amount{14, "wedge"}) || l.Packs != 1.8 || l.Planned != 0 || l.Ratio != 0 {
		t.Errorf("lime %+v", l)
	}
	// Mint was bought and not used: it shows, at nothing used.
	if m := got["mint"]; len(m.Amounts) != 0 || m.Packs != 0 || m.Planned != 1 || m.Ratio != 0 {
		t.Errorf("mint %+v", m)
	}
	// Soda water is in no served drink and not on the plan.
	if _, ok := got["soda water"]; ok {
		t.Error("soda water was neither used nor bought")
	}
	if c := got["campari"]; c.Amounts[0] != (Amount{210, "ml"}) || c.Packs != 0.3 {
		t.Errorf("campari %+v", c)
	}
}
