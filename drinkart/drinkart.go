// Package drinkart draws a drink barhub has no photo of: the glass its
// recipe names, filled with the colour its ingredients mix to, with its
// ice and garnish, as a small SVG. It needs nothing but the recipe, so
// every drink has a picture without a camera or an image model.
//
// The drawing is deterministic (the same drink gives the same bytes, so
// it can be cached by its hash) and safe to serve from the site's own
// origin: no scripts, no links, no external references, and every text
// escaped.
package drinkart

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Drink is what a drawing is made from.
type Drink struct {
	Name        string
	Glass       string // "Coupe (chilled)", "Highball", "Copper mug"
	Garnish     string // "Mint sprig, lime wheel"
	Ice         string // none, cubes, crushed, large
	Ingredients []Ingredient
}

// Ingredient is one line of the recipe.
type Ingredient struct {
	Name   string
	Amount float64
	Unit   string
}

// Glass is a kind of glass drinkart knows how to draw.
type Glass string

// The glasses drawn.
const (
	Rocks     Glass = "rocks"
	Highball  Glass = "highball"
	Coupe     Glass = "coupe"
	Martini   Glass = "martini"
	Wine      Glass = "wine"
	Flute     Glass = "flute"
	Mug       Glass = "mug"
	Hurricane Glass = "hurricane"
	Shot      Glass = "shot"
)

// Picture is what will be drawn, worked out from a Drink; tests and
// callers read it without parsing the SVG.
type Picture struct {
	Glass  Glass
	Liquid color.RGBA // A is the liquid's opacity
	// Ice is none, cubes, crushed or large.
	Ice string
	// Garnishes are the garnish kinds drawn, in the recipe's order:
	// lemon-wheel, lime-wedge, orange-peel, cherry, mint, olive, coffee,
	// celery, pineapple, salt, bitters.
	Garnishes []string
	Sparkling bool
	// Foam is the colour of a foam or crema layer, zero for none.
	Foam color.RGBA
}

// glassWords maps words of a glass's name to the glass drawn; the word
// that comes first in the name wins ("Highball or copa" is a highball).
var glassWords = []struct {
	word  string
	glass Glass
}{
	{"martini", Martini}, {"cocktail glass", Martini}, {"coupe", Coupe}, {"nick", Coupe},
	{"flute", Flute}, {"wine", Wine}, {"copa", Wine}, {"balloon", Wine}, {"goblet", Wine},
	{"highball", Highball}, {"collins", Highball}, {"tall", Highball}, {"sling", Highball},
	{"mug", Mug}, {"cup", Mug}, {"hurricane", Hurricane}, {"tiki", Hurricane}, {"poco", Hurricane},
	{"shot", Shot}, {"rocks", Rocks}, {"old fashioned", Rocks}, {"tumbler", Rocks}, {"lowball", Rocks},
}

// GlassOf names the glass to draw for a recipe's glass, guessing from
// the ice and the mixers when the recipe names none the table knows.
func GlassOf(d Drink) Glass {
	name := strings.ToLower(d.Glass)
	best, at := Glass(""), len(name)+1
	for _, g := range glassWords {
		if i := strings.Index(name, g.word); i >= 0 && i < at {
			best, at = g.glass, i
		}
	}
	if best != "" {
		return best
	}
	switch {
	case sparkling(d):
		return Highball
	case d.Ice == "" || d.Ice == "none":
		return Coupe
	}
	return Rocks
}

// tint is an ingredient's colour and how strongly it colours a mix per
// millilitre (clear spirits barely, Campari or cola a great deal).
type tint struct {
	c        color.RGBA
	strength float64
}

func rgb(hex string) color.RGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}

// tints is the ingredient → colour table; the longest name contained in
// an ingredient's name wins ("orange juice" before "orange").
var tints = map[string]tint{
	"campari":             {rgb("#c8102e"), 3},
	"aperol":              {rgb("#f2561d"), 2.5},
	"sweet vermouth":      {rgb("#7a1f1a"), 1.5},
	"dry vermouth":        {rgb("#efe8c0"), 0.2},
	"vermouth":            {rgb("#b0502a"), 1},
	"gin":                 {rgb("#f4f6f2"), 0.15},
	"vodka":               {rgb("#f4f6f2"), 0.15},
	"white rum":           {rgb("#f4f6f2"), 0.15},
	"tequila":             {rgb("#f3f1e2"), 0.15},
	"pisco":               {rgb("#f4f6f2"), 0.15},
	"cachaça":             {rgb("#f4f6f2"), 0.15},
	"soda":                {rgb("#f2f6f6"), 0.1},
	"tonic":               {rgb("#eef4f4"), 0.12},
	"water":               {rgb("#f2f6f6"), 0.1},
	"prosecco":            {rgb("#f3e6a6"), 0.4},
	"champagne":           {rgb("#f1e2a0"), 0.4},
	"sparkling wine":      {rgb("#f1e2a0"), 0.4},
	"bourbon":             {rgb("#b5651d"), 1.2},
	"whiskey":             {rgb("#b5651d"), 1.2},
	"whisky":              {rgb("#b5651d"), 1.2},
	"cognac":              {rgb("#a4521b"), 1.2},
	"brandy":              {rgb("#a4521b"), 1.2},
	"aged rum":            {rgb("#a0522d"), 1.2},
	"dark rum":            {rgb("#4a2511"), 2},
	"rum":                 {rgb("#d8b080"), 0.4},
	"cointreau":           {rgb("#f4f2e6"), 0.15},
	"triple sec":          {rgb("#f4f2e6"), 0.15},
	"orange curaçao":      {rgb("#e8902c"), 0.6},
	"maraschino":          {rgb("#f4f2ea"), 0.1},
	"chartreuse":          {rgb("#8fbf3a"), 1.5},
	"angostura":           {rgb("#6b1410"), 2},
	"bitters":             {rgb("#b4401e"), 1.5},
	"coffee liqueur":      {rgb("#2b1408"), 2.5},
	"espresso":            {rgb("#2a160c"), 3},
	"coffee":              {rgb("#2a160c"), 3},
	"cola":                {rgb("#3b1e0e"), 2.5},
	"cream":               {rgb("#f4ecdc"), 2},
	"milk":                {rgb("#f6f2e8"), 2},
	"coconut":             {rgb("#f7f3ea"), 2},
	"lemon juice":         {rgb("#f3eb9c"), 0.4},
	"lime juice":          {rgb("#d4e7a1"), 0.4},
	"lime":                {rgb("#cfe39a"), 0.3},
	"lemon":               {rgb("#f3eb9c"), 0.3},
	"orange juice":        {rgb("#f7a12a"), 1.2},
	"orange":              {rgb("#f7a12a"), 0.6},
	"pineapple":           {rgb("#f5d96b"), 1},
	"cranberry":           {rgb("#b0183a"), 1.6},
	"tomato":              {rgb("#c4311e"), 2.5},
	"grapefruit":          {rgb("#f4c4b0"), 0.5},
	"ginger beer":         {rgb("#e6cf8f"), 0.5},
	"ginger ale":          {rgb("#e4be6c"), 0.6},
	"grenadine":           {rgb("#c0112a"), 3},
	"raspberry":           {rgb("#c0244a"), 2},
	"strawberry":          {rgb("#d8304a"), 2},
	"orgeat":              {rgb("#f1e9d8"), 0.5},
	"elderflower":         {rgb("#f1e9b0"), 0.3},
	"cassis":              {rgb("#5a0f35"), 4},
	"amaretto":            {rgb("#a8561e"), 1.2},
	"amaro":               {rgb("#8a3f1c"), 1.4},
	"egg white":           {rgb("#f6f1e4"), 0.3},
	"syrup":               {rgb("#f6f0dc"), 0.1},
	"honey":               {rgb("#e0a030"), 1},
	"worcestershire":      {rgb("#3a1a0a"), 2},
	"tabasco":             {rgb("#c02010"), 2},
	"blue curaçao":        {rgb("#1f7fd0"), 3},
	"apple":               {rgb("#e8d890"), 0.6},
	"cider":               {rgb("#e0b860"), 0.6},
	"beer":                {rgb("#e0a838"), 0.8},
	"red wine":            {rgb("#6e0f1e"), 2.5},
	"white wine":          {rgb("#f0e6a8"), 0.4},
	"rosé":                {rgb("#f4a8a8"), 0.8},
	"peach":               {rgb("#f6b880"), 0.8},
	"passion fruit":       {rgb("#f0b030"), 1},
	"mango":               {rgb("#f4b030"), 1.2},
	"hibiscus":            {rgb("#a01848"), 2},
	"matcha":              {rgb("#8aab3a"), 2},
	"tea":                 {rgb("#b8742a"), 1},
	"chocolate":           {rgb("#4a2410"), 2.5},
	"melon":               {rgb("#9ad060"), 1.5},
	"sugar":               {rgb("#ffffff"), 0},
	"salt":                {rgb("#ffffff"), 0},
	"mint":                {rgb("#cfe6b0"), 0.1},
	"cucumber":            {rgb("#d8ecc0"), 0.3},
	"celery":              {rgb("#d8ecc0"), 0},
	"pepper":              {rgb("#ffffff"), 0},
	"cherry":              {rgb("#b3122e"), 0.5},
	"blackberry":          {rgb("#40102a"), 2},
	"blueberry":           {rgb("#30205a"), 2},
	"ginger":              {rgb("#e6cf8f"), 0.4},
	"lemonade":            {rgb("#f3eeb0"), 0.3},
	"cranberry juice":     {rgb("#b0183a"), 1.6},
	"pomegranate":         {rgb("#a0142e"), 2},
	"elderflower cordial": {rgb("#f1e9b0"), 0.3},
}

// tintKeys are the table's names, longest first, so the most specific
// name is tried first.
var tintKeys = func() []string {
	ks := make([]string, 0, len(tints))
	for k := range tints {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if len(ks[i]) != len(ks[j]) {
			return len(ks[i]) > len(ks[j])
		}
		return ks[i] < ks[j]
	})
	return ks
}()

// unknownTint colours an ingredient the table does not know: a pale
// straw, faint.
var unknownTint = tint{rgb("#e8dcb0"), 0.3}

func tintOf(name string) tint {
	n := strings.ToLower(name)
	for _, k := range tintKeys {
		if strings.Contains(n, k) {
			return tints[k]
		}
	}
	return unknownTint
}

// millilitres is how much of the glass an ingredient fills; garnish-like
// units (a leaf, a pinch) add a little colour, muddled fruit more.
func millilitres(in Ingredient) float64 {
	a := in.Amount
	if a <= 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	a = min(a, 1000)
	switch strings.ToLower(strings.TrimSpace(in.Unit)) {
	case "ml", "":
		return a
	case "cl":
		return a * 10
	case "oz":
		return a * 30
	case "dash", "dashes", "drop", "drops":
		return a
	case "tsp", "barspoon":
		return a * 5
	case "tbsp":
		return a * 15
	case "piece", "pieces", "wedge", "wedges":
		return a * 5
	}
	return 0
}

// Mix is the colour of d's ingredients mixed by amount, each weighed by
// how strongly it colours; its alpha is how deeply coloured the mix is.
func Mix(ings []Ingredient) color.RGBA {
	var r, g, b, w, vol float64
	for _, in := range ings {
		ml := millilitres(in)
		if ml == 0 {
			continue
		}
		t := tintOf(in.Name)
		vol += ml
		k := ml * t.strength
		w += k
		r += k * float64(t.c.R)
		g += k * float64(t.c.G)
		b += k * float64(t.c.B)
	}
	if w == 0 {
		return color.RGBA{238, 240, 236, 110}
	}
	density := w / vol
	alpha := 0.35 + 0.6*min(density/1.2, 1)
	return color.RGBA{uint8(math.Round(r / w)), uint8(math.Round(g / w)), uint8(math.Round(b / w)), uint8(math.Round(alpha * 255))}
}

var sparklers = []string{"soda", "tonic", "prosecco", "champagne", "sparkling", "ginger beer", "ginger ale", "cola", "lemonade", "cava", "fizz"}

func sparkling(d Drink) bool {
	for _, in := range d.Ingredients {
		n := strings.ToLower(in.Name)
		for _, s := range sparklers {
			if strings.Contains(n, s) {
				return true
			}
		}
	}
	return false
}

// foamOf is the colour of a foam layer: an egg white's, cream's or an
// espresso's crema.
func foamOf(d Drink) color.RGBA {
	var egg, espresso, aquafaba bool
	for _, in := range d.Ingredients {
		n := strings.ToLower(in.Name)
		egg = egg || strings.Contains(n, "egg white")
		aquafaba = aquafaba || strings.Contains(n, "aquafaba")
		espresso = espresso || strings.Contains(n, "espresso")
	}
	switch {
	case egg || aquafaba:
		return rgb("#f7f1e3")
	case espresso && !sparkling(d):
		return rgb("#c8945e")
	}
	return color.RGBA{}
}

// Garnishes reads a recipe's garnish into the kinds drawn, in order,
// each once.
func Garnishes(s string) []string {
	var out []string
	add := func(k string) {
		for _, have := range out {
			if have == k {
				return
			}
		}
		out = append(out, k)
	}
	for _, part := range splitGarnish(strings.ToLower(s)) {
		fruit := ""
		for _, f := range []string{"grapefruit", "lemon", "lime", "orange"} {
			if strings.Contains(part, f) {
				fruit = f
				break
			}
		}
		switch {
		case strings.Contains(part, "salt") || strings.Contains(part, "sugar rim"):
			add("salt")
		case strings.Contains(part, "mint"):
			add("mint")
		case strings.Contains(part, "cherry") || strings.Contains(part, "cherries"):
			add("cherry")
		case strings.Contains(part, "olive"):
			add("olive")
		case strings.Contains(part, "coffee bean") || strings.Contains(part, "beans"):
			add("coffee")
		case strings.Contains(part, "celery") || strings.Contains(part, "cucumber"):
			add("celery")
		case strings.Contains(part, "pineapple"):
			add("pineapple")
		case strings.Contains(part, "bitters"):
			add("bitters")
		case fruit != "":
			form := "wheel"
			switch {
			case strings.Contains(part, "peel") || strings.Contains(part, "twist") || strings.Contains(part, "zest"):
				form = "peel"
			case strings.Contains(part, "wedge") || strings.Contains(part, "shell"):
				form = "wedge"
			}
			add(fruit + "-" + form)
		}
	}
	return out
}

func splitGarnish(s string) []string {
	s = strings.NewReplacer(" and ", ",", "+", ",", ";", ",", "&", ",", " with ", ",").Replace(s)
	return strings.Split(s, ",")
}

// PlanOf works out the picture of d.
func PlanOf(d Drink) Picture {
	ice := strings.ToLower(strings.TrimSpace(d.Ice))
	switch ice {
	case "cubes", "crushed", "large":
	default:
		ice = "none"
	}
	return Picture{
		Glass:     GlassOf(d),
		Liquid:    Mix(d.Ingredients),
		Ice:       ice,
		Garnishes: Garnishes(d.Garnish),
		Sparkling: sparkling(d),
		Foam:      foamOf(d),
	}
}

// Hash names a drawing: the first 16 hex digits of its SHA-256, for an
// ETag or a URL's version.
func Hash(svg []byte) string {
	sum := sha256.Sum256(svg)
	return hex.EncodeToString(sum[:8])
}

// ContentType is the drawing's media type.
const ContentType = "image/svg+xml"

// SVG draws d.
func SVG(d Drink) []byte {
	p := PlanOf(d)
	return render(d.Name, p)
}

// shape is a glass as drawn on the 240×300 canvas.
type shape struct {
	outline string  // the glass, stroked
	bowl    string  // where liquid can be, closed
	top     float64 // the liquid's surface
	left    float64 // the surface's ends
	right   float64
	bottom  float64 // the bowl's lowest point
	rimY    float64
	rimL    float64
	rimR    float64
	stem    float64 // where a stem starts (0: none)
}

var shapes = map[Glass]shape{
	Rocks: {outline: "M62 140 L66 268 L174 268 L178 140 M67 256 L173 256",
		bowl: "M64 142 L67.5 256 L172.5 256 L176 142 Z", top: 168, left: 65, right: 175, bottom: 256, rimY: 140, rimL: 62, rimR: 178},
	Highball: {outline: "M78 58 L80 268 L160 268 L162 58 M81 256 L159 256",
		bowl: "M80 60 L81 256 L159 256 L160 60 Z", top: 84, left: 80, right: 160, bottom: 256, rimY: 58, rimL: 78, rimR: 162},
	Coupe: {outline: "M50 110 Q52 170 120 172 Q188 170 190 110",
		bowl: "M52 112 Q55 167 120 169 Q185 167 188 112 Z", top: 122, left: 53, right: 187, bottom: 169, rimY: 110, rimL: 50, rimR: 190, stem: 172},
	Martini: {outline: "M40 85 L120 165 L200 85",
		bowl: "M44 87 L120 161 L196 87 Z", top: 98, left: 56, right: 184, bottom: 161, rimY: 85, rimL: 40, rimR: 200, stem: 165},
	Wine: {outline: "M70 70 Q58 150 96 178 Q120 192 144 178 Q182 150 170 70",
		bowl: "M72 72 Q61 148 98 175 Q120 188 142 175 Q179 148 168 72 Z", top: 122, left: 66, right: 174, bottom: 186, rimY: 70, rimL: 70, rimR: 170, stem: 186},
	Flute: {outline: "M96 48 Q92 140 112 170 L128 170 Q148 140 144 48",
		bowl: "M98 50 Q95 138 113 167 L127 167 Q145 138 142 50 Z", top: 70, left: 97, right: 143, bottom: 167, rimY: 48, rimL: 96, rimR: 144, stem: 170},
	Mug: {outline: "M62 118 L62 262 Q62 268 68 268 L156 268 Q162 268 162 262 L162 118 M162 148 C204 148 204 232 162 232",
		bowl: "M64 120 L64 264 L160 264 L160 120 Z", top: 128, left: 64, right: 160, bottom: 264, rimY: 118, rimL: 62, rimR: 162},
	Hurricane: {outline: "M82 58 Q66 112 92 150 Q104 168 90 200 Q82 232 102 242 L138 242 Q158 232 150 200 Q136 168 148 150 Q174 112 158 58",
		bowl: "M84 60 Q69 112 94 150 Q106 168 92 200 Q85 230 103 240 L137 240 Q155 230 148 200 Q134 168 146 150 Q171 112 156 60 Z", top: 80, left: 78, right: 162, bottom: 240, rimY: 58, rimL: 82, rimR: 158, stem: 242},
	Shot: {outline: "M94 188 L98 268 L142 268 L146 188 M98 256 L142 256",
		bowl: "M96 190 L99 256 L141 256 L144 190 Z", top: 204, left: 97, right: 143, bottom: 256, rimY: 188, rimL: 94, rimR: 146},
}

func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

func hexOf(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func lighter(c color.RGBA, k float64) color.RGBA {
	f := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (255-float64(v))*k)) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), c.A}
}

func escape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			// XML 1.0 allows only these control characters.
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

func render(name string, p Picture) []byte {
	s, ok := shapes[p.Glass]
	if !ok {
		s = shapes[Rocks]
	}
	// Ids are the drawing's own, so drawings inlined in one page do not
	// take each other's clip paths.
	h := fnv.New32a()
	io.WriteString(h, name+"\x00"+string(p.Glass))
	id := fmt.Sprintf("%08x", h.Sum32())
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 300" width="240" height="300" role="img" aria-label="%s" data-glass="%s" data-liquid="%s">`,
		escape(name), p.Glass, hexOf(p.Liquid))
	w(`<title>%s</title>`, escape(name))
	w(`<defs><linearGradient id="bg-%s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6f3ee"/><stop offset="1" stop-color="#e6e0d6"/></linearGradient>`, id)
	w(`<clipPath id="bowl-%s"><path d="%s"/></clipPath></defs>`, id, s.bowl)
	w(`<rect class="background" width="240" height="300" fill="url(#bg-%s)"/>`, id)
	w(`<ellipse class="shadow" cx="120" cy="272" rx="76" ry="7" fill="#000" fill-opacity="0.08"/>`)

	// The liquid, its ice and bubbles, inside the bowl.
	cx, wd := (s.left+s.right)/2, s.right-s.left
	w(`<g clip-path="url(#bowl-%s)">`, id)
	w(`<rect class="liquid" x="0" y="%s" width="240" height="%s" fill="%s" fill-opacity="%s"/>`,
		num(s.top), num(300-s.top), hexOf(p.Liquid), num(float64(p.Liquid.A)/255))
	w(`<rect class="surface" x="0" y="%s" width="240" height="3" fill="%s" fill-opacity="0.7"/>`, num(s.top), hexOf(lighter(p.Liquid, 0.5)))
	if p.Foam.A != 0 {
		w(`<rect class="foam" x="0" y="%s" width="240" height="9" fill="%s"/>`, num(s.top), hexOf(p.Foam))
	}
	depth := s.bottom - s.top
	switch p.Ice {
	case "cubes":
		size := math.Min(34, wd*0.34)
		w(`<g class="ice cubes" fill="#ffffff" fill-opacity="0.35" stroke="#ffffff" stroke-opacity="0.8" stroke-width="1.5">`)
		for i, at := range [][3]float64{{-0.3, 0.06, 8}, {0.04, 0.02, -12}, {-0.12, 0.34, 5}} {
			x, y := cx+at[0]*wd, s.top+at[1]*depth-4
			if i == 2 && depth < 3*size {
				continue
			}
			w(`<rect x="%s" y="%s" width="%s" height="%s" rx="4" transform="rotate(%s %s %s)"/>`,
				num(x), num(y), num(size), num(size), num(at[2]), num(x+size/2), num(y+size/2))
		}
		w(`</g>`)
	case "large":
		size := math.Min(66, wd*0.6)
		x, y := cx-size/2, s.top-6
		w(`<g class="ice large" fill="#ffffff" fill-opacity="0.3" stroke="#ffffff" stroke-opacity="0.85" stroke-width="1.5"><rect x="%s" y="%s" width="%s" height="%s" rx="6" transform="rotate(4 %s %s)"/></g>`,
			num(x), num(y), num(size), num(size), num(cx), num(y+size/2))
	case "crushed":
		w(`<g class="ice crushed" fill="#ffffff" fill-opacity="0.45" stroke="#ffffff" stroke-opacity="0.7">`)
		for i := range 18 {
			// A fixed scatter: golden-ratio steps across, rows down.
			fx := math.Mod(float64(i)*0.618034, 1)
			fy := float64(i/6) / 3
			x := s.left + 4 + fx*(wd-16)
			y := s.top - 4 + fy*math.Min(depth*0.8, 80)
			w(`<path d="M%s %s l9 -3 l4 8 l-8 5 z"/>`, num(x), num(y))
		}
		w(`</g>`)
	}
	if p.Sparkling {
		w(`<g class="bubbles" fill="#ffffff" fill-opacity="0.7">`)
		for i := range 9 {
			fx := math.Mod(float64(i)*0.381966+0.2, 1)
			fy := math.Mod(float64(i)*0.7236, 1)
			w(`<circle cx="%s" cy="%s" r="%s"/>`, num(s.left+6+fx*(wd-12)), num(s.top+12+fy*(depth-20)), num(1.5+float64(i%3)*0.7))
		}
		w(`</g>`)
	}
	w(`</g>`)

	// The glass over its contents: a faint body, a clear outline, a
	// highlight; a copper mug hides what is in it below the rim.
	if p.Glass == Mug {
		w(`<path class="glass mug" d="%s" fill="#b87333" stroke="#8a4f22" stroke-width="4" stroke-linejoin="round"/>`, s.outline)
		w(`<path d="M162 148 C204 148 204 232 162 232" fill="none" stroke="#b87333" stroke-width="10"/>`)
		w(`<ellipse class="surface" cx="112" cy="%s" rx="48" ry="5" fill="%s"/>`, num(s.top-4), hexOf(p.Liquid))
		w(`<path d="M74 130 L74 250" stroke="#e0a070" stroke-width="5" stroke-linecap="round" stroke-opacity="0.7"/>`)
	} else {
		w(`<path class="glass %s" d="%s" fill="#ffffff" fill-opacity="0.12" stroke="#6f7a80" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>`, p.Glass, s.outline)
		w(`<path d="M%s %s L%s %s" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-opacity="0.6"/>`,
			num(s.rimL+9), num(s.rimY+14), num(s.rimL+11), num(math.Min(s.rimY+60, s.bottom-14)))
	}
	if s.stem > 0 {
		w(`<path class="stem" d="M120 %s L120 262" stroke="#6f7a80" stroke-width="3"/><ellipse class="foot" cx="120" cy="264" rx="38" ry="5" fill="#ffffff" fill-opacity="0.3" stroke="#6f7a80" stroke-width="2.5"/>`, num(s.stem))
	}
	for _, g := range p.Garnishes {
		garnish(&b, g, s)
	}
	w(`</svg>`)
	return b.Bytes()
}

var citrus = map[string][2]string{ // rind, flesh
	"lemon":      {"#f2d13a", "#fbeea0"},
	"lime":       {"#5aa02c", "#c6e48a"},
	"orange":     {"#f08a1c", "#fbc070"},
	"grapefruit": {"#f07a5a", "#f8b8a0"},
}

func garnish(b *bytes.Buffer, kind string, s shape) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	cx := (s.left + s.right) / 2
	if fruit, form, ok := strings.Cut(kind, "-"); ok {
		c := citrus[fruit]
		switch form {
		case "wheel":
			x, y := s.rimR-8, s.rimY
			w(`<g class="garnish %s"><circle cx="%s" cy="%s" r="20" fill="%s"/><circle cx="%s" cy="%s" r="16" fill="%s"/>`, kind, num(x), num(y), c[0], num(x), num(y), c[1])
			for i := range 6 {
				a := float64(i) * math.Pi / 3
				w(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`, num(x), num(y), num(x+15*math.Cos(a)), num(y+15*math.Sin(a)), c[0])
			}
			w(`</g>`)
		case "wedge":
			x, y := s.rimR-4, s.rimY
			w(`<g class="garnish %s"><path d="M%s %s a20 20 0 0 0 40 0 z" fill="%s" transform="rotate(-30 %s %s)"/><path d="M%s %s a16 16 0 0 0 32 0 z" fill="%s" transform="rotate(-30 %s %s)"/></g>`,
				kind, num(x-20), num(y), c[0], num(x), num(y), num(x-16), num(y), c[1], num(x), num(y))
		default: // peel
			w(`<path class="garnish %s" d="M%s %s q12 -16 24 -6 t24 -6" fill="none" stroke="%s" stroke-width="5" stroke-linecap="round"/>`,
				kind, num(s.rimR-44), num(s.rimY-4), c[0])
		}
		return
	}
	switch kind {
	case "salt":
		w(`<line class="garnish salt" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ffffff" stroke-width="5" stroke-dasharray="2 2" stroke-linecap="round"/>`,
			num(s.rimL+2), num(s.rimY), num(s.rimR-2), num(s.rimY))
	case "mint":
		x, y := cx-18, s.top-6
		w(`<g class="garnish mint" fill="#3f9b4a"><path d="M%s %s L%s %s" stroke="#2f7a38" stroke-width="2"/>`, num(x), num(y+14), num(x+4), num(y-30))
		for i, l := range [][3]float64{{-8, -24, -35}, {10, -20, 30}, {-6, -8, -60}, {9, -4, 50}} {
			_ = i
			w(`<ellipse cx="%s" cy="%s" rx="10" ry="5" transform="rotate(%s %s %s)"/>`, num(x+l[0]), num(y+l[1]), num(l[2]), num(x+l[0]), num(y+l[1]))
		}
		w(`</g>`)
	case "cherry":
		x, y := cx+18, s.top-7
		w(`<g class="garnish cherry"><path d="M%s %s q4 -18 16 -24" fill="none" stroke="#5a3a1a" stroke-width="2"/><circle cx="%s" cy="%s" r="8" fill="#b3122e"/><circle cx="%s" cy="%s" r="2.5" fill="#ffffff" fill-opacity="0.6"/></g>`,
			num(x), num(y-6), num(x), num(y), num(x-3), num(y-3))
	case "olive":
		x, y := cx, s.top+14
		w(`<g class="garnish olive"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8a6a3a" stroke-width="2"/><ellipse cx="%s" cy="%s" rx="9" ry="7" fill="#7a8f2a"/><circle cx="%s" cy="%s" r="2.5" fill="#c0392b"/></g>`,
			num(x-30), num(y-40), num(x+10), num(y+8), num(x), num(y), num(x-4), num(y))
	case "coffee":
		w(`<g class="garnish coffee" fill="#3a2010">`)
		for i := range 3 {
			x, y := cx-12+float64(i)*12, s.top+3
			w(`<ellipse cx="%s" cy="%s" rx="5" ry="3.5"/><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#7a5030" stroke-width="1"/>`, num(x), num(y), num(x-4), num(y), num(x+4), num(y))
		}
		w(`</g>`)
	case "celery":
		w(`<path class="garnish celery" d="M%s %s L%s %s" stroke="#7ab648" stroke-width="8" stroke-linecap="round"/>`, num(s.left+14), num(s.top+60), num(s.left+2), num(s.rimY-40))
	case "pineapple":
		x, y := s.rimR-6, s.rimY
		w(`<g class="garnish pineapple"><path d="M%s %s l30 -6 l-10 26 z" fill="#f5c842" stroke="#c89a20" stroke-width="1.5"/><path d="M%s %s l6 -22 l4 20 l8 -16 l-2 20" fill="#3f8a3a"/></g>`,
			num(x-10), num(y-6), num(x+8), num(y-8))
	case "bitters":
		w(`<g class="garnish bitters" fill="#7a1a12">`)
		for i := range 3 {
			w(`<circle cx="%s" cy="%s" r="2.5"/>`, num(cx-14+float64(i)*14), num(s.top+4))
		}
		w(`</g>`)
	}
}
