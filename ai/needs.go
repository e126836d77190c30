package ai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/diet"
)

// readNeedsTool is the tool the model answers a reading through.
const readNeedsTool = "suggest_needs"

// NeedsReader asks the model what words of a person's needs barhub could
// not read mean: one bounded Converse call with the canonical tags as the
// tool's enum. What it answers is a suggestion shown to the guest or the
// host as chips to confirm ("the AI thinks: nuts, no alcohol"), never
// applied by itself; barhub's own rule (diet.Check) still decides.
type NeedsReader struct {
	model   Model
	timeout time.Duration

	mu   sync.Mutex
	seen map[string][]string
}

// NeedsReaderTimeout bounds one reading: the form waits for it.
const NeedsReaderTimeout = 3 * time.Second

// maxReadings bounds the readings kept, so the same words typed again on
// the form cost no second call.
const maxReadings = 1024

// NewNeedsReader reads with model, each call within timeout
// (NeedsReaderTimeout when zero or less).
func NewNeedsReader(model Model, timeout time.Duration) *NeedsReader {
	if timeout <= 0 {
		timeout = NeedsReaderTimeout
	}
	return &NeedsReader{model: model, timeout: timeout, seen: map[string][]string{}}
}

// SuggestNeeds returns the canonical tags the model reads in words (the
// parts barhub could not read), in the diet package's order, or an error
// when the model did not answer in time or in the tool's shape.
func (r *NeedsReader) SuggestNeeds(ctx context.Context, words []string) ([]string, error) {
	if r == nil || r.model == nil || len(words) == 0 {
		return nil, nil
	}
	key := strings.Join(words, "\n")
	r.mu.Lock()
	tags, ok := r.seen[key]
	r.mu.Unlock()
	if ok {
		return tags, nil
	}
	p, err := prompts.Render(prompts.ReadNeeds, map[string]any{"Words": words, "Tags": diet.Tags()})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.model.Converse(ctx, ModelRequest{
		System: p.System, Prompt: p.User, Temperature: 0, MaxTokens: 200,
		Tool: &Tool{Name: readNeedsTool, Description: "The dietary tags the guest's words name.", Schema: readNeedsSchema()},
	})
	if err != nil {
		return nil, fmt.Errorf("read needs with the model: %w", err)
	}
	tags, err = readNeedsAnswer(resp)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if len(r.seen) >= maxReadings {
		clear(r.seen)
	}
	r.seen[key] = tags
	r.mu.Unlock()
	return tags, nil
}

// readNeedsSchema is the tool's input schema: the tags, each one of
// diet.Tags.
func readNeedsSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"tags": map[string]any{
				"type":     "array",
				"maxItems": len(diet.Tags()),
				"items":    map[string]any{"type": "string", "enum": diet.Tags()},
			},
		},
		"required": []string{"tags"},
	}
}

var errNoReading = errors.New("the model did not answer with suggest_needs")

// readNeedsAnswer keeps the canonical tags of the model's answer, in the
// diet package's order; anything else in it is dropped.
func readNeedsAnswer(resp ModelResponse) ([]string, error) {
	if len(resp.ToolInput) == 0 {
		return nil, errNoReading
	}
	var in struct {
		Tags []string `json:"tags"`
	}
	if err := json.Unmarshal(resp.ToolInput, &in); err != nil {
		return nil, fmt.Errorf("%w: %v", errNoReading, err)
	}
	var tags []string
	for _, t := range in.Tags {
		if t = strings.ToLower(strings.TrimSpace(t)); diet.IsTag(t) {
			tags = append(tags, t)
		}
	}
	out := diet.Normalize(diet.Needs{Tags: tags, Reviewed: true}).Tags
	if out == nil {
		out = []string{}
	}
	return out, nil
}
