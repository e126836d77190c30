package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/plan"
)

// The reads behind the shopping and stock plan (plan): who is coming
// with what they like and may not have, and what has been ordered so far.

// ComingGuests returns every guest who is coming, with only what the plan
// needs (heads, dietary answers and companions, tastes), by id so the plan is the same on
// every call. On MongoDB the status index serves it; the embedded database
// scans, which a party of hundreds does not notice.
func (s *Store) ComingGuests(ctx context.Context) ([]guest.Guest, error) {
	cur, err := s.coll(collGuests).Find(ctx, bson.D{{Key: "status", Value: guest.StatusComing}},
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetProjection(bson.D{
			{Key: "status", Value: 1}, {Key: "expectedGuests", Value: 1}, {Key: "extraGuests", Value: 1},
			{Key: "dietary", Value: 1}, {Key: "companions", Value: 1}, {Key: "tastes", Value: 1},
			{Key: "ageGroup", Value: 1},
		}))
	if err != nil {
		return nil, fmt.Errorf("load coming guests: %w", err)
	}
	out := []guest.Guest{}
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("load coming guests: %w", err)
	}
	return out, nil
}

// OrderedDrinks counts the glasses ordered so far per drink id, open and
// finished orders together, cancelled ones left out. Each collection is
// one $group with a single accumulator (the embedded database answers 0
// for every accumulator after the first); the two are added up here.
func (s *Store) OrderedDrinks(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: bson.D{{Key: "status", Value: bson.D{{Key: "$ne", Value: order.Cancelled}}}}}},
		{{Key: "$unwind", Value: "$items"}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$items.drinkId"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: "$items.qty"}}}}}},
	}
	for _, coll := range []string{collOrders, collArchive} {
		cur, err := s.coll(coll).Aggregate(ctx, pipeline)
		if err != nil {
			return nil, fmt.Errorf("count ordered drinks: %w", err)
		}
		var rows []struct {
			DrinkID string `bson:"_id"`
			N       int    `bson:"n"`
		}
		if err := cur.All(ctx, &rows); err != nil {
			return nil, fmt.Errorf("count ordered drinks: %w", err)
		}
		for _, r := range rows {
			out[r.DrinkID] += r.N
		}
	}
	return out, nil
}

// What the plan learnt from a night (plan.Learnt) is one document beside
// the event's settings.
const settingsLearnt = "planLearnt"

// PlanLearnt returns what the plan learnt, the zero value when nothing.
func (s *Store) PlanLearnt(ctx context.Context) (plan.Learnt, error) {
	var doc struct {
		plan.Learnt `bson:",inline"`
	}
	err := s.coll(collSettings).FindOne(ctx, bson.D{{Key: "_id", Value: settingsLearnt}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return plan.Learnt{}, nil
	}
	if err != nil {
		return plan.Learnt{}, fmt.Errorf("load learnt factors: %w", err)
	}
	return doc.Learnt, nil
}

// SavePlanLearnt replaces what the plan learnt.
func (s *Store) SavePlanLearnt(ctx context.Context, l plan.Learnt) error {
	doc := struct {
		ID          string `bson:"_id"`
		plan.Learnt `bson:",inline"`
	}{settingsLearnt, l}
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).ReplaceOne(ctx, bson.D{{Key: "_id", Value: settingsLearnt}}, doc, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save learnt factors: %w", err)
	}
	return nil
}

// ForgetPlanLearnt drops what the plan learnt; forgetting nothing is fine.
func (s *Store) ForgetPlanLearnt(ctx context.Context) error {
	err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collSettings).DeleteOne(ctx, bson.D{{Key: "_id", Value: settingsLearnt}})
		return err
	})
	if err != nil {
		return fmt.Errorf("forget learnt factors: %w", err)
	}
	return nil
}
