package ai

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
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

// imagePromptMaxWords is the length the image_prompt template asks for;
// a longer answer is cut to it at a word boundary.
const imagePromptMaxWords = 80

// WriteImagePrompt writes the photography prompt for d: with the model
// when there is one, else from the local template.
func WriteImagePrompt(ctx context.Context, m Model, d Drink) (ImagePrompt, Usage, error) {
	if m == nil {
		p, err := LocalImagePrompt(d)
		return p, Usage{}, err
	}
	p, err := prompts.Render(prompts.ImagePrompt, imageDataOf(d))
	if err != nil {
		return ImagePrompt{}, Usage{}, err
	}
	resp, err := m.Converse(ctx, ModelRequest{System: p.System, Prompt: p.User, Temperature: imagePromptTemperature, MaxTokens: imagePromptMaxTokens})
	if err != nil {
		return ImagePrompt{}, resp.Usage, err
	}
	text := CleanImagePrompt(resp.Text)
	if text == "" {
		return ImagePrompt{}, resp.Usage, fmt.Errorf("the model answered with an empty image prompt (stop reason %q)", resp.StopReason)
	}
	return ImagePrompt{Text: text, Source: SourceBedrock, Model: m.Name(), PromptVersion: p.Version, CreatedAt: now()}, resp.Usage, nil
}

// LocalImagePrompt writes d's photography prompt from the local template.
func LocalImagePrompt(d Drink) (ImagePrompt, error) {
	p, err := prompts.Render(prompts.ImagePromptLocal, imageDataOf(d))
	if err != nil {
		return ImagePrompt{}, err
	}
	return ImagePrompt{Text: p.User, Source: SourceLocal, Model: LocalImageModel, PromptVersion: p.Version, CreatedAt: now()}, nil
}

func imageDataOf(d Drink) imageData {
	return imageData{Name: d.Name, Section: d.Section, Ingredients: d.Ingredients, Tags: d.Tags, AlcoholFree: d.AlcoholFree}
}

func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// preamble matches what models put before a prompt despite being asked
// not to: "Here is your image prompt:", "Sure! Here's a prompt for the
// Negroni:", "Image prompt:", "**Prompt:**".
var preamble = regexp.MustCompile(`(?is)^\s*(?:(?:sure|certainly|of course|okay|ok)[!,.]?\s*)?(?:here(?:'s| is)[^:\n]{0,60}\bprompt\b[^:\n]{0,40}:|(?:\*\*|__)?(?:final |image |photography )?prompt(?:\*\*|__)?\s*:(?:\*\*|__)?)\s*`)

// fence matches a code fence line, with its language.
var fence = regexp.MustCompile("(?m)^\\s*```[a-zA-Z]*\\s*$|```[a-zA-Z]*")

// title matches a Markdown heading line ("## Negroni — image prompt") or a
// line that is bold and nothing else ("**Negroni, stirred**"), which
// models put above the prompt.
var title = regexp.MustCompile(`^\s*(?:#{1,6}\s+[^\n]*|(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__):?)\s*\n`)

// laterOption matches where a second alternative starts ("Option 2:",
// "**Alternative B**", "Version two -"): only the first is kept.
var laterOption = regexp.MustCompile(`(?i)(?:^|\n|\s)[*_#>\s-]*(?:option|alternative|version|variation|prompt)\s*(?:#\s*)?(?:2|two|b)\b\s*(?:\([^)\n]*\))?\s*(?:\*\*|__)?\s*[:.)\-—–]`)

// firstOption matches the first alternative's label, dropped.
var firstOption = regexp.MustCompile(`(?i)^[*_#>\s-]*(?:option|alternative|version|variation)\s*(?:#\s*)?(?:1|one|a)\b\s*(?:\([^)\n]*\))?\s*(?:\*\*|__)?\s*[:.)\-—–]+\s*(?:\*\*|__)?\s*`)

// explanation matches where a model starts explaining its prompt after
// it: a rule, or a line opening with "This prompt…", "Explanation:",
// "Notes:", "Why this works", "Key elements".
var explanation = regexp.MustCompile(`(?im)^\s*(?:-{3,}|\*{3,}|_{3,})\s*$|^[*_#>\s]*(?:this prompt|the prompt above|this description|explanation|notes?\s*:|why (?:this|it) works|key (?:elements|details|features)|breakdown|rationale|details\s*:)`)

// closing matches a closing remark, on its own line or after the
// prompt's last sentence: "Let me know if you want changes!", "Feel free
// to adjust", "I hope this helps", "Would you like…".
var closing = regexp.MustCompile(`(?is)(?:^|[.!?…]["”']?\s+|\n)\s*(?:let me know|feel free|i hope|hope (?:this|that|you)|would you like|do you want|if you(?:'d| would)? (?:like|want|need|prefer)|happy to (?:help|adjust|tweak)|i can (?:also )?(?:adjust|tweak|change|make|write)|want me to|enjoy[!.]|cheers[!.]).*$`)

// CleanImagePrompt strips what models wrap a prompt in — a title, a
// preamble, code fences, a "**Prompt:**" label, quotation marks,
// Markdown bold, line breaks, alternatives after the first, an
// explanation after it and a closing remark — and keeps it to the
// template's word limit, cut at a word boundary.
func CleanImagePrompt(s string) string {
	s = fence.ReplaceAllString(s, "\n")
	for range 3 {
		s = strings.TrimSpace(s) + "\n"
		s = title.ReplaceAllLiteralString(s, "")
		s = strings.TrimSpace(preamble.ReplaceAllString(strings.TrimSpace(s), ""))
		s = strings.TrimSpace(firstOption.ReplaceAllString(s, ""))
	}
	// What follows the prompt is cut only past its first words, so an
	// answer that is all remark is not cut to nothing here.
	if loc := laterOption.FindStringIndex(s); loc != nil && loc[0] > 0 {
		s = s[:loc[0]]
	}
	if loc := explanation.FindStringIndex(s); loc != nil && loc[0] > 0 {
		s = s[:loc[0]]
	}
	if loc := closing.FindStringSubmatchIndex(s); loc != nil && loc[0] > 0 {
		// Keep the sentence's own full stop.
		cut := loc[0]
		if strings.ContainsAny(s[cut:cut+1], ".!?…") {
			cut++
		}
		s = s[:cut]
	}
	s = strings.NewReplacer("**", "", "__", "").Replace(s)
	s = strings.TrimSpace(s)
	for _, q := range [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"`", "`"}} {
		if len(s) >= 2 && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) {
			s = strings.TrimSpace(s[len(q[0]) : len(s)-len(q[1])])
		}
	}
	ws := strings.Fields(s)
	if len(ws) > imagePromptMaxWords {
		ws = ws[:imagePromptMaxWords]
		last := strings.TrimRight(ws[len(ws)-1], ",;:—-")
		ws[len(ws)-1] = last
	}
	return strings.Join(ws, " ")
}

// imagePrompt runs an image_prompt job: write the prompt, store it on the
// drink, tell the admins.
func (w *Bartender) imagePrompt(ctx context.Context, j store.Job) (outcome, error) {
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
	w.publish(ctx, live.TopicAdmin, live.EventPromptReady, map[string]any{
		"drinkId":     id,
		"name":        d.Name,
		"jobId":       j.ID,
		"imagePrompt": p,
	})
	w.queuePicture(ctx, id)
	return outcome{usage: usage, result: map[string]string{
		"drinkId":       id,
		"source":        p.Source,
		"model":         p.Model,
		"promptVersion": p.PromptVersion,
	}}, nil
}

// imagePromptFallback gives the drink of an image_prompt job being set
// aside (a permanent model failure, or the last attempt failed) the local
// template's prompt, labelled local, so it is not left without one. The
// job stays dead for the admin, whose retry asks the model again and
// replaces it.
func (w *Bartender) imagePromptFallback(ctx context.Context, j store.Job) {
	id := j.Payload[store.PayloadDrinkID]
	d, err := w.d.Menu.Drink(ctx, id)
	if err != nil {
		return
	}
	p, err := LocalImagePrompt(d)
	if err == nil {
		err = w.d.Prompts.SaveImagePrompt(ctx, id, p)
	}
	if err != nil {
		w.log.Warn("save the local image prompt of a failed job", "drink", id, "err", err)
		return
	}
	w.publish(ctx, live.TopicAdmin, live.EventPromptReady, map[string]any{"drinkId": id, "name": d.Name, "jobId": j.ID, "imagePrompt": p})
	w.queuePicture(ctx, id)
}
