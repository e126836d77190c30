package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
	"golang.org/x/text/language"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/api"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/event"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store"
)

// aiParts is the AI bartender as serve runs it: the API's view of it, the
// hook that queues a new drink's image prompt, and stop, which ends this
// process's worker once its running jobs are done.
type aiParts struct {
	api            api.AIConfig
	mail           api.MailConfig
	onDrinkCreated func(ctx context.Context, drinkID string)
	stop           func()
}

// startAI picks Bedrock or the local implementations and, unless
// --no-worker, starts a job runner in this process, and registers the
// reminders' check with maint.
func startAI(ctx context.Context, cfg *config, a *app, lh ai.Publisher, pub ai.Publisher, maint *jobs.Maintenance, reg prometheus.Registerer, logger *slog.Logger) (*aiParts, error) {
	model, err := newModel(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	mp, err := newMail(cfg, a.store, a.control, a.event, lh, logger)
	if err != nil {
		return nil, err
	}
	pictures, err := newImageModel(ctx, cfg, model, logger)
	if err != nil {
		return nil, err
	}
	p := &aiParts{api: api.AIConfig{Source: ai.SourceLocal}, mail: mp.api, stop: func() {}}
	if model != nil {
		p.api.Source, p.api.Model = ai.SourceBedrock, model.Name()
		// The form's question about unread needs offers the model's
		// reading as chips to confirm (docs/AI.md, "Reading needs").
		p.api.Needs = ai.NewNeedsReader(model, 0)
	}
	if pictures != nil {
		p.api.ImageModel = pictures.Name()
	}
	var w *jobs.Runner
	if !cfg.NoWorker {
		w, _ = newRunner(cfg, a.modelSlots, a.store, lh, pub, model, pictures, mp, reg, logger)
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			w.Run(wctx)
		}()
		if mp.reminders != nil {
			maint.Every("reminders", remindersEvery, mp.reminders.Check)
		}
		p.stop = func() {
			cancel()
			<-done
		}
		p.api.JobQueued = w.Submit
	}
	p.onDrinkCreated = func(ctx context.Context, drinkID string) {
		j, err := a.store.EnqueueJob(ctx, store.ImagePromptJob(drinkID))
		if err != nil {
			logger.WarnContext(ctx, "queue image prompt", "drink", drinkID, "err", err)
			return
		}
		if w != nil {
			w.Submit(j)
		}
	}
	return p, nil
}

// remindersEvery is how often the reminders the host scheduled are
// checked for one falling due.
const remindersEvery = 30 * time.Second

// newModel returns the Bedrock client when a region is configured and the
// AWS chain has credentials, and nil (answer locally) otherwise.
func newModel(ctx context.Context, cfg *config, logger *slog.Logger) (ai.Model, error) {
	if cfg.AWSRegion == "" {
		logger.Info("AI bartender answers locally; set AWS_REGION and AWS credentials to use Amazon Bedrock")
		return nil, nil
	}
	c, err := bedrock.New(ctx, bedrock.Config{Region: cfg.AWSRegion, Model: cfg.BedrockModel, Endpoint: cfg.BedrockURL})
	if err != nil {
		return nil, err
	}
	if err := c.CheckCredentials(ctx); err != nil {
		logger.Warn("AI bartender answers locally: Amazon Bedrock is configured but unusable", "err", err)
		return nil, nil
	}
	logger.Info("AI bartender uses Amazon Bedrock", "model", c.Name(), "region", cfg.AWSRegion)
	return c, nil
}

// newImageModel returns the Bedrock image model that pictures drinks when
// the chat model is Bedrock's and --image-model is not off, and nil
// (barhub draws the drinks) otherwise.
func newImageModel(ctx context.Context, cfg *config, chat ai.Model, logger *slog.Logger) (ai.ImageModel, error) {
	if chat == nil || cfg.ImageModel == "" || cfg.ImageModel == "off" {
		logger.Info("drinks without a photo are drawn by barhub")
		return nil, nil
	}
	c, err := bedrock.NewImage(ctx, bedrock.Config{Region: cfg.AWSRegion, Model: cfg.ImageModel, Endpoint: cfg.BedrockURL})
	if err != nil {
		return nil, err
	}
	logger.Info("drinks without a photo are pictured by Amazon Bedrock", "model", c.Name(), "size", fmt.Sprintf("%dx%d", cfg.ImageWidth, cfg.ImageHeight), "quality", cfg.ImageQuality)
	return c, nil
}

// newRunner builds the job runner with the AI bartender's kinds and the
// e-mail ones; pub carries their events to the hub and, for a finished
// recommendation, to the guest's devices (push.Forward), and the admins'
// alerts of jobs set aside. Recommendations run in a lane of their own,
// wider than the model slots (cfg.AIModelSlots): a guest's request never waits
// for a runner slot behind image prompts, e-mails or other guests' model
// calls, and one that finds every model slot busy is answered locally in
// milliseconds.
func newRunner(cfg *config, slots *ai.ModelSlots, st *store.Store, lh ai.Publisher, pub ai.Publisher, model ai.Model, pictures ai.ImageModel, mp mailParts, reg prometheus.Registerer, logger *slog.Logger) (*jobs.Runner, *ai.Bartender) {
	w := jobs.NewRunner(jobs.Deps{
		Queue:      st,
		Logger:     logger,
		Registerer: reg,
		Alert: func(ctx context.Context, alert map[string]any) error {
			return pub.Publish(ctx, live.TopicAdmin, live.EventAlert, alert)
		},
	}, jobs.Config{Lanes: map[string]int{store.JobRecommendation: recommendLane(cfg.AIModelSlots)}})
	d := ai.Deps{
		Store:     st,
		Menu:      menuView{st},
		Guests:    guestView{st},
		Prompts:   promptSink{st: st, live: lh, log: logger},
		Publisher: pub,
		Model:     model,
		Slots:     slots,
		Logger:    logger,
	}
	if pictures != nil {
		d.Images, d.Jobs, d.JobQueued = pictures, st, w.Submit
		d.Pictures = pictureStore{st: st, photos: photoStore(cfg, st), live: lh, log: logger}
	}
	b := ai.NewBartender(d, ai.Config{ModelSlots: cfg.AIModelSlots, ImageWidth: cfg.ImageWidth, ImageHeight: cfg.ImageHeight, ImageQuality: cfg.ImageQuality})
	b.Register(w)
	mp.register(w)
	return w, b
}

// recommendLane is how many recommendation jobs run at once: four per
// model slot, so that the requests past the slots are answered locally
// while the slots' calls run (a burst of 50 at the default 8 slots runs
// 32 at once, each a few milliseconds unless it holds a slot).
func recommendLane(modelSlots int) int { return 4 * max(modelSlots, ai.DefaultModelSlots/2) }

// runWorker runs the job worker alone, for deployments that keep it out
// of the web instances. Its live events reach browsers through Redis.
func runWorker(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	a, err := openCommand(ctx, "worker", args, getenv, stdout)
	if err != nil || a == nil {
		return err
	}
	cfg, logger := a.cfg, a.log
	defer a.store.Close(context.Background())

	var broker hub.Broker
	checks := map[string]func(context.Context) error{"database": a.store.Ping}
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return fmt.Errorf("REDIS_URL: %w", err)
		}
		rdb := redis.NewClient(opts)
		defer rdb.Close()
		if err := rdb.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("connect to redis: %w", err)
		}
		broker = hub.NewRedisBroker(rdb, cfg.RedisPrefix, cfg.HubHistory)
		checks["redis"] = func(ctx context.Context) error { return rdb.Ping(ctx).Err() }
	} else {
		logger.Warn("no REDIS_URL: results are stored, but their live events reach no browser")
		broker = hub.NewMemoryBrokerSize(cfg.HubHistory, int64(cfg.HubHistoryMB)<<20)
	}
	// The hub only publishes here; it serves no sockets.
	lh := hub.New(livehub.Rules(hub.Config{}), broker, nil, logger)
	model, err := newModel(ctx, cfg, logger)
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	sender, err := startPush(ctx, a, a.store, nil, reg, logger)
	if err != nil {
		return err
	}
	mp, err := newMail(cfg, a.store, a.store, "", lh, logger)
	if err != nil {
		return err
	}
	pictures, err := newImageModel(ctx, cfg, model, logger)
	if err != nil {
		return err
	}
	w, bartender := newRunner(cfg, a.modelSlots, a.store, lh, push.Forward(lh, sender), model, pictures, mp, reg, logger)

	// An orchestrator probes and scrapes a worker like any other process.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	probes := &http.Server{Handler: workerProbes(checks, reg), ReadHeaderTimeout: 10 * time.Second}
	go probes.Serve(ln)
	defer probes.Close()
	maint := jobs.NewMaintenance(logger)
	if mp.reminders != nil {
		maint.Every("reminders", remindersEvery, mp.reminders.Check)
	}
	defer runMaintenance(ctx, maint)()
	// The installation's other events have job queues of their own, in
	// their own databases: this worker runs theirs too.
	others := &eventWorkers{a: a, lh: lh, model: model, pictures: pictures, running: map[string]bool{}}
	go others.run(ctx)
	fmt.Fprintf(stdout, "barhub worker is running (%s); health and metrics at http://%s\n", bartender.Source(), ln.Addr())
	return w.Run(ctx)
}

// eventWorkers runs the job runner of each event but the first (docs/EVENTS.md)
// for "barhub worker", looking for new events every eventsEvery.
type eventWorkers struct {
	a        *app
	lh       *hub.Hub
	model    ai.Model
	pictures ai.ImageModel
	running  map[string]bool
}

// eventsEvery is how often the worker run alone looks for events made
// since it started.
const eventsEvery = 30 * time.Second

func (e *eventWorkers) run(ctx context.Context) {
	t := time.NewTicker(eventsEvery)
	defer t.Stop()
	for {
		e.startNew(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (e *eventWorkers) startNew(ctx context.Context) {
	list, err := e.a.store.Events(ctx)
	if err != nil {
		e.a.log.WarnContext(ctx, "list the events to work", "err", err)
		return
	}
	for _, ev := range list {
		if e.running[ev.ID] || ev.Status == event.Archived || ev.Database == e.a.store.DB().Name() {
			continue
		}
		if err := e.start(ctx, ev); err != nil {
			e.a.log.WarnContext(ctx, "work the jobs of an event", "event", ev.ID, "err", err)
			continue
		}
		e.running[ev.ID] = true
	}
}

func (e *eventWorkers) start(ctx context.Context, ev event.Event) error {
	st, err := e.a.store.OpenEvent(ctx, ev.Database)
	if err != nil {
		return err
	}
	logger := e.a.log.With("event", ev.ID)
	// The event's metrics stay its own: the process's are the first's.
	reg := prometheus.NewRegistry()
	sender, err := startPush(ctx, e.a, st, func(context.Context) (string, string) { return ev.ID, ev.Name }, reg, logger)
	if err != nil {
		st.Close(context.Background())
		return err
	}
	pub := livehub.ForEvent(e.lh, ev.ID)
	mp, err := newMail(e.a.cfg, st, e.a.store, ev.ID, pub, logger)
	if err != nil {
		st.Close(context.Background())
		return err
	}
	w, _ := newRunner(e.a.cfg, e.a.modelSlots, st, pub, push.Forward(pub, sender), e.model, e.pictures, mp, reg, logger)
	maint := jobs.NewMaintenance(logger)
	if mp.reminders != nil {
		maint.Every("reminders", remindersEvery, mp.reminders.Check)
	}
	go func() {
		defer st.Close(context.Background())
		stop := runMaintenance(ctx, maint)
		defer stop()
		w.Run(ctx)
	}()
	logger.Info("working the event's jobs", "name", ev.Name)
	return nil
}

// workerProbes answers /healthz, /readyz (every dependency in checks
// reachable) and /metrics for a worker running alone.
func workerProbes(checks map[string]func(context.Context) error, reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		results := map[string]string{}
		status, state := http.StatusOK, "ready"
		for name, ping := range checks {
			results[name] = "ok"
			if err := ping(ctx); err != nil {
				results[name], status, state = "unreachable", http.StatusServiceUnavailable, "not ready"
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"status": state, "checks": results})
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// menuView is the worker's view of the menu store.
type menuView struct{ st *store.Store }

func (m menuView) AvailableDrinks(ctx context.Context) ([]ai.Drink, error) {
	ds, err := m.st.Drinks(ctx, menu.Filter{AvailableOnly: true})
	if err != nil {
		return nil, err
	}
	out := make([]ai.Drink, 0, len(ds))
	for _, d := range ds {
		out = append(out, aiDrink(d))
	}
	return out, nil
}

func (m menuView) Drink(ctx context.Context, id string) (ai.Drink, error) {
	d, err := m.st.DrinkByID(ctx, id)
	if err != nil {
		return ai.Drink{}, err
	}
	return aiDrink(d), nil
}

func aiDrink(d menu.Drink) ai.Drink {
	ingredients := make([]string, len(d.Ingredients))
	for i, in := range d.Ingredients {
		ingredients[i] = in.Name
	}
	return ai.Drink{
		ID:          d.ID,
		Name:        d.Name,
		Section:     strings.ReplaceAll(d.Section, "-", " "),
		Ingredients: ingredients,
		Tags:        d.Tags,
		Allergens:   d.Allergens,
		AlcoholFree: d.AlcoholFree,
		Available:   d.Available,
		ABV:         d.ABV,
	}
}

// guestView is the worker's view of the guest and order stores.
type guestView struct{ st *store.Store }

func (g guestView) Guest(ctx context.Context, id string) (ai.Guest, error) {
	gu, err := g.st.GuestByID(ctx, id)
	if err != nil {
		return ai.Guest{}, err
	}
	// The stored answer is already in canonical tags (every write, and the
	// start-up upgrade of old answers, normalises it); ai reads it with the
	// same diet rules ordering uses, so it is not read a third time here.
	tags := append([]string{}, gu.Dietary.Tags...)
	return ai.Guest{
		ID:          gu.ID,
		Name:        gu.Name(),
		DietaryText: gu.Dietary.Text,
		DietaryTags: tags,
		// What the guest and the host answered of words barhub could
		// not read: until then the recommenders take care (diet.Caution).
		DietaryUnclear:  gu.Dietary.Unclear,
		DietaryAnswered: gu.Dietary.Answered,
		DietaryReviewed: gu.Dietary.Reviewed,
		Likes:           gu.Tastes.Likes,
		Dislikes:        gu.Tastes.Dislikes,
		// A child's suggestions are alcohol-free, as their orders are.
		AlcoholFree: gu.Tastes.AlcoholFree || gu.Child(),
		Language:    gu.Language,
	}, nil
}

// PastOrders lists the drinks of the guest's last 50 orders that were not
// cancelled, with when they were ordered and their alcohol.
func (g guestView) PastOrders(ctx context.Context, guestID string) ([]ai.PastOrder, error) {
	orders, err := g.st.OrdersByGuest(ctx, guestID, 50)
	if err != nil {
		return nil, err
	}
	var out []ai.PastOrder
	for _, o := range orders {
		if o.Status == order.Cancelled {
			continue
		}
		for _, it := range o.Items {
			out = append(out, ai.PastOrder{DrinkID: it.DrinkID, At: o.CreatedAt, StandardDrinks: it.StandardDrinks * float64(max(it.Qty, 1))})
		}
	}
	return out, nil
}

// promptSink stores a drink's image prompt and tells every instance's
// menu cache that the drink changed.
type promptSink struct {
	st   *store.Store
	live ai.Publisher
	log  *slog.Logger
}

func (p promptSink) SaveImagePrompt(ctx context.Context, drinkID string, ip ai.ImagePrompt) error {
	err := p.st.SetDrinkImagePrompt(ctx, drinkID, menu.ImagePrompt{Text: ip.Text, Source: ip.Source, Model: ip.Model, CreatedAt: ip.CreatedAt})
	if err != nil {
		return err
	}
	if err := p.live.Publish(ctx, live.TopicMenu, live.EventMenuChanged, map[string]any{"reason": "image_prompt", "drinkIds": []string{drinkID}}); err != nil {
		p.log.WarnContext(ctx, "announce image prompt to menu caches", "drink", drinkID, "err", err)
	}
	return nil
}

// pictureStore stores the pictures the image model makes where the
// host's uploads go, and tells every instance's menu cache.
type pictureStore struct {
	st     *store.Store
	photos images.Store
	live   ai.Publisher
	log    *slog.Logger
}

func (p pictureStore) PictureOf(ctx context.Context, drinkID string) (bool, string, error) {
	d, err := p.st.DrinkByID(ctx, drinkID)
	if err != nil {
		return false, "", err
	}
	prompt := ""
	if d.ImagePrompt != nil {
		prompt = d.ImagePrompt.Text
	}
	return d.HasUpload(), prompt, nil
}

func (p pictureStore) SaveGenerated(ctx context.Context, drinkID string, img []byte) (string, error) {
	ct, ext, ok := images.Sniff(img[:min(len(img), 512)])
	if !ok {
		return "", fmt.Errorf("the image model answered with %s, not a picture", ct)
	}
	name := images.NewName(drinkID, ext)
	if err := p.photos.Put(ctx, name, img); err != nil {
		return "", err
	}
	url := "/images/" + name
	old, err := p.st.SetGeneratedDrinkImage(ctx, drinkID, url)
	if err != nil {
		p.photos.Delete(context.WithoutCancel(ctx), name)
		return "", err
	}
	if oldName, ok := strings.CutPrefix(old, "/images/"); ok && images.ValidName(oldName) {
		if err := p.photos.Delete(ctx, oldName); err != nil {
			p.log.WarnContext(ctx, "delete the replaced picture", "drink", drinkID, "err", err)
		}
	}
	// A process without Redis sees the write by the database's counter;
	// the others by the event.
	if _, err := p.st.BumpMenuVersion(ctx); err != nil {
		p.log.WarnContext(ctx, "menu version after a picture", "drink", drinkID, "err", err)
	}
	if err := p.live.Publish(ctx, live.TopicMenu, live.EventMenuChanged, map[string]any{"reason": "drink.image", "drinkIds": []string{drinkID}}); err != nil {
		p.log.WarnContext(ctx, "announce a picture to menu caches", "drink", drinkID, "err", err)
	}
	return url, nil
}

// startPush loads (on first start, makes) the Web Push keys and starts
// the sender that notifies guests' devices until ctx ends (docs/PUSH.md).
// The keys are the installation's, in the control database (a.store);
// the subscriptions are the event's, in st; event names the event in
// each notification when there are several (push.Config.Event).
func startPush(ctx context.Context, a *app, st *store.Store, event func(context.Context) (id, name string), reg prometheus.Registerer, logger *slog.Logger) (*push.Sender, error) {
	keys, err := a.store.VAPIDKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("web push keys: %w", err)
	}
	cat, err := locale.New()
	if err != nil {
		return nil, fmt.Errorf("web push messages: %w", err)
	}
	translate := func(lang, key string, vars map[string]any) (string, bool) {
		return cat.Text(language.Make(lang), key, vars)
	}
	s := push.New(st, push.Config{Event: event, Keys: keys, Contact: a.cfg.PushContact, Policy: a.cfg.pushPolicy(), Translate: translate}, logger, reg)
	go s.Run(ctx)
	return s, nil
}
