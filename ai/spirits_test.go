package ai

import (
	"strings"
	"testing"
)

func TestDislikedBy(t *testing.T) {
	whiskeySour := Drink{Name: "Whiskey Sour", Ingredients: []string{"bourbon", "lemon juice", "egg white"}, Tags: []string{"sour"}}
	manhattan := Drink{Name: "Manhattan", Ingredients: []string{"rye", "sweet vermouth", "bitters"}, Tags: []string{"strong"}}
	rustyNail := Drink{Name: "Rusty Nail", Ingredients: []string{"Scotch", "Drambuie"}, Tags: []string{"strong", "sweet"}}
	negroni := Drink{Name: "Negroni", Ingredients: []string{"gin", "sweet vermouth", "Campari"}, Tags: []string{"bitter"}}
	mule := Drink{Name: "Moscow Mule", Ingredients: []string{"vodka", "ginger beer", "lime juice"}, Tags: []string{"spicy"}}
	paloma := Drink{Name: "Paloma", Ingredients: []string{"mezcal", "grapefruit soda"}, Tags: []string{"fresh"}}
	caipirinha := Drink{Name: "Caipirinha", Ingredients: []string{"Cachaça", "lime", "sugar"}, Tags: []string{"sour"}}
	blackRussian := Drink{Name: "Black Russian", Ingredients: []string{"vodka", "Kahlúa"}, Tags: []string{"sweet"}}
	piscoSour := Drink{Name: "Pisco Sour", Ingredients: []string{"pisco", "lime juice"}, Tags: []string{"sour"}}
	sidecar := Drink{Name: "Sidecar", Ingredients: []string{"Grand Marnier", "lemon juice"}, Tags: []string{"sour"}}
	espresso := Drink{Name: "Espresso Martini", Ingredients: []string{"vodka", "coffee liqueur", "espresso"}, Tags: []string{"bitter"}}
	butterscotch := Drink{Name: "Butterscotch Fizz", Ingredients: []string{"butterscotch syrup", "soda water"}, Tags: []string{"sparkling"}}

	tests := []struct {
		dislike string
		drink   Drink
		want    string // a part of the reason; "" when the drink is not disliked
	}{
		{"whisky", whiskeySour, "bourbon"},
		{"Whiskey", whiskeySour, "bourbon"},
		{"whiskey", manhattan, "rye"},
		{"bourbon", rustyNail, "scotch"},
		{"whisky", rustyNail, "scotch"},
		{"gin", negroni, "gin"},
		{"gin", mule, ""},
		{"tequila", paloma, "mezcal"},
		{"rum", caipirinha, "cachaça"},
		{"rum", blackRussian, "kahlúa"},
		{"coffee", blackRussian, "kahlúa"},
		{"coffee", espresso, "coffee liqueur"},
		{"brandy", piscoSour, "pisco"},
		{"cognac", sidecar, "grand marnier"},
		{"sweet", rustyNail, "sweet"},
		{"sugary", blackRussian, "sweet"},
		{"citrusy", piscoSour, "sour"},
		{"scotch", butterscotch, ""},
		{"vodka", paloma, ""},
		{"Paloma", paloma, "paloma"},
	}
	for _, tt := range tests {
		t.Run(tt.dislike+"/"+tt.drink.Name, func(t *testing.T) {
			got := dislikedBy(tt.drink, []string{tt.dislike})
			switch {
			case tt.want == "" && got != "":
				t.Fatalf("disliked: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Fatalf("reason %q, want one naming %q", got, tt.want)
			}
		})
	}
}
