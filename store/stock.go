package store

import (
	"context"
	"fmt"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/menu"
)

const collStock = "stock"

// StockItem is the bar's word on one ingredient. Only ingredients that
// were ever marked have a document; the rest are in stock.
type StockItem struct {
	Key       string    `bson:"_id" json:"key"`
	Name      string    `bson:"name" json:"name"`
	InStock   bool      `bson:"inStock" json:"inStock"`
	UpdatedAt time.Time `bson:"updatedAt" json:"updatedAt,omitzero"`
	UpdatedBy string    `bson:"updatedBy" json:"updatedBy,omitempty"`
	// Drinks counts the drinks that need it; filled in by IngredientStock.
	Drinks int `bson:"-" json:"drinks"`
}

// OutOfStock returns the keys of the ingredients marked out of stock.
func (s *Store) OutOfStock(ctx context.Context) (map[string]bool, error) {
	cur, err := s.coll(collStock).Find(ctx, bson.D{{Key: "inStock", Value: false}})
	if err != nil {
		return nil, fmt.Errorf("list stock: %w", err)
	}
	var items []StockItem
	if err := cur.All(ctx, &items); err != nil {
		return nil, fmt.Errorf("list stock: %w", err)
	}
	out := make(map[string]bool, len(items))
	for _, it := range items {
		out[it.Key] = true
	}
	return out, nil
}

// applyStock sets d's missing ingredients and availability from the
// stock marks, for a drink about to be stored.
func (s *Store) applyStock(ctx context.Context, d *menu.Drink) error {
	out, err := s.OutOfStock(ctx)
	if err != nil {
		return err
	}
	d.MissingIngredients = []string{}
	for _, in := range d.Ingredients {
		if out[in.Key] {
			d.MissingIngredients = append(d.MissingIngredients, in.Key)
		}
	}
	d.RefreshAvailable()
	return nil
}

// SetIngredientStock marks an ingredient (by its key, see
// menu.IngredientKey) in or out of stock and makes every drink needing it
// unavailable, or available again when nothing else is missing. It
// returns the ids of the drinks that need the ingredient.
//
// Each step is one UpdateMany through the dotted path ingredients.key;
// callers serialise stock changes so two of them never interleave on the
// same drink (the embedded database applies an update as read-then-write).
func (s *Store) SetIngredientStock(ctx context.Context, key, name string, inStock bool, by string) ([]string, error) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	err := s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collStock).UpdateOne(ctx, bson.D{{Key: "_id", Value: key}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "name", Value: name}, {Key: "inStock", Value: inStock}, {Key: "updatedAt", Value: now}, {Key: "updatedBy", Value: by}}}},
			options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("mark %s: %w", key, err)
	}
	needs := bson.D{{Key: "ingredients.key", Value: key}}
	updateMany := func(filter, update bson.D) error {
		return s.retry(ctx, onBusy, func() error { _, err := s.coll(collDrinks).UpdateMany(ctx, filter, update); return err })
	}
	if inStock {
		if err := updateMany(needs,
			bson.D{{Key: "$pull", Value: bson.D{{Key: "missingIngredients", Value: key}}}, {Key: "$set", Value: bson.D{{Key: "updatedAt", Value: now}}}}); err != nil {
			return nil, fmt.Errorf("mark %s in stock: %w", key, err)
		}
		if err := updateMany(
			bson.D{{Key: "ingredients.key", Value: key}, {Key: "missingIngredients", Value: bson.D{{Key: "$size", Value: 0}}}, {Key: "outOfStock", Value: false}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "available", Value: true}}}}); err != nil {
			return nil, fmt.Errorf("mark %s in stock: %w", key, err)
		}
	} else {
		if err := updateMany(needs,
			bson.D{{Key: "$addToSet", Value: bson.D{{Key: "missingIngredients", Value: key}}}, {Key: "$set", Value: bson.D{{Key: "available", Value: false}, {Key: "updatedAt", Value: now}}}}); err != nil {
			return nil, fmt.Errorf("mark %s out of stock: %w", key, err)
		}
	}
	cur, err := s.coll(collDrinks).Find(ctx, needs, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("list drinks needing %s: %w", key, err)
	}
	var docs []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("list drinks needing %s: %w", key, err)
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return ids, nil
}

// SetDrinkStock marks a whole drink out of (or back in) stock and returns
// it as stored.
func (s *Store) SetDrinkStock(ctx context.Context, id string, inStock bool) (menu.Drink, error) {
	d, err := s.DrinkByID(ctx, id)
	if err != nil {
		return d, err
	}
	d.OutOfStock = !inStock
	d.RefreshAvailable()
	d.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collDrinks).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "outOfStock", Value: d.OutOfStock}, {Key: "available", Value: d.Available}, {Key: "updatedAt", Value: d.UpdatedAt}}}})
		return err
	})
	if err != nil {
		return d, fmt.Errorf("mark drink %s: %w", id, err)
	}
	return d, nil
}

// IngredientStock lists every ingredient the menu uses, with its stock
// mark and how many drinks need it, by name; marked ingredients no drink
// uses any more are listed too, so they can be cleared.
func (s *Store) IngredientStock(ctx context.Context) ([]StockItem, error) {
	drinks, err := s.Drinks(ctx, menu.Filter{})
	if err != nil {
		return nil, err
	}
	cur, err := s.coll(collStock).Find(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("list stock: %w", err)
	}
	var marks []StockItem
	if err := cur.All(ctx, &marks); err != nil {
		return nil, fmt.Errorf("list stock: %w", err)
	}
	byKey := map[string]*StockItem{}
	for _, d := range drinks {
		for _, in := range d.Ingredients {
			it := byKey[in.Key]
			if it == nil {
				it = &StockItem{Key: in.Key, Name: in.Name, InStock: true}
				byKey[in.Key] = it
			}
			it.Drinks++
		}
	}
	for _, m := range marks {
		it := byKey[m.Key]
		if it == nil {
			it = &StockItem{Key: m.Key, Name: m.Name}
			byKey[m.Key] = it
		}
		it.InStock, it.UpdatedAt, it.UpdatedBy = m.InStock, m.UpdatedAt, m.UpdatedBy
	}
	out := make([]StockItem, 0, len(byKey))
	for _, it := range byKey {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}
