package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/text"
)

// Recommendations and the job queue view (the AI bartender). The work
// itself is done by the worker in package ai; these handlers queue it and
// read what it stored.

// AIConfig is the AI bartender's part of the API.
type AIConfig struct {
	// Source says who answers: "bedrock" or "local" (the default); Model
	// is the Bedrock model id. Both are shown to the host.
	Source string
	Model  string
	// ImageModel is the image model's id when drinks' pictures are
	// generated; empty when barhub draws them itself.
	ImageModel string
	// JobQueued hands a job just queued to this instance's worker, so it
	// starts without waiting for the next poll; nil leaves it to polling.
	JobQueued func(store.Job)
	// RecommendationLimit is how many recommendations a guest may ask for
	// per RecommendationWindow (5 per 10 minutes when zero).
	RecommendationLimit  int
	RecommendationWindow time.Duration
	// Needs reads, with the model, words of a person's needs barhub could
	// not read (ai.NeedsReader), for the form to offer as chips to
	// confirm; nil without Bedrock.
	Needs NeedsSuggester
}

// NeedsSuggester suggests the canonical tags that words barhub could not
// read name, within its own short budget.
type NeedsSuggester interface {
	SuggestNeeds(ctx context.Context, words []string) ([]string, error)
}

func (s *Server) aiConfig() AIConfig { return s.ai.withDefaults() }

func (c AIConfig) withDefaults() AIConfig {
	if c.Source == "" {
		c.Source = store.SourceLocal
	}
	if c.RecommendationLimit == 0 {
		c.RecommendationLimit = 5
	}
	if c.RecommendationWindow <= 0 {
		c.RecommendationWindow = 10 * time.Minute
	}
	return c
}

// Bounds of a recommendation request: enough to say what one likes, not
// enough to smuggle an essay into the model's prompt.
const (
	maxTasteTerms  = 12
	maxTasteTermLn = 40
	maxMoodLen     = 200
)

// recommendationInput is POST /api/recommendations.
type recommendationInput struct {
	Likes       []string `json:"likes"`
	Dislikes    []string `json:"dislikes"`
	Mood        string   `json:"mood"`
	AlcoholFree bool     `json:"alcoholFree"`
}

// readRecommendationRequest decodes and checks POST /api/recommendations.
// Blank and repeated taste words are dropped; anything else out of bounds
// is a 4xx saying what to fix. The words go into the model's prompt and
// back to the guest's phone: barhub's text rule (package text) applies.
func readRecommendationRequest(r *http.Request) (store.RecommendationRequest, error) {
	var body recommendationInput
	if err := decode(r, &body); err != nil {
		return store.RecommendationRequest{}, err
	}
	likes, err := tasteTerms("likes", body.Likes)
	if err != nil {
		return store.RecommendationRequest{}, err
	}
	dislikes, err := tasteTerms("dislikes", body.Dislikes)
	if err != nil {
		return store.RecommendationRequest{}, err
	}
	mood, err := cleanField(http.StatusUnprocessableEntity, "mood", body.Mood, text.Rule{Max: maxMoodLen})
	if err != nil {
		return store.RecommendationRequest{}, err
	}
	return store.RecommendationRequest{Likes: likes, Dislikes: dislikes, Mood: mood, AlcoholFree: body.AlcoholFree}, nil
}

func tasteTerms(field string, in []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for i, t := range in {
		t, err := cleanField(http.StatusUnprocessableEntity, fmt.Sprintf("%s[%d]", field, i), t, text.Rule{Max: maxTasteTermLn})
		if err != nil {
			return nil, err
		}
		if t == "" {
			continue
		}
		key := strings.ToLower(t)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	if len(out) > maxTasteTerms {
		return nil, errUnprocessable("invalid_field", fmt.Sprintf("name at most %d %s", maxTasteTerms, field))
	}
	return out, nil
}

// handleRequestRecommendation queues a recommendation for the signed-in
// guest: 202 {id, status}; the answer arrives as recommendation.ready on
// their own topic, and from GET /api/recommendations/{id}.
func (s *Server) handleRequestRecommendation(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	who := identity(ctx)
	req, err := readRecommendationRequest(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	cfg := s.aiConfig()
	now := time.Now()
	ok, retryAfter, err := s.store.ReserveRecommendation(ctx, who.GuestID, cfg.RecommendationLimit, cfg.RecommendationWindow, now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ok {
		secs := int(math.Ceil(retryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.writeError(w, r, http.StatusTooManyRequests, "too_many_recommendations", fmt.Sprintf(
			"you can ask for %d recommendations every %s; ask again in %s",
			cfg.RecommendationLimit, humanDuration(cfg.RecommendationWindow), humanDuration(time.Duration(secs)*time.Second)))
		return
	}
	// The answer's reasons are written in the language the page shows
	// (Accept-Language); without one, the worker uses the guest's
	// language from their last sign-in.
	req.Language = s.requestLanguage(r)
	rec := store.Recommendation{GuestID: who.GuestID, Request: req}
	if err := s.store.CreateRecommendation(ctx, &rec); err != nil {
		s.fail(w, r, err)
		return
	}
	job, err := s.store.EnqueueJob(ctx, store.RecommendationJob(rec.ID, who.GuestID))
	if err != nil {
		// Without a job nobody would ever answer; say so on the request.
		s.store.CompleteRecommendation(ctx, rec.ID, store.RecommendationFailed, store.RecommendationResult{Error: "the request could not be queued; please ask again"})
		s.fail(w, r, err)
		return
	}
	if cfg.JobQueued != nil {
		cfg.JobQueued(job)
	}
	w.Header().Set("Location", "/api/recommendations/"+rec.ID)
	writeJSON(w, http.StatusAccepted, map[string]string{"id": rec.ID, "status": rec.Status})
}

// handleGetRecommendation returns one of the caller's own recommendations.
// Anyone else's is a 404, so ids cannot be probed.
func (s *Server) handleGetRecommendation(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	rec, err := s.store.RecommendationByID(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.GuestID != identity(r.Context()).GuestID {
		s.fail(w, r, errNotFound("no such recommendation"))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

var (
	jobStatuses = []string{store.JobQueued, store.JobRunning, store.JobDone, store.JobDead}
	// jobKinds are every kind the worker runs: its own and the e-mails'
	// (the admin page names each in its language, jobs.kind.<kind>).
	jobKinds = []string{store.JobImagePrompt, store.JobDrinkImage, store.JobRecommendation, store.JobImport, invite.JobKind, invite.ReminderJobKind}
)

// jobList is GET /api/admin/jobs.
type jobList struct {
	Jobs   []store.Job      `json:"jobs"`
	Total  int64            `json:"total"`
	Limit  int              `json:"limit"`
	Offset int              `json:"offset"`
	Counts map[string]int64 `json:"counts"`
	// Source and Model say who answers the jobs: "bedrock" with its model
	// id, or "local".
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
	// ImageModel is the model that pictures drinks, absent when barhub
	// draws them itself: the drink editor offers "New picture" only
	// with one, as regenerating answers 409 no_image_model without.
	ImageModel string `json:"imageModel,omitempty"`
}

// handleListJobs lists jobs, newest first, filtered by ?status= ?kind=
// ?subject= and paged by ?limit= (1–200, default 50) and ?offset=, with
// the number of jobs in each status (for the kind filter alone).
func (s *Server) handleListJobs(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.JobFilter{Status: q.Get("status"), Kind: q.Get("kind"), Subject: q.Get("subject"), Limit: 50}
	if f.Status != "" && !slices.Contains(jobStatuses, f.Status) {
		s.fail(w, r, errBadRequest("invalid_query", "status must be one of "+strings.Join(jobStatuses, ", ")))
		return
	}
	if f.Kind != "" && !slices.Contains(jobKinds, f.Kind) {
		s.fail(w, r, errBadRequest("invalid_query", "kind must be one of "+strings.Join(jobKinds, ", ")))
		return
	}
	if len(f.Subject) > 100 {
		s.fail(w, r, errBadRequest("invalid_query", "subject is longer than 100 characters"))
		return
	}
	var err error
	if f.Limit, err = intParam(q, "limit", 1, 200, 50); err != nil {
		s.fail(w, r, err)
		return
	}
	if f.Offset, err = intParam(q, "offset", 0, 1_000_000, 0); err != nil {
		s.fail(w, r, err)
		return
	}
	jobs, total, err := s.store.ListJobs(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	counts, err := s.store.CountJobsByStatus(r.Context(), f.Kind)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	cfg := s.aiConfig()
	writeJSON(w, http.StatusOK, jobList{Jobs: jobs, Total: total, Limit: f.Limit, Offset: f.Offset, Counts: counts, Source: cfg.Source, Model: cfg.Model, ImageModel: cfg.ImageModel})
}

// handleRetryJob gives a dead job another round of attempts.
func (s *Server) handleRetryJob(w http.ResponseWriter, r *http.Request) {
	j, err := s.store.RequeueJob(r.Context(), chi.URLParam(r, "id"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, errNotFound("no such job"))
		return
	case errors.Is(err, store.ErrConflict):
		s.fail(w, r, errConflict("not_dead", "only a dead job can be retried; this one is not dead (any more)"))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	if queued := s.aiConfig().JobQueued; queued != nil {
		queued(j)
	}
	audit.Note(r.Context(), "kind", j.Kind)
	writeJSON(w, http.StatusOK, j)
}

// handleRegenerateImagePrompt queues a new image prompt for a drink, for
// the host who wants another take (or added Bedrock after the drink).
func (s *Server) handleRegenerateImagePrompt(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if _, err := s.store.DrinkByID(r.Context(), id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, errNotFound("no such drink"))
			return
		}
		s.fail(w, r, err)
		return
	}
	j, err := s.store.EnqueueJob(r.Context(), store.ImagePromptJob(id))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if queued := s.aiConfig().JobQueued; queued != nil {
		queued(j)
	}
	audit.Note(r.Context(), "job", j.ID)
	writeJSON(w, http.StatusAccepted, j)
}
