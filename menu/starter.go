package menu

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The starter menu: classic cocktails as the IBA and the bartending
// references give them, and alcohol-free drinks, so a host has a real
// menu to edit from the first minute ("barhub seed menu").

// ingredientABV is the alcohol by volume of each spirit, liqueur and wine
// the starter menu uses, in percent, for the brands bars usually pour.
// A drink's ABV is worked out from these, so it matches its recipe.
var ingredientABV = map[string]float64{
	"gin":                40,
	"vodka":              40,
	"citrus vodka":       40,
	"white rum":          40,
	"aged rum":           40,
	"dark rum":           40,
	"bourbon":            45,
	"rye whiskey":        45,
	"tequila blanco":     40,
	"cognac":             40,
	"pisco":              40,
	"cachaça":            40,
	"campari":            25,
	"aperol":             11,
	"sweet vermouth":     16,
	"dry vermouth":       18,
	"cointreau":          40,
	"orange curaçao":     40,
	"maraschino liqueur": 32,
	"green chartreuse":   55,
	"angostura bitters":  44.7,
	"orange bitters":     28,
	"coffee liqueur":     20,
	"prosecco":           11,
	"champagne":          12,
	"crème de cassis":    15,
	"amaretto":           28,
	"amaro nonino":       35,
}

func ing(amount float64, unit, name string) Ingredient {
	return Ingredient{Name: name, Amount: amount, Unit: unit}
}

type recipe struct {
	name, section, description string
	ingredients                []Ingredient
	tags, allergens            []string
}

// Starter sections, in menu order.
var starterSections = []Section{
	{ID: "classics", Name: "Classics", Description: "Stirred, spirit-forward and timeless.", Position: 1},
	{ID: "sours", Name: "Sours", Description: "Shaken with fresh citrus.", Position: 2},
	{ID: "long-and-sparkling", Name: "Long & sparkling", Description: "Tall, bubbly and refreshing.", Position: 3},
	{ID: "alcohol-free", Name: "Alcohol-free", Description: "All of the flavour, none of the alcohol.", Position: 4},
}

var starterRecipes = []recipe{
	// Classics.
	{"Negroni", "classics", "Equal parts gin, Campari and sweet vermouth, stirred over ice with an orange slice.",
		[]Ingredient{ing(30, "ml", "Gin"), ing(30, "ml", "Campari"), ing(30, "ml", "Sweet vermouth"), ing(1, "slice", "Orange")},
		[]string{"bitter", "strong", "stirred"}, []string{"sulphites"}},
	{"Old Fashioned", "classics", "Bourbon, a touch of sugar and Angostura, stirred long and finished with orange peel.",
		[]Ingredient{ing(60, "ml", "Bourbon"), ing(5, "ml", "Sugar syrup"), ing(2, "dash", "Angostura bitters"), ing(1, "piece", "Orange peel")},
		[]string{"strong", "sweet", "stirred"}, nil},
	{"Dry Martini", "classics", "Gin with a whisper of dry vermouth and orange bitters, stirred ice-cold, lemon twist.",
		[]Ingredient{ing(60, "ml", "Gin"), ing(10, "ml", "Dry vermouth"), ing(1, "dash", "Orange bitters"), ing(1, "piece", "Lemon peel")},
		[]string{"strong", "dry", "stirred"}, []string{"sulphites"}},
	{"Manhattan", "classics", "Rye whiskey, sweet vermouth and Angostura, stirred and served up with a cherry.",
		[]Ingredient{ing(50, "ml", "Rye whiskey"), ing(20, "ml", "Sweet vermouth"), ing(2, "dash", "Angostura bitters"), ing(1, "piece", "Cocktail cherry")},
		[]string{"strong", "sweet", "stirred"}, []string{"sulphites"}},
	{"Boulevardier", "classics", "The Negroni's autumn cousin: bourbon in place of gin.",
		[]Ingredient{ing(45, "ml", "Bourbon"), ing(30, "ml", "Campari"), ing(30, "ml", "Sweet vermouth"), ing(1, "piece", "Orange peel")},
		[]string{"bitter", "strong", "stirred"}, []string{"sulphites"}},
	{"Espresso Martini", "classics", "Vodka, fresh espresso and coffee liqueur, shaken hard for a velvet crema.",
		[]Ingredient{ing(50, "ml", "Vodka"), ing(30, "ml", "Espresso"), ing(20, "ml", "Coffee liqueur"), ing(10, "ml", "Sugar syrup")},
		[]string{"coffee", "sweet", "strong"}, nil},
	{"Last Word", "classics", "Gin, green Chartreuse, maraschino and lime in equal parts: herbal and bright.",
		[]Ingredient{ing(22.5, "ml", "Gin"), ing(22.5, "ml", "Green Chartreuse"), ing(22.5, "ml", "Maraschino liqueur"), ing(22.5, "ml", "Lime juice")},
		[]string{"herbal", "sour", "strong"}, nil},
	{"White Russian", "classics", "Vodka and coffee liqueur over ice, floated with fresh cream.",
		[]Ingredient{ing(50, "ml", "Vodka"), ing(20, "ml", "Coffee liqueur"), ing(30, "ml", "Fresh cream")},
		[]string{"creamy", "sweet", "coffee"}, []string{"milk"}},

	// Sours.
	{"Margarita", "sours", "Tequila, Cointreau and lime, shaken, with a salted rim.",
		[]Ingredient{ing(50, "ml", "Tequila blanco"), ing(20, "ml", "Cointreau"), ing(15, "ml", "Lime juice"), ing(1, "pinch", "Salt")},
		[]string{"sour", "fresh"}, nil},
	{"Daiquiri", "sours", "White rum, lime and sugar: the purest sour there is.",
		[]Ingredient{ing(60, "ml", "White rum"), ing(20, "ml", "Lime juice"), ing(10, "ml", "Sugar syrup")},
		[]string{"sour", "fresh"}, nil},
	{"Whiskey Sour", "sours", "Bourbon, lemon and sugar shaken with egg white for a silky foam.",
		[]Ingredient{ing(45, "ml", "Bourbon"), ing(25, "ml", "Lemon juice"), ing(20, "ml", "Sugar syrup"), ing(20, "ml", "Egg white"), ing(1, "dash", "Angostura bitters")},
		[]string{"sour", "sweet"}, []string{"eggs"}},
	{"Pisco Sour", "sours", "Peruvian pisco, lime, sugar and egg white, with drops of bitters on the foam.",
		[]Ingredient{ing(60, "ml", "Pisco"), ing(30, "ml", "Lime juice"), ing(20, "ml", "Sugar syrup"), ing(20, "ml", "Egg white"), ing(3, "dash", "Angostura bitters")},
		[]string{"sour", "fresh"}, []string{"eggs"}},
	{"Amaretto Sour", "sours", "Amaretto lifted with a little bourbon, lemon and egg white.",
		[]Ingredient{ing(45, "ml", "Amaretto"), ing(15, "ml", "Bourbon"), ing(30, "ml", "Lemon juice"), ing(10, "ml", "Sugar syrup"), ing(20, "ml", "Egg white")},
		[]string{"sour", "sweet", "nutty"}, []string{"eggs", "nuts"}},
	{"Cosmopolitan", "sours", "Citrus vodka, Cointreau, cranberry and lime.",
		[]Ingredient{ing(40, "ml", "Citrus vodka"), ing(15, "ml", "Cointreau"), ing(30, "ml", "Cranberry juice"), ing(15, "ml", "Lime juice")},
		[]string{"sour", "fruity"}, nil},
	{"Sidecar", "sours", "Cognac, Cointreau and lemon, shaken and served up.",
		[]Ingredient{ing(50, "ml", "Cognac"), ing(20, "ml", "Cointreau"), ing(20, "ml", "Lemon juice")},
		[]string{"sour", "strong"}, nil},
	{"Caipirinha", "sours", "Cachaça over lime wedges muddled with sugar.",
		[]Ingredient{ing(60, "ml", "Cachaça"), ing(4, "wedge", "Lime"), ing(2, "tsp", "Sugar")},
		[]string{"sour", "fresh", "strong"}, nil},
	{"Mai Tai", "sours", "Two rums, orange curaçao, orgeat and lime: the tiki classic.",
		[]Ingredient{ing(30, "ml", "Aged rum"), ing(30, "ml", "Dark rum"), ing(15, "ml", "Orange curaçao"), ing(15, "ml", "Orgeat syrup"), ing(30, "ml", "Lime juice"), ing(7.5, "ml", "Sugar syrup"), ing(1, "sprig", "Mint")},
		[]string{"sour", "fruity", "nutty", "strong"}, []string{"nuts"}},
	{"Paper Plane", "sours", "Bourbon, Aperol, Amaro Nonino and lemon in equal parts.",
		[]Ingredient{ing(22.5, "ml", "Bourbon"), ing(22.5, "ml", "Aperol"), ing(22.5, "ml", "Amaro Nonino"), ing(22.5, "ml", "Lemon juice")},
		[]string{"bitter", "sour"}, nil},

	// Long and sparkling.
	{"Mojito", "long-and-sparkling", "White rum, lime, sugar and mint, topped with soda.",
		[]Ingredient{ing(45, "ml", "White rum"), ing(20, "ml", "Lime juice"), ing(15, "ml", "Sugar syrup"), ing(6, "leaf", "Mint"), ing(60, "ml", "Soda water")},
		[]string{"fresh", "sweet", "long"}, nil},
	{"Aperol Spritz", "long-and-sparkling", "Prosecco, Aperol and a splash of soda with an orange slice.",
		[]Ingredient{ing(90, "ml", "Prosecco"), ing(60, "ml", "Aperol"), ing(30, "ml", "Soda water"), ing(1, "slice", "Orange")},
		[]string{"bitter", "sparkling", "long"}, []string{"sulphites"}},
	{"Moscow Mule", "long-and-sparkling", "Vodka, ginger beer and lime in a copper mug.",
		[]Ingredient{ing(45, "ml", "Vodka"), ing(120, "ml", "Ginger beer"), ing(10, "ml", "Lime juice"), ing(1, "wedge", "Lime")},
		[]string{"spicy", "fresh", "long"}, nil},
	{"Paloma", "long-and-sparkling", "Tequila, lime and pink grapefruit soda with a pinch of salt.",
		[]Ingredient{ing(50, "ml", "Tequila blanco"), ing(5, "ml", "Lime juice"), ing(100, "ml", "Grapefruit soda"), ing(1, "pinch", "Salt")},
		[]string{"fresh", "sour", "long"}, nil},
	{"Gin & Tonic", "long-and-sparkling", "Gin and tonic over plenty of ice with a wedge of lime.",
		[]Ingredient{ing(50, "ml", "Gin"), ing(150, "ml", "Tonic water"), ing(1, "wedge", "Lime")},
		[]string{"bitter", "fresh", "long"}, nil},
	{"French 75", "long-and-sparkling", "Gin, lemon and sugar, shaken and topped with champagne.",
		[]Ingredient{ing(30, "ml", "Gin"), ing(15, "ml", "Lemon juice"), ing(15, "ml", "Sugar syrup"), ing(60, "ml", "Champagne")},
		[]string{"sparkling", "fresh", "sour"}, []string{"sulphites"}},
	{"Tom Collins", "long-and-sparkling", "Gin, lemon and sugar, lengthened with soda.",
		[]Ingredient{ing(45, "ml", "Gin"), ing(30, "ml", "Lemon juice"), ing(15, "ml", "Sugar syrup"), ing(60, "ml", "Soda water")},
		[]string{"sour", "fresh", "long"}, nil},
	{"Dark 'n' Stormy", "long-and-sparkling", "Dark rum floated over spicy ginger beer with lime.",
		[]Ingredient{ing(60, "ml", "Dark rum"), ing(100, "ml", "Ginger beer"), ing(1, "wedge", "Lime")},
		[]string{"spicy", "long"}, nil},
	{"Piña Colada", "long-and-sparkling", "White rum, coconut cream and pineapple, blended smooth.",
		[]Ingredient{ing(50, "ml", "White rum"), ing(30, "ml", "Coconut cream"), ing(50, "ml", "Pineapple juice")},
		[]string{"sweet", "creamy", "fruity"}, nil},
	{"Bloody Mary", "long-and-sparkling", "Vodka, tomato, lemon, Worcestershire and Tabasco, with celery.",
		[]Ingredient{ing(45, "ml", "Vodka"), ing(90, "ml", "Tomato juice"), ing(15, "ml", "Lemon juice"), ing(2, "dash", "Worcestershire sauce"), ing(2, "dash", "Tabasco"), ing(1, "pinch", "Celery salt"), ing(1, "pinch", "Black pepper"), ing(1, "piece", "Celery stick")},
		[]string{"savoury", "spicy", "long"}, []string{"fish", "celery", "gluten"}},
	{"Kir Royale", "long-and-sparkling", "Champagne with a little crème de cassis.",
		[]Ingredient{ing(10, "ml", "Crème de cassis"), ing(90, "ml", "Champagne")},
		[]string{"sparkling", "fruity"}, []string{"sulphites"}},

	// Alcohol-free.
	{"Virgin Mojito", "alcohol-free", "Lime, mint and sugar topped with soda: all the fresh, none of the rum.",
		[]Ingredient{ing(25, "ml", "Lime juice"), ing(20, "ml", "Sugar syrup"), ing(8, "leaf", "Mint"), ing(120, "ml", "Soda water")},
		[]string{"fresh", "sweet", "long"}, nil},
	{"Virgin Mary", "alcohol-free", "Tomato, lemon, Worcestershire, Tabasco and celery salt, with a celery stick.",
		[]Ingredient{ing(120, "ml", "Tomato juice"), ing(15, "ml", "Lemon juice"), ing(2, "dash", "Worcestershire sauce"), ing(2, "dash", "Tabasco"), ing(1, "pinch", "Celery salt"), ing(1, "pinch", "Black pepper"), ing(1, "piece", "Celery stick")},
		[]string{"savoury", "spicy"}, []string{"fish", "celery", "gluten"}},
	{"Shirley Temple", "alcohol-free", "Ginger ale with a splash of grenadine and a cherry.",
		[]Ingredient{ing(150, "ml", "Ginger ale"), ing(15, "ml", "Grenadine"), ing(1, "piece", "Cocktail cherry")},
		[]string{"sweet", "sparkling"}, nil},
	{"Roy Rogers", "alcohol-free", "Cola and grenadine over ice with a cherry.",
		[]Ingredient{ing(150, "ml", "Cola"), ing(15, "ml", "Grenadine"), ing(1, "piece", "Cocktail cherry")},
		[]string{"sweet", "sparkling"}, nil},
	{"Cinderella", "alcohol-free", "Orange, pineapple and lemon with grenadine, topped with soda.",
		[]Ingredient{ing(50, "ml", "Orange juice"), ing(50, "ml", "Pineapple juice"), ing(20, "ml", "Lemon juice"), ing(10, "ml", "Grenadine"), ing(50, "ml", "Soda water")},
		[]string{"fruity", "fresh", "long"}, nil},
	{"Virgin Piña Colada", "alcohol-free", "Coconut cream, pineapple and a squeeze of lime, blended.",
		[]Ingredient{ing(45, "ml", "Coconut cream"), ing(90, "ml", "Pineapple juice"), ing(10, "ml", "Lime juice")},
		[]string{"sweet", "creamy", "fruity"}, nil},
	{"Elderflower Spritz", "alcohol-free", "Elderflower cordial, lime and mint topped with soda.",
		[]Ingredient{ing(25, "ml", "Elderflower cordial"), ing(10, "ml", "Lime juice"), ing(4, "leaf", "Mint"), ing(120, "ml", "Soda water")},
		[]string{"floral", "fresh", "sparkling"}, nil},
	{"Espresso Tonic", "alcohol-free", "A shot of espresso poured over tonic and ice.",
		[]Ingredient{ing(40, "ml", "Espresso"), ing(120, "ml", "Tonic water"), ing(1, "piece", "Orange peel")},
		[]string{"coffee", "bitter", "sparkling"}, nil},
}

// StarterMenu returns the starter sections and drinks, validated, with
// ids derived from names (so seeding twice updates rather than
// duplicates) and each drink's ABV worked out from its recipe.
func StarterMenu() ([]Section, []Drink, error) {
	drinks := make([]Drink, 0, len(starterRecipes))
	for _, r := range starterRecipes {
		var alcohol, volume float64
		for _, in := range r.ingredients {
			ml := in.Amount * Units[in.Unit]
			volume += ml
			alcohol += ml * ingredientABV[IngredientKey(in.Name)] / 100
		}
		in := Input{
			Name: r.name, Description: r.description, Section: r.section,
			Ingredients: r.ingredients, Tags: r.tags, Allergens: r.allergens,
			AlcoholFree: alcohol == 0,
		}
		rec, ok := starterMethods[r.name]
		if !ok {
			return nil, nil, fmt.Errorf("starter drink %s: no recipe", r.name)
		}
		in.Method, in.Glass, in.Garnish, in.Ice = rec.Method, rec.Glass, rec.Garnish, rec.Ice
		if alcohol > 0 {
			in.ABV = math.Round(alcohol/volume*1000) / 10
		}
		d, err := in.Normalize()
		if err != nil {
			return nil, nil, fmt.Errorf("starter drink %s: %w", r.name, err)
		}
		d.ID = Slug(r.name)
		d.Available = true
		d.Allergens = append([]string{}, d.Allergens...)
		d.MissingIngredients = []string{}
		drinks = append(drinks, d)
	}
	return append([]Section(nil), starterSections...), drinks, nil
}

// Slug makes a URL-safe ASCII id from a name: "Piña Colada" → "pina-colada".
func Slug(name string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, name)
	if err != nil {
		folded = name
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(folded) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return b.String()
}
