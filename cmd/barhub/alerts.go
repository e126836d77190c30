package main

import (
	"context"
	"log/slog"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/alert"
	"github.com/barhub/barhub/store"
)

// startAlerts watches for dead jobs, repeated server errors and a lost
// backplane, and tells the configured webhook and e-mail address, and the
// host's devices through host (nil: not them). It does nothing when none
// is configured.
func startAlerts(ctx context.Context, cfg *config, st *store.Store, rdb *redis.Client, reg prometheus.Gatherer, host func(context.Context, alert.Alert), logger *slog.Logger) error {
	var mailer alert.Mailer
	if cfg.AlertEmail != "" {
		sender, err := newSender(cfg)
		if err != nil {
			return err
		}
		mailer = alert.ByMail(sender, cfg.AlertEmail)
	}
	hostname, _ := os.Hostname()
	n := alert.New(alert.Config{WebhookURL: cfg.AlertWebhook, Format: cfg.AlertFormat, Mail: mailer, Host: host, Instance: hostname},
		alert.ClaimDedup(st), logger)
	if !n.Enabled() {
		return nil
	}
	probes := alert.Probes{
		DeadJobs: func(ctx context.Context) (int64, error) {
			counts, err := st.CountJobsByStatus(ctx, "")
			return counts[store.JobDead], err
		},
		ServerErrors: func() (float64, error) { return serverErrors(reg) },
		Database:     databaseStuck(st),
	}
	if rdb != nil {
		probes.Backplane = func(ctx context.Context) error { return rdb.Ping(ctx).Err() }
	}
	go alert.NewWatcher(n, probes, alert.WatchConfig{Interval: cfg.AlertEvery}).Run(ctx)
	logger.Info("alerts on", "webhook", cfg.AlertWebhook != "", "email", cfg.AlertEmail != "", "hostDevices", host != nil)
	return nil
}

// serverErrors adds up this instance's 5xx answers so far.
func serverErrors(reg prometheus.Gatherer) (float64, error) {
	families, err := reg.Gather()
	if err != nil {
		return 0, err
	}
	var total float64
	for _, f := range families {
		if f.GetName() != "barhub_http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "status" && strings.HasPrefix(l.GetValue(), "5") {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total, nil
}
