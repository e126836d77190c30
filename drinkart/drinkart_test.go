package drinkart_test

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/drinkart"
)

func ml(n float64, name string) drinkart.Ingredient {
	return drinkart.Ingredient{Name: name, Amount: n, Unit: "ml"}
}

var (
	negroni = drinkart.Drink{Name: "Negroni", Glass: "Rocks glass", Ice: "large", Garnish: "Orange slice",
		Ingredients: []drinkart.Ingredient{ml(30, "Gin"), ml(30, "Campari"), ml(30, "Sweet vermouth")}}
	mojito = drinkart.Drink{Name: "Mojito", Glass: "Highball", Ice: "crushed", Garnish: "Mint sprig, lime wheel",
		Ingredients: []drinkart.Ingredient{ml(45, "White rum"), ml(20, "Lime juice"), ml(15, "Sugar syrup"), {Name: "Mint", Amount: 8, Unit: "leaf"}, ml(60, "Soda water")}}
	virginMojito = drinkart.Drink{Name: "Virgin Mojito", Glass: "Highball", Ice: "crushed", Garnish: "Mint sprig, lime wheel",
		Ingredients: []drinkart.Ingredient{ml(25, "Lime juice"), ml(20, "Sugar syrup"), ml(120, "Soda water")}}
	shirley = drinkart.Drink{Name: "Shirley Temple", Glass: "Highball", Ice: "cubes", Garnish: "Cocktail cherry",
		Ingredients: []drinkart.Ingredient{ml(150, "Ginger ale"), ml(15, "Grenadine")}}
	espressoMartini = drinkart.Drink{Name: "Espresso Martini", Glass: "Coupe (chilled)", Ice: "none", Garnish: "Three coffee beans",
		Ingredients: []drinkart.Ingredient{ml(50, "Vodka"), ml(30, "Espresso"), ml(20, "Coffee liqueur")}}
	mule = drinkart.Drink{Name: "Moscow Mule", Glass: "Copper mug", Ice: "cubes", Garnish: "Lime wedge",
		Ingredients: []drinkart.Ingredient{ml(45, "Vodka"), ml(120, "Ginger beer"), ml(10, "Lime juice")}}
)

func reddish(c color.RGBA) bool { return int(c.R) > int(c.G)+60 && int(c.R) > int(c.B)+60 }
func greenish(c color.RGBA) bool {
	return int(c.G) >= int(c.R) && int(c.G) >= int(c.B)
}
func dark(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 200 }
func pale(c color.RGBA) bool { return c.R > 200 && c.G > 200 && c.B > 180 }

func TestPlanOf(t *testing.T) {
	tests := []struct {
		d         drinkart.Drink
		glass     drinkart.Glass
		ice       string
		garnishes []string
		liquid    func(color.RGBA) bool
		sparkling bool
	}{
		{negroni, drinkart.Rocks, "large", []string{"orange-wheel"}, reddish, false},
		{mojito, drinkart.Highball, "crushed", []string{"mint", "lime-wheel"}, pale, true},
		{virginMojito, drinkart.Highball, "crushed", []string{"mint", "lime-wheel"}, func(c color.RGBA) bool { return pale(c) && greenish(c) }, true},
		{shirley, drinkart.Highball, "cubes", []string{"cherry"}, func(c color.RGBA) bool { return c.R > c.B+40 }, true},
		{espressoMartini, drinkart.Coupe, "none", []string{"coffee"}, dark, false},
		{mule, drinkart.Mug, "cubes", []string{"lime-wedge"}, func(c color.RGBA) bool { return c.R > 200 && c.G > 180 }, true},
		{drinkart.Drink{Name: "Dry Martini", Glass: "Martini glass (chilled)", Garnish: "Lemon twist", Ingredients: []drinkart.Ingredient{ml(60, "Gin"), ml(10, "Dry vermouth")}},
			drinkart.Martini, "none", []string{"lemon-peel"}, pale, false},
		{drinkart.Drink{Name: "Margarita", Glass: "Coupe, salted rim", Garnish: "Salt rim, lime wheel", Ingredients: []drinkart.Ingredient{ml(50, "Tequila blanco"), ml(20, "Cointreau"), ml(15, "Lime juice")}},
			drinkart.Coupe, "none", []string{"salt", "lime-wheel"}, pale, false},
		{drinkart.Drink{Name: "Gin & Tonic", Glass: "Highball or copa", Ice: "cubes", Garnish: "Lime wedge"}, drinkart.Highball, "cubes", []string{"lime-wedge"}, pale, false},
		{drinkart.Drink{Name: "Piña Colada", Glass: "Hurricane glass", Ice: "crushed", Garnish: "Pineapple wedge", Ingredients: []drinkart.Ingredient{ml(50, "White rum"), ml(30, "Coconut cream"), ml(50, "Pineapple juice")}},
			drinkart.Hurricane, "crushed", []string{"pineapple"}, func(c color.RGBA) bool { return c.R > 220 && c.B < 220 }, false},
		{drinkart.Drink{Name: "Kir Royale", Glass: "Flute", Ingredients: []drinkart.Ingredient{ml(15, "Crème de cassis"), ml(120, "Champagne")}},
			drinkart.Flute, "none", nil, func(c color.RGBA) bool { return c.R > c.G+40 }, true},
		{drinkart.Drink{Name: "Aperol Spritz", Glass: "Wine glass", Ice: "cubes", Ingredients: []drinkart.Ingredient{ml(60, "Aperol"), ml(90, "Prosecco"), ml(30, "Soda water")}},
			drinkart.Wine, "cubes", nil, func(c color.RGBA) bool { return c.R > 200 && c.G < 150 }, true},
		{drinkart.Drink{Name: "B-52", Glass: "Shot glass"}, drinkart.Shot, "none", nil, pale, false},
		// No glass named: a sparkling drink is long, one served up a coupe.
		{drinkart.Drink{Name: "Lemonade", Ingredients: []drinkart.Ingredient{ml(150, "Soda water"), ml(30, "Lemon juice")}, Ice: "cubes"}, drinkart.Highball, "cubes", nil, pale, true},
		{drinkart.Drink{Name: "Up", Ice: "none"}, drinkart.Coupe, "none", nil, pale, false},
		{drinkart.Drink{Name: "Over ice", Ice: "cubes"}, drinkart.Rocks, "cubes", nil, pale, false},
	}
	for _, tt := range tests {
		t.Run(tt.d.Name, func(t *testing.T) {
			p := drinkart.PlanOf(tt.d)
			if p.Glass != tt.glass || p.Ice != tt.ice || !slices.Equal(p.Garnishes, tt.garnishes) || p.Sparkling != tt.sparkling {
				t.Errorf("got %s, %s ice, %v, sparkling %v; want %s, %s ice, %v, sparkling %v", p.Glass, p.Ice, p.Garnishes, p.Sparkling, tt.glass, tt.ice, tt.garnishes, tt.sparkling)
			}
			if !tt.liquid(p.Liquid) {
				t.Errorf("liquid %v is not the colour expected", p.Liquid)
			}
		})
	}
}

func TestFoam(t *testing.T) {
	sour := drinkart.Drink{Name: "Whiskey Sour", Ingredients: []drinkart.Ingredient{ml(50, "Bourbon"), ml(25, "Lemon juice"), ml(20, "Egg white")}}
	if p := drinkart.PlanOf(sour); p.Foam.A == 0 || !pale(p.Foam) {
		t.Errorf("a sour's foam: %v", p.Foam)
	}
	if p := drinkart.PlanOf(espressoMartini); p.Foam.A == 0 {
		t.Error("an espresso martini has no crema")
	}
	if p := drinkart.PlanOf(negroni); p.Foam.A != 0 {
		t.Errorf("a Negroni has foam %v", p.Foam)
	}
}

// element is an SVG element as the test reads it.
type element struct {
	name  string
	attrs map[string]string
}

// parse reads svg as XML (failing the test when it is not) into its
// elements.
func parse(t *testing.T, svg []byte) []element {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	var out []element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			e := element{name: se.Name.Local, attrs: map[string]string{}}
			for _, a := range se.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out = append(out, e)
		}
	}
	return out
}

func withClass(es []element, class string) []element {
	var out []element
	for _, e := range es {
		if slices.Contains(strings.Fields(e.attrs["class"]), class) {
			out = append(out, e)
		}
	}
	return out
}

func TestSVG(t *testing.T) {
	tests := []struct {
		d       drinkart.Drink
		classes []string
		absent  []string
	}{
		{negroni, []string{"glass", "rocks", "liquid", "large", "orange-wheel"}, []string{"bubbles", "stem", "foam"}},
		{mojito, []string{"glass", "highball", "crushed", "mint", "lime-wheel", "bubbles"}, []string{"stem"}},
		{espressoMartini, []string{"glass", "coupe", "stem", "foot", "coffee", "foam"}, []string{"ice"}},
		{mule, []string{"glass", "mug", "cubes", "lime-wedge"}, nil},
		{shirley, []string{"highball", "cherry", "cubes"}, []string{"mint"}},
	}
	for _, tt := range tests {
		t.Run(tt.d.Name, func(t *testing.T) {
			svg := drinkart.SVG(tt.d)
			es := parse(t, svg)
			if len(es) == 0 || es[0].name != "svg" || es[0].attrs["viewBox"] != "0 0 240 300" {
				t.Fatalf("root %+v", es[0])
			}
			for _, c := range tt.classes {
				if len(withClass(es, c)) == 0 {
					t.Errorf("no element of class %q", c)
				}
			}
			for _, c := range tt.absent {
				if len(withClass(es, c)) != 0 {
					t.Errorf("an element of class %q", c)
				}
			}
			liquid := withClass(es, "liquid")
			if len(liquid) != 1 || liquid[0].attrs["fill"] != es[0].attrs["data-liquid"] {
				t.Errorf("liquid %+v, root says %q", liquid, es[0].attrs["data-liquid"])
			}
			if !bytes.Equal(svg, drinkart.SVG(tt.d)) {
				t.Error("two drawings of the same drink differ")
			}
		})
	}
}

// A drawing is served from barhub's own origin: nothing in it may run,
// load or link anything, whatever the host typed.
func TestSVGIsInert(t *testing.T) {
	d := negroni
	d.Name = `</title><script>alert(1)</script><a href="javascript:x" onload="y">&amp`
	d.Garnish = `<script>mint</script>, cherry" onload="x`
	d.Glass = `"><script>`
	svg := drinkart.SVG(d)
	es := parse(t, svg)
	for _, e := range es {
		switch e.name {
		case "script", "a", "image", "use", "foreignObject", "iframe", "style":
			t.Errorf("element %s", e.name)
		}
		for k, v := range e.attrs {
			if strings.HasPrefix(strings.ToLower(k), "on") || k == "href" || strings.Contains(v, "url(") && !strings.HasPrefix(v, "url(#") {
				t.Errorf("attribute %s=%q on %s", k, v, e.name)
			}
		}
	}
	if !strings.Contains(string(svg), "&lt;script&gt;") {
		t.Errorf("the name is not escaped: %s", svg)
	}
}

func TestDrawingsDiffer(t *testing.T) {
	a, b := drinkart.SVG(negroni), drinkart.SVG(mojito)
	if drinkart.Hash(a) == drinkart.Hash(b) || len(drinkart.Hash(a)) != 16 {
		t.Errorf("hashes %s and %s", drinkart.Hash(a), drinkart.Hash(b))
	}
}

func TestMixIgnoresNonsense(t *testing.T) {
	c := drinkart.Mix([]drinkart.Ingredient{{Name: "Gin", Amount: -5, Unit: "ml"}, {Name: "Campari", Amount: 1e300, Unit: "ml"}, {Name: "x", Amount: 3, Unit: "furlong"}})
	if !reddish(c) {
		t.Errorf("mix %v", c)
	}
}

func BenchmarkSVG(b *testing.B) {
	for b.Loop() {
		drinkart.SVG(mojito)
	}
}

func TestPNG(t *testing.T) {
	for _, tt := range []struct {
		d      drinkart.Drink
		liquid func(color.RGBA) bool
		x, y   int // a point in the liquid, on the 240×300 canvas
	}{
		{negroni, reddish, 90, 240},
		{espressoMartini, func(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 260 }, 120, 150},
		{shirley, func(c color.RGBA) bool { return c.R > c.B+30 }, 100, 230},
	} {
		t.Run(tt.d.Name, func(t *testing.T) {
			raw, err := drinkart.PNG(tt.d, 240)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(raw))
			if err != nil || img.Bounds().Dx() != 240 || img.Bounds().Dy() != 300 {
				t.Fatalf("%v, %v", err, img)
			}
			r, g, b, _ := img.At(tt.x, tt.y).RGBA()
			if c := (color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}); !tt.liquid(c) {
				t.Errorf("the liquid at %d,%d is %v", tt.x, tt.y, c)
			}
			// The background's corner is the pale backdrop.
			if r, g, b, _ := img.At(2, 2).RGBA(); r>>8 < 230 || g>>8 < 230 || b>>8 < 220 {
				t.Errorf("the corner is %d,%d,%d", r>>8, g>>8, b>>8)
			}
			again, _ := drinkart.PNG(tt.d, 240)
			if !bytes.Equal(raw, again) {
				t.Error("two PNGs of the same drink differ")
			}
		})
	}
}

func BenchmarkPNG(b *testing.B) {
	for b.Loop() {
		drinkart.PNG(mojito, 480)
	}
}
