package ai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/ai/prompts"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// The worker's views of the menu and guests are its own interfaces; these
// in-memory ones stand in for the menu and RSVP stores the binary adapts.

type memMenu struct {
	mu     sync.Mutex
	drinks map[string]ai.Drink
}

func newMenu(drinks ...ai.Drink) *memMenu {
	m := &memMenu{drinks: map[string]ai.Drink{}}
	for _, d := range drinks {
		m.drinks[d.ID] = d
	}
	return m
}

func (m *memMenu) AvailableDrinks(ctx context.Context) ([]ai.Drink, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []ai.Drink
	for _, d := range m.drinks {
		if d.Available {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b ai.Drink) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

func (m *memMenu) Drink(ctx context.Context, id string) (ai.Drink, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.drinks[id]
	if !ok {
		return d, fmt.Errorf("load drink %s: %w", id, store.ErrNotFound)
	}
	return d, nil
}

type memGuests struct {
	guests map[string]ai.Guest
	past   map[string][]ai.PastOrder
}

func (g *memGuests) Guest(ctx context.Context, id string) (ai.Guest, error) {
	gu, ok := g.guests[id]
	if !ok {
		return gu, fmt.Errorf("load guest %s: %w", id, store.ErrNotFound)
	}
	return gu, nil
}

func (g *memGuests) PastOrders(ctx context.Context, id string) ([]ai.PastOrder, error) {
	return g.past[id], nil
}

type memSink struct {
	mu    sync.Mutex
	saved map[string][]ai.ImagePrompt
}

func (s *memSink) SaveImagePrompt(ctx context.Context, drinkID string, p ai.ImagePrompt) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saved[drinkID] = append(s.saved[drinkID], p)
	return nil
}

// count is the number of prompts saved, over all drinks.
func (s *memSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ps := range s.saved {
		n += len(ps)
	}
	return n
}

func (s *memSink) get(id string) []ai.ImagePrompt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.saved[id])
}

// recorder is a Publisher that keeps what was published.
type recorder struct {
	mu     sync.Mutex
	events []published
	added  chan struct{}
}

type published struct {
	topic, event string
	data         any
}

func newRecorder() *recorder { return &recorder{added: make(chan struct{}, 1)} }

func (r *recorder) Publish(ctx context.Context, topic, event string, data any) error {
	r.mu.Lock()
	r.events = append(r.events, published{topic, event, data})
	r.mu.Unlock()
	select {
	case r.added <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) all(topic, event string) []published {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []published
	for _, e := range r.events {
		if e.topic == topic && e.event == event {
			out = append(out, e)
		}
	}
	return out
}

// wait returns the first event on topic named event, failing after a
// generous deadline (a hang, not a speed check).
func (r *recorder) wait(t *testing.T, topic, event string) published {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if evs := r.all(topic, event); len(evs) > 0 {
			return evs[0]
		}
		select {
		case <-r.added:
		case <-deadline:
			t.Fatalf("no %s event on %s; got %+v", event, topic, r.events)
		}
	}
}

// rig is a worker's surroundings: a real database, the real SDK against
// the local Converse server, and the in-memory views.
type rig struct {
	st     *store.Store
	srv    *bedrocktest.Server
	model  ai.Model
	menu   *memMenu
	guests *memGuests
	sink   *memSink
	pub    *recorder
	log    *slog.Logger
	// cfg, when set, configures the bartenders started; slots, when set,
	// are shared by them, as by the events of one installation.
	cfg   *ai.Config
	slots *ai.ModelSlots
	// images and pics, when set, picture drinks (drinkimage_test.go).
	images ai.ImageModel
	pics   *memPictures
}

func newRig(t testing.TB, withModel bool) *rig {
	t.Helper()
	r := &rig{
		st:     storetest.New(t),
		menu:   newMenu(testMenu...),
		guests: &memGuests{guests: map[string]ai.Guest{}, past: map[string][]ai.PastOrder{}},
		sink:   &memSink{saved: map[string][]ai.ImagePrompt{}},
		pub:    newRecorder(),
		log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if os.Getenv("BARHUB_TEST_LOG") != "" {
		r.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if withModel {
		bedrocktest.IsolateAWS(t)
		r.srv = bedrocktest.New(t)
		c, err := bedrock.New(context.Background(), bedrock.Config{
			Region: "eu-north-1", Endpoint: r.srv.URL, Credentials: bedrocktest.Credentials(),
		})
		if err != nil {
			t.Fatal(err)
		}
		r.model = c
	}
	return r
}

var fastJobs = jobs.Config{
	Concurrency:  4,
	PollInterval: 5 * time.Millisecond,
	Lease:        20 * time.Second,
	BackoffBase:  time.Millisecond,
	BackoffMax:   5 * time.Millisecond,
}

// start runs a job runner with a bartender's kinds on st until the test
// ends.
func (r *rig) start(t testing.TB, st *store.Store, id string) *ai.Bartender {
	t.Helper()
	var cfg ai.Config
	if r.cfg != nil {
		cfg = *r.cfg
	}
	jcfg := fastJobs
	jcfg.ID = id
	w := jobs.NewRunner(jobs.Deps{Queue: st, Logger: r.log, Alert: func(ctx context.Context, a map[string]any) error {
		return r.pub.Publish(ctx, live.TopicAdmin, live.EventAlert, a)
	}}, jcfg)
	d := ai.Deps{
		Store: st, Menu: r.menu, Guests: r.guests, Prompts: r.sink, Publisher: r.pub, Model: r.model, Slots: r.slots, Logger: r.log,
	}
	if r.images != nil {
		d.Images, d.Pictures, d.Jobs, d.JobQueued = r.images, r.pics, st, w.Submit
	}
	b := ai.NewBartender(d, cfg)
	b.Register(w)
	jobstest.Run(t, w)
	return b
}

func (r *rig) enqueue(t testing.TB, nj store.NewJob) store.Job {
	t.Helper()
	j, err := r.st.EnqueueJob(context.Background(), nj)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func (r *rig) request(t testing.TB, guestID string, req store.RecommendationRequest) (store.Recommendation, store.Job) {
	t.Helper()
	rec := store.Recommendation{GuestID: guestID, Request: req}
	if err := r.st.CreateRecommendation(context.Background(), &rec); err != nil {
		t.Fatal(err)
	}
	return rec, r.enqueue(t, store.RecommendationJob(rec.ID, guestID))
}

func TestImagePromptWithBedrock(t *testing.T) {
	r := newRig(t, true)
	r.srv.Script(bedrocktest.Response{Text: "\"A Negroni in a heavy rocks glass on pale oak, soft side light.\"", InputTokens: 120, OutputTokens: 30})
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))

	ev := r.pub.wait(t, live.TopicAdmin, live.EventPromptReady)
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)

	reqs := r.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d Converse calls, want 1", len(reqs))
	}
	req := reqs[0]
	if req.ModelID != "amazon.nova-pro-v1:0" {
		t.Errorf("model %q", req.ModelID)
	}
	for _, want := range []string{"Nordic minimalism", "soft shadows", "neutral background", "minimal garnish"} {
		if !strings.Contains(req.SystemText(), want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if !strings.Contains(req.UserText(), "Drink: Negroni") || !strings.Contains(req.UserText(), "gin, sweet vermouth, Campari") {
		t.Errorf("user prompt lacks the drink: %q", req.UserText())
	}
	if req.Temperature() < 0.6999 || req.Temperature() > 0.7001 || req.MaxTokens() != 300 {
		t.Errorf("temperature %v, maxTokens %d; want 0.7, 300", req.Temperature(), req.MaxTokens())
	}

	saved := r.sink.get("negroni")
	if len(saved) != 1 {
		t.Fatalf("%d prompts saved, want 1", len(saved))
	}
	p := saved[0]
	if p.Text != "A Negroni in a heavy rocks glass on pale oak, soft side light." || p.Source != "bedrock" || p.Model != "amazon.nova-pro-v1:0" || p.PromptVersion != "image_prompt.v1" || p.CreatedAt.IsZero() {
		t.Errorf("saved prompt %+v", p)
	}
	data := ev.data.(map[string]any)
	if data["drinkId"] != "negroni" || data["jobId"] != j.ID || data["imagePrompt"].(ai.ImagePrompt).Text != p.Text {
		t.Errorf("event data %+v", data)
	}
	if done.Attempts != 1 || done.Usage != (store.TokenUsage{InputTokens: 120, OutputTokens: 30, TotalTokens: 150}) || done.Result["source"] != "bedrock" {
		t.Errorf("job %+v", done)
	}
}

func TestThrottlingIsRetriedByTheJobBackoff(t *testing.T) {
	r := newRig(t, true)
	r.srv.Script(bedrocktest.Throttle(), bedrocktest.Text("A Mai Tai on linen."))
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("mai-tai"))

	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if n := r.srv.Count(); n != 2 {
		t.Fatalf("%d calls, want 2 (one throttled, one retried by the job)", n)
	}
	if done.Attempts != 2 || !strings.Contains(done.LastError, "ThrottlingException") {
		t.Errorf("job %+v", done)
	}
	if got := r.sink.get("mai-tai"); len(got) != 1 || got[0].Text != "A Mai Tai on linen." {
		t.Errorf("saved %+v", got)
	}
}

func TestEmptyConverseResponseIsAFailedAttempt(t *testing.T) {
	r := newRig(t, true)
	r.srv.Script(bedrocktest.Empty(), bedrocktest.Text("A lemonade."))
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("lemonade"))
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if done.Attempts != 2 || !strings.Contains(done.LastError, "no output") {
		t.Errorf("job %+v", done)
	}
}

func TestServerErrorsDeadLetterWithAnAlert(t *testing.T) {
	r := newRig(t, true)
	r.srv.Default(bedrocktest.ServerError())
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))

	dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
	alert := r.pub.wait(t, live.TopicAdmin, live.EventAlert)
	if n := r.srv.Count(); n != store.DefaultJobAttempts {
		t.Errorf("%d calls, want %d", n, store.DefaultJobAttempts)
	}
	if dead.Attempts != 5 || !strings.Contains(dead.LastError, "InternalServerException") {
		t.Errorf("dead job %+v", dead)
	}
	data := alert.data.(map[string]any)
	if data["jobId"] != j.ID || data["code"] != "job_dead" || !strings.Contains(data["message"].(string), "InternalServerException") {
		t.Errorf("alert %+v", data)
	}
	// The drink is not left without a prompt meanwhile: the local one.
	if p := r.sink.get("negroni"); len(p) != 1 || p[0].Source != "local" {
		t.Errorf("saved for a failed job: %+v", p)
	}

	// The admin retries once Bedrock is back: the job runs again.
	r.srv.Default(bedrocktest.Text("A Negroni, at last."))
	if _, err := r.st.RequeueJob(context.Background(), j.ID); err != nil {
		t.Fatal(err)
	}
	again := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if again.Attempts != 6 || len(r.sink.get("negroni")) != 2 || r.sink.get("negroni")[1].Source != "bedrock" {
		t.Errorf("after retry: %+v, %d prompts", again, len(r.sink.get("negroni")))
	}
}

func TestDeletedDrinkFinishesWithoutACall(t *testing.T) {
	r := newRig(t, true)
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("no-such-drink"))
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if r.srv.Count() != 0 || done.Result["skipped"] == "" {
		t.Errorf("job %+v after %d calls", done, r.srv.Count())
	}
}

// nutGuest is allergic to nuts and drank Negronis before.
func (r *rig) nutGuest() string {
	r.guests.guests["g1"] = ai.Guest{ID: "g1", Name: "Anna Åberg", DietaryText: "Allergic to nuts", DietaryTags: []string{"nuts"}}
	r.guests.past["g1"] = []ai.PastOrder{{DrinkID: "negroni"}, {DrinkID: "negroni"}}
	return "g1"
}

func TestRecommendationWithBedrockIsValidated(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Script(bedrocktest.ToolUse(`{"drinks":[
		{"id":"aperol-spritz","name":"Aperol Spritz","reason":"Bitter like your Negroni, but lighter."},
		{"id":"ghost-punch","name":"Ghost Punch","reason":"Not on tonight's menu."},
		{"id":"mai-tai","name":"Mai Tai","reason":"Tropical, but it has orgeat."},
		{"id":"espresso-martini","name":"Espresso Martini","reason":"Out of stock."},
		{"name":"Negroni","reason":"Your favourite."}
	]}`))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter"}, Dislikes: []string{"sweet"}, Mood: "celebrating"})

	ev := r.pub.wait(t, live.GuestTopic(gid), live.EventRecommendationReady)
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	got, err := r.st.RecommendationByID(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range got.Drinks {
		ids = append(ids, d.ID)
	}
	if !slices.Equal(ids, []string{"aperol-spritz", "negroni"}) {
		t.Fatalf("drinks %v, want the two valid picks (aperol-spritz, negroni)", ids)
	}
	if got.Status != "done" || got.Source != "bedrock" || got.Model != "amazon.nova-pro-v1:0" || got.PromptVersion != prompts.Recommend || got.Fallback || got.Note != "" {
		t.Errorf("recommendation %+v", got)
	}
	if got.Drinks[0].Reason != "Bitter like your Negroni, but lighter." {
		t.Errorf("reason %q", got.Drinks[0].Reason)
	}
	if pushed, ok := ev.data.(store.Recommendation); !ok || pushed.ID != rec.ID || len(pushed.Drinks) != 2 {
		t.Errorf("pushed %+v", ev.data)
	}
	if done.Result["dropped"] != "3" || done.Result["drinks"] != "2" || done.Result["modelCalls"] != "1" || done.Attempts != 1 {
		t.Errorf("job %+v", done)
	}

	req := r.srv.Requests()[0]
	user := req.UserText()
	// The menu is already what the guest may have: no Mai Tai (orgeat)
	// for the nut allergy, nothing sweet for a guest who dislikes it; the
	// ABV is there; the dietary text is not (the filter used it).
	for _, want := range []string{`"id":"negroni"`, `"abv":24`, `"allergens":["eggs"]`, `- likes: ["bitter"]`, `- dislikes: ["sweet"]`, `- mood: "celebrating"`, `- ordered before: ["Negroni"]`} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %s:\n%s", want, user)
		}
	}
	for _, unwanted := range []string{"espresso-martini", "mai-tai", "white-russian", "Allergic to nuts", `"egg"`, `"other"`} {
		if strings.Contains(user, unwanted) {
			t.Errorf("the prompt holds %s:\n%s", unwanted, user)
		}
	}
}

// The Converse request on the wire: one tool whose input schema is the
// picks, the model made to use it, and the sampling configuration.
func TestRecommendationRequestOnTheWire(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Default(bedrocktest.ToolUse(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter."}]}`))
	r.start(t, r.st, "w1")
	_, j := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter"}})
	jobstest.WaitJob(t, r.st, j.ID, store.JobDone)

	req := r.srv.Requests()[0]
	var raw struct {
		InferenceConfig struct {
			MaxTokens   int     `json:"maxTokens"`
			Temperature float64 `json:"temperature"`
		} `json:"inferenceConfig"`
		ToolConfig struct {
			Tools []struct {
				ToolSpec struct {
					Name        string `json:"name"`
					Description string `json:"description"`
					InputSchema struct {
						JSON struct {
							Type       string   `json:"type"`
							Required   []string `json:"required"`
							Properties struct {
								Drinks struct {
									Type     string `json:"type"`
									MaxItems int    `json:"maxItems"`
									Items    struct {
										Required   []string `json:"required"`
										Properties struct {
											ID struct {
												Enum []string `json:"enum"`
											} `json:"id"`
										} `json:"properties"`
									} `json:"items"`
								} `json:"drinks"`
							} `json:"properties"`
						} `json:"json"`
					} `json:"inputSchema"`
				} `json:"toolSpec"`
			} `json:"tools"`
			ToolChoice map[string]json.RawMessage `json:"toolChoice"`
		} `json:"toolConfig"`
	}
	if err := json.Unmarshal(req.Raw, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.InferenceConfig.MaxTokens != 600 || raw.InferenceConfig.Temperature < 0.4999 || raw.InferenceConfig.Temperature > 0.5001 {
		t.Errorf("inferenceConfig %+v", raw.InferenceConfig)
	}
	if len(raw.ToolConfig.Tools) != 1 {
		t.Fatalf("%d tools, want 1: %s", len(raw.ToolConfig.Tools), req.Raw)
	}
	spec := raw.ToolConfig.Tools[0].ToolSpec
	schema := spec.InputSchema.JSON
	drinks := schema.Properties.Drinks
	if spec.Name != "recommend_drinks" || spec.Description == "" || schema.Type != "object" || !slices.Equal(schema.Required, []string{"drinks"}) ||
		drinks.Type != "array" || drinks.MaxItems != 3 || !slices.Equal(drinks.Items.Required, []string{"id", "name", "reason"}) {
		t.Errorf("tool %s", req.Raw)
	}
	// The ids the model may name are the drinks the nut-allergic guest may
	// have: no Mai Tai, nothing out of stock.
	enum := drinks.Items.Properties.ID.Enum
	if !slices.Contains(enum, "negroni") || slices.Contains(enum, "mai-tai") || slices.Contains(enum, "espresso-martini") {
		t.Errorf("id enum %v", enum)
	}
	if _, ok := raw.ToolConfig.ToolChoice["any"]; !ok {
		t.Errorf("toolChoice %v, want any (the one tool)", raw.ToolConfig.ToolChoice)
	}
}

const testBudget = 20 * time.Second

// budgetRig is a rig whose worker has its own budget, so that slow
// answers are cut off quickly; what is asserted is the number of calls,
// their deadlines and the outcome, never how long it took.
func budgetRig(t *testing.T) (*rig, *deadlines) {
	r := newRig(t, true)
	var cfg ai.Config
	// Generous for a loaded machine running -race (a job may wait in the
	// queue, a local call may take a second); what the tests check is the
	// number of calls and that each had a deadline inside the budget.
	cfg.RecommendBudget = testBudget
	cfg.ModelCallTimeout = 1500 * time.Millisecond
	cfg.MinModelCall = 200 * time.Millisecond
	r.cfg = &cfg
	dl := &deadlines{Model: r.model}
	r.model = dl
	return r, dl
}

// deadlines wraps a model and records the deadline of each call.
type deadlines struct {
	ai.Model
	mu  sync.Mutex
	got []time.Time
}

func (d *deadlines) Converse(ctx context.Context, req ai.ModelRequest) (ai.ModelResponse, error) {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Time{}
	}
	d.mu.Lock()
	d.got = append(d.got, dl)
	d.mu.Unlock()
	return d.Model.Converse(ctx, req)
}

func (d *deadlines) all() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.got)
}

// Reproduction: a throttled, failing, slow or nonsense model kept the
// guest waiting (five job attempts, 20–170 s). Now: at most two calls,
// each with a deadline inside the budget (one when the model is throttled
// or slow: a second call would only keep the guest and a model slot
// waiting), then the local answer with the note that says which case it
// is.
func TestRecommendationBudget(t *testing.T) {
	slow := bedrocktest.Response{Text: `{"drinks":[{"id":"negroni"}]}`, Delay: 10 * time.Second}
	tests := []struct {
		name      string
		responses []bedrocktest.Response
		guest     ai.Guest
		req       store.RecommendationRequest
		calls     int
		source    string
		note      string
	}{
		{"throttled: no second call", []bedrocktest.Response{bedrocktest.Throttle(), bedrocktest.Throttle()}, ai.Guest{}, store.RecommendationRequest{Likes: []string{"bitter"}}, 1, "local", "busy"},
		{"server errors", []bedrocktest.Response{bedrocktest.ServerError(), bedrocktest.Unavailable()}, ai.Guest{}, store.RecommendationRequest{}, 2, "local", "busy"},
		{"slow: no second call", []bedrocktest.Response{slow, slow}, ai.Guest{}, store.RecommendationRequest{Likes: []string{"bitter"}}, 1, "local", "busy"},
		{"nonsense", []bedrocktest.Response{bedrocktest.Text("Oh, you'd love a Mai Tai tonight!"), bedrocktest.ToolUse(`{"drinks":"many"}`)}, ai.Guest{}, store.RecommendationRequest{}, 2, "local", "unusable"},
		{"empty", []bedrocktest.Response{bedrocktest.Empty(), bedrocktest.Empty()}, ai.Guest{}, store.RecommendationRequest{}, 2, "local", "busy"},
		{"server error once, then a good answer", []bedrocktest.Response{bedrocktest.ServerError(), bedrocktest.ToolUse(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter."}]}`)}, ai.Guest{}, store.RecommendationRequest{}, 2, "bedrock", ""},
		{"cut short at max_tokens", []bedrocktest.Response{{ToolInput: `{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bit"}]}`, StopReason: "max_tokens"}}, ai.Guest{}, store.RecommendationRequest{}, 1, "bedrock", ""},
		{"content filtered: no second call", []bedrocktest.Response{{Text: "", StopReason: "content_filtered"}}, ai.Guest{}, store.RecommendationRequest{}, 1, "local", "unusable"},
		{"not allowed: no second call", []bedrocktest.Response{bedrocktest.AccessDenied()}, ai.Guest{}, store.RecommendationRequest{}, 1, "local", "busy"},
		{"nothing fits: no call at all", nil, ai.Guest{DietaryText: "designated driver"}, store.RecommendationRequest{Dislikes: []string{"sweet", "fresh"}}, 0, "local", "nothing"},
		{"nothing fits the taste: the closest", []bedrocktest.Response{bedrocktest.Throttle(), bedrocktest.Throttle()}, ai.Guest{}, store.RecommendationRequest{Likes: []string{"smoky"}}, 1, "local", "closest"},
	}
	notes := map[string]string{
		"busy":     "The AI bartender is busy right now",
		"unusable": "The AI bartender's answer could not be used",
		"closest":  "Nothing on tonight's menu fits what you asked — here is what comes closest.",
		"nothing":  "Nothing on tonight's menu fits what you asked.",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, dl := budgetRig(t)
			r.srv.Script(tt.responses...)
			r.srv.Default(bedrocktest.Throttle())
			r.guests.guests["g3"] = tt.guest
			r.start(t, r.st, "w1")
			rec, j := r.request(t, "g3", tt.req)
			done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
			got, err := r.st.RecommendationByID(context.Background(), rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if n := r.srv.Count(); n != tt.calls || done.Attempts != 1 {
				t.Errorf("%d calls in %d job attempts, want %d in 1", n, done.Attempts, tt.calls)
			}
			if got.Status != "done" || got.Source != tt.source || got.Fallback != (tt.source == "local" && tt.calls > 0) {
				t.Errorf("recommendation %+v", got)
			}
			if tt.note == "" && got.Note != "" || tt.note != "" && !strings.HasPrefix(got.Note, notes[tt.note]) || got.NoteID != tt.note {
				t.Errorf("note %q, want the %q one", got.Note, tt.note)
			}
			if tt.note == "nothing" && len(got.Drinks) != 0 || tt.note != "nothing" && len(got.Drinks) == 0 {
				t.Errorf("drinks %+v", got.Drinks)
			}
			// Every call had a deadline, inside the guest's budget.
			budgetEnd := rec.CreatedAt.Add(testBudget)
			for i, d := range dl.all() {
				if d.IsZero() || d.After(budgetEnd) {
					t.Errorf("call %d: deadline %v, want one by %v", i+1, d, budgetEnd)
				}
			}
		})
	}
}

// A request that waited in the queue past its budget is answered
// locally at once, without a model call.
func TestRecommendationPastItsBudgetIsAnsweredLocally(t *testing.T) {
	r, _ := budgetRig(t)
	r.cfg.Now = func() time.Time { return time.Now().Add(time.Minute) }
	r.guests.guests["g3"] = ai.Guest{}
	r.start(t, r.st, "w1")
	rec, j := r.request(t, "g3", store.RecommendationRequest{})
	jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	got, _ := r.st.RecommendationByID(context.Background(), rec.ID)
	if r.srv.Count() != 0 || got.Source != "local" || !got.Fallback || len(got.Drinks) != ai.MaxPicks {
		t.Errorf("%d calls; %+v", r.srv.Count(), got)
	}
}

func TestLocalWorkerWithoutBedrock(t *testing.T) {
	r := newRig(t, false)
	gid := r.nutGuest()
	w := r.start(t, r.st, "w1")
	if w.Source() != "local" {
		t.Fatalf("source %q", w.Source())
	}
	jp := r.enqueue(t, store.ImagePromptJob("garden-spritz"))
	rec, jr := r.request(t, gid, store.RecommendationRequest{Likes: []string{"fruity", "sweet"}, AlcoholFree: true})
	jobstest.WaitJob(t, r.st, jp.ID, store.JobDone)
	jobstest.WaitJob(t, r.st, jr.ID, store.JobDone)

	p := r.sink.get("garden-spritz")
	if len(p) != 1 || p[0].Source != "local" || p[0].Model != "template" || p[0].PromptVersion != "image_prompt_local.v1" ||
		!strings.HasPrefix(p[0].Text, "Premium Nordic-minimalist photograph of a Garden Spritz") {
		t.Errorf("local prompt %+v", p)
	}
	got, _ := r.st.RecommendationByID(context.Background(), rec.ID)
	var ids []string
	for _, d := range got.Drinks {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	if got.Source != "local" || got.Fallback || !slices.Equal(ids, []string{"garden-spritz", "lemonade", "virgin-colada"}) {
		t.Errorf("local recommendation %+v", got)
	}
}

// Reproduction: the house recommender answered a Swedish guest in
// English. The request's language (the page's, when it asked) wins; a
// request without one takes the language of the guest's last sign-in.
func TestLocalRecommendationInTheGuestsLanguage(t *testing.T) {
	r := newRig(t, false)
	r.guests.guests["sv"] = ai.Guest{ID: "sv", Name: "Sara Lind", Language: "pt-BR"}
	r.guests.guests["pt"] = ai.Guest{ID: "pt", Name: "João Silva", Language: "pt-BR"}
	r.start(t, r.st, "w1")
	recSV, jSV := r.request(t, "sv", store.RecommendationRequest{Mood: "något friskt och surt, inget sött", Language: "sv"})
	recPT, jPT := r.request(t, "pt", store.RecommendationRequest{Mood: "algo refrescante e azedo, nada doce"})
	jobstest.WaitJob(t, r.st, jSV.ID, store.JobDone)
	jobstest.WaitJob(t, r.st, jPT.ID, store.JobDone)
	for _, tc := range []struct {
		id, suffix string
	}{
		{recSV.ID, " – precis som du gillar."},
		{recPT.ID, ", do jeito que você gosta."},
	} {
		got, err := r.st.RecommendationByID(context.Background(), tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Source != "local" || len(got.Drinks) != ai.MaxPicks {
			t.Fatalf("recommendation %+v", got)
		}
		for _, d := range got.Drinks {
			if !slices.Contains([]string{"whiskey-sour", "garden-spritz", "moscow-mule"}, d.ID) || !strings.HasSuffix(d.Reason, tc.suffix) {
				t.Errorf("%s: %s %q, want a sour or fresh drink and a reason ending %q", tc.id, d.ID, d.Reason, tc.suffix)
			}
		}
	}
}

// The model is asked to answer in the guest's language (on the wire, in
// the system and the user prompt), the tastes they turned down in their
// own words are dislikes, and a pick it gives no reason for gets one in
// the guest's language.
func TestModelAskedInTheGuestsLanguage(t *testing.T) {
	r := newRig(t, true)
	r.guests.guests["g1"] = ai.Guest{ID: "g1", Name: "Sara Lind"}
	r.srv.Default(bedrocktest.ToolUse(`{"drinks":[{"id":"garden-spritz","name":"Garden Spritz","reason":""},{"id":"whiskey-sour","name":"Whiskey Sour","reason":"Syrlig och fyllig, med bourbon."}]}`))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, "g1", store.RecommendationRequest{Mood: "något friskt och surt, inget sött", Language: "sv"})
	jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	got, err := r.st.RecommendationByID(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != "bedrock" || got.PromptVersion != prompts.Recommend || len(got.Drinks) != 2 {
		t.Fatalf("recommendation %+v", got)
	}
	if want := "En bra början: frisk och blommig, med fläderblomssaft och sodavatten."; got.Drinks[0].Reason != want {
		t.Errorf("reason of a pick the model gave none for: %q, want %q", got.Drinks[0].Reason, want)
	}
	if got.Drinks[1].Reason != "Syrlig och fyllig, med bourbon." {
		t.Errorf("the model's own reason %q", got.Drinks[1].Reason)
	}
	req := r.srv.Requests()[0]
	if sys := req.SystemText(); !strings.Contains(sys, "written in Swedish (sv), the guest's language") {
		t.Errorf("the system prompt does not ask for Swedish:\n%s", sys)
	}
	user := req.UserText()
	for _, want := range []string{"- language: Swedish (sv)", "Write every reason in Swedish.", `- dislikes: ["sweet"]`, `- mood: "något friskt och surt, inget sött"`} {
		if !strings.Contains(user, want) {
			t.Errorf("the user prompt lacks %s:\n%s", want, user)
		}
	}
	for _, sweet := range []string{`"id":"lemonade"`, `"id":"virgin-colada"`, `"id":"mai-tai"`} {
		if strings.Contains(user, sweet) {
			t.Errorf("the menu sent holds %s, which the guest turned down (inget sött)", sweet)
		}
	}
}

// syncBuffer is a log destination tests can read while the worker writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Reproduction: gin, coffee, sweet and whiskey picks were shown to guests
// who disliked them, because only the local recommender checked dislikes.
func TestModelPicksTheGuestDislikesAreDropped(t *testing.T) {
	r := newRig(t, true)
	logs := &syncBuffer{}
	r.log = slog.New(slog.NewTextHandler(logs, nil))
	r.guests.guests["g2"] = ai.Guest{ID: "g2", Name: "Bo", Dislikes: []string{"whisky"}}
	r.srv.Default(bedrocktest.Text(`{"drinks":[
		{"id":"negroni","name":"Negroni","reason":"Gin and bitter."},
		{"id":"white-russian","name":"White Russian","reason":"Coffee and cream."},
		{"id":"whiskey-sour","name":"Whiskey Sour","reason":"Bourbon, tart."},
		{"id":"lemonade","name":"House Lemonade","reason":"Sweet and fresh."},
		{"id":"aperol-spritz","name":"Aperol Spritz","reason":"Bitter and bubbly."}
	]}`))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, "g2", store.RecommendationRequest{Dislikes: []string{"gin", "coffee", "sweet"}})
	done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	got, err := r.st.RecommendationByID(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Drinks) != 1 || got.Drinks[0].ID != "aperol-spritz" || got.Source != "bedrock" {
		t.Fatalf("recommendation %+v, want only the Aperol Spritz from bedrock", got)
	}
	if done.Result["dropped"] != "4" {
		t.Errorf("job result %v, want 4 dropped", done.Result)
	}
	for _, want := range []string{"the guest dislikes gin (gin)", "the guest dislikes coffee (coffee liqueur)", "the guest dislikes whisky (bourbon)", "the guest dislikes sweet (sweet)"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no dropped pick logged with %q:\n%s", want, logs.String())
		}
	}
}
