package app_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/drinkart"
	"github.com/barhub/barhub/menu"
)

// Every drink of the starter menu ("barhub seed menu") has a picture
// without AWS: its drawing, in the glass its recipe names, with the
// garnish it names, in a colour its ingredients give.
func TestEveryStarterDrinkIsDrawn(t *testing.T) {
	_, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	if len(drinks) < 30 {
		t.Fatalf("%d starter drinks", len(drinks))
	}
	seen := map[string]string{}
	for _, d := range drinks {
		v := app.ViewOf(d)
		if v.ImageSource != menu.ImageDrawn || !strings.HasPrefix(v.ImageURL, "/images/drinks/"+d.ID+".svg?v=") {
			t.Errorf("%s: picture %q (%s)", d.ID, v.ImageURL, v.ImageSource)
		}
		if other, ok := seen[v.ImageURL]; ok {
			t.Errorf("%s and %s share a picture", d.ID, other)
		}
		seen[v.ImageURL] = d.ID

		in := drinkart.Drink{Name: d.Name, Glass: d.Glass, Garnish: d.Garnish, Ice: string(d.Ice)}
		for _, i := range d.Ingredients {
			in.Ingredients = append(in.Ingredients, drinkart.Ingredient{Name: i.Name, Amount: i.Amount, Unit: i.Unit})
		}
		p := drinkart.PlanOf(in)
		// The glass drawn is one the recipe names, not a guess.
		if d.Glass == "" || !strings.Contains(strings.ToLower(d.Glass), string(p.Glass)) && !glassSynonym(d.Glass, p.Glass) {
			t.Errorf("%s: %q drawn as a %s glass", d.ID, d.Glass, p.Glass)
		}
		if d.Garnish != "" && len(p.Garnishes) == 0 {
			t.Errorf("%s: garnish %q not drawn", d.ID, d.Garnish)
		}
		if p.Liquid.A == 0 {
			t.Errorf("%s: no liquid", d.ID)
		}
		svg := drinkart.SVG(in)
		dec := xml.NewDecoder(bytes.NewReader(svg))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: the drawing is not XML: %v", d.ID, err)
			}
		}
	}
}

func glassSynonym(name string, g drinkart.Glass) bool {
	n := strings.ToLower(name)
	switch g {
	case drinkart.Highball:
		return strings.Contains(n, "collins")
	case drinkart.Mug:
		return strings.Contains(n, "mug")
	}
	return false
}
