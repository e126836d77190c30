package store_test

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"sort"
	"testing"

	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// seedStarter loads the starter menu and returns it.
func seedStarter(t *testing.T, s *store.Store) []menu.Drink {
	t.Helper()
	ctx := context.Background()
	sections, drinks, err := menu.StarterMenu()
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range sections {
		if err := s.SaveSection(ctx, sec); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range drinks {
		if created, err := s.SeedDrink(ctx, d); err != nil || !created {
			t.Fatalf("seed %s: created=%v err=%v", d.ID, created, err)
		}
	}
	return drinks
}

func ids(drinks []menu.Drink) []string {
	out := make([]string, len(drinks))
	for i, d := range drinks {
		out[i] = d.ID
	}
	return out
}

func TestSectionsInMenuOrder(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	seedStarter(t, s)
	got, err := s.Sections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sec := range got {
		names = append(names, sec.ID)
	}
	if want := []string{"classics", "sours", "long-and-sparkling", "alcohol-free"}; !reflect.DeepEqual(names, want) {
		t.Errorf("sections %q, want %q", names, want)
	}
	sec, err := s.EnsureSection(ctx, "shots", "Shots")
	if err != nil || sec.Position != 5 || sec.Name != "Shots" {
		t.Fatalf("EnsureSection new = %+v, %v; want position 5", sec, err)
	}
	sec, err = s.EnsureSection(ctx, "classics", "ignored")
	if err != nil || sec.Name != "Classics" || sec.Position != 1 {
		t.Fatalf("EnsureSection existing = %+v, %v", sec, err)
	}
}

// TestDrinkQueryMatchesFilter runs the same filters through the database
// and through menu.Filter.Match: both must pick the same drinks.
func TestDrinkQueryMatchesFilter(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	all := seedStarter(t, s)
	tests := []struct {
		query string
		want  int
	}{
		{"", 37},
		{"section=alcohol-free", 8},
		{"ingredient=mint", 4},
		{"ingredient=gin", 6},
		{"tag=coffee", 3},
		{"q=tomato", 2},
		{"q=Spark", 15},
		{"q=ginger", 3},
		{"alcoholFree=true&tag=creamy", 1},
		{"section=sours&ingredient=egg white", 3},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		f, err := menu.ParseFilter(q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Drinks(ctx, f)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		var want []string
		for _, d := range all {
			if f.Match(d) {
				want = append(want, d.ID)
			}
		}
		sort.Strings(want)
		gotIDs := ids(got)
		sort.Strings(gotIDs)
		if len(got) != tt.want || !reflect.DeepEqual(gotIDs, want) {
			t.Errorf("%q: database gave %d %q; in memory %d %q; want %d", tt.query, len(got), gotIDs, len(want), want, tt.want)
		}
	}
}

func TestDrinkCRUD(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	d, err := menu.Input{Name: "Hugo", Section: "Spritz", ABV: 8, Ingredients: []menu.Ingredient{{Name: "Prosecco", Amount: 100, Unit: "ml"}, {Name: "Elderflower syrup", Amount: 20, Unit: "ml"}}}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	d.Section = "spritz"
	if err := s.CreateDrink(ctx, &d); err != nil {
		t.Fatal(err)
	}
	if d.ID == "" || !d.Available || d.CreatedAt.IsZero() {
		t.Fatalf("created %+v", d)
	}
	got, err := s.DrinkByID(ctx, d.ID)
	if err != nil || got.Name != "Hugo" || got.Ingredients[1].Key != "elderflower syrup" || !got.CreatedAt.Equal(d.CreatedAt) {
		t.Fatalf("DrinkByID = %+v, %v", got, err)
	}
	if err := s.SetDrinkImagePrompt(ctx, d.ID, menu.ImagePrompt{Text: "a tall glass", Source: "local"}); err != nil {
		t.Fatal(err)
	}
	if old, err := s.SetDrinkImage(ctx, d.ID, "/images/a.jpg"); err != nil || old != "" {
		t.Fatalf("SetDrinkImage = %q, %v", old, err)
	}

	edit := d
	edit.Name = "Hugo Spritz"
	edit.ImageURL = ""
	if err := s.ReplaceDrink(ctx, &edit); err != nil {
		t.Fatal(err)
	}
	got, _ = s.DrinkByID(ctx, d.ID)
	if got.Name != "Hugo Spritz" || got.ImageURL != "/images/a.jpg" || got.ImagePrompt == nil || got.ImagePrompt.Text != "a tall glass" {
		t.Errorf("after replace: %+v (photo and prompt must be kept)", got)
	}
	if n, _ := s.CountDrinks(ctx); n != 1 {
		t.Errorf("count = %d", n)
	}
	byID, err := s.DrinksByIDs(ctx, []string{d.ID, "nope"})
	if err != nil || len(byID) != 1 || byID[d.ID].Name != "Hugo Spritz" {
		t.Errorf("DrinksByIDs = %v, %v", byID, err)
	}
	if _, err := s.DeleteDrink(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"load":    func() error { _, err := s.DrinkByID(ctx, d.ID); return err }(),
		"delete":  func() error { _, err := s.DeleteDrink(ctx, d.ID); return err }(),
		"replace": s.ReplaceDrink(ctx, &edit),
		"prompt":  s.SetDrinkImagePrompt(ctx, d.ID, menu.ImagePrompt{}),
	} {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s after delete: %v, want ErrNotFound", name, err)
		}
	}
	dup := menu.Drink{ID: "same", Name: "x"}
	if err := s.CreateDrink(ctx, &dup); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateDrink(ctx, &dup); !errors.Is(err, store.ErrConflict) {
		t.Errorf("duplicate id: %v", err)
	}
}

func TestSeedAgainKeepsPhotoAndStock(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	drinks := seedStarter(t, s)
	if _, err := s.SetDrinkImage(ctx, "negroni", "/images/n.jpg"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetDrinkStock(ctx, "negroni", false); err != nil {
		t.Fatal(err)
	}
	for _, d := range drinks {
		if created, err := s.SeedDrink(ctx, d); err != nil || created {
			t.Fatalf("reseed %s: created=%v err=%v", d.ID, created, err)
		}
	}
	n, _ := s.CountDrinks(ctx)
	got, _ := s.DrinkByID(ctx, "negroni")
	if n != 37 || got.ImageURL != "/images/n.jpg" || got.Available || !got.OutOfStock {
		t.Errorf("after reseed: %d drinks, negroni %+v", n, got)
	}
}

// A generated picture never replaces a photo the host uploaded; an
// upload replaces a generated one; clearing either leaves none.
func TestDrinkImagePrecedence(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	d := menu.Drink{ID: "hugo", Name: "Hugo", Section: "s", Ingredients: []menu.Ingredient{{Name: "Prosecco", Amount: 100, Unit: "ml"}}}
	if err := s.CreateDrink(ctx, &d); err != nil {
		t.Fatal(err)
	}
	check := func(step, url, source string) {
		t.Helper()
		got, err := s.DrinkByID(ctx, "hugo")
		if err != nil || got.ImageURL != url || got.ImageSource != source {
			t.Fatalf("%s: %q (%s), %v; want %q (%s)", step, got.ImageURL, got.ImageSource, err, url, source)
		}
	}
	if old, err := s.SetGeneratedDrinkImage(ctx, "hugo", "/images/g1.png"); err != nil || old != "" {
		t.Fatalf("first generated: %q, %v", old, err)
	}
	check("generated", "/images/g1.png", menu.ImageGenerated)
	if old, err := s.SetGeneratedDrinkImage(ctx, "hugo", "/images/g2.png"); err != nil || old != "/images/g1.png" {
		t.Fatalf("second generated: %q, %v", old, err)
	}
	if old, err := s.SetDrinkImage(ctx, "hugo", "/images/u.jpg"); err != nil || old != "/images/g2.png" {
		t.Fatalf("upload: %q, %v", old, err)
	}
	check("uploaded", "/images/u.jpg", menu.ImageUploaded)
	if _, err := s.SetGeneratedDrinkImage(ctx, "hugo", "/images/g3.png"); !errors.Is(err, store.ErrUploaded) {
		t.Fatalf("generated over an upload: %v", err)
	}
	check("after a refused generated one", "/images/u.jpg", menu.ImageUploaded)
	// An edit that sends the picture back unchanged keeps its source.
	edit := d
	edit.ImageURL = "/images/u.jpg"
	if err := s.ReplaceDrink(ctx, &edit); err != nil {
		t.Fatal(err)
	}
	check("edited", "/images/u.jpg", menu.ImageUploaded)
	if was, err := s.ClearDrinkImage(ctx, "hugo"); err != nil || was.ImageURL != "/images/u.jpg" {
		t.Fatalf("clear: %+v, %v", was, err)
	}
	check("cleared", "", "")
	if _, err := s.SetGeneratedDrinkImage(ctx, "nope", "/images/x.png"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted drink: %v", err)
	}
}
