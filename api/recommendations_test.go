package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/text"
)

func TestRecommendationRequestAndAnswer(t *testing.T) {
	var woken atomic.Int32
	e := newTestEnv(t, func(d *Deps) { d.AI.JobQueued = func(store.Job) { woken.Add(1) } })
	anna := e.addGuest(guest.Guest{FirstName: "Anna"})
	bo := e.addGuest(guest.Guest{FirstName: "Bo"})

	resp := e.doResp("POST", "/api/recommendations", e.tokenFor(anna), map[string]any{
		"likes": []string{"sour", " Sour ", "", "fresh  mint"}, "dislikes": []string{"sweet"}, "mood": "  celebrating   tonight ", "alcoholFree": true,
	})
	defer resp.Body.Close()
	var queued struct{ ID, Status string }
	if err := decodeJSON(resp, &queued); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusAccepted || queued.ID == "" || queued.Status != "queued" {
		t.Fatalf("POST: %d %+v", resp.StatusCode, queued)
	}
	if loc := resp.Header.Get("Location"); loc != "/api/recommendations/"+queued.ID {
		t.Errorf("Location %q", loc)
	}
	if woken.Load() != 1 {
		t.Errorf("worker woken %d times, want 1", woken.Load())
	}

	status, body := e.do("GET", "/api/recommendations/"+queued.ID, e.tokenFor(anna), nil)
	var got store.Recommendation
	decodeInto(t, body, &got)
	if status != 200 || got.Status != "queued" || got.Source != "" || strings.Join(got.Request.Likes, "|") != "sour|fresh mint" ||
		got.Request.Mood != "celebrating tonight" || !got.Request.AlcoholFree || got.Drinks == nil {
		t.Fatalf("GET queued: %d %s", status, body)
	}
	// Someone else's recommendation does not exist for them.
	if status, body := e.do("GET", "/api/recommendations/"+queued.ID, e.tokenFor(bo), nil); status != 404 || errorCode(t, body) != "not_found" {
		t.Errorf("other guest: %d %s", status, body)
	}
	if status, _ := e.do("GET", "/api/recommendations/nope", e.tokenFor(anna), nil); status != 404 {
		t.Errorf("unknown id: %d", status)
	}

	jobs, total, err := e.store.ListJobs(context.Background(), store.JobFilter{Subject: "recommendation:" + queued.ID})
	if err != nil || total != 1 || jobs[0].Kind != store.JobRecommendation || jobs[0].Payload[store.PayloadGuestID] != anna.ID {
		t.Fatalf("job: %v %+v", err, jobs)
	}

	// The worker answers (see package ai); the API returns what it stored.
	if _, err := e.store.CompleteRecommendation(context.Background(), queued.ID, store.RecommendationDone, store.RecommendationResult{
		Source: "local", Drinks: []store.RecommendedDrink{{ID: "lemonade", Name: "House Lemonade", Reason: "Sour, just what you like."}},
	}); err != nil {
		t.Fatal(err)
	}
	status, body = e.do("GET", "/api/recommendations/"+queued.ID, e.tokenFor(anna), nil)
	var done map[string]any
	decodeInto(t, body, &done)
	drinks, _ := done["drinks"].([]any)
	if status != 200 || done["status"] != "done" || done["source"] != "local" || len(drinks) != 1 ||
		drinks[0].(map[string]any)["id"] != "lemonade" || drinks[0].(map[string]any)["reason"] == "" {
		t.Fatalf("GET done: %d %s", status, body)
	}
}

// The request keeps the language of the page that asked, so the worker
// writes the reasons in it; without Accept-Language it stays empty and
// the worker uses the guest's language from their last sign-in.
func TestRecommendationRequestKeepsThePagesLanguage(t *testing.T) {
	e := newTestEnv(t)
	anna := e.addGuest(guest.Guest{FirstName: "Anna"})
	for _, tc := range []struct{ header, want string }{
		{"sv-SE,sv;q=0.9,en;q=0.8", "sv"},
		{"pt", "pt-BR"},
		{"de-DE", "en"},
		{"", ""},
	} {
		var hdr []string
		if tc.header != "" {
			hdr = []string{"Accept-Language", tc.header}
		}
		status, body := e.do("POST", "/api/recommendations", e.tokenFor(anna), map[string]any{"mood": "något friskt"}, hdr...)
		var queued struct{ ID string }
		decodeInto(t, body, &queued)
		if status != http.StatusAccepted {
			t.Fatalf("%q: %d %s", tc.header, status, body)
		}
		rec, err := e.store.RecommendationByID(context.Background(), queued.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Request.Language != tc.want {
			t.Errorf("Accept-Language %q: stored language %q, want %q", tc.header, rec.Request.Language, tc.want)
		}
	}
}

func decodeJSON(resp *http.Response, v any) error {
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		return err
	}
	if err := json.Unmarshal(b.Bytes(), v); err != nil {
		return errors.New(err.Error() + ": " + b.String())
	}
	return nil
}

func TestRecommendationLimitPerGuest(t *testing.T) {
	e := newTestEnv(t)
	anna, bo := e.tokenFor(e.addGuest(guest.Guest{})), e.tokenFor(e.addGuest(guest.Guest{}))
	for i := range 5 {
		if status, body := e.do("POST", "/api/recommendations", anna, map[string]any{}); status != 202 {
			t.Fatalf("request %d: %d %s", i+1, status, body)
		}
	}
	resp := e.doResp("POST", "/api/recommendations", anna, map[string]any{"likes": []string{"sour"}})
	defer resp.Body.Close()
	var eb errorBody
	if err := decodeJSON(resp, &eb); err != nil {
		t.Fatal(err)
	}
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || eb.Error.Code != "too_many_recommendations" || secs < 1 || secs > 600 || !strings.Contains(eb.Error.Message, "5 recommendations every 10 minutes") {
		t.Fatalf("sixth request: %d Retry-After %q %+v", resp.StatusCode, resp.Header.Get("Retry-After"), eb)
	}
	if status, _ := e.do("POST", "/api/recommendations", bo, map[string]any{}); status != 202 {
		t.Fatalf("another guest was limited: %d", status)
	}
}

func TestRecommendationBadInput(t *testing.T) {
	e := newTestEnv(t)
	tok := e.tokenFor(e.addGuest(guest.Guest{}))
	many := make([]string, 13)
	for i := range many {
		many[i] = "taste" + strconv.Itoa(i)
	}
	tests := []struct {
		name     string
		body     any
		status   int
		wantCode string
	}{
		{"empty body", "", 400, "malformed_json"},
		{"not JSON", "likes=sour", 400, "malformed_json"},
		{"likes not a list", `{"likes":"sour"}`, 400, "invalid_field"},
		{"alcoholFree not a bool", `{"alcoholFree":"yes"}`, 400, "invalid_field"},
		{"too many likes", map[string]any{"likes": many}, 422, "invalid_field"},
		{"a dislike too long", map[string]any{"dislikes": []string{strings.Repeat("x", 41)}}, 422, "invalid_field"},
		{"mood too long", map[string]any{"mood": strings.Repeat("ä", 201)}, 422, "invalid_field"},
		{"control characters", map[string]any{"mood": "hi\x00there"}, 422, "invalid_field"},
		{"override in a like", map[string]any{"likes": []string{"sour\u202e"}}, 422, "invalid_field"},
		{"invisible mood", map[string]any{"mood": "\u3164"}, 422, "invalid_field"},
		{"two values", `{} {}`, 400, "malformed_json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do("POST", "/api/recommendations", tok, tt.body)
			if status != tt.status || errorCode(t, body) != tt.wantCode {
				t.Fatalf("%d %s, want %d %s", status, body, tt.status, tt.wantCode)
			}
		})
	}
	// Refused requests do not use up the guest's allowance.
	for i := range 5 {
		if status, body := e.do("POST", "/api/recommendations", tok, map[string]any{"mood": "thirsty"}); status != 202 {
			t.Fatalf("valid request %d after refused ones: %d %s", i+1, status, body)
		}
	}
}

func FuzzRecommendationRequest(f *testing.F) {
	for _, s := range []string{
		`{"likes":["sour","fresh"],"dislikes":["sweet"],"mood":"celebrating","alcoholFree":true}`,
		`{"likes":[" ", "SOUR", "sour"]}`,
		`{"mood":"` + strings.Repeat("a", 300) + `"}`,
		`{"likes":null,"mood":null}`,
		`[]`, `{"likes":[1,2]}`, "\xff", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := readRecommendationRequest(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if len(req.Likes) > maxTasteTerms || len(req.Dislikes) > maxTasteTerms || utf8.RuneCountInString(req.Mood) > maxMoodLen {
			t.Fatalf("out of bounds accepted: %+v", req)
		}
		for _, term := range append(append([]string{}, req.Likes...), req.Dislikes...) {
			if term == "" || term != strings.TrimSpace(term) || utf8.RuneCountInString(term) > maxTasteTermLn || text.Line(term) != nil {
				t.Fatalf("bad term accepted: %q", term)
			}
		}
		if req.Likes == nil || req.Dislikes == nil {
			t.Fatal("nil lists would be stored as null")
		}
	})
}

// Reproduction: the admin page's jobs log showed the e-mail jobs' kinds
// ("mail", "reminder") as raw identifiers, and ?kind=mail was refused.
// Every kind the worker runs is a filter the API takes, keeps its
// identifier in the JSON, and has a label in every page catalogue that
// the jobs log uses; so has every status.
func TestJobKindsNamedOnTheAdminPage(t *testing.T) {
	kinds := []string{store.JobImagePrompt, store.JobRecommendation, store.JobImport, invite.JobKind, invite.ReminderJobKind}
	script, err := os.ReadFile("../web/static/js/jobs-admin.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "sv", "pt-BR"} {
		raw, err := os.ReadFile("../web/static/i18n/" + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]any
		if err := json.Unmarshal(raw, &cat); err != nil {
			t.Fatal(err)
		}
		for _, k := range kinds {
			if s, _ := cat["jobs.kind."+k].(string); s == "" || s == k {
				t.Errorf("%s: job kind %q has no label (jobs.kind.%s = %q)", lang, k, k, s)
			}
		}
		for _, st := range jobStatuses {
			if s, _ := cat["jobs.status."+st].(string); s == "" {
				t.Errorf("%s: job status %q has no label", lang, st)
			}
		}
	}
	for _, k := range kinds {
		if !slices.Contains(jobKinds, k) {
			t.Errorf("?kind=%s is refused", k)
		}
		if !strings.Contains(string(script), k+`: t("jobs.kind.`+k+`")`) {
			t.Errorf("jobs-admin.js does not name kind %q", k)
		}
	}
	e := newTestEnv(t)
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	if _, err := e.store.EnqueueJob(context.Background(), store.NewJob{Kind: invite.JobKind, Subject: "guest:g1"}); err != nil {
		t.Fatal(err)
	}
	status, body := e.do("GET", "/api/admin/jobs?kind=mail", admin, nil, "Accept-Language", "sv")
	var list struct {
		Jobs []struct{ Kind string } `json:"jobs"`
	}
	decodeInto(t, body, &list)
	if status != 200 || len(list.Jobs) != 1 || list.Jobs[0].Kind != "mail" {
		t.Errorf("?kind=mail: %d %s", status, body)
	}
}

func TestAdminJobs(t *testing.T) {
	var woken atomic.Int32
	e := newTestEnv(t, func(d *Deps) {
		d.AI = AIConfig{Source: "bedrock", Model: "amazon.nova-pro-v1:0", JobQueued: func(store.Job) { woken.Add(1) }}
	})
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	ctx := context.Background()

	queued, _ := e.store.EnqueueJob(ctx, store.ImagePromptJob("hugo"))
	deadJob, _ := e.store.EnqueueJob(ctx, store.RecommendationJob("r1", "g1"))
	run, err := e.store.StartJob(ctx, deadJob, "w", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.DeadLetterJob(ctx, run, "InternalServerException: boom", store.TokenUsage{InputTokens: 10, TotalTokens: 10}); err != nil {
		t.Fatal(err)
	}

	status, body := e.do("GET", "/api/admin/jobs", admin, nil)
	var list struct {
		Jobs   []map[string]any `json:"jobs"`
		Total  int              `json:"total"`
		Limit  int              `json:"limit"`
		Counts map[string]int   `json:"counts"`
		Source string           `json:"source"`
		Model  string           `json:"model"`
	}
	decodeInto(t, body, &list)
	if status != 200 || list.Total != 2 || len(list.Jobs) != 2 || list.Limit != 50 || list.Counts["queued"] != 1 || list.Counts["dead"] != 1 ||
		list.Source != "bedrock" || list.Model != "amazon.nova-pro-v1:0" {
		t.Fatalf("list: %d %s", status, body)
	}

	status, body = e.do("GET", "/api/admin/jobs?status=dead&kind=recommendation", admin, nil)
	decodeInto(t, body, &list)
	if status != 200 || list.Total != 1 || list.Jobs[0]["id"] != deadJob.ID || list.Jobs[0]["lastError"] != "InternalServerException: boom" ||
		list.Jobs[0]["usage"].(map[string]any)["totalTokens"] != 10.0 || list.Counts["queued"] != 0 {
		t.Fatalf("dead letters: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/admin/jobs?subject=drink:hugo", admin, nil)
	decodeInto(t, body, &list)
	if status != 200 || list.Total != 1 || list.Jobs[0]["id"] != queued.ID {
		t.Fatalf("by subject: %d %s", status, body)
	}

	for _, q := range []string{"status=lost", "kind=poem", "limit=0", "limit=201", "offset=-1", "limit=x"} {
		if status, body := e.do("GET", "/api/admin/jobs?"+q, admin, nil); status != 400 || errorCode(t, body) != "invalid_query" {
			t.Errorf("?%s: %d %s", q, status, body)
		}
	}

	status, body = e.do("POST", "/api/admin/jobs/"+deadJob.ID+"/retry", admin, nil)
	var retried store.Job
	decodeInto(t, body, &retried)
	if status != 200 || retried.Status != "queued" || retried.MaxAttempts != 1+store.DefaultJobAttempts || woken.Load() != 1 {
		t.Fatalf("retry: %d %s (woken %d)", status, body, woken.Load())
	}
	if status, body := e.do("POST", "/api/admin/jobs/"+deadJob.ID+"/retry", admin, nil); status != 409 || errorCode(t, body) != "not_dead" {
		t.Errorf("retry of a queued job: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/admin/jobs/nope/retry", admin, nil); status != 404 || errorCode(t, body) != "not_found" {
		t.Errorf("retry of an unknown job: %d %s", status, body)
	}
}

// TestAdminJobsImageModel: the jobs list names the image model when
// drinks' pictures are generated and leaves it out when barhub draws them,
// so the drink editor shows "New picture" only when it can work.
func TestAdminJobsImageModel(t *testing.T) {
	for _, tc := range []struct {
		name string
		ai   AIConfig
		want string
	}{
		{"bedrock", AIConfig{Source: "bedrock", Model: "amazon.nova-pro-v1:0", ImageModel: "amazon.nova-canvas-v1:0"}, "amazon.nova-canvas-v1:0"},
		{"bedrock without pictures", AIConfig{Source: "bedrock", Model: "amazon.nova-pro-v1:0"}, ""},
		{"local", AIConfig{Source: "local"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEnv(t, func(d *Deps) { d.AI = tc.ai })
			admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
			status, body := e.do("GET", "/api/admin/jobs?limit=1", admin, nil)
			var list map[string]any
			decodeInto(t, body, &list)
			got, present := list["imageModel"]
			if status != 200 || (tc.want == "" && present) || (tc.want != "" && got != tc.want) {
				t.Errorf("GET /api/admin/jobs: %d, imageModel %v (present %v), want %q", status, got, present, tc.want)
			}
		})
	}
}

func TestRegenerateImagePrompt(t *testing.T) {
	e := newTestEnv(t)
	admin := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	d := menu.Drink{ID: "hugo", Name: "Hugo", Section: "spritzes"}
	if err := e.store.CreateDrink(context.Background(), &d); err != nil {
		t.Fatal(err)
	}
	status, body := e.do("POST", "/api/admin/drinks/hugo/image-prompt", admin, nil)
	var j store.Job
	decodeInto(t, body, &j)
	if status != 202 || j.Kind != store.JobImagePrompt || j.Subject != "drink:hugo" || j.Status != "queued" {
		t.Fatalf("regenerate: %d %s", status, body)
	}
	if status, body := e.do("POST", "/api/admin/drinks/nope/image-prompt", admin, nil); status != 404 || errorCode(t, body) != "not_found" {
		t.Errorf("unknown drink: %d %s", status, body)
	}
}
