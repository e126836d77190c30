package ai

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
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

// The notes a guest may see with the local recommender's answer when
// nothing on the menu fits what they asked (fallback.go has the notes
// that say why the model's answer was not used).
const (
	closestNote = "Nothing on tonight's menu fits what you asked — here is what comes closest."
	nothingNote = "Nothing on tonight's menu fits what you asked. Ask at the bar: they may mix you something."
)

// recoInput is everything a recommendation is made from.
type recoInput struct {
	rec   store.Recommendation
	guest Guest
	menu  []Drink
	past  []PastOrder
	prefs Preferences
	now   time.Time
}

// loadRecoInput reads the request, the guest and the available menu. A
// request or guest that no longer exists returns a zero input and no error.
func (w *Bartender) loadRecoInput(ctx context.Context, j store.Job) (recoInput, error) {
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
		prefs: Preferences{
			Likes: rec.Request.Likes, Dislikes: rec.Request.Dislikes, Mood: rec.Request.Mood, AlcoholFree: rec.Request.AlcoholFree,
			// The page's language when they asked; a request from an
			// older page (or an API client) without one uses the
			// language of their last sign-in.
			Language: cmp.Or(rec.Request.Language, g.Language),
		},
		now: w.now(),
	}, nil
}

// recommendation runs a recommendation job. A guest is waiting with
// their phone in hand, so the model gets at most two calls within the
// budget (RecommendBudget from the request); whatever it does instead of
// answering usefully, the local recommender answers, with a note saying
// so. Only a failure to read or store (the database) fails the attempt.
func (w *Bartender) recommendation(ctx context.Context, j store.Job) (outcome, error) {
	in, err := w.loadRecoInput(ctx, j)
	if err != nil {
		return outcome{}, err
	}
	if in.rec.ID == "" {
		return outcome{result: map[string]string{"skipped": "the request or its guest was deleted"}}, nil
	}
	res, rep := w.answer(ctx, in)
	if err := w.complete(ctx, in.rec, store.RecommendationDone, res); err != nil {
		return outcome{usage: rep.usage}, err
	}
	result := map[string]string{
		"recommendationId": in.rec.ID,
		"source":           res.Source,
		"drinks":           strconv.Itoa(len(res.Drinks)),
		"dropped":          strconv.Itoa(rep.dropped),
		"modelCalls":       strconv.Itoa(rep.calls),
	}
	if rep.fallback.cause != "" {
		result["fallback"] = rep.fallback.text()
		result["fallbackCause"] = rep.fallback.cause
	}
	return outcome{usage: rep.usage, result: result}, nil
}

// answerReport is how an answer was reached.
type answerReport struct {
	calls    int
	dropped  int
	usage    Usage
	fallback fallback // why the model's answer was not used, if it was not
}

// answer asks the model, when there is one and time is left, and the
// local recommender otherwise or when the model does not answer usefully.
func (w *Bartender) answer(ctx context.Context, in recoInput) (store.RecommendationResult, answerReport) {
	var rep answerReport
	local := w.recommendLocal(in)
	if w.d.Model == nil {
		return localResult(local, ""), rep
	}
	if len(local.Picks) == 0 {
		// Nothing on the menu is safe and not disliked: the model could
		// only name drinks that would be dropped.
		rep.fallback = fallback{cause: CauseNothingFits}
		return localResult(local, ""), rep
	}
	res, err := w.modelResult(ctx, in, &rep)
	if err == nil {
		return res, rep
	}
	w.log.Warn("recommendation answered locally: the model did not answer usefully", "recommendation", in.rec.ID, "calls", rep.calls, "cause", rep.fallback.cause, "err", err)
	return localResult(local, rep.fallback.note), rep
}

// deadline is when the guest's answer is due: RecommendBudget after the
// request, less what storing and pushing it take. A request answered
// before (an admin retry) gets a fresh budget.
func (w *Bartender) deadline(rec store.Recommendation) time.Time {
	start := rec.CreatedAt
	if rec.Status != store.RecommendationQueued || start.IsZero() {
		start = w.now()
	}
	return start.Add(w.cfg.RecommendBudget - w.cfg.RecommendBudget/8)
}

// recommendationFallback answers a request whose job is being given up
// with the local recommender, or says it failed if even that cannot run.
func (w *Bartender) recommendationFallback(ctx context.Context, j store.Job, cause error) {
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
	res := localResult(w.recommendLocal(in), noteBusy)
	w.log.Warn("recommendation answered locally after the model failed", "recommendation", in.rec.ID, "err", cause)
	w.complete(ctx, in.rec, store.RecommendationDone, res)
}

// complete stores the answer and pushes it to the guest's phone.
func (w *Bartender) complete(ctx context.Context, rec store.Recommendation, status string, res store.RecommendationResult) error {
	saved, err := w.d.Store.CompleteRecommendation(ctx, rec.ID, status, res)
	if err != nil {
		return err
	}
	w.publish(ctx, live.GuestTopic(rec.GuestID), live.EventRecommendationReady, saved)
	return nil
}

// recommendLocal is the local recommender's answer to in.
func (w *Bartender) recommendLocal(in recoInput) LocalAnswer {
	return Recommend(LocalInput{Menu: in.menu, Guest: in.guest, Prefs: in.prefs, Past: in.past, Now: in.now, Texts: w.d.Texts}, nil)
}

// localResult is the local answer as stored. A note (its id: noteBusy,
// noteUnsafe, noteUnusable, or "" without a model) says why it is not
// the model's, unless nothing fits what the guest asked: that is what
// the guest is told then.
func localResult(a LocalAnswer, note string) store.RecommendationResult {
	res := store.RecommendationResult{Source: SourceLocal, PromptVersion: LocalRecommendVersion, Drinks: storeDrinks(a.Picks), Fallback: note != ""}
	switch {
	case len(a.Picks) == 0:
		res.Note, res.NoteID = nothingNote, "nothing"
	case !a.Fits:
		res.Note, res.NoteID = closestNote, "closest"
	case note != "":
		res.Note, res.NoteID = noteTexts[note], note
	}
	return res
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
	ABV         float64  `json:"abv"`
}

// recommendData is what the recommend template reads.
type recommendData struct {
	Menu        []menuItem
	Likes       []string
	Dislikes    []string
	Mood        string
	AlcoholFree bool
	PastOrders  []string
	Recent      int
	// Language is the guest's language tag ("sv"), LanguageName its
	// English name ("Swedish"): the reasons are written in it.
	Language     string
	LanguageName string
	// Understood is the reader's understanding of the guest's words
	// (tastes.go), with the drinks that meet it.
	Understood []string
	// Needs are the guest's confirmed dietary tags, Unread the words of
	// their needs barhub could not read (recommend.v4).
	Needs  []string
	Unread []string
}

// recommendTool is the tool the model answers through: its input is the
// picks, so nothing depends on reading prose.
const recommendTool = "recommend_drinks"

// recommendSchema is the JSON schema of the tool's input; ids lists the
// drinks the model may name.
func recommendSchema(ids []string) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"drinks": map[string]any{
				"type":     "array",
				"minItems": 1,
				"maxItems": MaxPicks,
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"id":     map[string]any{"type": "string", "enum": ids, "description": "the drink's id, exactly as on the menu"},
						"name":   map[string]any{"type": "string", "description": "the drink's name, as on the menu"},
						"reason": map[string]any{"type": "string", "maxLength": 240, "description": "one short, friendly sentence in the guest's language saying why it suits this guest"},
					},
					"required": []string{"id", "name", "reason"},
				},
			},
		},
		"required": []string{"drinks"},
	}
}

// recommendRequest builds the model's request. The menu it sees is
// already what the guest may have: safe by the safety rule and not
// disliked, so the model chooses by taste only and cannot name an unsafe
// drink from it (its picks are still checked). The guest's confirmed
// needs and the words of them barhub could not read go with it, so the
// model knows why the menu is short; the rest of their text does not.
func recommendRequest(in recoInput, el eligibility, why reasons) (prompts.Prompt, ModelRequest, error) {
	data := recommendData{
		Language:     why.lang.String(),
		LanguageName: why.name(),
		Likes:        orEmpty(dedupe(append(slices.Clone(in.prefs.Likes), in.guest.Likes...))),
		Dislikes:     orEmpty(el.dislikes),
		Mood:         in.prefs.Mood,
		AlcoholFree:  el.alcoholFree(),
		Needs:        orEmpty(el.safety.needs.Tags),
		Unread:       orEmpty(el.safety.unread()),
		PastOrders:   []string{},
		Menu:         []menuItem{},
	}
	byID := map[string]Drink{}
	var ids []string
	for _, d := range in.menu {
		byID[d.ID] = d
		if el.refuse(d) != "" {
			continue
		}
		ids = append(ids, d.ID)
		data.Menu = append(data.Menu, menuItem{
			ID: d.ID, Name: d.Name, Section: d.Section,
			Ingredients: orEmpty(dedupe(d.Ingredients)),
			Tags:        orEmpty(dedupe(d.Tags)),
			Allergens:   orEmpty(drinkAllergens(d)),
			AlcoholFree: d.AlcoholFree,
			ABV:         d.ABV,
		})
	}
	for _, o := range in.past {
		if d, ok := byID[o.DrinkID]; ok {
			data.PastOrders = appendNew(data.PastOrders, d.Name)
		}
	}
	data.Recent = recentDrinks(in.past, in.now)
	data.Understood = understoodFor(in, byID, ids)
	p, err := prompts.Render(prompts.Recommend, data)
	if err != nil {
		return p, ModelRequest{}, err
	}
	return p, ModelRequest{
		System: p.System, Prompt: p.User,
		Temperature: recommendTemperature, MaxTokens: recommendMaxTokens,
		Tool: &Tool{Name: recommendTool, Description: "Recommend up to three drinks from tonight's menu to this guest.", Schema: recommendSchema(ids)},
	}, nil
}

// modelResult asks the model, at most twice within the budget and only
// with one of the model slots, and keeps only the picks the guest may
// have. When it returns an error, rep.fallback says why.
func (w *Bartender) modelResult(ctx context.Context, in recoInput, rep *answerReport) (store.RecommendationResult, error) {
	el := newEligibility(in.guest, in.prefs)
	why := newReasons(w.d.Texts, in.prefs.Language)
	p, req, err := recommendRequest(in, el, why)
	if err != nil {
		rep.fallback = fallbackOf(err, false)
		return store.RecommendationResult{}, err
	}
	deadline := w.deadline(in.rec)
	// A burst of guests beyond the slots is answered locally at once
	// rather than queued behind a slow or throttled model.
	release, err := w.modelSlot(ctx, deadline)
	if err != nil {
		rep.fallback = fallbackOf(err, false)
		return store.RecommendationResult{}, err
	}
	defer release()
	var lastErr error
	for call := 1; call <= maxModelCalls; call++ {
		left := deadline.Sub(w.now())
		if left < w.cfg.MinModelCall {
			break
		}
		if call > 1 {
			// One quick retry: a short pause lets a blinking service
			// recover, within the budget.
			pause := min(w.cfg.RetryPause, left/4)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return store.RecommendationResult{}, ctx.Err()
			}
			if left = deadline.Sub(w.now()); left < w.cfg.MinModelCall {
				break
			}
		}
		rep.calls++
		callCtx, cancel := context.WithTimeout(ctx, min(left, w.cfg.ModelCallTimeout))
		resp, err := w.d.Model.Converse(callCtx, req)
		timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		rep.usage = rep.usage.add(resp.Usage)
		if err == nil {
			var picks []ModelPick
			picks, err = picksOf(resp)
			if err == nil {
				valid, dropped := validatePicks(picks, in.menu, el, why)
				rep.dropped += len(dropped)
				for _, d := range dropped {
					w.log.Warn("dropped a drink the model recommended", "recommendation", in.rec.ID, "guest", in.rec.GuestID, "id", d.pick.ID, "name", d.pick.Name, "why", d.why)
				}
				if len(valid) > 0 {
					return store.RecommendationResult{Source: SourceBedrock, Model: w.d.Model.Name(), PromptVersion: p.Version, Drinks: valid}, nil
				}
				err = picksErrorOf(len(picks), dropped)
			}
		}
		lastErr = fmt.Errorf("model call %d: %w", call, err)
		rep.fallback = fallbackOf(lastErr, timedOut)
		if !rep.fallback.retryable() || ctx.Err() != nil {
			break
		}
	}
	if lastErr == nil {
		lastErr = errNoTime
		rep.fallback = fallbackOf(lastErr, false)
	}
	return store.RecommendationResult{}, lastErr
}

// maxModelCalls: one call and one quick retry; after that the guest gets
// the local answer.
const maxModelCalls = 2

// picksOf reads the picks out of the model's answer, by why it stopped:
// a tool call carries them as JSON; a filtered answer has none; an answer
// in prose (end_turn) or cut short (max_tokens) without a usable tool
// call is read as text as a last resort. What it is instead of picks is
// told apart for the host: an empty or malformed tool input, prose.
func picksOf(resp ModelResponse) ([]ModelPick, error) {
	switch resp.StopReason {
	case StopContentFiltered, StopGuardrail:
		return nil, fmt.Errorf("%w (stop reason %s)", errFiltered, resp.StopReason)
	}
	var toolErr error
	if resp.ToolCalled || len(resp.ToolInput) > 0 {
		picks, err := ParsePicks(string(resp.ToolInput))
		if err == nil {
			return picks, nil
		}
		if emptyToolInput(resp.ToolInput) {
			toolErr = fmt.Errorf("%w (stop reason %s): %s", errEmptyToolInput, resp.StopReason, bounded(resp.ToolInput))
		} else {
			toolErr = fmt.Errorf("%w (stop reason %s): %w", errMalformedToolInput, resp.StopReason, err)
		}
	}
	picks, err := ParsePicks(resp.Text)
	switch {
	case err == nil:
		return picks, nil
	case toolErr != nil:
		return nil, toolErr
	}
	return nil, fmt.Errorf("%w (stop reason %s): %w", errProse, resp.StopReason, err)
}

// emptyToolInput reports whether a tool's input names nothing at all:
// none, null, {}, or a list of drinks that is missing, null or empty.
func emptyToolInput(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		var list []json.RawMessage
		return json.Unmarshal(raw, &list) == nil && len(list) == 0
	}
	for _, key := range []string{"drinks", "recommendations"} {
		v := strings.TrimSpace(string(obj[key]))
		if v != "" && v != "null" && v != "[]" {
			return false
		}
	}
	return true
}

// bounded is raw JSON for a log or a job's result: at most 200 bytes.
func bounded(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = "(none)"
	}
	return s
}

// picksErrorOf counts why each of the model's picks was dropped.
func picksErrorOf(named int, dropped []droppedPick) error {
	e := &picksError{named: named, dropped: map[string]int{}}
	for _, d := range dropped {
		e.dropped[d.kind]++
	}
	return e
}

type droppedPick struct {
	pick ModelPick
	kind string // dropUnsafe, dropOffMenu, dropDisliked, dropRepeat
	why  string
}

// validatePicks keeps the model's picks that are on the available menu
// and allowed for the guest, in the model's order, at most MaxPicks. A
// pick is found by id, or by exact name when the model gave only that.
func validatePicks(picks []ModelPick, menu []Drink, el eligibility, why reasons) ([]store.RecommendedDrink, []droppedPick) {
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
			dropped = append(dropped, droppedPick{p, dropOffMenu, "not on the menu or not available"})
			continue
		case seen[d.ID]:
			dropped = append(dropped, droppedPick{p, dropRepeat, "named twice"})
			continue
		}
		if why := el.refuse(d); why != "" {
			dropped = append(dropped, droppedPick{p, dropKind(d, el), why})
			continue
		}
		if len(valid) == MaxPicks {
			dropped = append(dropped, droppedPick{p, dropRepeat, "more than " + strconv.Itoa(MaxPicks) + " picks"})
			continue
		}
		seen[d.ID] = true
		reason := cleanReason(p.Reason)
		if reason == "" {
			reason = why.sentence(d)
		}
		valid = append(valid, store.RecommendedDrink{ID: d.ID, Name: d.Name, Reason: el.safety.withCaveat(reason, why)})
	}
	return valid, dropped
}

// dropKind says which rule refused d, in the order eligibility.refuse
// applies them.
func dropKind(d Drink, el eligibility) string {
	switch {
	case !d.Available:
		return dropOffMenu
	case el.safety.check(d) != "":
		return dropUnsafe
	}
	return dropDisliked
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

// AnswerRequest is one recommendation request, answered outside the job
// queue by Answer.
type AnswerRequest struct {
	Guest Guest
	Prefs Preferences
	// Menu is the available menu.
	Menu []Drink
	Past []PastOrder
	// Asked is when the guest asked: the budget runs from it.
	Asked time.Time
}

// AnswerReport says how an answer was reached.
type AnswerReport struct {
	// ModelCalls is how many times the model was called.
	ModelCalls int
	// Dropped is how many of the model's picks were dropped.
	Dropped int
	// Fallback is why the model's answer was not used, if it was not;
	// Cause names it (CauseThrottled, …).
	Fallback string
	Cause    string
}

// Answer answers req exactly as a recommendation job does (the model
// within the budget, else the local recommender, with the same notes),
// without the job queue and the database: for the evaluation set.
func (w *Bartender) Answer(ctx context.Context, req AnswerRequest) (store.RecommendationResult, AnswerReport) {
	in := recoInput{
		rec:   store.Recommendation{ID: "eval", GuestID: req.Guest.ID, Status: store.RecommendationQueued, CreatedAt: req.Asked},
		guest: req.Guest,
		menu:  req.Menu,
		past:  req.Past,
		prefs: req.Prefs,
		now:   req.Asked,
	}
	res, rep := w.answer(ctx, in)
	return res, AnswerReport{ModelCalls: rep.calls, Dropped: rep.dropped, Fallback: rep.fallback.text(), Cause: rep.fallback.cause}
}
