// Package menu is the drink menu's domain: sections, drinks and their
// ingredients, what a valid drink looks like, the filters guests browse
// with, allergens checked against a guest's own dietary answer, and the
// standard-drink arithmetic behind optional pacing.
package menu

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/text"
)

// Section groups drinks on the menu ("Classics", "Alcohol-free", …).
type Section struct {
	ID          string `bson:"_id" json:"id"`
	Name        string `bson:"name" json:"name"`
	Description string `bson:"description,omitempty" json:"description"`
	// Position orders sections on the menu, lowest first.
	Position int `bson:"position" json:"position"`
	// Drinks counts the drinks in the section; filled in when listing.
	Drinks int `bson:"-" json:"drinks"`
}

// Ingredient is one line of a recipe.
type Ingredient struct {
	Name   string  `bson:"name" json:"name"`
	Amount float64 `bson:"amount" json:"amount"`
	Unit   string  `bson:"unit" json:"unit"`
	// Key is Name folded for matching against stock (see IngredientKey).
	Key string `bson:"key" json:"-"`
}

// StockKey is the key the ingredient is stocked and bought under: Key,
// or, for an ingredient not stored yet (Key is set on save), its name
// folded.
func (in Ingredient) StockKey() string {
	if in.Key != "" {
		return in.Key
	}
	return IngredientKey(in.Name)
}

// ImagePrompt is the text an image model is given to picture a drink, and
// where it came from.
type ImagePrompt struct {
	Text      string    `bson:"text" json:"text"`
	Source    string    `bson:"source" json:"source"` // "bedrock" or "local"
	Model     string    `bson:"model,omitempty" json:"model,omitempty"`
	CreatedAt time.Time `bson:"createdAt" json:"createdAt"`
}

// Where a drink's picture comes from, by precedence: a photo the host
// uploaded (or linked), one an image model generated from the drink's
// image prompt, or barhub's own drawing of the recipe (docs/MENU.md,
// "Pictures").
const (
	ImageUploaded  = "uploaded"
	ImageGenerated = "generated"
	ImageDrawn     = "drawn"
)

// DrawnImagePrefix starts the URL of barhub's drawing of a drink. Such a
// URL is never stored: a drink without a picture is drawn when shown.
const DrawnImagePrefix = "/images/drinks/"

// HasUpload reports whether the drink's picture is one the host gave,
// which nothing generated may replace.
func (d Drink) HasUpload() bool {
	return d.ImageURL != "" && d.ImageSource != ImageGenerated && d.ImageSource != ImageDrawn
}

// Drink is one drink on the menu.
type Drink struct {
	ID          string       `bson:"_id" json:"id"`
	Name        string       `bson:"name" json:"name"`
	Description string       `bson:"description" json:"description"`
	Section     string       `bson:"section" json:"section"`
	Ingredients []Ingredient `bson:"ingredients" json:"ingredients"`
	Tags        []string     `bson:"tags" json:"tags"`
	// ABV is the alcohol by volume, in percent, of the mixed ingredients
	// before ice melts into them; with the recipe's volume it gives the
	// alcohol in one serving (see StandardDrinks).
	ABV         float64  `bson:"abv" json:"abv"`
	AlcoholFree bool     `bson:"alcoholFree" json:"alcoholFree"`
	Allergens   []string `bson:"allergens" json:"allergens"`
	// Available is false while the drink itself or any ingredient it
	// needs is out of stock.
	Available bool `bson:"available" json:"available"`
	// OutOfStock is set by the bar for the drink as a whole.
	OutOfStock bool `bson:"outOfStock" json:"outOfStock"`
	// MissingIngredients names the ingredients out of stock (their keys).
	MissingIngredients []string `bson:"missingIngredients" json:"missingIngredients"`
	ImageURL           string   `bson:"imageUrl,omitempty" json:"imageUrl"`
	// ImageSource says where ImageURL's picture came from: ImageUploaded
	// (also when empty, as photos stored before it was kept),
	// ImageGenerated, or, in what the API shows of a drink without a
	// picture, ImageDrawn.
	ImageSource string       `bson:"imageSource,omitempty" json:"imageSource,omitempty"`
	ImagePrompt *ImagePrompt `bson:"imagePrompt,omitempty" json:"imagePrompt,omitempty"`
	Recipe      `bson:",inline"`
	CreatedAt   time.Time `bson:"createdAt" json:"createdAt"`
	UpdatedAt   time.Time `bson:"updatedAt" json:"updatedAt"`
}

// Diet is the drink as diet.Check reads it.
func (d Drink) Diet() diet.Drink {
	return diet.Drink{Name: d.Name, Ingredients: d.ingredientNames(), Allergens: d.Allergens, AlcoholFree: d.AlcoholFree, ABV: d.ABV}
}

func (d Drink) ingredientNames() []string {
	out := make([]string, len(d.Ingredients))
	for i, in := range d.Ingredients {
		out[i] = in.Name
	}
	return out
}

// RefreshAvailable recomputes Available from the stock fields.
func (d *Drink) RefreshAvailable() {
	d.Available = !d.OutOfStock && len(d.MissingIngredients) == 0
}

// Needs reports whether the drink uses the ingredient with this key.
func (d Drink) Needs(key string) bool {
	for _, in := range d.Ingredients {
		if in.Key == key {
			return true
		}
	}
	return false
}

// UnavailableReason says in words why a drink cannot be ordered, naming
// the missing ingredients; "" when it can.
func (d Drink) UnavailableReason() string {
	if d.Available {
		return ""
	}
	if len(d.MissingIngredients) > 0 {
		names := make([]string, 0, len(d.MissingIngredients))
		for _, key := range d.MissingIngredients {
			names = append(names, d.ingredientName(key))
		}
		return fmt.Sprintf("%s is not available right now: the bar is out of %s", d.Name, joinAnd(names))
	}
	return fmt.Sprintf("%s is not available right now: the bar has run out of it", d.Name)
}

func (d Drink) ingredientName(key string) string {
	for _, in := range d.Ingredients {
		if in.Key == key {
			return strings.ToLower(in.Name)
		}
	}
	return key
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// IngredientKey folds an ingredient name for matching: NFC, lower case,
// single spaces, no surrounding space. "Fresh  Mint" and "fresh mint" are
// one ingredient as far as stock is concerned, and so are an "ö" typed as
// one character and as an "o" with its dots.
func IngredientKey(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(norm.NFC.String(name))), " ")
}

// SectionID turns a section name into its id: "Alcohol-free & Low" →
// "alcohol-free-low".
func SectionID(name string) string { return Slug(name) }

// Units a recipe may use, with their volume in millilitres; 0 means the
// unit is not a volume (a leaf, a slice) and adds no alcohol or volume.
var Units = map[string]float64{
	"ml":       1,
	"cl":       10,
	"oz":       29.5735,
	"dash":     0.92,
	"drop":     0.05,
	"barspoon": 5,
	"tsp":      5,
	"tbsp":     15,
	"piece":    0,
	"slice":    0,
	"wedge":    0,
	"leaf":     0,
	"sprig":    0,
	"pinch":    0,
	"scoop":    0,
	"whole":    0,
}

// Limits of a valid drink.
const (
	MaxNameLen        = 80
	MaxDescriptionLen = 500
	MaxSectionLen     = 60
	MaxIngredients    = 20
	MaxIngredientLen  = 60
	MaxAmount         = 1000
	MaxTags           = 12
	MaxTagLen         = 30
	MaxAllergens      = 14
	MaxImageURLLen    = 500
	// AlcoholFreeMaxABV is the most a drink labelled alcohol-free may hold.
	AlcoholFreeMaxABV = 0.5
)

// Problem is one thing wrong with a drink, for a 400 that lists them all.
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ValidationError lists every problem found in a drink.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	if len(e.Problems) == 0 {
		return "invalid drink"
	}
	p := e.Problems[0]
	msg := p.Field + ": " + p.Message
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// Input is what an admin sends to create or replace a drink.
type Input struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Section     string       `json:"section"`
	Ingredients []Ingredient `json:"ingredients"`
	Tags        []string     `json:"tags"`
	ABV         float64      `json:"abv"`
	AlcoholFree bool         `json:"alcoholFree"`
	Allergens   []string     `json:"allergens"`
	ImageURL    string       `json:"imageUrl"`
	Method      []string     `json:"method"`
	Glass       string       `json:"glass"`
	Garnish     string       `json:"garnish"`
	Ice         Ice          `json:"ice"`
}

// Normalize tidies an input (trims text, folds tags and allergens, fills
// ingredient keys) and validates it. The returned drink has no id, stock
// state or times yet.
func (in Input) Normalize() (Drink, error) {
	var probs []Problem
	add := func(field, format string, args ...any) {
		probs = append(probs, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	// Every text here is typed by the host and shown on every phone, the
	// bar's tickets and the pick-up board: barhub's text rule (package
	// text) applies to each, with these words for what is missing or long.
	clean := func(field, typed string, rule text.Rule, empty, long string, args ...any) string {
		v, err := rule.Clean(typed)
		switch {
		case errors.Is(err, text.ErrEmpty):
			add(field, "%s", empty)
		case errors.Is(err, text.ErrTooLong):
			add(field, long, args...)
		case err != nil:
			add(field, "%v", err)
		}
		return v
	}
	d := Drink{ABV: in.ABV, AlcoholFree: in.AlcoholFree}
	d.Name = clean("name", in.Name, text.Rule{Max: MaxNameLen, Required: true}, "give the drink a name", "keep the name under %d characters", MaxNameLen)
	d.Description = clean("description", in.Description, text.Rule{Max: MaxDescriptionLen, Lines: true}, "", "keep the description under %d characters", MaxDescriptionLen)
	d.Section = clean("section", in.Section, text.Rule{Max: MaxSectionLen, Required: true}, "say which section of the menu the drink belongs to", "keep the section name under %d characters", MaxSectionLen)
	if d.Section != "" && SectionID(d.Section) == "" {
		add("section", "say which section of the menu the drink belongs to")
	}
	d.ImageURL = clean("imageUrl", in.ImageURL, text.Rule{Max: MaxImageURLLen}, "", "the image URL is too long")
	if strings.HasPrefix(d.ImageURL, DrawnImagePrefix) {
		// The drawing an editor was shown is no picture to keep.
		d.ImageURL = ""
	}

	switch {
	case len(in.Ingredients) == 0:
		add("ingredients", "list at least one ingredient")
	case len(in.Ingredients) > MaxIngredients:
		add("ingredients", "a drink has at most %d ingredients", MaxIngredients)
	}
	seen := map[string]bool{}
	for i, ing := range in.Ingredients {
		if i >= MaxIngredients {
			break
		}
		field := fmt.Sprintf("ingredients[%d]", i)
		ing.Name = clean(field+".name", ing.Name, text.Rule{Max: MaxIngredientLen, Required: true}, "name the ingredient", "keep ingredient names under %d characters", MaxIngredientLen)
		ing.Unit = strings.ToLower(strings.TrimSpace(ing.Unit))
		ing.Key = IngredientKey(ing.Name)
		if ing.Key != "" && seen[ing.Key] {
			add(field+".name", "%q is listed twice", ing.Name)
		}
		seen[ing.Key] = true
		if math.IsNaN(ing.Amount) || ing.Amount < 0 || ing.Amount > MaxAmount {
			add(field+".amount", "the amount must be between 0 and %d", MaxAmount)
		}
		if _, ok := Units[ing.Unit]; !ok {
			add(field+".unit", "unit %q is not one of %s", ing.Unit, unitList())
		}
		d.Ingredients = append(d.Ingredients, ing)
	}

	words := func(field string, typed []string, long string) []string {
		out := make([]string, len(typed))
		for i, w := range typed {
			out[i] = clean(fmt.Sprintf("%s[%d]", field, i), w, text.Rule{Max: MaxTagLen}, "", long, MaxTagLen)
		}
		return out
	}
	in.Tags = words("tags", in.Tags, "keep tags under %d characters")
	in.Allergens = words("allergens", in.Allergens, "keep allergen names under %d characters")
	d.Tags = foldList(in.Tags)
	if len(d.Tags) > MaxTags {
		add("tags", "a drink has at most %d tags", MaxTags)
	}
	for _, t := range d.Tags {
		if utf8.RuneCountInString(t) > MaxTagLen {
			add("tags", "keep tags under %d characters", MaxTagLen)
			break
		}
	}
	// Labels the diet package knows become canonical ("Dairy" is milk);
	// the ingredients add what they give away (orgeat is nuts), so a
	// label the host forgot is still on the menu.
	d.Allergens = make([]string, 0, len(in.Allergens))
	for _, a := range foldList(in.Allergens) {
		for _, c := range diet.Label(a) {
			d.Allergens = appendUnique(d.Allergens, c)
		}
	}
	for _, c := range diet.Contents(diet.Drink{Ingredients: d.ingredientNames()}) {
		d.Allergens = appendUnique(d.Allergens, c)
	}
	if len(d.Allergens) > MaxAllergens {
		add("allergens", "a drink lists at most %d allergens", MaxAllergens)
	}
	for _, a := range d.Allergens {
		if utf8.RuneCountInString(a) > MaxTagLen {
			add("allergens", "keep allergen names under %d characters", MaxTagLen)
			break
		}
	}

	switch {
	case math.IsNaN(d.ABV) || d.ABV < 0 || d.ABV > 100:
		add("abv", "alcohol by volume is a percentage between 0 and 100")
	case d.AlcoholFree && d.ABV > AlcoholFreeMaxABV:
		add("abv", "an alcohol-free drink holds at most %.1f%% alcohol; set alcoholFree to false or lower the abv", AlcoholFreeMaxABV)
	case !d.AlcoholFree && d.ABV <= AlcoholFreeMaxABV:
		add("alcoholFree", "a drink with %.1f%% alcohol or less must be marked alcoholFree; otherwise give its abv", AlcoholFreeMaxABV)
	}

	if d.ImageURL != "" {
		switch {
		case !strings.HasPrefix(d.ImageURL, "/images/") && !strings.HasPrefix(d.ImageURL, "https://"):
			add("imageUrl", "use an uploaded image (/images/…) or an https:// URL")
		}
	}
	d.Recipe = in.recipe(add)
	if d.Tags == nil {
		d.Tags = []string{}
	}
	if len(probs) > 0 {
		return Drink{}, &ValidationError{Problems: probs}
	}
	return d, nil
}

func unitList() string {
	return "ml, cl, oz, dash, drop, barspoon, tsp, tbsp, piece, slice, wedge, leaf, sprig, pinch, scoop, whole"
}

// foldList lower-cases, trims and de-duplicates, dropping empty entries.
func foldList(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
		if s != "" {
			out = appendUnique(out, s)
		}
	}
	return out
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// VolumeML is the volume of one serving's liquid ingredients, before
// dilution.
func (d Drink) VolumeML() float64 {
	var ml float64
	for _, in := range d.Ingredients {
		ml += in.Amount * Units[in.Unit]
	}
	return ml
}

// StandardDrinkGrams is the ethanol in one standard drink. Countries
// differ (8 g in the UK, 14 g in the US); 10 g is the WHO's and most of
// Europe's and Australia's measure.
const StandardDrinkGrams = 10.0

// ethanolDensity in g/ml.
const ethanolDensity = 0.789

// StandardDrinks is the number of standard drinks in one serving, to one
// decimal place: volume × ABV × ethanol's density ÷ 10 g.
func (d Drink) StandardDrinks() float64 {
	if d.AlcoholFree || d.ABV <= 0 {
		return 0
	}
	grams := d.VolumeML() * d.ABV / 100 * ethanolDensity
	return math.Round(grams/StandardDrinkGrams*10) / 10
}
