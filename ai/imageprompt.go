package ai

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/api/store"
)

// The sampling the image prompt is asked with (docs/DESIGN.md, flow 5).
const (
	imagePromptTemperature = 0.7
	imagePromptMaxTokens   = 300
)

// LocalImageModel is the Model recorded for prompts written from the
// local template.
const LocalImageModel = "template"

// imageData is what the image prompt templates read.
type imageData struct {
	Name        string
	Section     string
	Ingredients []string
	Tags        []string
	AlcoholFree bool
}

// WriteImagePrompt writes the photography prompt for d: with the model
// when there is one, else from the local template.
func WriteImagePrompt(ctx context.Context, m Model, d Drink) (ImagePrompt, Usage, error) {
	data := imageData{Name: d.Name, Section: d.Section, Ingredients: d.Ingredients, Tags: d.Tags, AlcoholFree: d.AlcoholFree}
	now := time.Now().UTC().Truncate(time.Millisecond)
	if m == nil {
		p, err := prompts.Render(prompts.ImagePromptLocal, data)
		if err != nil {
			return ImagePrompt{}, Usage{}, err
		}
		return ImagePrompt{Text: p.User, Source: SourceLocal, Model: LocalImageModel, PromptVersion: p.Version, CreatedAt: now}, Usage{}, nil
	}
	p, err := prompts.Render(prompts.ImagePrompt, data)
	if err != nil {
		return ImagePrompt{}, Usage{}, err
	}
	resp, err := m.Converse(ctx, ModelRequest{System: p.System, Prompt: p.User, Temperature: imagePromptTemperature, MaxTokens: imagePromptMaxTokens})
	if err != nil {
		return ImagePrompt{}, resp.Usage, err
	}
	text := cleanPrompt(resp.Text)
	if text == "" {
		return ImagePrompt{}, resp.Usage, errors.New("the model answered with an empty image prompt")
	}
	return ImagePrompt{Text: text, Source: SourceBedrock, Model: m.Name(), PromptVersion: p.Version, CreatedAt: now}, resp.Usage, nil
}

// cleanPrompt strips what models wrap a prompt in despite being asked not
// to: a label, quotation marks, code fences, line breaks.
func cleanPrompt(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "`")
	for _, label := range []string{"Image prompt:", "Prompt:", "image prompt:", "prompt:"} {
		s = strings.TrimPrefix(strings.TrimSpace(s), label)
	}
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = s[1 : len(s)-1]
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 1500 {
		s = string(r[:1500])
	}
	return s
}

// imagePrompt runs an image_prompt job: write the prompt, store it on the
// drink, tell the admins.
func (w *Worker) imagePrompt(ctx context.Context, j store.Job) (outcome, error) {
	id := j.Payload[store.PayloadDrinkID]
	if id == "" {
		return outcome{}, permanentError{errors.New("the job names no drink")}
	}
	d, err := w.d.Menu.Drink(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return outcome{result: map[string]string{"skipped": "the drink was deleted"}}, nil
	}
	if err != nil {
		return outcome{}, fmt.Errorf("load drink %s: %w", id, err)
	}
	p, usage, err := WriteImagePrompt(ctx, w.d.Model, d)
	if err != nil {
		return outcome{usage: usage}, fmt.Errorf("image prompt for drink %s: %w", id, err)
	}
	if err := w.d.Prompts.SaveImagePrompt(ctx, id, p); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return outcome{usage: usage, result: map[string]string{"skipped": "the drink was deleted"}}, nil
		}
		return outcome{usage: usage}, fmt.Errorf("save image prompt of drink %s: %w", id, err)
	}
	w.publish(ctx, TopicAdmin, EventPromptReady, map[string]any{
		"drinkId":     id,
		"name":        d.Name,
		"jobId":       j.ID,
		"imagePrompt": p,
	})
	return outcome{usage: usage, result: map[string]string{
		"drinkId":       id,
		"source":        p.Source,
		"model":         p.Model,
		"promptVersion": p.PromptVersion,
	}}, nil
}
