package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// Dietary needs beyond the RSVP itself: the form's "We read: …" preview
// and the host's review of words barhub did not understand.

// dietaryReadRequest is POST /api/dietary/read.
type dietaryReadRequest struct {
	Text string `json:"text"`
}

// handleReadDietary reads a free text as the RSVP will ("nötallergi" →
// nuts), so the form can show the guest what it understood before they
// save, and what it will ask the host to look at.
func (s *Server) handleReadDietary(w http.ResponseWriter, r *http.Request) {
	words, err := parseDietaryRead(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rd := diet.Read(words)
	if rd.Tags == nil {
		rd.Tags = []string{}
	}
	if rd.Unclear == nil {
		rd.Unclear = []string{}
	}
	out := dietaryReading{Reading: rd}
	if sg := s.ai.Needs; sg != nil && len(rd.Unclear) > 0 {
		// A suggestion for the guest to confirm, never applied: without
		// one in time, the form asks all the same.
		if tags, err := sg.SuggestNeeds(r.Context(), rd.Unclear); err != nil {
			s.log.WarnContext(r.Context(), "the model did not read the unread needs", "err", err)
		} else {
			out.Suggested = &suggestedNeeds{Tags: tags, Source: store.SourceBedrock}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// dietaryReading is POST /api/dietary/read's answer: what barhub read
// and, with Bedrock, what the model suggests the unread parts mean.
type dietaryReading struct {
	diet.Reading
	Suggested *suggestedNeeds `json:"suggested,omitempty"`
}

// suggestedNeeds is the model's reading of the unread parts, for the
// person to confirm.
type suggestedNeeds struct {
	Tags   []string `json:"tags"`
	Source string   `json:"source"`
}

// parseDietaryRead decodes and checks POST /api/dietary/read.
func parseDietaryRead(r *http.Request) (string, error) {
	var req dietaryReadRequest
	if err := decode(r, &req); err != nil {
		return "", err
	}
	// The preview refuses what saving the answer would.
	d, err := guest.CleanDietary(guest.Dietary{Text: req.Text})
	if err != nil {
		return "", fieldInputError(err)
	}
	return d.Text, nil
}

// needsChanged tells the guests' phones that the needs on their answers
// changed (live.EventNeedsChanged), after the menu's marks forgot them,
// so the menu's caution over unread words comes and goes without a
// reload.
func (s *Server) needsChanged(ctx context.Context, gs []guest.Guest) {
	for _, g := range gs {
		s.menu.ForgetNeeds(g.ID)
	}
	s.guests.dashboard.NeedsChanged(ctx, gs)
}

// dietaryReviewRequest is PUT /api/admin/guests/{id}/dietary: the host's
// tags for one person on the answer.
type dietaryReviewRequest struct {
	// Companion is 0 (or absent) for the guest, n for their n-th "+1".
	Companion int       `json:"companion"`
	Tags      *[]string `json:"tags"`
}

// parseDietaryReview decodes and checks a review: whose needs, and the
// tags (lower case; guest.ReviewDietary checks they are canonical).
func parseDietaryReview(r *http.Request) (int, []string, error) {
	var req dietaryReviewRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.Tags == nil {
		return 0, nil, errUnprocessable("missing_fields", "send the tags that hold for this person (an empty list when nothing does)")
	}
	if req.Companion < 0 || req.Companion > guest.MaxCompanions {
		return 0, nil, errUnprocessable("invalid_field", fmt.Sprintf("companion must be 0 (the guest) to %d", guest.MaxCompanions))
	}
	if len(*req.Tags) > 50 {
		return 0, nil, errUnprocessable("invalid_field", "too many tags")
	}
	tags := make([]string, 0, len(*req.Tags))
	for _, t := range *req.Tags {
		tags = append(tags, strings.ToLower(strings.TrimSpace(t)))
	}
	return req.Companion, tags, nil
}

// handleReviewDietary records the host's review: the tags they confirm or
// correct stand, and the person no longer needs the host's eyes.
func (s *Server) handleReviewDietary(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	companion, tags, err := parseDietaryReview(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	before, after, err := s.store.ReviewDietary(ctx, id, companion, tags, time.Now())
	if errors.Is(err, store.ErrConflict) {
		s.fail(w, r, errConflict("answer_changed", "the guest changed their answer meanwhile; reload it and review the new words"))
		return
	}
	if err != nil {
		s.fail(w, r, storeError(err, "that guest"))
		return
	}
	s.guestsChanged(ctx, "edited", identity(ctx), []guest.Guest{after}, nil)
	s.needsChanged(ctx, []guest.Guest{after})
	person := after.People()
	name := after.Name()
	if companion < len(person) {
		name = person[companion].Name
	}
	audit.Note(ctx, "name", after.Name())
	audit.Note(ctx, "person", name)
	audit.Note(ctx, "changed", differences(before, after))
	audit.Note(ctx, "tags", strings.Join(tags, ", "))
	if u := before.People(); companion < len(u) && len(u[companion].Dietary.Unread()) > 0 {
		// The caution over those words is lifted (docs/RSVP.md).
		audit.Note(ctx, "unreadLifted", len(u[companion].Dietary.Unread()))
	}
	writeJSON(w, http.StatusOK, after)
}
