package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

const collRecommendations = "recommendations"

// Recommendation statuses. A recommendation stays queued while its job
// runs, then becomes done (with drinks) or failed (with an error).
const (
	RecommendationQueued = "queued"
	RecommendationDone   = "done"
	RecommendationFailed = "failed"
)

// Where a recommendation's picks came from.
const (
	SourceBedrock = "bedrock"
	SourceLocal   = "local"
)

// RecommendationRequest is what a guest asked for.
type RecommendationRequest struct {
	Likes       []string `bson:"likes" json:"likes"`
	Dislikes    []string `bson:"dislikes" json:"dislikes"`
	Mood        string   `bson:"mood,omitempty" json:"mood"`
	AlcoholFree bool     `bson:"alcoholFree" json:"alcoholFree"`
	// Language is the language of the page that asked (its
	// Accept-Language: en, sv or pt-BR), which the answer's reasons are
	// written in; "" when it did not say.
	Language string `bson:"language,omitempty" json:"language,omitempty"`
}

// RecommendedDrink is one pick with the reason it was picked.
type RecommendedDrink struct {
	ID     string `bson:"drinkId" json:"id"`
	Name   string `bson:"name" json:"name"`
	Reason string `bson:"reason" json:"reason"`
}

// Recommendation is one guest's request and, once the worker is done, its
// answer.
type Recommendation struct {
	ID                   string                `bson:"_id" json:"id"`
	GuestID              string                `bson:"guestId" json:"guestId"`
	Status               string                `bson:"status" json:"status"`
	Request              RecommendationRequest `bson:"request" json:"request"`
	RecommendationResult `bson:",inline"`
	CreatedAt            time.Time `bson:"createdAt" json:"createdAt"`
	UpdatedAt            time.Time `bson:"updatedAt" json:"updatedAt"`
}

// RecommendationResult is the worker's answer.
type RecommendationResult struct {
	Source string             `bson:"source,omitempty" json:"source,omitempty"`
	Model  string             `bson:"model,omitempty" json:"model,omitempty"`
	Drinks []RecommendedDrink `bson:"drinks" json:"drinks"`
	// PromptVersion names the prompt template that produced the picks.
	PromptVersion string `bson:"promptVersion,omitempty" json:"promptVersion,omitempty"`
	// Fallback is set when the model could not answer and the local
	// recommender did; Note says why, in words a guest can read.
	Fallback bool   `bson:"fallback,omitempty" json:"fallback,omitempty"`
	Note     string `bson:"note,omitempty" json:"note,omitempty"`
	// NoteID names the note for the pages' catalogues (reco.note.<id>:
	// busy, closest, nothing), so a guest reads it in their language.
	NoteID string `bson:"noteId,omitempty" json:"noteId,omitempty"`
	Error  string `bson:"error,omitempty" json:"error,omitempty"`
}

// recommendationIndexes: a guest's recent requests, newest first.
func recommendationIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "guestId", Value: 1}, {Key: "createdAt", Value: -1}}, Options: options.Index().SetName("guestId_createdAt")},
	}
}

// CreateRecommendation stores a new queued request and fills in its ID
// and times.
func (s *Store) CreateRecommendation(ctx context.Context, r *Recommendation) error {
	if r.ID == "" {
		r.ID = NewID()
	}
	t := time.Now().UTC().Truncate(time.Millisecond)
	r.Status = RecommendationQueued
	r.CreatedAt, r.UpdatedAt = t, t
	if r.Drinks == nil {
		r.Drinks = []RecommendedDrink{}
	}
	if r.Request.Likes == nil {
		r.Request.Likes = []string{}
	}
	if r.Request.Dislikes == nil {
		r.Request.Dislikes = []string{}
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collRecommendations).InsertOne(ctx, r); return err }); err != nil {
		return fmt.Errorf("create recommendation for guest %s: %w", r.GuestID, err)
	}
	return nil
}

// RecommendationByID loads one recommendation.
func (s *Store) RecommendationByID(ctx context.Context, id string) (Recommendation, error) {
	r, err := findByID[Recommendation](ctx, s, collRecommendations, "recommendation", id)
	if err != nil {
		return r, err
	}
	if r.Drinks == nil {
		r.Drinks = []RecommendedDrink{}
	}
	return r, nil
}

// CompleteRecommendation stores the worker's answer with status (done or
// failed). Running a job again overwrites the earlier answer, so an
// admin's retry of a dead job can replace a fallback with the model's.
func (s *Store) CompleteRecommendation(ctx context.Context, id, status string, res RecommendationResult) (Recommendation, error) {
	if res.Drinks == nil {
		res.Drinks = []RecommendedDrink{}
	}
	set := bson.D{
		{Key: "status", Value: status},
		{Key: "source", Value: res.Source},
		{Key: "model", Value: res.Model},
		{Key: "drinks", Value: res.Drinks},
		{Key: "promptVersion", Value: res.PromptVersion},
		{Key: "fallback", Value: res.Fallback},
		{Key: "note", Value: res.Note},
		{Key: "noteId", Value: res.NoteID},
		{Key: "error", Value: res.Error},
		{Key: "updatedAt", Value: time.Now().UTC().Truncate(time.Millisecond)},
	}
	r, err := s.coll(collRecommendations).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: set}})
	if err != nil {
		return Recommendation{}, fmt.Errorf("complete recommendation %s: %w", id, err)
	}
	if r.MatchedCount == 0 {
		return Recommendation{}, fmt.Errorf("complete recommendation %s: %w", id, ErrNotFound)
	}
	return s.RecommendationByID(ctx, id)
}

// ReserveRecommendation takes one of the guest's limit requests in the
// current fixed window of length window. Counting and then inserting would
// let a burst of parallel requests through on every instance; claiming
// numbered slots ("reco/<guest>/<window>/<n>") cannot, since each slot is
// an insert of a unique _id. When every slot is taken it returns ok false
// and how long until the window ends.
func (s *Store) ReserveRecommendation(ctx context.Context, guestID string, limit int, window time.Duration, at time.Time) (ok bool, retryAfter time.Duration, err error) {
	if limit <= 0 || window <= 0 {
		return true, 0, nil
	}
	slot := at.UnixNano() / int64(window)
	end := time.Unix(0, (slot+1)*int64(window))
	ttl := end.Sub(at) + time.Minute
	for n := 1; n <= limit; n++ {
		err := s.Claim(ctx, fmt.Sprintf("reco/%s/%d/%d", guestID, slot, n), ttl)
		if err == nil {
			return true, 0, nil
		}
		if !errors.Is(err, ErrConflict) {
			return false, 0, fmt.Errorf("reserve recommendation for guest %s: %w", guestID, err)
		}
	}
	return false, end.Sub(at), nil
}
