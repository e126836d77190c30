package ai_test

import (
	"context"
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
	"github.com/barhub/barhub/api/store"
	"github.com/barhub/barhub/api/store/storetest"
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
	past   map[string][]string
}

func (g *memGuests) Guest(ctx context.Context, id string) (ai.Guest, error) {
	gu, ok := g.guests[id]
	if !ok {
		return gu, fmt.Errorf("load guest %s: %w", id, store.ErrNotFound)
	}
	return gu, nil
}

func (g *memGuests) PastOrders(ctx context.Context, id string) ([]string, error) {
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
}

func newRig(t testing.TB, withModel bool) *rig {
	t.Helper()
	r := &rig{
		st:     storetest.New(t),
		menu:   newMenu(testMenu...),
		guests: &memGuests{guests: map[string]ai.Guest{}, past: map[string][]string{}},
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

var fastConfig = ai.Config{
	Concurrency:  4,
	PollInterval: 5 * time.Millisecond,
	Lease:        20 * time.Second,
	BackoffBase:  time.Millisecond,
	BackoffMax:   5 * time.Millisecond,
}

// start runs a worker on st until the test ends.
func (r *rig) start(t testing.TB, st *store.Store, id string) *ai.Worker {
	t.Helper()
	cfg := fastConfig
	cfg.ID = id
	w := ai.NewWorker(ai.Deps{
		Store: st, Menu: r.menu, Guests: r.guests, Prompts: r.sink, Publisher: r.pub, Model: r.model, Logger: r.log,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return w
}

// waitJob polls until job id reaches status.
func waitJob(t testing.TB, st *store.Store, id, status string) store.Job {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		j, err := st.JobByID(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status == status {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s after 30s, want %s (%+v)", id, j.Status, status, j)
		}
		time.Sleep(5 * time.Millisecond)
	}
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

	ev := r.pub.wait(t, ai.TopicAdmin, ai.EventPromptReady)
	done := waitJob(t, r.st, j.ID, store.JobDone)

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

	done := waitJob(t, r.st, j.ID, store.JobDone)
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
	done := waitJob(t, r.st, j.ID, store.JobDone)
	if done.Attempts != 2 || !strings.Contains(done.LastError, "no output") {
		t.Errorf("job %+v", done)
	}
}

func TestServerErrorsDeadLetterWithAnAlert(t *testing.T) {
	r := newRig(t, true)
	r.srv.Default(bedrocktest.ServerError())
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))

	dead := waitJob(t, r.st, j.ID, store.JobDead)
	alert := r.pub.wait(t, ai.TopicAdmin, ai.EventAlert)
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
	if len(r.sink.get("negroni")) != 0 || len(r.pub.all(ai.TopicAdmin, ai.EventPromptReady)) != 0 {
		t.Error("a prompt was saved or announced for a failed job")
	}

	// The admin retries once Bedrock is back: the job runs again.
	r.srv.Default(bedrocktest.Text("A Negroni, at last."))
	if _, err := r.st.RequeueJob(context.Background(), j.ID); err != nil {
		t.Fatal(err)
	}
	again := waitJob(t, r.st, j.ID, store.JobDone)
	if again.Attempts != 6 || len(r.sink.get("negroni")) != 1 {
		t.Errorf("after retry: %+v, %d prompts", again, len(r.sink.get("negroni")))
	}
}

func TestPermanentErrorDeadLettersAtOnce(t *testing.T) {
	r := newRig(t, true)
	r.srv.Default(bedrocktest.AccessDenied())
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))
	dead := waitJob(t, r.st, j.ID, store.JobDead)
	r.pub.wait(t, ai.TopicAdmin, ai.EventAlert)
	if dead.Attempts != 1 || r.srv.Count() != 1 || !strings.Contains(dead.LastError, "AccessDeniedException") {
		t.Errorf("job %+v after %d calls", dead, r.srv.Count())
	}
}

func TestDeletedDrinkFinishesWithoutACall(t *testing.T) {
	r := newRig(t, true)
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("no-such-drink"))
	done := waitJob(t, r.st, j.ID, store.JobDone)
	if r.srv.Count() != 0 || done.Result["skipped"] == "" {
		t.Errorf("job %+v after %d calls", done, r.srv.Count())
	}
}

// nutGuest is allergic to nuts and drank Negronis before.
func (r *rig) nutGuest() string {
	r.guests.guests["g1"] = ai.Guest{ID: "g1", Name: "Anna Åberg", DietaryText: "Allergic to nuts", DietaryTags: []string{"nuts"}}
	r.guests.past["g1"] = []string{"negroni", "negroni"}
	return "g1"
}

func TestRecommendationWithBedrockIsValidated(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Script(bedrocktest.Text("```json\n" + `{"drinks":[
		{"id":"aperol-spritz","name":"Aperol Spritz","reason":"Bitter like your Negroni, but lighter."},
		{"id":"ghost-punch","name":"Ghost Punch","reason":"Not on tonight's menu."},
		{"id":"mai-tai","name":"Mai Tai","reason":"Tropical, but it has orgeat."},
		{"id":"espresso-martini","name":"Espresso Martini","reason":"Out of stock."},
		{"name":"Negroni","reason":"Your favourite."}
	]}` + "\n```"))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter"}, Dislikes: []string{"sweet"}, Mood: "celebrating"})

	ev := r.pub.wait(t, ai.GuestTopic(gid), ai.EventRecommendationReady)
	done := waitJob(t, r.st, j.ID, store.JobDone)
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
	if got.Status != "done" || got.Source != "bedrock" || got.Model != "amazon.nova-pro-v1:0" || got.PromptVersion != "recommend.v1" || got.Fallback {
		t.Errorf("recommendation %+v", got)
	}
	if got.Drinks[0].Reason != "Bitter like your Negroni, but lighter." {
		t.Errorf("reason %q", got.Drinks[0].Reason)
	}
	if pushed, ok := ev.data.(store.Recommendation); !ok || pushed.ID != rec.ID || len(pushed.Drinks) != 2 {
		t.Errorf("pushed %+v", ev.data)
	}
	if done.Result["dropped"] != "3" || done.Result["drinks"] != "2" {
		t.Errorf("job result %v", done.Result)
	}

	req := r.srv.Requests()[0]
	user := req.UserText()
	for _, want := range []string{`"id":"negroni"`, `"id":"mai-tai"`, `- likes: ["bitter"]`, `- dislikes: ["sweet"]`, `- mood: "celebrating"`,
		`- must avoid (allergens): ["nuts"]`, `"Allergic to nuts"`, `- ordered before: ["Negroni"]`} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %s:\n%s", want, user)
		}
	}
	if strings.Contains(user, "espresso-martini") {
		t.Error("the prompt offers a drink that is out of stock")
	}
	if !strings.Contains(req.SystemText(), "JSON only") {
		t.Errorf("system prompt does not ask for JSON: %s", req.SystemText())
	}
}

func TestMalformedModelJSONRetriesThenFallsBackToLocal(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Default(bedrocktest.Text("Oh, you'd love a Mai Tai tonight!"))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, gid, store.RecommendationRequest{Likes: []string{"fruity"}})

	dead := waitJob(t, r.st, j.ID, store.JobDead)
	alert := r.pub.wait(t, ai.TopicAdmin, ai.EventAlert)
	ev := r.pub.wait(t, ai.GuestTopic(gid), ai.EventRecommendationReady)
	if n := r.srv.Count(); n != 5 || dead.Attempts != 5 || !strings.Contains(dead.LastError, "not the JSON asked for") {
		t.Errorf("%d calls; job %+v", n, dead)
	}
	if alert.data.(map[string]any)["jobId"] != j.ID {
		t.Errorf("alert %+v", alert.data)
	}
	got, err := r.st.RecommendationByID(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != "done" || got.Source != "local" || !got.Fallback || got.Note == "" || len(got.Drinks) != 3 {
		t.Fatalf("fallback %+v", got)
	}
	for _, d := range got.Drinks {
		if d.ID == "mai-tai" {
			t.Error("the fallback recommends the nut drink to a nut-allergic guest")
		}
	}
	if ev.data.(store.Recommendation).Source != "local" {
		t.Errorf("pushed %+v", ev.data)
	}
}

func TestMalformedOnceThenValid(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Script(bedrocktest.Text(`{"drinks": [`), bedrocktest.Text(`{"drinks":[{"id":"lemonade","name":"House Lemonade","reason":"Fresh."}]}`))
	r.start(t, r.st, "w1")
	rec, j := r.request(t, gid, store.RecommendationRequest{})
	done := waitJob(t, r.st, j.ID, store.JobDone)
	got, _ := r.st.RecommendationByID(context.Background(), rec.ID)
	if done.Attempts != 2 || got.Source != "bedrock" || len(got.Drinks) != 1 || got.Drinks[0].ID != "lemonade" {
		t.Errorf("job %+v; recommendation %+v", done, got)
	}
}

func TestOnlyForbiddenPicksCountAsAFailedAttempt(t *testing.T) {
	r := newRig(t, true)
	gid := r.nutGuest()
	r.srv.Script(
		bedrocktest.Text(`{"drinks":[{"id":"mai-tai","name":"Mai Tai","reason":"Nutty."}]}`),
		bedrocktest.Text(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Again."}]}`),
	)
	r.start(t, r.st, "w1")
	rec, j := r.request(t, gid, store.RecommendationRequest{})
	done := waitJob(t, r.st, j.ID, store.JobDone)
	got, _ := r.st.RecommendationByID(context.Background(), rec.ID)
	if done.Attempts != 2 || !strings.Contains(done.LastError, "every drink the model named was dropped") || got.Drinks[0].ID != "negroni" {
		t.Errorf("job %+v; recommendation %+v", done, got)
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
	waitJob(t, r.st, jp.ID, store.JobDone)
	waitJob(t, r.st, jr.ID, store.JobDone)

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
	if got.Source != "local" || got.Fallback || !slices.Equal(ids, []string{"virgin-colada", "lemonade", "garden-spritz"}) {
		t.Errorf("local recommendation %+v", got)
	}
}

func TestJobOfACrashedWorkerIsTakenOver(t *testing.T) {
	r := newRig(t, true)
	j := r.enqueue(t, store.ImagePromptJob("negroni"))
	// A worker took the job and died: its lease has run out.
	if _, err := r.st.StartJob(context.Background(), j, "crashed", -time.Second); err != nil {
		t.Fatal(err)
	}
	r.start(t, r.st, "w2")
	done := waitJob(t, r.st, j.ID, store.JobDone)
	if done.Attempts != 2 || done.Worker != "w2" || !strings.Contains(done.LastError, "worker crashed stopped") || r.srv.Count() != 1 {
		t.Errorf("job %+v after %d calls", done, r.srv.Count())
	}
}

func TestTwoWorkersRunEachJobOnce(t *testing.T) {
	r := newRig(t, true)
	const n = 200
	for i := range n {
		id := fmt.Sprintf("d%03d", i)
		r.menu.drinks[id] = ai.Drink{ID: id, Name: "Drink " + id, Ingredients: []string{"gin"}, Available: true}
	}
	var ids []string
	for i := range n {
		ids = append(ids, r.enqueue(t, store.ImagePromptJob(fmt.Sprintf("d%03d", i))).ID)
	}
	// A second instance: its own connection to the same database.
	other, err := store.Open(context.Background(), store.Config{URI: storetest.URI(t), Database: r.st.DB().Name()}, r.log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close(context.Background()) })
	r.start(t, r.st, "one")
	r.start(t, other, "two")

	// Watch the in-memory sink, not the database, so the test's own
	// polling does not compete with the workers.
	deadline := time.Now().Add(5 * time.Minute)
	for r.sink.count() < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	var jobs []store.Job
	for {
		var err error
		jobs, _, err = r.st.ListJobs(context.Background(), store.JobFilter{Status: store.JobDone})
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(jobs) != n {
		t.Fatalf("%d of %d jobs done", len(jobs), n)
	}
	byWorker := map[string]int{}
	for _, j := range jobs {
		byWorker[j.Worker]++
		if j.Attempts != 1 {
			t.Errorf("job %s took %d attempts", j.ID, j.Attempts)
		}
	}
	if got := r.srv.Count(); got != n {
		t.Fatalf("the model was called %d times for %d jobs", got, n)
	}
	for i := range n {
		if got := len(r.sink.get(fmt.Sprintf("d%03d", i))); got != 1 {
			t.Fatalf("drink %d got %d prompts", i, got)
		}
	}
	t.Logf("jobs per worker: %v", byWorker)
}

func TestUnknownKindIsDeadAtOnce(t *testing.T) {
	r := newRig(t, false)
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.NewJob{Kind: store.JobImport})
	dead := waitJob(t, r.st, j.ID, store.JobDead)
	if dead.Attempts != 1 {
		t.Errorf("job %+v", dead)
	}
	if !strings.Contains(dead.LastError, `no worker handles "import" jobs`) {
		t.Errorf("last error %q", dead.LastError)
	}
}

func TestSubmitStartsAJobWithoutWaitingForAPoll(t *testing.T) {
	r := newRig(t, false)
	cfg := fastConfig
	cfg.PollInterval = time.Hour
	w := ai.NewWorker(ai.Deps{Store: r.st, Menu: r.menu, Guests: r.guests, Prompts: r.sink, Publisher: r.pub, Logger: r.log}, cfg)

	// Before Run, Submit leaves the job to the queue.
	early := r.enqueue(t, store.ImagePromptJob("negroni"))
	w.Submit(early)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	// Run's first read of the queue finds the early job; after it the
	// worker sleeps for the hour-long poll interval.
	waitJob(t, r.st, early.ID, store.JobDone)

	j := r.enqueue(t, store.ImagePromptJob("mai-tai"))
	w.Submit(j)
	done2 := waitJob(t, r.st, j.ID, store.JobDone)
	if done2.Worker != w.ID() || len(r.sink.get("mai-tai")) != 1 {
		t.Fatalf("submitted job %+v", done2)
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
	done := waitJob(t, r.st, j.ID, store.JobDone)
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
