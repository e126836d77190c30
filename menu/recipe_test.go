package menu

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRecipeNormalize(t *testing.T) {
	base := Input{Name: "Sour", Section: "Sours", ABV: 15, Ingredients: []Ingredient{{Name: "Gin", Amount: 50, Unit: "ml"}}}
	for _, tc := range []struct {
		name    string
		edit    func(*Input)
		want    Recipe
		problem string // field of the expected problem; "" when valid
	}{
		{"none given", func(*Input) {}, Recipe{}, ""},
		{"tidied", func(in *Input) {
			in.Glass, in.Garnish, in.Ice = "  Coupe ", " lemon   twist", " Crushed "
			in.Method = []string{" Shake  hard. ", "", "Strain."}
		}, Recipe{Glass: "Coupe", Garnish: "lemon twist", Ice: IceCrushed, Method: []string{"Shake hard.", "Strain."}}, ""},
		{"unknown ice", func(in *Input) { in.Ice = "snow" }, Recipe{}, "ice"},
		{"glass too long", func(in *Input) { in.Glass = strings.Repeat("g", MaxGlassLen+1) }, Recipe{}, "glass"},
		{"control character", func(in *Input) { in.Garnish = "lime\x00" }, Recipe{}, "garnish"},
		{"direction override", func(in *Input) { in.Method = []string{"Shake\u202e"} }, Recipe{}, "method[0]"},
		{"too many steps", func(in *Input) { in.Method = make([]string, MaxSteps+1) }, Recipe{}, "method"},
		{"step too long", func(in *Input) { in.Method = []string{strings.Repeat("s", MaxStepLen+1)} }, Recipe{}, "method[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			tc.edit(&in)
			d, err := in.Normalize()
			if tc.problem == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(d.Recipe, tc.want) {
					t.Errorf("recipe %+v, want %+v", d.Recipe, tc.want)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Problems[0].Field != tc.problem {
				t.Fatalf("err %v, want a problem with %s", err, tc.problem)
			}
		})
	}
}

// A ticket for three Paper Planes opens the recipe for three.
func TestScale(t *testing.T) {
	_, drinks, err := StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	var plane Drink
	for _, d := range drinks {
		if d.ID == "paper-plane" {
			plane = d
		}
	}
	s := plane.Scale(3)
	var got []string
	for _, l := range s.Ingredients {
		got = append(got, l.Text)
	}
	want := []string{"67.5 ml Bourbon", "67.5 ml Aperol", "67.5 ml Amaro Nonino", "67.5 ml Lemon juice"}
	if !reflect.DeepEqual(got, want) || s.Qty != 3 || s.Glass != "Coupe (chilled)" || len(s.Method) != 2 {
		t.Errorf("scaled %+v\nlines %q, want %q", s, got, want)
	}
	if one := plane.Scale(0); one.Qty != 1 || one.Ingredients[0].Text != "22.5 ml Bourbon" {
		t.Errorf("Scale(0) = %+v, want one glass", one)
	}
}
