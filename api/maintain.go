package api

import (
	"context"
	"time"
)

// Scheduler runs periodic work for as long as the process runs (the
// binary's jobs.Maintenance): the API's sweeps and repairs run there, not
// from requests, so none outlives the process's shutdown.
type Scheduler interface {
	Every(name string, interval time.Duration, fn func(ctx context.Context) error)
}

// sweepEvery spaces the sweeps of the order path's records.
const sweepEvery = 10 * time.Minute

// offerSweepEvery is how late past its time an offered place may go to
// the next in line.
const offerSweepEvery = 30 * time.Second

// schedule registers the API's periodic work with m: removing expired
// idempotency records and old preparation samples, repairing what a crash
// mid-archive leaves, and correcting the view of the unfinished orders.
func (s *Server) schedule(m Scheduler) {
	m.Every("sweep idempotency keys", sweepEvery, withTimeout(time.Minute, func(ctx context.Context) error {
		_, err := s.store.SweepIdempotency(ctx, time.Now().UTC())
		return err
	}))
	m.Every("reconcile orders", sweepEvery, withTimeout(time.Minute, func(ctx context.Context) error {
		fixed, err := s.store.ReconcileOrders(ctx)
		if err == nil && fixed > 0 {
			s.log.Warn("removed left-over copies of finished orders", "orders", fixed)
		}
		return err
	}))
	m.Every("sweep preparation times", sweepEvery, withTimeout(time.Minute, func(ctx context.Context) error {
		// Estimates use the last twenty samples, from the last two hours.
		_, err := s.store.SweepPrepTimes(ctx, time.Now().Add(-2*time.Hour).UTC())
		return err
	}))
	m.Every("correct the order view", s.bar.orders.fixCheck(), s.bar.orders.fix)
	// An offered place not taken in time goes to the next in line.
	m.Every("expire registration offers", offerSweepEvery, withTimeout(time.Minute, func(ctx context.Context) error {
		_, err := s.guests.registrations.ExpireOffers(ctx)
		return err
	}))
	// A registration whose e-mailed link was not opened in time ends; it
	// held nothing.
	m.Every("expire unconfirmed registrations", offerSweepEvery, withTimeout(time.Minute, func(ctx context.Context) error {
		_, err := s.guests.registrations.ExpireUnconfirmed(ctx)
		return err
	}))
}

// withTimeout bounds each run of fn to d.
func withTimeout(d time.Duration, fn func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return fn(ctx)
	}
}
