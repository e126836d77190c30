package eval

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/locale"
)

// asks is how many times each profile asks the local recommender.
const asks = 5

func load(t *testing.T) ([]ai.Drink, []Profile) {
	t.Helper()
	menu, err := Menu()
	if err != nil {
		t.Fatal(err)
	}
	ps := append(Profiles(menu), UnreadProfiles(menu)...)
	if len(ps) < 40 {
		t.Fatalf("%d profiles, want at least 40", len(ps))
	}
	return menu, ps
}

var evening = time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)

func past(p Profile, at time.Time) []ai.PastOrder {
	if p.Recent == 0 {
		return nil
	}
	return []ai.PastOrder{{DrinkID: "negroni", At: at.Add(-20 * time.Minute), StandardDrinks: p.Recent}}
}

// checkShape checks what a profile expects of an answer besides safety.
func checkShape(t *testing.T, menu []ai.Drink, p Profile, ids []string, fits bool, note string) {
	t.Helper()
	switch {
	case p.None && len(ids) != 0:
		t.Errorf("%s: %v shown, want none", p.Name, ids)
	case !p.None && len(ids) == 0:
		t.Errorf("%s: nothing shown", p.Name)
	}
	if p.Closest && fits {
		t.Errorf("%s: %v said to fit what was asked", p.Name, ids)
	}
	if p.Closest && !strings.Contains(note, "here is what comes closest") {
		t.Errorf("%s: note %q, want the closest one", p.Name, note)
	}
	if p.Spread {
		sections := map[string]bool{}
		for _, id := range ids {
			sections[menu[slices.IndexFunc(menu, func(d ai.Drink) bool { return d.ID == id })].Section] = true
		}
		if len(sections) != len(ids) {
			t.Errorf("%s: %v from %d sections", p.Name, ids, len(sections))
		}
	}
	if p.PaceFirst && (len(ids) == 0 || !slices.Contains(freeDrinks, ids[0])) {
		t.Errorf("%s: %v, want an alcohol-free drink first", p.Name, ids)
	}
}

// TestLocalRecommender runs every profile through the local recommender,
// asking several times: 0 unsafe and 0 disliked drinks, each profile's
// expectations met, and the quality score reported.
func TestLocalRecommender(t *testing.T) {
	menu, profiles := load(t)
	texts, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	var score Score
	for i, p := range profiles {
		answers := map[string]bool{}
		for k := range uint64(asks) {
			a := ai.Recommend(ai.LocalInput{Menu: menu, Guest: p.Guest, Prefs: p.Prefs, Past: past(p, evening), Now: evening, Texts: texts}, rand.New(rand.NewPCG(uint64(i), k)))
			var ids []string
			for _, pk := range a.Picks {
				ids = append(ids, pk.Drink.ID)
			}
			for _, pr := range score.Add(menu, p, ids) {
				t.Errorf("%s: %s", p.Name, pr)
			}
			note := ""
			if !a.Fits && len(a.Picks) > 0 {
				note = "here is what comes closest"
			}
			checkShape(t, menu, p, ids, a.Fits, note)
			answers[strings.Join(ids, ",")] = true
		}
		if !p.None {
			score.Repeats++
			if len(answers) > 1 {
				score.Varied++
			}
		}
	}
	report(t, "local recommender", score)
	if score.Unsafe != 0 || score.Disliked != 0 {
		t.Errorf("%d unsafe and %d disliked drinks shown", score.Unsafe, score.Disliked)
	}
	// Quality floors: a change that makes the answers worse fails here.
	if pct(score.Honoured, score.Asked) < 90 || pct(score.Varied, score.Repeats) < 80 {
		t.Errorf("quality fell: %s", score)
	}
}

// shortBudget is the configuration of the slow model's runs: short, so
// that its answers are cut off quickly. The runs that expect the model's
// answer have a generous one (a loaded machine must not turn them into
// fallbacks); the others the defaults (8 s, 3 s a call). What is asserted
// is the number of calls and their deadlines, never how long anything
// took.
var generous = ai.Config{RecommendBudget: time.Minute, ModelCallTimeout: 20 * time.Second}

var shortBudget = ai.Config{
	RecommendBudget:  1500 * time.Millisecond,
	ModelCallTimeout: 200 * time.Millisecond,
	MinModelCall:     50 * time.Millisecond,
	RetryPause:       10 * time.Millisecond,
}

// deadlines wraps the Bedrock client and records each call's deadline.
type deadlines struct {
	ai.Model
	mu  sync.Mutex
	got []time.Time
}

func (d *deadlines) Converse(ctx context.Context, req ai.ModelRequest) (ai.ModelResponse, error) {
	dl, _ := ctx.Deadline()
	d.mu.Lock()
	d.got = append(d.got, dl)
	d.mu.Unlock()
	return d.Model.Converse(ctx, req)
}

// picksJSON is the tool input naming ids.
func picksJSON(ids []string) string {
	type pick struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Reason string `json:"reason"`
	}
	var ps []pick
	for _, id := range ids[:min(len(ids), 3)] {
		ps = append(ps, pick{id, id, "Just right for you."})
	}
	b, _ := json.Marshal(map[string]any{"drinks": ps})
	return string(b)
}

// offered is the ids the request's tool lets the model name.
func offered(r bedrocktest.Request) []string {
	var s struct {
		Properties struct {
			Drinks struct {
				Items struct {
					Properties struct {
						ID struct {
							Enum []string `json:"enum"`
						} `json:"id"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"drinks"`
		} `json:"properties"`
	}
	if t := r.Tool(); t != nil {
		json.Unmarshal(t.InputSchema.JSON, &s)
	}
	return s.Properties.Drinks.Items.Properties.ID.Enum
}

// TestModelPath runs every profile through the model path, with the
// local Converse server answering the way a model can go wrong:
// off-menu, unsafe and disliked picks, malformed and empty answers, slow,
// throttled and filtered. 0 unsafe and 0 disliked drinks are ever shown,
// every answer comes within the budget (at most two calls, each with a
// deadline inside it), and an answer always comes.
func TestModelPath(t *testing.T) {
	menu, profiles := load(t)
	bedrocktest.IsolateAWS(t)
	unsafeFor := func(p Profile) []string {
		var out []string
		for _, d := range menu {
			if len(p.Problems(menu, []string{d.ID})) > 0 {
				out = append(out, d.ID)
			}
		}
		if len(out) == 0 {
			out = nutDrinks
		}
		return out
	}
	always := func(Profile) bool { return true }
	never := func(Profile) bool { return false }
	// hasBad: the profile has drinks the model can name wrongly.
	hasBad := func(p Profile) bool { return len(p.Never) > 0 || !slices.Equal(unsafeFor(p), nutDrinks) }
	modes := []struct {
		name string
		// answer is the model's answer for profile p to request r.
		answer func(p Profile, r bedrocktest.Request) bedrocktest.Response
		// model: the answer is the model's (else the local fallback's).
		model func(p Profile) bool
		cfg   ai.Config
	}{
		{"cooperative", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			return bedrocktest.ToolUse(picksJSON(offered(r)))
		}, always, generous},
		{"off-menu", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			return bedrocktest.ToolUse(picksJSON([]string{"ghost-punch", "house-special", "Zombie"}))
		}, never, ai.Config{}},
		{"unsafe", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			return bedrocktest.ToolUse(picksJSON(unsafeFor(p)))
		}, func(p Profile) bool { return !hasBad(p) }, generous},
		{"disliked", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			if len(p.Never) == 0 {
				return bedrocktest.ToolUse(picksJSON(unsafeFor(p)))
			}
			return bedrocktest.ToolUse(picksJSON(p.Never))
		}, func(p Profile) bool { return !hasBad(p) }, generous},
		{"malformed", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			if len(r.Body.Messages) > 0 && strings.Contains(r.UserText(), "surprise") {
				return bedrocktest.ToolUse(`{"drinks":"many"}`)
			}
			return bedrocktest.Text("Oh, you'd love a Mai Tai tonight!")
		}, never, ai.Config{}},
		{"empty", func(Profile, bedrocktest.Request) bedrocktest.Response { return bedrocktest.Empty() }, never, ai.Config{}},
		{"slow", func(p Profile, r bedrocktest.Request) bedrocktest.Response {
			return bedrocktest.Response{ToolInput: picksJSON(offered(r)), Delay: 10 * time.Second}
		}, never, shortBudget},
		{"throttled", func(Profile, bedrocktest.Request) bedrocktest.Response { return bedrocktest.Throttle() }, never, ai.Config{}},
		{"filtered", func(Profile, bedrocktest.Request) bedrocktest.Response {
			return bedrocktest.Response{StopReason: "content_filtered"}
		}, never, ai.Config{}},
	}
	scores := make([]Score, len(modes))
	var calls sync.Map
	t.Run("modes", func(t *testing.T) {
		for mi, m := range modes {
			t.Run(m.name, func(t *testing.T) {
				t.Parallel()
				var mu sync.Mutex
				var wg sync.WaitGroup
				sem := make(chan struct{}, 10)
				for _, p := range profiles {
					wg.Add(1)
					sem <- struct{}{}
					go func() {
						defer wg.Done()
						defer func() { <-sem }()
						// A Converse server of its own, answering for p.
						srv := bedrocktest.New(t)
						srv.Handle(func(r bedrocktest.Request) bedrocktest.Response { return m.answer(p, r) })
						client, err := bedrock.New(context.Background(), bedrock.Config{Region: "eu-north-1", Endpoint: srv.URL, Credentials: bedrocktest.Credentials()})
						if err != nil {
							t.Error(err)
							return
						}
						dl := &deadlines{Model: client}
						budget := cmp.Or(m.cfg.RecommendBudget, 8*time.Second)
						w := ai.NewBartender(ai.Deps{Model: dl, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, m.cfg)
						asked := time.Now()
						res, rep := w.Answer(context.Background(), ai.AnswerRequest{Guest: p.Guest, Prefs: p.Prefs, Menu: menu, Past: past(p, asked), Asked: asked})
						var ids []string
						for _, d := range res.Drinks {
							ids = append(ids, d.ID)
						}
						mu.Lock()
						defer mu.Unlock()
						for _, pr := range scores[mi].Add(menu, p, ids) {
							t.Errorf("%s: %s", p.Name, pr)
						}
						switch {
						case p.None && len(ids) != 0, !p.None && len(ids) == 0:
							t.Errorf("%s: %v shown", p.Name, ids)
						case p.None:
						case m.model(p) && res.Source != ai.SourceBedrock, !m.model(p) && res.Source != ai.SourceLocal:
							t.Errorf("%s: answered by %s (%+v)", p.Name, res.Source, rep)
						}
						// Within the budget: at most two calls, each cut off
						// inside it.
						if rep.ModelCalls > 2 || len(dl.got) != rep.ModelCalls {
							t.Errorf("%s: %d model calls (%d seen)", p.Name, rep.ModelCalls, len(dl.got))
						}
						for i, d := range dl.got {
							if d.IsZero() || d.After(asked.Add(budget)) {
								t.Errorf("%s: call %d has deadline %v, past the budget ending %v", p.Name, i+1, d, asked.Add(budget))
							}
						}
						n, _ := calls.LoadOrStore(m.name, new(int))
						*n.(*int) += rep.ModelCalls
					}()
				}
				wg.Wait()
			})
		}
	})
	var total Score
	for mi, m := range modes {
		n, _ := calls.Load(m.name)
		c := 0
		if n != nil {
			c = *n.(*int)
		}
		report(t, fmt.Sprintf("model path, %s (%d model calls)", m.name, c), scores[mi])
		total.Answers += scores[mi].Answers
		total.Unsafe += scores[mi].Unsafe
		total.Disliked += scores[mi].Disliked
	}
	if total.Unsafe != 0 || total.Disliked != 0 {
		t.Errorf("%d unsafe and %d disliked drinks shown on the model path", total.Unsafe, total.Disliked)
	}
}

// report logs a score and keeps it in test-output/ai-eval.txt, which
// docs/AI.md quotes.
func report(t *testing.T, what string, s Score) {
	line := fmt.Sprintf("%s: %s", what, s)
	t.Log(line)
	dir := os.Getenv("BARHUB_TEST_OUTPUT")
	if dir == "" {
		dir = filepath.Join("..", "..", "test-output")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "ai-eval.txt"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), line)
}
