// Package ai is barhub's AI bartender: job handlers, run by the durable
// job runner (package jobs), that write photography prompts for new drinks and recommends drinks to
// guests, with Amazon Bedrock when it is configured and with real local
// implementations (a template prompt, a scoring recommender) when it is
// not. Results say which one answered ("source": "bedrock" or "local").
//
// The package declares the small views of the menu, the guests and the
// hub it needs; cmd/barhub adapts the real ones.
package ai

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/barhub/barhub/store"
)

// Drink is the worker's view of a menu drink.
type Drink struct {
	ID          string
	Name        string
	Section     string
	Ingredients []string
	Tags        []string
	Allergens   []string
	AlcoholFree bool
	Available   bool
	ABV         float64
}

// Guest is the worker's view of a guest: what they told us with the RSVP.
type Guest struct {
	ID          string
	Name        string
	DietaryText string
	DietaryTags []string
	// DietaryUnclear, DietaryAnswered and DietaryReviewed are the rest of
	// the stored answer (diet.Needs): words barhub could not read, those
	// the guest answered, and whether the host reviewed them.
	DietaryUnclear  []string
	DietaryAnswered []string
	DietaryReviewed bool
	Likes           []string
	Dislikes        []string
	AlcoholFree     bool
	// Language is the one their page showed at their last sign-in ("sv"),
	// or "" when they have not signed in since barhub kept it.
	Language string
}

// ImagePrompt is a photography prompt written for a drink.
type ImagePrompt struct {
	Text string `json:"text"`
	// Source is "bedrock" or "local".
	Source string `json:"source"`
	// Model is the Bedrock model id, or the local template's name.
	Model string `json:"model"`
	// PromptVersion names the template that asked for it.
	PromptVersion string    `json:"promptVersion"`
	CreatedAt     time.Time `json:"createdAt"`
}

// Menu reads the drinks. AvailableDrinks lists only what can be ordered
// now; Drink returns an error wrapping store.ErrNotFound for a drink that
// no longer exists.
type Menu interface {
	AvailableDrinks(ctx context.Context) ([]Drink, error)
	Drink(ctx context.Context, id string) (Drink, error)
}

// Guests reads a guest and the drinks they ordered before (any order,
// repeats allowed).
type Guests interface {
	Guest(ctx context.Context, id string) (Guest, error)
	PastOrders(ctx context.Context, guestID string) ([]PastOrder, error)
}

// PromptSink stores a drink's image prompt.
type PromptSink interface {
	SaveImagePrompt(ctx context.Context, drinkID string, p ImagePrompt) error
}

// Publisher sends a live event to a hub topic.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
}

// Model is a chat model: Bedrock's Converse, or a test's stand-in.
type Model interface {
	Converse(ctx context.Context, req ModelRequest) (ModelResponse, error)
	// Name is the model id recorded with each result.
	Name() string
}

// ImageModel pictures a prompt: Bedrock's Nova Canvas, or a test's.
type ImageModel interface {
	GenerateImage(ctx context.Context, req ImageRequest) ([]byte, error)
	// Name is the model id recorded with each picture.
	Name() string
}

// ImageRequest is one picture to make.
type ImageRequest struct {
	Prompt string
	// Width and Height are in pixels, multiples of 16.
	Width, Height int
	// Quality is "standard" or "premium".
	Quality string
	// Seed makes the same prompt give the same picture.
	Seed int64
}

// Pictures is where a drink's generated picture is stored (the same
// store as the host's uploads) and what the image job reads first.
type Pictures interface {
	// PictureOf says whether the drink has a photo the host uploaded and
	// what its image prompt is ("" for none); an error wrapping
	// store.ErrNotFound for a deleted drink.
	PictureOf(ctx context.Context, drinkID string) (uploaded bool, prompt string, err error)
	// SaveGenerated stores a generated picture and points the drink at
	// it, unless the host uploaded a photo meanwhile (an error wrapping
	// store.ErrUploaded); it returns the picture's URL.
	SaveGenerated(ctx context.Context, drinkID string, image []byte) (string, error)
}

// Jobs queues a job and hands it to this process's runner.
type Jobs interface {
	EnqueueJob(ctx context.Context, j store.NewJob) (store.Job, error)
}

// ModelRequest is one single-turn call.
type ModelRequest struct {
	System      string
	Prompt      string
	Temperature float32
	MaxTokens   int32
	// Tool, when set, is the one tool the model is asked to call: its
	// answer is then the tool's input, JSON in the tool's schema, and
	// nothing depends on reading prose.
	Tool *Tool
}

// Tool is a tool offered to the model: a name, what it is for, and the
// JSON schema of its input.
type Tool struct {
	Name        string
	Description string
	Schema      map[string]any
}

// ModelResponse is the model's answer and what it cost.
type ModelResponse struct {
	Text string
	// ToolInput is the input of the model's call of the request's Tool
	// (JSON), when it made one.
	ToolInput json.RawMessage
	// ToolCalled says the model called the request's Tool, even with no
	// input at all.
	ToolCalled bool
	StopReason string
	Usage      Usage
	LatencyMs  int64
}

// Why the model stopped, as Converse reports it.
const (
	StopEndTurn         = "end_turn"
	StopToolUse         = "tool_use"
	StopMaxTokens       = "max_tokens"
	StopContentFiltered = "content_filtered"
	StopGuardrail       = "guardrail_intervened"
)

// Usage counts tokens.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	TotalTokens  int64
}

func (u Usage) add(v Usage) Usage {
	return Usage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens, u.TotalTokens + v.TotalTokens}
}

// Sources of a result.
const (
	SourceBedrock = "bedrock"
	SourceLocal   = "local"
)

// permanent reports whether err says that trying again cannot help (a
// model the account may not use, a request the service refuses). Errors
// say so by implementing Permanent() bool, as ai/bedrock's do.
func permanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// permanentError marks an error no retry can fix.
type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() error   { return e.err }
func (e permanentError) Permanent() bool { return true }
