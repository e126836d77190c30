package ai

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/api/store"
)

// The sampling recommendations are asked with: less creative than image
// prompts, since the answer must be JSON naming real drinks.
const (
	recommendTemperature = 0.5
	recommendMaxTokens   = 600
)

// LocalRecommendVersion names the local recommender's rules, recorded with
// its results like a prompt version.
const LocalRecommendVersion = "local_recommender.v1"

// fallbackNote is shown to a guest whose picks came from the local
// recommender because the model did not answer usefully.
const fallbackNote = "The AI bartender is busy right now, so these picks come from the house recommender."

// errNoValidPicks: the model answered, but named no drink the guest may have.
var errNoValidPicks = errors.New("every drink the model named was dropped")

// recoInput is everything a recommendation is made from.
type recoInput struct {
	rec   store.Recommendation
	guest Guest
	menu  []Drink
	past  []string
	prefs Preferences
}

// loadRecoInput reads the request, the guest and the available menu. A
// request or guest that no longer exists returns a zero input and no error.
func (w *Worker) loadRecoInput(ctx context.Context, j store.Job) (recoInput, error) {
	id := j.Payload[store.PayloadRecommendationID]
	rec, err := w.d.Store.RecommendationByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return recoInput{}, nil
	}
	if err != nil {
		return recoInput{}, err
	}
	g, err := w.d.Guests.Guest(ctx, rec.GuestID)
	if errors.Is(err, store.ErrNotFound) {
		return recoInput{}, nil
	}
	if err != nil {
		return recoInput{}, fmt.Errorf("load guest %s: %w", rec.GuestID, err)
	}
	past, err := w.d.Guests.PastOrders(ctx, rec.GuestID)
	if err != nil {
		return recoInput{}, fmt.Errorf("load past orders of guest %s: %w", rec.GuestID, err)
	}
	menu, err := w.d.Menu.AvailableDrinks(ctx)
	if err != nil {
		return recoInput{}, fmt.Errorf("load the menu: %w", err)
	}
	return recoInput{
		rec:   rec,
		guest: g,
		menu:  menu,
		past:  past,
		prefs: Preferences{Likes: rec.Request.Likes, Dislikes: rec.Request.Dislikes, Mood: rec.Request.Mood, AlcoholFree: rec.Request.AlcoholFree},
	}, nil
}

// recommendation runs a recommendation job.
func (w *Worker) recommendation(ctx context.Context, j store.Job) (outcome, error) {
	in, err := w.loadRecoInput(ctx, j)
	if err != nil {
		return outcome{}, err
	}
	if in.rec.ID == "" {
		return outcome{result: map[string]string{"skipped": "the request or its guest was deleted"}}, nil
	}
	var res store.RecommendationResult
	var usage Usage
	dropped := 0
	if w.d.Model == nil {
		res = localResult(in)
	} else {
		res, dropped, usage, err = w.modelResult(ctx, in)
		if err != nil {
			return outcome{usage: usage}, fmt.Errorf("recommendation %s: %w", in.rec.ID, err)
		}
	}
	if err := w.complete(ctx, in.rec, store.RecommendationDone, res); err != nil {
		return outcome{usage: usage}, err
	}
	return outcome{usage: usage, result: map[string]string{
		"recommendationId": in.rec.ID,
		"source":           res.Source,
		"drinks":           strconv.Itoa(len(res.Drinks)),
		"dropped":          strconv.Itoa(dropped),
	}}, nil
}

// recommendationFallback answers a request whose job is being given up
// with the local recommender, or says it failed if even that cannot run.
func (w *Worker) recommendationFallback(ctx context.Context, j store.Job, cause error) {
	in, err := w.loadRecoInput(ctx, j)
	if err != nil {
		id := j.Payload[store.PayloadRecommendationID]
		rec, rerr := w.d.Store.RecommendationByID(ctx, id)
		if rerr != nil {
			w.log.Warn("mark recommendation failed", "recommendation", id, "err", rerr)
			return
		}
		w.complete(ctx, rec, store.RecommendationFailed, store.RecommendationResult{
			Error: "We could not pick drinks for you just now. Please ask again in a minute.",
		})
		return
	}
	if in.rec.ID == "" {
		return
	}
	res := localResult(in)
	res.Fallback = true
	res.Note = fallbackNote
	w.log.Warn("recommendation answered locally after the model failed", "recommendation", in.rec.ID, "err", cause)
	w.complete(ctx, in.rec, store.RecommendationDone, res)
}

// complete stores the answer and pushes it to the guest's phone.
func (w *Worker) complete(ctx context.Context, rec store.Recommendation, status string, res store.RecommendationResult) error {
	saved, err := w.d.Store.CompleteRecommendation(ctx, rec.ID, status, res)
	if err != nil {
		return err
	}
	w.publish(ctx, GuestTopic(rec.GuestID), EventRecommendationReady, saved)
	return nil
}

func localResult(in recoInput) store.RecommendationResult {
	picks := RecommendLocal(in.menu, in.guest, in.prefs, in.past)
	return store.RecommendationResult{Source: SourceLocal, PromptVersion: LocalRecommendVersion, Drinks: storeDrinks(picks)}
}

func storeDrinks(picks []Pick) []store.RecommendedDrink {
	out := make([]store.RecommendedDrink, len(picks))
	for i, p := range picks {
		out[i] = store.RecommendedDrink{ID: p.Drink.ID, Name: p.Drink.Name, Reason: p.Reason}
	}
	return out
}

// menuItem is how a drink is shown to the model.
type menuItem struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Section     string   `json:"section,omitempty"`
	Ingredients []string `json:"ingredients"`
	Tags        []string `json:"tags"`
	Allergens   []string `json:"allergens"`
	AlcoholFree bool     `json:"alcoholFree"`
}

// recommendData is what the recommend template reads.
type recommendData struct {
	Menu        []menuItem
	Likes       []string
	Dislikes    []string
	Mood        string
	AlcoholFree bool
	DietaryText string
	DietaryTags []string
	Avoid       []string
	PastOrders  []string
}

// modelResult asks the model and keeps only the picks the guest may have.
func (w *Worker) modelResult(ctx context.Context, in recoInput) (store.RecommendationResult, int, Usage, error) {
	el := newEligibility(in.guest, in.prefs)
	data := recommendData{
		Likes:       orEmpty(dedupe(append(append([]string{}, in.prefs.Likes...), in.guest.Likes...))),
		Dislikes:    orEmpty(dedupe(append(append([]string{}, in.prefs.Dislikes...), in.guest.Dislikes...))),
		Mood:        in.prefs.Mood,
		AlcoholFree: el.alcoholFree(),
		DietaryText: in.guest.DietaryText,
		DietaryTags: orEmpty(in.guest.DietaryTags),
		Avoid:       orEmpty(el.safety.avoid()),
		PastOrders:  []string{},
	}
	byID := map[string]Drink{}
	for _, d := range in.menu {
		byID[d.ID] = d
		data.Menu = append(data.Menu, menuItem{ID: d.ID, Name: d.Name, Section: d.Section, Ingredients: orEmpty(d.Ingredients), Tags: orEmpty(d.Tags), Allergens: orEmpty(drinkAllergens(d)), AlcoholFree: d.AlcoholFree})
	}
	for _, id := range in.past {
		if d, ok := byID[id]; ok {
			data.PastOrders = appendNew(data.PastOrders, d.Name)
		}
	}
	p, err := prompts.Render(prompts.Recommend, data)
	if err != nil {
		return store.RecommendationResult{}, 0, Usage{}, err
	}
	resp, err := w.d.Model.Converse(ctx, ModelRequest{System: p.System, Prompt: p.User, Temperature: recommendTemperature, MaxTokens: recommendMaxTokens})
	if err != nil {
		return store.RecommendationResult{}, 0, resp.Usage, err
	}
	picks, err := ParsePicks(resp.Text)
	if err != nil {
		return store.RecommendationResult{}, 0, resp.Usage, err
	}
	valid, dropped := validatePicks(picks, in.menu, el)
	for _, d := range dropped {
		w.log.Warn("dropped a drink the model recommended", "recommendation", in.rec.ID, "guest", in.rec.GuestID, "id", d.pick.ID, "name", d.pick.Name, "why", d.why)
	}
	if len(valid) == 0 {
		return store.RecommendationResult{}, len(dropped), resp.Usage, fmt.Errorf("%w (%d named)", errNoValidPicks, len(picks))
	}
	return store.RecommendationResult{
		Source:        SourceBedrock,
		Model:         w.d.Model.Name(),
		PromptVersion: p.Version,
		Drinks:        valid,
	}, len(dropped), resp.Usage, nil
}

type droppedPick struct {
	pick ModelPick
	why  string
}

// validatePicks keeps the model's picks that are on the available menu
// and allowed for the guest, in the model's order, at most MaxPicks. A
// pick is found by id, or by exact name when the model gave only that.
func validatePicks(picks []ModelPick, menu []Drink, el eligibility) ([]store.RecommendedDrink, []droppedPick) {
	byID := make(map[string]Drink, len(menu))
	byName := make(map[string]Drink, len(menu))
	for _, d := range menu {
		byID[d.ID] = d
		byName[strings.ToLower(strings.TrimSpace(d.Name))] = d
	}
	var valid []store.RecommendedDrink
	var dropped []droppedPick
	seen := map[string]bool{}
	for _, p := range picks {
		d, ok := byID[p.ID]
		if !ok && p.ID == "" {
			d, ok = byName[strings.ToLower(p.Name)]
		}
		if !ok {
			// Models now and then put the name where the id goes.
			d, ok = byName[strings.ToLower(p.ID)]
		}
		switch {
		case !ok:
			dropped = append(dropped, droppedPick{p, "not on the menu or not available"})
			continue
		case seen[d.ID]:
			dropped = append(dropped, droppedPick{p, "named twice"})
			continue
		}
		if why := el.refuse(d); why != "" {
			dropped = append(dropped, droppedPick{p, why})
			continue
		}
		if len(valid) == MaxPicks {
			dropped = append(dropped, droppedPick{p, "more than " + strconv.Itoa(MaxPicks) + " picks"})
			continue
		}
		seen[d.ID] = true
		reason := cleanReason(p.Reason)
		if reason == "" {
			reason = capitalize(describe(d)) + "."
		}
		valid = append(valid, store.RecommendedDrink{ID: d.ID, Name: d.Name, Reason: reason})
	}
	return valid, dropped
}

// cleanReason keeps a model's reason to one bounded line of text.
func cleanReason(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 240 {
		s = string(r[:239]) + "…"
	}
	return s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
