package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api"
	barapp "github.com/barhub/barhub/app"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// barConfig is the menu, ordering and bar part of serve's configuration.
func barConfig(cfg *config, st *store.Store, rdb *redis.Client, live api.EventSource) api.BarConfig {
	return api.BarConfig{
		Images:        photoStore(cfg, st),
		RateBrowse:    cfg.RateBrowse,
		RateOrders:    cfg.RateOrders,
		RateDietary:   cfg.RateDietary,
		RateRegister:  cfg.RateRegister,
		MaxOpenOrders: cfg.MaxOpenOrders,
		DrinksPerHour: cfg.DrinksPerHour,
		ImageDir:      filepath.Join(cfg.DataDir, "images"),
		Redis:         rdb,
		RedisPrefix:   cfg.RedisPrefix,
		Events:        live,
	}
}

// photoStore is where drinks' photos are kept, uploaded and generated
// alike: the database, or the disk under --data.
func photoStore(cfg *config, st *store.Store) images.Store {
	if cfg.Images == "database" {
		return st.Images()
	}
	return images.NewDisk(filepath.Join(cfg.DataDir, "images"))
}

const seedUsage = `usage: barhub seed menu [--data DIR | --mongodb-uri URI] [--redis-url URL]

Loads the starter menu: classic cocktails and alcohol-free drinks in four
sections. Seeding again updates their recipes and keeps photos, stock
marks and any drinks or sections the host added or renamed.`

// runSeed is "barhub seed menu".
func runSeed(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "menu" {
		return errors.New(seedUsage)
	}
	a, err := openCommand(ctx, "seed menu", args[1:], getenv, stdout)
	if err != nil || a == nil {
		return err
	}
	cfg := a.cfg
	defer a.store.Close(context.Background())

	sections, drinks, err := menu.StarterMenu()
	if err != nil {
		return err
	}
	existing, err := a.store.Sections(ctx)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, s := range existing {
		have[s.ID] = true
	}
	newSections := 0
	for _, s := range sections {
		if have[s.ID] {
			continue
		}
		if err := a.store.SaveSection(ctx, s); err != nil {
			return err
		}
		newSections++
	}
	created, updated := 0, 0
	ids := make([]string, 0, len(drinks))
	for _, d := range drinks {
		isNew, err := a.store.SeedDrink(ctx, d)
		if err != nil {
			return err
		}
		if isNew {
			created++
		} else {
			updated++
		}
		ids = append(ids, d.ID)
	}
	prompts, err := queueImagePrompts(ctx, a.store, ids)
	if err != nil {
		return err
	}
	// A barhub running on this database shows the new menu within
	// seconds; with Redis, at once.
	if _, err := a.store.BumpMenuVersion(ctx); err != nil {
		return err
	}
	if cfg.RedisURL != "" {
		if err := announceMenu(ctx, cfg, ids); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "starter menu: %d sections (%d new), %d drinks (%d new, %d updated), %d image prompts queued\n", len(sections), newSections, len(drinks), created, updated, prompts)
	return nil
}

// announceMenu tells running instances the menu changed: it bumps the
// shared menu version and publishes menu.changed, as an admin's edit does.
func announceMenu(ctx context.Context, cfg *config, ids []string) error {
	opts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return fmt.Errorf("REDIS_URL: %w", err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	menu := barapp.NewMenu(barapp.MenuDeps{Version: barapp.NewRedisMenuVersion(rdb, cfg.RedisPrefix)})
	if err := menu.Bump(ctx); err != nil {
		return err
	}
	data, err := json.Marshal(map[string]any{"reason": "seed", "drinkIds": ids})
	if err != nil {
		return err
	}
	broker := hub.NewRedisBroker(rdb, cfg.RedisPrefix, cfg.HubHistory)
	if _, err := broker.Publish(ctx, hub.Event{Topic: live.TopicMenu, Event: live.EventMenuChanged, Time: time.Now(), Data: data}); err != nil {
		return fmt.Errorf("announce the new menu: %w", err)
	}
	return nil
}

// queueImagePrompts queues an image_prompt job for each drink of ids that
// has no image prompt and no job writing one yet, as a drink the host
// adds gets one. A worker on the same database (serve's, or barhub
// worker) finds them on its next read of the queue.
func queueImagePrompts(ctx context.Context, st *store.Store, ids []string) (int, error) {
	queued := 0
	for _, id := range ids {
		d, err := st.DrinkByID(ctx, id)
		if err != nil {
			return queued, fmt.Errorf("queue the image prompt of %s: %w", id, err)
		}
		if d.ImagePrompt != nil && d.ImagePrompt.Text != "" {
			continue
		}
		pending := false
		for _, status := range []string{store.JobQueued, store.JobRunning} {
			_, n, err := st.ListJobs(ctx, store.JobFilter{Kind: store.JobImagePrompt, Subject: store.ImagePromptJob(id).Subject, Status: status, Limit: 1})
			if err != nil {
				return queued, fmt.Errorf("queue the image prompt of %s: %w", id, err)
			}
			pending = pending || n > 0
		}
		if pending {
			continue
		}
		if _, err := st.EnqueueJob(ctx, store.ImagePromptJob(id)); err != nil {
			return queued, fmt.Errorf("queue the image prompt of %s: %w", id, err)
		}
		queued++
	}
	return queued, nil
}
