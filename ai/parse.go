package ai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ModelPick is one drink as the model named it, before validation.
type ModelPick struct {
	ID     string
	Name   string
	Reason string
}

// maxModelPicks bounds what is read from a model's answer; more is noise.
const maxModelPicks = 10

// ErrMalformedAnswer is returned for a model answer that holds no usable
// JSON list of drinks.
var ErrMalformedAnswer = errors.New("the model's answer is not the JSON asked for")

// ParsePicks reads the drinks out of a model's answer. Models asked for
// JSON still wrap it in code fences or a sentence now and then, so the
// first JSON object or array in the text is read and the rest ignored.
// Accepted shapes: {"drinks":[…]}, {"recommendations":[…]} or a bare
// array, of objects with "id" (or "drinkId"), "name" and "reason".
func ParsePicks(text string) ([]ModelPick, error) {
	start := strings.IndexAny(text, "{[")
	if start < 0 {
		return nil, fmt.Errorf("%w: no JSON in it", ErrMalformedAnswer)
	}
	dec := json.NewDecoder(strings.NewReader(text[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedAnswer, err)
	}
	var items []modelItem
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMalformedAnswer, err)
		}
	} else {
		var obj struct {
			Drinks          []modelItem `json:"drinks"`
			Recommendations []modelItem `json:"recommendations"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMalformedAnswer, err)
		}
		items = obj.Drinks
		if len(items) == 0 {
			items = obj.Recommendations
		}
	}
	var picks []ModelPick
	for _, it := range items {
		p := ModelPick{
			ID:     strings.TrimSpace(cmpOr(it.ID, it.DrinkID)),
			Name:   strings.TrimSpace(it.Name),
			Reason: strings.TrimSpace(it.Reason),
		}
		if p.ID == "" && p.Name == "" {
			continue
		}
		picks = append(picks, p)
		if len(picks) == maxModelPicks {
			break
		}
	}
	if len(picks) == 0 {
		return nil, fmt.Errorf("%w: it names no drink", ErrMalformedAnswer)
	}
	return picks, nil
}

// modelItem tolerates the field names models use for a drink.
type modelItem struct {
	ID      string `json:"id"`
	DrinkID string `json:"drinkId"`
	Name    string `json:"name"`
	Reason  string `json:"reason"`
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
