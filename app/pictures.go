package app

import (
	"context"
	"errors"
	"net/url"

	"github.com/barhub/barhub/drinkart"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// Every drink has a picture: the host's photo, else one an image model
// generated, else barhub's drawing of the recipe (docs/MENU.md,
// "Pictures"). The drawing is never stored: it is made from the drink
// whenever it is asked for, so it follows every edit of the recipe.

// Drawing is barhub's drawing of a drink, and its hash for caches.
type Drawing struct {
	SVG  []byte
	Hash string
	of   drinkart.Drink
}

// PNG rasterises the drawing, width pixels wide, for clients that show
// no SVG (e-mail).
func (d Drawing) PNG(width int) ([]byte, error) { return drinkart.PNG(d.of, width) }

// drawingOf draws d.
func drawingOf(d menu.Drink) Drawing {
	in := drinkart.Drink{Name: d.Name, Glass: d.Glass, Garnish: d.Garnish, Ice: string(d.Ice)}
	for _, i := range d.Ingredients {
		in.Ingredients = append(in.Ingredients, drinkart.Ingredient{Name: i.Name, Amount: i.Amount, Unit: i.Unit})
	}
	svg := drinkart.SVG(in)
	return Drawing{SVG: svg, Hash: drinkart.Hash(svg), of: in}
}

// DrawnImageURL is where d's drawing is served; the hash in the query
// changes with the drawing, so a browser never shows an old one.
func DrawnImageURL(d menu.Drink) string {
	return menu.DrawnImagePrefix + url.PathEscape(d.ID) + ".svg?v=" + drawingOf(d).Hash
}

// withPicture fills in the drawing for a drink without a picture, and
// names the source of one stored before sources were kept.
func withPicture(d menu.Drink) menu.Drink {
	switch {
	case d.ImageURL == "":
		d.ImageURL, d.ImageSource = DrawnImageURL(d), menu.ImageDrawn
	case d.ImageSource == "":
		d.ImageSource = menu.ImageUploaded
	}
	return d
}

// Drawing returns barhub's drawing of drink id, read from the cached
// menu: every phone showing the menu asks for every drawing.
func (m *Menu) Drawing(ctx context.Context, id string) (Drawing, error) {
	snap, err := m.Snapshot(ctx)
	if err != nil {
		return Drawing{}, err
	}
	d, ok := snap.Drink(id)
	if !ok {
		return Drawing{}, errNoDrink
	}
	return drawingOf(d), nil
}

// RemoveImage takes the host's photo or the generated picture off drink
// id, and deletes its file, so the drink is drawn again. It returns the
// drink as it was.
func (m *Menu) RemoveImage(ctx context.Context, id string) (menu.Drink, error) {
	d, err := m.store.ClearDrinkImage(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return d, errNoDrink
	}
	if err != nil {
		return d, err
	}
	m.DeleteImage(ctx, d.ImageURL)
	m.Changed(ctx, "drink.image", []string{id})
	return d, nil
}
