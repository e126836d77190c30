package ai

import (
	"context"
	"log/slog"
	"time"

	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/store"
)

// Config tunes a Bartender. Zero fields take the defaults noted.
type Config struct {
	// RecommendBudget is how long a guest waits at most for a
	// recommendation, from the request (default 8s). The model gets at
	// most two calls within it, each cut off at ModelCallTimeout
	// (default 3s), and none that would have less than MinModelCall
	// (default 1s); then the local recommender answers.
	RecommendBudget  time.Duration
	ModelCallTimeout time.Duration
	MinModelCall     time.Duration
	// RetryPause is the pause before the model's second call (default
	// 250ms, at most a quarter of the time left).
	RetryPause time.Duration
	// ModelSlots bounds the recommendation calls in flight to the model
	// at once (default DefaultModelSlots). A burst of guests beyond it
	// does not queue behind a slow or throttled model: a request that
	// gets no slot within SlotWait (default 500ms) is answered locally.
	ModelSlots int
	SlotWait   time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// ImageWidth and ImageHeight are a generated picture's size in
	// pixels (DefaultImageWidth × DefaultImageHeight), ImageQuality
	// "standard" or "premium" (DefaultImageQuality).
	ImageWidth, ImageHeight int
	ImageQuality            string
}

func (c Config) withDefaults() Config {
	if c.RecommendBudget <= 0 {
		c.RecommendBudget = 8 * time.Second
	}
	if c.ModelCallTimeout <= 0 {
		c.ModelCallTimeout = 3 * time.Second
	}
	if c.MinModelCall <= 0 {
		c.MinModelCall = min(time.Second, c.ModelCallTimeout)
	}
	if c.RetryPause <= 0 {
		c.RetryPause = 250 * time.Millisecond
	}
	if c.ModelSlots <= 0 {
		c.ModelSlots = DefaultModelSlots
	}
	if c.SlotWait <= 0 {
		c.SlotWait = 500 * time.Millisecond
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.ImageWidth <= 0 || c.ImageHeight <= 0 {
		c.ImageWidth, c.ImageHeight = DefaultImageWidth, DefaultImageHeight
	}
	if c.ImageQuality == "" {
		c.ImageQuality = DefaultImageQuality
	}
	return c
}

// DefaultModelSlots is how many recommendation calls are in flight to the
// model at once by default: enough for a party's rush at a model's usual
// pace (a call of one to three seconds), few enough not to be throttled
// by an account's default quota.
const DefaultModelSlots = 8

// ModelSlots are the recommendation calls that may be in flight to the
// model at once. An installation shares one among its events'
// bartenders: the model's quota is the account's, so three events at
// once get the slots of one, not three times as many.
type ModelSlots struct {
	tokens chan struct{}
}

// NewModelSlots returns n slots (DefaultModelSlots when n ≤ 0).
func NewModelSlots(n int) *ModelSlots {
	if n <= 0 {
		n = DefaultModelSlots
	}
	return &ModelSlots{tokens: make(chan struct{}, n)}
}

// Recommendations is where the bartender reads a recommendation job's
// request and records its answer (store.Store is one).
type Recommendations interface {
	RecommendationByID(ctx context.Context, id string) (store.Recommendation, error)
	CompleteRecommendation(ctx context.Context, id, status string, res store.RecommendationResult) (store.Recommendation, error)
}

// Deps are the bartender's parts.
type Deps struct {
	Store     Recommendations
	Menu      Menu
	Guests    Guests
	Prompts   PromptSink
	Publisher Publisher
	// Model answers with Bedrock; nil uses the local implementations.
	Model Model
	// Images pictures drinks (Nova Canvas) into Pictures once their
	// prompt is written; nil leaves them to barhub's drawings. Jobs
	// queues the pictures' jobs, and JobQueued, when set, hands each to
	// this process's runner at once.
	Images    ImageModel
	Pictures  Pictures
	Jobs      Jobs
	JobQueued func(store.Job)
	// Slots are shared with other bartenders (other events'); nil gives
	// this one Config.ModelSlots of its own.
	Slots  *ModelSlots
	Logger *slog.Logger
	// Texts are the server's catalogues, for the house recommender's
	// reasons in the guest's language; nil loads them.
	Texts *locale.Catalog
}

// Bartender runs the AI job kinds (recommendations and image prompts) on
// the durable job queue (package jobs), and answers the evaluation set.
type Bartender struct {
	cfg Config
	d   Deps
	log *slog.Logger
	// slots holds one token per recommendation call in flight.
	slots *ModelSlots
}

// NewBartender returns a bartender; Register hands its job kinds to a
// runner.
func NewBartender(d Deps, cfg Config) *Bartender {
	cfg = cfg.withDefaults()
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Texts == nil {
		// Fails only on a broken embedded catalogue, which the locale
		// package's tests catch; the reasons then load their own.
		d.Texts, _ = locale.New()
	}
	slots := d.Slots
	if slots == nil {
		slots = NewModelSlots(cfg.ModelSlots)
	}
	return &Bartender{cfg: cfg, d: d, log: d.Logger, slots: slots}
}

// Registry takes the handlers of job kinds (a jobs.Runner).
type Registry interface {
	Handle(kind string, h jobs.Handler)
}

// Register hands the AI job kinds to r.
func (w *Bartender) Register(r Registry) {
	r.Handle(store.JobRecommendation, recommendationJobs{w})
	r.Handle(store.JobImagePrompt, imagePromptJobs{w})
	r.Handle(store.JobDrinkImage, drinkImageJobs{w})
}

func (w *Bartender) now() time.Time { return w.cfg.Now() }

// Source says who answers: "bedrock" with a model, "local" without.
func (w *Bartender) Source() string {
	if w.d.Model != nil {
		return SourceBedrock
	}
	return SourceLocal
}

// outcome is what a handler reports besides its error.
type outcome struct {
	result map[string]string
	usage  Usage
}

func (o outcome) jobResult() jobs.Result {
	return jobs.Result{Values: o.result, Usage: store.TokenUsage{InputTokens: o.usage.InputTokens, OutputTokens: o.usage.OutputTokens, TotalTokens: o.usage.TotalTokens}}
}

// recommendationJobs answers recommendation requests.
type recommendationJobs struct{ w *Bartender }

func (h recommendationJobs) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	out, err := h.w.recommendation(ctx, j)
	return out.jobResult(), err
}

// Fallback answers with the local recommender rather than not at all:
// the guest is waiting with their phone in hand.
func (h recommendationJobs) Fallback(ctx context.Context, j jobs.Job, cause error) {
	h.w.recommendationFallback(ctx, j, cause)
}

// imagePromptJobs writes drinks' image prompts.
type imagePromptJobs struct{ w *Bartender }

func (h imagePromptJobs) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	out, err := h.w.imagePrompt(ctx, j)
	return out.jobResult(), err
}

func (h imagePromptJobs) Fallback(ctx context.Context, j jobs.Job, _ error) {
	h.w.imagePromptFallback(ctx, j)
}

func (w *Bartender) publish(ctx context.Context, topic, event string, data any) {
	if w.d.Publisher == nil {
		return
	}
	// A result is stored before it is announced; a lost announcement is
	// seen on the next page load, so it does not fail the job.
	if err := w.d.Publisher.Publish(ctx, topic, event, data); err != nil {
		w.log.Warn("publish", "topic", topic, "event", event, "err", err)
	}
}

// errorText keeps an error readable and bounded.
func errorText(err error) string {
	s := err.Error()
	if len(s) > 1000 {
		s = s[:1000] + "…"
	}
	return s
}
