package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/menu"
)

const (
	collSections = "sections"
	collDrinks   = "drinks"
)

// drinkIndexes back the menu's filters on MongoDB and the stock update,
// which finds every drink needing an ingredient through the multikey
// index on ingredients.key. (On embedded FerretDB only _id is indexed;
// the menu is small and read through the API's cache.)
func drinkIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "section", Value: 1}, {Key: "name", Value: 1}}, Options: options.Index().SetName("section_name")},
		{Keys: bson.D{{Key: "ingredients.key", Value: 1}}, Options: options.Index().SetName("ingredients_key")},
		{Keys: bson.D{{Key: "available", Value: 1}}, Options: options.Index().SetName("available")},
	}
}

// Sections lists the menu's sections in menu order.
func (s *Store) Sections(ctx context.Context) ([]menu.Section, error) {
	cur, err := s.coll(collSections).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "position", Value: 1}, {Key: "name", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list sections: %w", err)
	}
	out := []menu.Section{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list sections: %w", err)
	}
	return out, nil
}

// SaveSection creates or replaces a section.
func (s *Store) SaveSection(ctx context.Context, sec menu.Section) error {
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collSections).ReplaceOne(ctx, bson.D{{Key: "_id", Value: sec.ID}}, sec, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save section %s: %w", sec.ID, err)
	}
	return nil
}

// EnsureSection returns the section with this id, creating it (named
// name, placed last) when it does not exist yet.
func (s *Store) EnsureSection(ctx context.Context, id, name string) (menu.Section, error) {
	var sec menu.Section
	err := s.coll(collSections).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&sec)
	if err == nil {
		return sec, nil
	}
	if !errors.Is(err, mongo.ErrNoDocuments) {
		return sec, fmt.Errorf("load section %s: %w", id, err)
	}
	n, err := s.coll(collSections).CountDocuments(ctx, bson.D{})
	if err != nil {
		return sec, fmt.Errorf("count sections: %w", err)
	}
	sec = menu.Section{ID: id, Name: name, Position: int(n) + 1}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collSections).InsertOne(ctx, sec); return err }); err != nil && !mongo.IsDuplicateKeyError(err) {
		return sec, fmt.Errorf("create section %s: %w", id, err)
	}
	return sec, nil
}

// drinkQuery turns a menu filter into a query. It matches what
// menu.Filter.Match does in memory, so the two can be checked against
// each other.
func drinkQuery(f menu.Filter) bson.D {
	q := bson.D{}
	if f.Section != "" {
		q = append(q, bson.E{Key: "section", Value: f.Section})
	}
	if f.AvailableOnly {
		q = append(q, bson.E{Key: "available", Value: true})
	}
	if f.AlcoholFree != nil {
		q = append(q, bson.E{Key: "alcoholFree", Value: *f.AlcoholFree})
	}
	if f.Tag != "" {
		q = append(q, bson.E{Key: "tags", Value: f.Tag})
	}
	if f.Ingredient != "" {
		q = append(q, bson.E{Key: "ingredients.key", Value: bson.D{{Key: "$regex", Value: `(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(f.Ingredient) + `($|[^\p{L}\p{N}])`}}})
	}
	if f.Text != "" {
		word := bson.D{{Key: "$regex", Value: `(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(f.Text)}, {Key: "$options", Value: "i"}}
		q = append(q, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "name", Value: word}},
			bson.D{{Key: "description", Value: word}},
			bson.D{{Key: "section", Value: word}},
			bson.D{{Key: "ingredients.key", Value: word}},
			bson.D{{Key: "tags", Value: word}},
		}})
	}
	return q
}

// Drinks lists the drinks matching f, by name.
func (s *Store) Drinks(ctx context.Context, f menu.Filter) ([]menu.Drink, error) {
	cur, err := s.coll(collDrinks).Find(ctx, drinkQuery(f), options.Find().SetSort(bson.D{{Key: "name", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list drinks: %w", err)
	}
	out := []menu.Drink{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list drinks: %w", err)
	}
	return out, nil
}

// DrinkByID loads one drink.
func (s *Store) DrinkByID(ctx context.Context, id string) (menu.Drink, error) {
	var d menu.Drink
	err := s.coll(collDrinks).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return d, fmt.Errorf("load drink %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("load drink %s: %w", id, err)
	}
	return d, nil
}

// DrinksByIDs loads the drinks with these ids, by id; missing ones are
// simply absent from the map.
func (s *Store) DrinksByIDs(ctx context.Context, ids []string) (map[string]menu.Drink, error) {
	cur, err := s.coll(collDrinks).Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return nil, fmt.Errorf("load drinks: %w", err)
	}
	var list []menu.Drink
	if err := cur.All(ctx, &list); err != nil {
		return nil, fmt.Errorf("load drinks: %w", err)
	}
	out := make(map[string]menu.Drink, len(list))
	for _, d := range list {
		out[d.ID] = d
	}
	return out, nil
}

// CreateDrink stores a new drink, filling ID (when empty), times and its
// availability from the current stock.
func (s *Store) CreateDrink(ctx context.Context, d *menu.Drink) error {
	if d.ID == "" {
		d.ID = NewID()
	}
	if err := s.applyStock(ctx, d); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	d.CreatedAt, d.UpdatedAt = now, now
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collDrinks).InsertOne(ctx, d); return err }); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("create drink %s: %w", d.ID, ErrConflict)
		}
		return fmt.Errorf("create drink %s: %w", d.ID, err)
	}
	return nil
}

// ReplaceDrink stores an edited drink: the recipe and labels from d, the
// stock state recomputed, the image prompt and creation time kept.
func (s *Store) ReplaceDrink(ctx context.Context, d *menu.Drink) error {
	old, err := s.DrinkByID(ctx, d.ID)
	if err != nil {
		return err
	}
	d.CreatedAt = old.CreatedAt
	d.ImagePrompt = old.ImagePrompt
	d.OutOfStock = old.OutOfStock
	if d.ImageURL == "" || d.ImageURL == old.ImageURL {
		d.ImageURL, d.ImageSource = old.ImageURL, old.ImageSource
	} else {
		// A URL the host typed in the editor is their picture.
		d.ImageSource = menu.ImageUploaded
	}
	if err := s.applyStock(ctx, d); err != nil {
		return err
	}
	d.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
	var res *mongo.UpdateResult
	err = s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collDrinks).ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}}, d)
		return err
	})
	if err != nil {
		return fmt.Errorf("replace drink %s: %w", d.ID, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("replace drink %s: %w", d.ID, ErrNotFound)
	}
	return nil
}

// SeedDrink inserts a drink, or updates the recipe and labels of the
// drink with the same id while keeping its photo, prompt and stock state,
// so seeding again never undoes a host's work on images or the bar's on
// stock.
func (s *Store) SeedDrink(ctx context.Context, d menu.Drink) (created bool, err error) {
	if _, err := s.DrinkByID(ctx, d.ID); errors.Is(err, ErrNotFound) {
		if err := s.CreateDrink(ctx, &d); err != nil {
			return false, err
		}
		return true, nil
	} else if err != nil {
		return false, err
	}
	return false, s.ReplaceDrink(ctx, &d)
}

// DeleteDrink removes a drink and returns it (for its image).
func (s *Store) DeleteDrink(ctx context.Context, id string) (menu.Drink, error) {
	d, err := s.DrinkByID(ctx, id)
	if err != nil {
		return d, err
	}
	var res *mongo.DeleteResult
	err = s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collDrinks).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}})
		return err
	})
	if err != nil {
		return d, fmt.Errorf("delete drink %s: %w", id, err)
	}
	if res.DeletedCount == 0 {
		return d, fmt.Errorf("delete drink %s: %w", id, ErrNotFound)
	}
	return d, nil
}

// SetDrinkImage points a drink at a photo the host uploaded and returns
// the old URL. An upload replaces any picture.
func (s *Store) SetDrinkImage(ctx context.Context, id, url string) (string, error) {
	unlock, err := s.Lock(ctx, drinkImageLock(id), time.Minute)
	if err != nil {
		return "", err
	}
	defer unlock()
	d, err := s.DrinkByID(ctx, id)
	if err != nil {
		return "", err
	}
	if err := s.setDrinkImage(ctx, id, url, menu.ImageUploaded); err != nil {
		return "", err
	}
	return d.ImageURL, nil
}

// ErrUploaded is returned when a generated picture would replace a photo
// the host uploaded.
var ErrUploaded = errors.New("the drink has a photo the host uploaded")

// SetGeneratedDrinkImage points a drink at a picture an image model
// generated and returns the URL it replaced, unless the host has
// uploaded a photo since: then it changes nothing and returns
// ErrUploaded. The read and the write take the drink's image lock, as an
// upload does, so an upload landing meanwhile is never overwritten.
func (s *Store) SetGeneratedDrinkImage(ctx context.Context, id, url string) (string, error) {
	unlock, err := s.Lock(ctx, drinkImageLock(id), time.Minute)
	if err != nil {
		return "", err
	}
	defer unlock()
	d, err := s.DrinkByID(ctx, id)
	if err != nil {
		return "", err
	}
	if d.HasUpload() {
		return "", fmt.Errorf("set the generated image of drink %s: %w", id, ErrUploaded)
	}
	if err := s.setDrinkImage(ctx, id, url, menu.ImageGenerated); err != nil {
		return "", err
	}
	return d.ImageURL, nil
}

// ClearDrinkImage removes a drink's picture, uploaded or generated, so
// it is drawn again, and returns the drink as it was.
func (s *Store) ClearDrinkImage(ctx context.Context, id string) (menu.Drink, error) {
	unlock, err := s.Lock(ctx, drinkImageLock(id), time.Minute)
	if err != nil {
		return menu.Drink{}, err
	}
	defer unlock()
	d, err := s.DrinkByID(ctx, id)
	if err != nil {
		return d, err
	}
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collDrinks).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{
				{Key: "$unset", Value: bson.D{{Key: "imageUrl", Value: ""}, {Key: "imageSource", Value: ""}}},
				{Key: "$set", Value: bson.D{{Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)}}},
			})
		return err
	})
	if err != nil {
		return d, fmt.Errorf("clear image of drink %s: %w", id, err)
	}
	return d, nil
}

func drinkImageLock(id string) string { return "drink-image/" + id }

func (s *Store) setDrinkImage(ctx context.Context, id, url, source string) error {
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collDrinks).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "imageUrl", Value: url}, {Key: "imageSource", Value: source}, {Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("set image of drink %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("set image of drink %s: %w", id, ErrNotFound)
	}
	return nil
}

// SetDrinkImagePrompt stores the prompt an image model is to picture the
// drink with.
func (s *Store) SetDrinkImagePrompt(ctx context.Context, id string, p menu.ImagePrompt) error {
	var res *mongo.UpdateResult
	err := s.retry(ctx, onBusy, func() (err error) {
		res, err = s.coll(collDrinks).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "imagePrompt", Value: p}, {Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("set image prompt of drink %s: %w", id, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("set image prompt of drink %s: %w", id, ErrNotFound)
	}
	return nil
}

// CountDrinks counts the drinks on the menu.
func (s *Store) CountDrinks(ctx context.Context) (int64, error) {
	n, err := s.coll(collDrinks).CountDocuments(ctx, bson.D{})
	if err != nil {
		return 0, fmt.Errorf("count drinks: %w", err)
	}
	return n, nil
}

// The menu's write counter in the database: what lets a server without
// Redis see a menu written by another process on the same database (the
// seed command, another instance) within moments.
const (
	collVersions = "versions"
	versionMenu  = "menu"
)

// MenuVersion returns the menu's write counter; 0 before any write.
func (s *Store) MenuVersion(ctx context.Context) (int64, error) {
	var doc struct {
		N int64 `bson:"n"`
	}
	err := s.coll(collVersions).FindOne(ctx, bson.D{{Key: "_id", Value: versionMenu}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read menu version: %w", err)
	}
	return doc.N, nil
}

// BumpMenuVersion records a menu write and returns the new counter. Two
// bumps at once may give one number (the embedded database's $inc is a
// read, then a write); the counter still moves, which is all readers ask.
func (s *Store) BumpMenuVersion(ctx context.Context) (int64, error) {
	var doc struct {
		N int64 `bson:"n"`
	}
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		return s.coll(collVersions).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: versionMenu}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}},
			options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&doc)
	})
	if err != nil {
		return 0, fmt.Errorf("bump menu version: %w", err)
	}
	return doc.N, nil
}
